/* rules.h - the rule table: query rules from queries/<lang>/<id>-<name>.scm and C checks
 *
 * One table, built once per process from the embedded query files (their
 * comment headers carry the metadata) and from checks.def (the C checks), is
 * the single source of truth for linting, `jobfix rules` and the docs.
 *
 * A query rule's header:
 *   ; id: JF101
 *   ; name: hard-coded-local-path
 *   ; severity: error                 (error | warning | note)
 *   ; category: Path Not Found        (a category of PAPER.md)
 *   ; summary: one line for listings
 *   ; message: {{path}} ...           ({{capture}} is replaced by the captured text)
 *   ; help: how to fix it
 *   ; check: local-path               (optional: a C hook that sees each match)
 *   ; scope: job                      (optional: only when linting a whole job)
 *   ; prefilter: regex                (optional: a file where this PCRE2 regex finds
 *                                      nothing cannot match; spares the query's
 *                                      compilation and run for such files)
 * Without `check:` every match's @finding becomes a diagnostic.
 */
#ifndef JF_RULES_H
#define JF_RULES_H

#include <tree_sitter/api.h>

#include "core/diag.h"
#include "sources/tree.h"

typedef struct jf_rule_ctx jf_rule_ctx; /* rules/checks.h */
typedef struct jf_file jf_file;         /* sources/workspace.h */
typedef struct jf_query jf_query;

typedef struct {
	const char *name; /* capture name */
	TSNode node;
} jf_capture;

typedef struct {
	const jf_capture *items;
	size_t size;
	uint32_t pattern; /* index of the pattern in its query */
} jf_match;

/** A C hook: called for each match of its rule's query in `file`. */
typedef void (*jf_hook_fn)(jf_rule_ctx *ctx, const jf_rule *rule, const jf_file *file,
                           const jf_match *match);
/** A C check: called once per lint of a job or a file. */
typedef void (*jf_check_fn)(jf_rule_ctx *ctx, const jf_rule *rule);

struct jf_rule {
	jf_rule_info info;   /* must stay first: jf_rules_get() hands it out */
	const char *message; /* template with {{capture}} */
	bool job_only;       /* needs a job spec */
	const char *prefilter; /* regex text, or NULL */
	void *prefilter_re;  /* its compiled pcre2_code, made on first use */
	jf_hook_fn hook;     /* query rules with `check:` */
	jf_check_fn check;   /* C checks */
	/* A rule may have one query file per language, with identical headers. */
	struct jf_rule_query {
		const char *path; /* "python/JF101-hard-coded-local-path.scm", or NULL */
		const char *text;
		uint32_t len;
		uint32_t body_offset; /* where the patterns start, after the header */
		jf_query *compiled;   /* compiled on first use, once per process */
	} queries[JF_LANG_COUNT];
	char languages[32];  /* "python, bash" */
	const char *dir;     /* a user's rule: its rules folder (canonical path); NULL for jobfix's own */
};

/** Builds the table once; returns 0 or JF_EQUERY with the message in *err (static). */
int jf_rules_init(const char **err);
size_t jf_rules_size(void);
const jf_rule *jf_rules_at(size_t i);
/** The index of `rule` in the table (a bug when it is not one of the table's). Rules
 * loaded from a user's folder later move the rules after them. */
size_t jf_rule_index(const jf_rule *rule);
/** The project's home page (the CMake cache variable JF_HOMEPAGE_URL); static. */
const char *jf_homepage_url(void);
/** Appends the URL of the rule's page: <home page>/blob/main/docs/rules/<id>-<name>.md. */
void jf_rule_doc_uri(const jf_rule *rule, jf_buf *out);
/** The rule of jobfix's own with this id ("JF101") or name, or NULL. */
const jf_rule *jf_rules_find(const char *id_or_name);
/** The same among jobfix's own rules and those loaded from the rules folder `dir`. */
const jf_rule *jf_rules_find_in(const char *id_or_name, const char *dir);

