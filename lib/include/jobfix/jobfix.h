/* jobfix.h - the public interface of libjobfix, a linter for deep-learning training jobs
 *
 * A jf_linter lints job specs and single Python or shell files and collects the
 * diagnostics; it renders them in one of the output formats. Nothing here
 * exposes tree-sitter, libyaml or PCRE2 types. The library never prints to the
 * terminal on its own and never exits.
 */
#ifndef JOBFIX_H
#define JOBFIX_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(JF_BUILDING_LIB)
#define JF_EXPORT __attribute__((visibility("default")))
#else
#define JF_EXPORT
#endif

#define JF_VERSION "0.1.0"

/* Error codes: 0 is success, these are negative. */
enum {
	JF_OK = 0,
	JF_ERROR = -1,     /* generic */
	JF_ENOTFOUND = -2, /* a path or rule that does not exist */
	JF_EIO = -3,       /* a file that cannot be read */
	JF_EPARSE = -4,    /* input jobfix cannot parse at all */
	JF_EQUERY = -5,    /* a rule query that does not compile */
};

typedef enum { JF_SEV_NOTE = 0, JF_SEV_WARNING = 1, JF_SEV_ERROR = 2 } jf_severity;

typedef enum {
	JF_FORMAT_TEXT,
	JF_FORMAT_CONCISE,
	JF_FORMAT_JSON,
	JF_FORMAT_SARIF,  /* SARIF 2.1.0, for code scanning */
	JF_FORMAT_GITHUB, /* GitHub Actions workflow commands (annotations) */
} jf_format;

/**
 * The output format named `name` as the command line spells it: "text",
 * "concise", "json", "sarif" or "github". Returns 0 with the format in *out,
 * or JF_ENOTFOUND when no format has that name (*out is left alone).
 */
JF_EXPORT int jf_format_from_name(const char *name, jf_format *out);
/**
 * The output format a file is meant to hold, guessed from the end of its name
 * `path`: *.txt text, *.json json, *.sarif and *.sarif.json sarif (the longest
 * suffix that matches wins; the name must be longer than the suffix). Returns
 * 0 with the format in *out, or JF_ENOTFOUND when no suffix matches (*out is
 * left alone).
 */
JF_EXPORT int jf_format_from_file_name(const char *path, jf_format *out);
/**
 * The name of output format `i`, counting from 0 in the order of listings
 * ("text, concise, json, sarif, github"), with the format in *format unless
 * `format` is NULL; NULL past the last one. Static.
 */
JF_EXPORT const char *jf_format_name_at(size_t i, jf_format *format);
/** What output format `format` is, in a few words ("SARIF 2.1.0"), or NULL. Static. */
JF_EXPORT const char *jf_format_summary(jf_format format);

typedef struct jf_config jf_config; /* opaque: see "Configuration" below */

typedef struct {
	unsigned version;         /* of this struct: 3 (1 ends before `threads`, 2 before `coverage`) */
	int verbose;              /* reserved for messages about skipped checks */
	const jf_config *config;  /* borrowed, resolved; must outlive the linter. NULL: defaults */
	unsigned threads;         /* the threads a linter may use at once; 0: one per core */
	/* The fact cache's folder (created when missing): a lint whose files and
	 * folders did not change since it was kept there is not run again. NULL:
	 * no cache. jf_cache_dir() gives the usual one. */
	const char *cache_dir;
	/* Non-zero: the json and sarif documents of jf_linter_write() and
	 * jf_linter_write_statistics() also say what each job's checks covered
	 * (jf_linter_write_coverage()): json as the document's "coverage"
	 * member, sarif in the run's properties. */
	int coverage;
} jf_options;
#define JF_OPTIONS_INIT { 3, 0, NULL, 0, NULL, 0 }

/**
 * The usual folder of the fact cache: $XDG_CACHE_HOME/jobfix, else
 * $HOME/.cache/jobfix (absolute variables only); NULL when neither is set.
 * Caller frees.
 */
