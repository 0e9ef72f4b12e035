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

typedef struct {
	unsigned version; /* of this struct: 1 */
	int verbose;      /* reserved for messages about skipped checks */
} jf_options;
#define JF_OPTIONS_INIT { 1, 0 }

typedef struct jf_linter jf_linter; /* opaque */

/** A new linter; never NULL (out of memory aborts). Free with jf_linter_free(). */
JF_EXPORT jf_linter *jf_linter_new(const jf_options *opts);
/** Frees the linter and every diagnostic; NULL is a no-op. */
JF_EXPORT void jf_linter_free(jf_linter *self);

/**
 * Lints `path`: a job spec (*.yaml, *.yml) or a Python or shell file linted
 * alone. Findings are collected in the linter. Returns 0, or a negative error
 * code when jobfix could not do its job (unreadable path, a rule that does not
 * compile); the message is then in jf_linter_error().
 */
JF_EXPORT int jf_linter_lint(jf_linter *self, const char *path);

/** The message of the last error; owned by the linter, valid until the next call. */
JF_EXPORT const char *jf_linter_error(const jf_linter *self);

/** How many diagnostics so far have at least severity `min`. */
JF_EXPORT size_t jf_linter_count(const jf_linter *self, jf_severity min);

/**
 * Writes every diagnostic to `out` in `format` (sorted by file and position),
 * with ANSI colour when `color` is non-zero (text format only). Returns 0, or
 * JF_EIO when writing failed.
 */
JF_EXPORT int jf_linter_write(jf_linter *self, FILE *out, jf_format format, int color);

/** Rule metadata, for listings. All strings are static. */
typedef struct {
	const char *id;       /* "JF101" */
	const char *name;     /* "hard-coded-local-path" */
	jf_severity severity;
	const char *category; /* a failure category of the study, "Path Not Found" */
	const char *summary;
	const char *help;
	const char *language; /* "python", "bash", "job" */
} jf_rule_info;

/** The number of rules; rules are numbered 0..count-1 in id order. */
JF_EXPORT size_t jf_rules_count(void);
/** Rule `i`, or NULL past the end. */
JF_EXPORT const jf_rule_info *jf_rules_get(size_t i);
/** The name of severity `s`: "error", "warning" or "note". */
JF_EXPORT const char *jf_severity_name(jf_severity s);

#ifdef __cplusplus
}
#endif
#endif
