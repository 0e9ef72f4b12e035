/* config.h - jobfix's own configuration: what the linter asks of it
 *
 * The public half (loading .jobfix.yaml, the command line's overrides, the
 * errors) is in jobfix.h. These are the questions the linter asks while it
 * lints. Every function takes a NULL config for the defaults: every rule of
 * jobfix's own enabled at its own severity, no rule of a user's folder,
 * nothing excluded. Answers need a resolved config (jf_config_resolve()).
 *
 * Paths are matched relative to the config file's folder (the current
 * folder when there is no file); a path outside it matches no pattern.
 */
#ifndef JF_CONFIG_H
#define JF_CONFIG_H

#include "job/job.h"
#include "rules/registry.h"

/** Whether `rule` runs: selected (or no `select`), not ignored, and for a
 * user's rule, one of this config's rules folder. */
bool jf_config__enabled(const jf_config *self, const jf_rule *rule);
/** Whether `rule` runs in a lint (of a job, or of a file alone): enabled,
 * and not a rule that needs a job where there is none. */
bool jf_config__runs(const jf_config *self, const jf_rule *rule, bool job);
/** Whether `rule` reports in the file at `fs_path`: enabled and not switched
 * off there by `per-file-ignores`. */
bool jf_config__active(const jf_config *self, const jf_rule *rule, const char *fs_path);
/** Whether the file at `fs_path` (as this process sees it) is excluded. */
bool jf_config__excluded(const jf_config *self, const char *fs_path);
/** Whether the folder at `fs_path` is excluded (so is everything in it). */
bool jf_config__excluded_dir(const jf_config *self, const char *fs_path);
/** Whether the file at `fs_path` matches a pattern of the config's `jobs`. */
bool jf_config__is_job(const jf_config *self, const char *fs_path);
/** Which Dockerfile builds which image (`images:`); NULL for none. */
const jf_image_builds *jf_config__images(const jf_config *self);
/** The folders outside the repository a lint may read (absolute); NULL without a config. */
const jf_strings *jf_config__allow_outside(const jf_config *self);
/** The severity findings of `rule` get. */
jf_severity jf_config__severity(const jf_config *self, const jf_rule *rule);
/** The config's errors, as rule-less diagnostics (rendered by report/). */
const jf_report *jf_config__errors(const jf_config *self);
/**
 * A hash of what made the config (the current folder, the config file's
 * bytes, each override) in *out; false when a lint's result cannot be kept
 * by it (a rules folder, whose files the hash does not cover).
 */
bool jf_config__fingerprint(const jf_config *self, uint64_t *out);
/** The rules this config sees: jobfix's own and, once resolved, its rules folder's. */
const jf_rule_list *jf_config__rules(const jf_config *self);
/** The rule named `id_or_name` as this config sees it (its rules folder included), or NULL. */
const jf_rule *jf_config__find_rule(const jf_config *self, const char *id_or_name);

#endif