JF_EXPORT char *jf_cache_dir(void);

typedef struct jf_linter jf_linter; /* opaque */

/**
 * A new linter; never NULL (out of memory aborts). Free with jf_linter_free().
 * With more than one thread (jf_options.threads), a linter matches the rule
 * queries of the files a job reads on a thread of its own and parses the
 * modules a job imports on others; jf_linter_lint_all() lints several paths
 * at once. The threads end with jf_linter_free(). A linter is used by one
 * thread at a time.
 */
JF_EXPORT jf_linter *jf_linter_new(const jf_options *opts);
/** Frees the linter and every diagnostic; NULL is a no-op. */
JF_EXPORT void jf_linter_free(jf_linter *self);

/**
 * Lints `path`: a job file of any format jobfix reads (*.yaml, *.yml, or a
 * file whose content reads as one, such as a Slurm batch script), or a
 * Python or shell file linted alone (by its suffix or its #! line).
 * Findings are collected in the linter. Returns 0, or a negative error
 * code when jobfix could not do its job (unreadable path, a rule that does not
 * compile); the message is then in jf_linter_error().
 */
JF_EXPORT int jf_linter_lint(jf_linter *self, const char *path);

/** What jf_linter_lint_all() calls for a path it could not lint. */
typedef void jf_lint_error_fn(void *data, const char *path, const char *message);

/**
 * Lints the `n` paths as jf_linter_lint() on each in turn would, up to
 * jf_options.threads of them at once: the findings, the skipped checks and
 * the files read are the same, in the same order. `on_error` (may be NULL)
 * is called for each path that could not be linted, in the order of the
 * paths, once all are done. Returns 0, or the first path's negative error
 * code (the message is then in jf_linter_error()).
 */
JF_EXPORT int jf_linter_lint_all(jf_linter *self, const char *const *paths, size_t n,
                                 jf_lint_error_fn *on_error, void *data);

/**
 * Restricts the job specs that later jf_linter_lint() calls report on to the
 * jobs that read one of `files` (a NULL-terminated list of paths; copied;
 * NULL lifts the restriction): the spec itself, the launch scripts and entry
 * scripts its command runs, the local modules they import. Files are
 * compared by identity (device and inode), so any path to them will do; files
 * that do not exist are ignored. A job that reads none of them leaves no
 * findings; when none of them is the spec or lies in the job's code folder
 * (its real path), it is read no further than its spec. Files linted alone
 * are not restricted.
 */
JF_EXPORT void jf_linter_restrict(jf_linter *self, const char *const *files);

/**
 * Whether a file linted so far (a job spec that was not left out by
 * jf_linter_restrict(), every file its job read, or a file linted alone) is
 * the file at `path`, compared by identity.
 */
JF_EXPORT int jf_linter_has_read(const jf_linter *self, const char *path);

/** The message of the last error; owned by the linter, valid until the next call. */
JF_EXPORT const char *jf_linter_error(const jf_linter *self);

/**
 * The checks skipped so far for want of facts (an image jobfix does not know,
 * no `image.user`), each with how to enable it: "JF110 missing-package in
 * job.yaml: the image is not in jobfix's catalog; declare image.manifest
 * ...". NULL past the end; owned by the linter.
 */
JF_EXPORT const char *jf_linter_skipped(const jf_linter *self, size_t i);

/** How many diagnostics so far have at least severity `min`. */
JF_EXPORT size_t jf_linter_count(const jf_linter *self, jf_severity min);

/**
 * Writes every diagnostic to `out` in `format` (sorted by file and position),
 * with ANSI colour when `color` is non-zero (text format only). Returns 0, or
 * JF_EIO when writing failed.
 */
JF_EXPORT int jf_linter_write(jf_linter *self, FILE *out, jf_format format, int color);

