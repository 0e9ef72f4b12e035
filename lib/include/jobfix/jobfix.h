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

/**
 * The checks skipped so far for want of facts (an image jobfix does not know,
 * no `image.user`), each with how to enable it: "JF110 missing-package: the
 * image 'x' is not in jobfix's catalog: declare image.manifest ...". NULL
 * past the end; owned by the linter.
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

#ifdef __cplusplus
}
#endif
#endif