/**
 * Adds the query rules of a user's rules folder (`dir`/python/\*.scm,
 * `dir`/bash/\*.scm, in the header format of queries/) to the table. A folder
 * is read once per process; later calls return the same results. Each file
 * is checked as jobfix's own are, and more: its id must be capital letters
 * then digits and new, its category one of the study's, its query must
 * compile. A file with a problem adds no rule; the problems (rule-less
 * diagnostics, positions in the file shown as `display_dir`/...) stay owned
 * by the table for the process. `*canonical` is the folder's real path, which
 * the added rules carry in `dir`.
 * Returns 0, JF_ENOTFOUND when `dir` is not a folder, or JF_EQUERY when
 * jobfix's own table is broken.
 */
int jf_rules_load_dir(const char *dir, const char *display_dir, const char **canonical,
                      const jf_report **problems);

/* The failure categories of the study (PAPER.md) with their dimensions. */
typedef struct {
	const char *name;      /* "Path Not Found" */
	const char *dimension; /* "Execution environment" */
} jf_category;

/** Every category, in the study's order, ended by { NULL, NULL }. */
extern const jf_category jf_categories[];

/** The compiled `<lang>/facts.scm`, compiled once; NULL (and *err) when it does not compile. */
const jf_query *jf_facts_query(jf_lang lang, const char **err);

/**
 * Whether `rule` may match in `text`: false only when its prefilter finds
 * nothing. A prefilter that does not compile counts as matching everything
 * (jf_rule_prefilter_ok() tells, for the tests).
 */
bool jf_rule_may_match(const jf_rule *rule, const char *text, uint32_t len);
bool jf_rule_prefilter_ok(const jf_rule *rule);
/** Frees the compiled prefilter of a rule that is not in the table. */
void jf_rule_release_compiled(jf_rule *rule);

/* Query compilation and matching (query.c). */

/**
 * Compiles `text` for `lang`, with predicates checked and regexes compiled.
 * On failure returns NULL and sets *err to a message with the line:col in
 * `path`; caller frees *err.
 */
jf_query *jf_query_compile(jf_lang lang, const char *path, const char *text, uint32_t len,
                           uint32_t body_offset, char **err);
void jf_query_free(jf_query *self);
/** The same, reporting the byte offset of an error and a static message instead. */
jf_query *jf_query__compile_raw(jf_lang lang, const char *text, uint32_t len,
                                uint32_t *err_offset, const char **err);
uint32_t jf_query_pattern_count(const jf_query *self);
/** Whether some pattern of the query captures `name`. */
bool jf_query_has_capture(const jf_query *self, const char *name);
/** Byte offset in the query text where pattern `pattern` starts. */
uint32_t jf_query_pattern_start(const jf_query *self, uint32_t pattern);

/**
 * The rule queries of `lang` compiled as one query: of the rules whose entry
 * in `wanted` (indexed like the table) is true, or of all with NULL. Each
 * combination is compiled once per process (the analysis tree-sitter does per
 * query is the larger part of its cost). NULL when no such rule has a query
 * for `lang`. `*rule_of` maps each pattern to its rule. On a compile error
 * returns NULL and sets *err (valid for the process).
 */
const jf_query *jf_rules_lang_query(jf_lang lang, const bool *wanted, const jf_rule *const **rule_of,
                                    const char **err);

typedef void (*jf_match_fn)(void *data, const jf_match *match);
/** Runs the query over `root`, calling `fn` for each match whose predicates hold. */
void jf_query_run(const jf_query *self, TSNode root, const char *text, jf_match_fn fn, void *data);

/** The first node captured as `name`, or a null node. */
TSNode jf_match_get(const jf_match *m, const char *name);

/**
 * The compiled query of `rule` for `lang`, compiling it on first use; NULL when
 * the rule has none for `lang`. A query that does not compile is a bug caught
 * by the test suite; at run time it sets *err (static until the next call).
 */
const jf_query *jf_rule_query(const jf_rule *rule, jf_lang lang, const char **err);

#endif