/**
 * The exact replacements the diagnostics so far offer (`jobfix lint --fix`),
 * file by file; overlapping ones after the first are left out. With `apply`,
 * each file is rewritten (a temporary file renamed over it) when it still
 * holds what the lint read; else the changes are written to `out` as a
 * unified diff and no file is touched. Sets *fixes to the replacements made
 * (or shown) and returns the number of files changed (or that would be), or
 * a negative JF_E* code when a file could not be written; the message is then
 * in jf_linter_error().
 */
JF_EXPORT int jf_linter_fix(jf_linter *self, FILE *out, int apply, size_t *fixes);

/**
 * Writes how many diagnostics there are of each rule (id, name, severity,
 * count) and of each failure category of the study (with its dimension),
 * most frequent first: instead of the diagnostics as a text table (text and
 * concise) or as JSON; with them in sarif (the counts in the run's
 * properties) and github (the table after the annotations), whose readers
 * need the findings. Returns 0, or JF_EIO when writing failed.
 */
JF_EXPORT int jf_linter_write_statistics(jf_linter *self, FILE *out, jf_format format);

/**
 * Writes what the checks of each job linted so far covered: per job, the
 * files it read, whether the arguments of each entry script were checked
 * (JF302-JF309) and why not, whether its imports were checked (JF110) in
 * full, per question or not at all, and its skipped checks by rule; then
 * the totals (entry scripts whose arguments were checked, jobs whose imports
 * were). Files linted alone have none. As text in text, concise and github
 * (plain lines for the log), as a document {"version": 1, "coverage": {...}}
 * in json (docs/cli.md gives its shape); sarif writes nothing (its log has it
 * in the run's properties: jf_options.coverage). Returns 0, or JF_EIO when
 * writing failed.
 */
JF_EXPORT int jf_linter_write_coverage(jf_linter *self, FILE *out, jf_format format);

/*
 * Configuration: `.jobfix.yaml` (docs/config.md), with the command line's
 * overrides on top. A config is used in four steps:
 *
 *	jf_config *c = jf_config_new();
 *	char *path = jf_config_find(NULL);         // or a --config FILE
 *	if (path) jf_config_load(c, path);
 *	jf_config_set(c, "select", "JF1,JF302");    // command-line overrides
 *	if (jf_config_resolve(c) < 0) jf_config_write_errors(c, stderr, JF_FORMAT_TEXT, 0);
 *
 * Problems (bad YAML, unknown keys, values of the wrong type, unknown rules,
 * broken rule files in the rules folder) are collected, each with its
 * file:line:col, rather than stopping at the first.
 */

/** The name of the config file. */
#define JF_CONFIG_NAME ".jobfix.yaml"

/**
 * Looks for JF_CONFIG_NAME in `dir` (NULL: the current folder) and in each
 * folder above it, up to the file system's root; a folder holding `.git`
 * (a repository's top) is the last one searched. Returns the path of the
 * first found, relative like `dir` (e.g. "../.jobfix.yaml"), or NULL when
 * there is none. Caller frees.
 */
JF_EXPORT char *jf_config_find(const char *dir);
/** A config with every default; never NULL. Free with jf_config_free(). */
JF_EXPORT jf_config *jf_config_new(void);
/** NULL is a no-op. */
JF_EXPORT void jf_config_free(jf_config *self);
/**
 * Reads the config file at `path` (shown as given). Returns 0, JF_EIO when it
 * cannot be read, or JF_EPARSE when it has problems; either way they are
 * among the config's errors. Call once, before jf_config_set().
 */
JF_EXPORT int jf_config_load(jf_config *self, const char *path);
/**
 * Overrides key `key` with the command line's `value`: "select" and "ignore"
 * (comma-separated rules, replacing the file's list), "rules-dir" (relative
 * to the current folder), "allow-outside" (one more folder a lint may read,
 * relative to the current folder) and "fail-on". Returns 0, or JF_ERROR with
 * an error recorded.
 */
