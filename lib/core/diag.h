/* diag.h - the one diagnostic type and the report that collects them
 *
 * A finding from a query rule, a C check and a YAML parse error are all a
 * jf_diag: a rule, a severity, a primary span in a source, related spans and
 * an optional help override. Messages are owned by the diagnostic; sources
 * are borrowed and must outlive the report. report/report.h renders a report.
 */
#ifndef JF_DIAG_H
#define JF_DIAG_H

#include "jobfix/jobfix.h"
#include "core/cover.h"
#include "core/source.h"

/* A rule of the registry (rules/registry.h). It starts with its public
 * jf_rule_info, which is all that the diagnostics need to know of it. */
typedef struct jf_rule jf_rule;

static inline const jf_rule_info *jf_rule_info_of(const jf_rule *rule)
{
	return (const jf_rule_info *)(const void *)rule;
}

typedef struct {
	const jf_source *src;
	jf_span span;
	char *message;
} jf_related;

/* A replacement a finding offers (`jobfix lint --fix`): `text` in place of
 * `span` of `src`, exactly equivalent code. */
typedef struct {
	const jf_source *src;
	jf_span span;
	char *text;
} jf_edit;

typedef struct {
	const jf_rule *rule; /* NULL for an error in jobfix's configuration */
	jf_severity severity;
	const jf_source *src;
	jf_span span;
	char *message;
	char *help; /* NULL: the rule's help */
	const char *category; /* static; NULL: the rule's category */
	/* The finding rests on a bound of what jobfix knows, not on facts alone
	 * (jf_diag_set_unproven()): at most a warning, whatever the rule's
	 * severity or the config's. */
	bool unproven;
	JF_ARRAY(jf_related) related;
	JF_ARRAY(jf_edit) edits;
} jf_diag;

typedef struct {
	JF_ARRAY(jf_diag) diags;
	JF_ARRAY(char *) failures; /* why a path could not be linted (SARIF's invocation) */
	/* What the jobs' checks covered, borrowed: the json format renders it
	 * with the findings and the statistics when set. */
	const jf_cover_jobs *coverage;
} jf_report;

/**
 * Adds a diagnostic of `rule` at `span` of `src` with the rule's severity (a
 * span of a copy of a value is reported at the value: jf_source.origin).
 * Returns it; the pointer is valid until the next jf_report_add().
 */
jf_diag *jf_report_add(jf_report *self, const jf_rule *rule, const jf_source *src,
                       jf_span span, const char *fmt, ...) JF_PRINTF(5, 6);
/**
 * Adds an error of jobfix's own configuration (no rule: `rule` is NULL) at
 * `span` of `src`, or without a position when `src` is NULL.
 */
jf_diag *jf_report_add_error(jf_report *self, const jf_source *src, jf_span span, const char *fmt,
                             ...) JF_PRINTF(4, 5);
/** jf_report_add() with a va_list; with a NULL `rule`, jf_report_add_error(). */
jf_diag *jf_report_vadd(jf_report *self, const jf_rule *rule, const jf_source *src, jf_span span,
                        const char *fmt, va_list ap) JF_PRINTF(5, 0);
void jf_diag_relate(jf_diag *self, const jf_source *src, jf_span span, const char *fmt, ...)
	JF_PRINTF(4, 5);
void jf_diag_set_help(jf_diag *self, const char *fmt, ...) JF_PRINTF(2, 3);
/** Marks `self` as resting on a bound, not on facts: an error becomes a warning. */
void jf_diag_set_unproven(jf_diag *self);
/** The severity `s` that `d` has when its rule's is `s`: at most a warning when unproven. */
jf_severity jf_diag_severity_of(const jf_diag *d, jf_severity s);
/** Offers replacing `span` of `src` (a file, not a copy of a value) with `text`. */
void jf_diag_add_edit(jf_diag *self, const jf_source *src, jf_span span, const char *text);
/** The failure category of `d`: its own, else its rule's. */
const char *jf_diag_category(const jf_diag *d);
/**
 * Keeps the diagnostics from index `from` on for which `keep` returns true
 * (it may change them, e.g. their severity) and frees the others.
 */
void jf_report_filter(jf_report *self, size_t from, bool (*keep)(void *data, jf_diag *d),
                      void *data);
/** Records that jobfix could not do its job on some input, with the message it printed. */
void jf_report_add_failure(jf_report *self, const char *message);
/** Sorts by file, position and rule, and drops exact duplicates. */
void jf_report_finish(jf_report *self);
void jf_report_release(jf_report *self);

#endif