JF_EXPORT int jf_config_set(jf_config *self, const char *key, const char *value);
/**
 * Loads the rules folder and checks every rule the config names against the
 * rule table. Returns 0, or JF_EPARSE when the config has errors (from this
 * or an earlier step).
 */
JF_EXPORT int jf_config_resolve(jf_config *self);
/** The number of errors found so far. */
JF_EXPORT size_t jf_config_error_count(const jf_config *self);
/**
 * Writes the errors, those of the command line first, then by file and
 * position: in text and concise as diagnostics without a rule
 * (`file:line:col: error: message`), in json as a document with an empty
 * "diagnostics" list and a "config_errors" list, in sarif as a log whose
 * invocation failed with a toolConfigurationNotification for each, in github
 * as `::error` annotations. Returns 0 or JF_EIO.
 */
JF_EXPORT int jf_config_write_errors(const jf_config *self, FILE *out, jf_format format,
                                     int color);
/** Whether `fail-on` was given (in the file or by jf_config_set()); its value in *out. */
JF_EXPORT int jf_config_fail_on(const jf_config *self, jf_severity *out);
/** The config file as shown, or NULL when none was read. Owned by the config. */
JF_EXPORT const char *jf_config_path(const jf_config *self);
/** The absolute folder that the config's patterns are relative to. Owned by the config. */
JF_EXPORT const char *jf_config_dir(const jf_config *self);
/**
 * Pattern `i` of the `jobs` key (globs of job specs, relative to
 * jf_config_dir(), for discovering jobs), or NULL past the last one. Owned by
 * the config.
 */
JF_EXPORT const char *jf_config_job_pattern(const jf_config *self, size_t i);

/*
 * Discovery: the job specs of a folder tree (`jobfix lint` without PATH), and
 * what a file is to jobfix (`jobfix lint --staged`). `config` may be NULL for
 * the defaults; its patterns need the folder it was made in to be the
 * current one.
 */

typedef enum {
	JF_FILE_OTHER,  /* nothing jobfix lints */
	JF_FILE_JOB,    /* a job spec */
	JF_FILE_PYTHON, /* a Python file */
	JF_FILE_SHELL,  /* a shell script */
} jf_file_kind;

/**
 * What the file at `path` is: a job file when it is named `jobfix.yaml`,
 * `job.yaml` or `*.job.yaml` or matches the config's `jobs`, or when a
 * `*.yaml`, `*.yml`, `*.sh`, `*.bash`, `*.sbatch`, `*.slurm` or suffix-less
 * file reads as a job of another format (its first 64 KiB are read);
 * Python for `*.py`, shell for `*.sh`, `*.bash`, `*.sbatch` and `*.slurm`;
 * for a name without a '.', what its `#!` line names (the first line is
 * read); else JF_FILE_OTHER. The config's `exclude` is not applied.
 */
JF_EXPORT jf_file_kind jf_file_kind_of(const jf_config *config, const char *path);
/**
 * Finds the job files in folder `dir` (NULL: the current one) and below it
 * (JF_FILE_JOB above: by name, or by content for the other formats), skipping hidden files and folders (`.git` among them),
 * `node_modules` folders, what the config's `exclude` matches, and folders
 * already searched (symbolic link loops); it follows symbolic links, but not
 * out of the folder's repository (docs/security.md), and stops 64 folders deep. On success returns 0 with a NULL-terminated list of paths
 * sorted by byte value (each `dir` joined with the file's place, without a
 * leading "./" when `dir` is ".") in *out, their number in *count; free the
 * list with jf_paths_free(). Returns JF_EIO, with errno set, when `dir` is not
 * a folder that can be read.
 */
JF_EXPORT int jf_discover_jobs(const jf_config *config, const char *dir, char ***out,
                               size_t *count);
/**
 * Describes what jobfix understands of the job file at `path` (`jobfix
 * show`): its format, image, code folder, workdir, env, mounts, resources,
 * command and the entry scripts the command runs, each with its place. No
 * rule runs. Returns 0, or a negative JF_E* code with the message in
 * jf_linter_error(). The descriptions stay in the linter until
 * jf_linter_write_shown() writes them all.
 */
JF_EXPORT int jf_linter_show(jf_linter *self, const char *path);
/**
 * Writes the jobs described so far as text, or (JF_FORMAT_JSON) as
 * {"version": 1, "jobs": [...]}. Returns 0, or JF_EIO when writing failed.
 */
JF_EXPORT int jf_linter_write_shown(jf_linter *self, FILE *out, jf_format format);
/**
 * jf_discover_jobs(), and also (when `skipped` is not NULL) the YAML files
 * (*.yaml, *.yml) found that are no job file, and the folders that could
 * not be read or are links out of the repository (their paths end in '/'),
 * in a list of the same kind.
 */
JF_EXPORT int jf_discover(const jf_config *config, const char *dir, char ***out, size_t *count,
                          char ***skipped, size_t *nskipped);
/** Frees a list of paths from jf_discover_jobs(); NULL is a no-op. */
JF_EXPORT void jf_paths_free(char **paths);

/** Rule metadata, for listings. All strings are static. */
typedef struct {
	const char *id;       /* "JF101" */
	const char *name;     /* "hard-coded-local-path" */
	jf_severity severity;
	const char *category; /* a failure category of the study, "Path Not Found" */
	const char *summary;
	const char *help;
	const char *language; /* "python", "bash", "python, bash", or "job" for a C check */
} jf_rule_info;

/** The number of jobfix's own rules; they are numbered 0..count-1 in id order. */
JF_EXPORT size_t jf_rules_count(void);
/** jobfix's own rule `i`, or NULL past the end. Static. */
JF_EXPORT const jf_rule_info *jf_rules_get(size_t i);
/**
 * The rules a resolved config sees: jobfix's own and those of its rules
 * folder, numbered 0..count-1 in id order. Valid until the config is freed.
 */
JF_EXPORT size_t jf_config_rules_count(const jf_config *self);
/** Rule `i` of the config, or NULL past the end. */
JF_EXPORT const jf_rule_info *jf_config_rule(const jf_config *self, size_t i);
/** The name of severity `s`: "error", "warning" or "note". */
JF_EXPORT const char *jf_severity_name(jf_severity s);

/**
 * The rule with this id (in any case: "jf101" is JF101) or name, or NULL.
 * The result is static.
 */
JF_EXPORT const jf_rule_info *jf_rules_lookup(const char *id_or_name);
/**
 * The id or name of the rule nearest to `s`, a likely misspelling of it
 * ("JF10" gives "JF101", "local-path" gives "hard-coded-local-path"), or NULL
 * when no rule is near. Static.
 */
JF_EXPORT const char *jf_rules_suggest(const char *s);
/**
 * The dimension of the study (PAPER.md) that failure category `category`
 * belongs to: "Execution environment", "General code error", "Deep-learning
 * specific" or "Data"; NULL for a category the study does not have. Static.
 */
JF_EXPORT const char *jf_category_dimension(const char *category);

/*
 * The long text of a rule: one file per rule, rules/<id>.md, embedded in the
 * binary, with these sections in this order. The header (id, name, severity,
 * category, summary) comes from the rule table.
 */
typedef enum {
	JF_DOC_FINDS,   /* "What it finds" */
	JF_DOC_WHY,     /* "Why it fails": what happens at run time, with the error users see */
	JF_DOC_EXAMPLE, /* "Example": the files of a job where the rule fires, and its output */
	JF_DOC_FIX,     /* "How to fix" */
	JF_DOC_SILENCE, /* "How to silence": the look-alikes the rule leaves alone */
	JF_DOC_COUNT
} jf_doc_section;

typedef enum {
	JF_EXPLAIN_TEXT,     /* for a terminal: plain text, code indented */
	JF_EXPLAIN_MARKDOWN, /* the rule's doc page, docs/rules/<id>-<name>.md */
} jf_explain_format;

/** The heading of section `s`: "What it finds", ...; NULL past JF_DOC_COUNT. Static. */
JF_EXPORT const char *jf_doc_section_title(jf_doc_section s);
/**
 * The Markdown body of section `s` of `rule`'s text, without its heading and
 * without the surrounding blank lines, as written in rules/<id>.md. NULL when
 * the rule has no complete text (the test suite makes sure every rule has).
 * Static: valid for the whole process.
 */
JF_EXPORT const char *jf_rule_doc(const jf_rule_info *rule, jf_doc_section s);
/**
 * The whole explanation of `rule`: the header from the rule table, every
 * section, and how to silence a finding with comments and .jobfix.yaml. As
 * Markdown, this is the rule's doc page (suited to SARIF's help.markdown).
 * NULL when the rule has no complete text; otherwise the caller frees the
 * result with free().
 */
JF_EXPORT char *jf_rule_explain(const jf_rule_info *rule, jf_explain_format format);
/** The Markdown index of every rule (docs/rules.md). Caller frees with free(). */
JF_EXPORT char *jf_rules_index_markdown(void);

/*
 * Triage: the log of a job that failed anyway, read for what ended it (the
 * failure message, its category of the study, whether a retry can help, the
 * stage, the job's own frame), and, given the job, the line of its code and
 * the finding that would have caught it (`jobfix triage`, docs/triage.md).
 */
typedef struct jf_triage jf_triage; /* opaque */

/** The verdicts of jf_triage_verdict(), for a platform's retry policy. */
enum { JF_TRIAGE_RETRY = 0, JF_TRIAGE_NO_RETRY = 1, JF_TRIAGE_UNKNOWN = 2 };

JF_EXPORT jf_triage *jf_triage_new(void);
/** NULL is a no-op. */
JF_EXPORT void jf_triage_free(jf_triage *self);
/**
 * Reads the log at `path` ("-": standard input; plain or gzip), streaming, and
 * adds its result. 0, or JF_EIO when it could not be read to its end (the
 * result then says why: jf_triage_error()).
 */
JF_EXPORT int jf_triage_read(jf_triage *self, const char *path);
/** Why the last jf_triage_read() failed; owned by `self`, NULL when it did not. */
JF_EXPORT const char *jf_triage_error(const jf_triage *self);
/**
 * Lints the job at `job` with `linter` and links every result to it: the
 * file and line of the job's code that its user frame names, and the finding
 * that reports that line or the failure's subject (a flag, a module, a path).
 * Returns jf_linter_lint()'s result.
 */
JF_EXPORT int jf_triage_link(jf_triage *self, jf_linter *linter, const char *job);
/**
 * Writes every result in `format` (text, json; sarif once linked to a job):
 * 0, JF_EIO when the write failed, JF_ERROR for a format triage has not.
 */
JF_EXPORT int jf_triage_write(jf_triage *self, FILE *out, jf_format format);
/**
 * How the failure line of the `i`th log read was chosen (`jobfix triage -v`): the pattern
 * that matched it, or why none did and what the line was taken for. NULL when `i` is past
 * the logs read; owned by `self`, valid until the next call.
 */
JF_EXPORT const char *jf_triage_line_basis(jf_triage *self, size_t i);
/**
 * What a platform should do about the logs read: JF_TRIAGE_NO_RETRY when one
 * failure is deterministic, else JF_TRIAGE_UNKNOWN when one log shows no known
 * failure or could not be read, else JF_TRIAGE_RETRY (a retry may help).
 */
JF_EXPORT int jf_triage_verdict(const jf_triage *self);

#ifdef __cplusplus
}
#endif
#endif
