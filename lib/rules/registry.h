/* registry.h - the rules: jobfix's own, a user's rules folder, and the set a lint runs
 *
 * jobfix's own rules are one table, built once per process from the embedded
 * query files (their comment headers carry the metadata) and from checks.def
 * (the C checks): the single source of truth for linting, `jobfix rules` and
 * the docs. A config adds the rules of its rules folder (jf_rules_dir); the
 * list of both (jf_rule_list) is what a lint runs, and a linter compiles its
 * queries once (jf_query_cache).
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
 *                                      nothing cannot match this query; spares the
 *                                      query's compilation and run for such files)
 * Without `check:` every match's @finding becomes a diagnostic.
 */
#ifndef JF_RULES_H
#define JF_RULES_H

#include <tree_sitter/api.h>

#include "core/diag.h"
#include "core/error.h"
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
	jf_hook_fn hook;     /* query rules with `check:` */
	jf_check_fn check;   /* C checks */
	/* A rule may have one query file per language, with identical headers but
	 * for the prefilter, which is the query's. */
	struct jf_rule_query {
		const char *path; /* "python/JF101-hard-coded-local-path.scm", or NULL */
		const char *text;
		uint32_t len;
		uint32_t body_offset; /* where the patterns start, after the header */
		char *prefilter;      /* regex text, or NULL */
		void *prefilter_re;   /* its compiled pcre2_code, made with the rule */
	} queries[JF_LANG_COUNT];
	char languages[32];  /* "python, bash" */
	const char *dir;     /* a user's rule: its rules folder (canonical path); NULL for jobfix's own */
};

typedef JF_ARRAY(jf_rule *) jf_rule_array;

/** The order of rules in lists: by id, jobfix's own before a folder's of the same id. */
int jf_rule_cmp(const jf_rule *a, const jf_rule *b);

/* A list of rules in id order. */
typedef struct {
	JF_ARRAY(const jf_rule *) items;
} jf_rule_list;

/**
 * jobfix's own rules, built once per process on first use and only read
 * afterwards. Never NULL; empty when the table is broken (a bug the tests
 * catch), and jf_rules_builtin_error() says why.
 */
const jf_rule_list *jf_rules_builtin(void);
/** Why jobfix's own table is broken, or NULL. Static. */
const char *jf_rules_builtin_error(void);

/* The rules of a user's rules folder. */
typedef struct {
	char *dir;                 /* its real path; the rules carry it in `dir` */
	jf_rule_array rules;       /* the rules that loaded, owned */
	jf_report problems;        /* rule-less diagnostics at their place in the files */
	jf_sources sources;        /* the rule files: texts and problems point into them */
} jf_rules_dir;

/**
 * Reads the query rules of `dir` (`dir`/python/\*.scm, `dir`/bash/\*.scm, in
 * the header format of queries/), shown as `display_dir`/... Each file is
 * checked as jobfix's own are, and more: its id must be capital letters then
 * digits and new, its category one of the study's, its query must compile.
 * A file with a problem adds no rule and a problem. Returns 0, or
 * JF_ENOTFOUND when `dir` is not a folder. Release with jf_rules_dir_release().
 */
int jf_rules_dir_load(jf_rules_dir *self, const char *dir, const char *display_dir);
void jf_rules_dir_release(jf_rules_dir *self);

/** jobfix's own rules and those of `dir` (NULL: none), in id order; borrowed. */
void jf_rule_list_init(jf_rule_list *self, const jf_rules_dir *dir);
void jf_rule_list_release(jf_rule_list *self);
/** The rule with this id (JF101) or name, or NULL. */
const jf_rule *jf_rule_list_find(const jf_rule_list *self, const char *id_or_name);

/** The project's home page (the CMake cache variable JF_HOMEPAGE_URL); static. */
const char *jf_homepage_url(void);
/** Appends the URL of the rule's page: <home page>/blob/main/docs/rules/<id>-<name>.md. */
void jf_rule_doc_uri(const jf_rule *rule, jf_buf *out);

/* The failure categories of the study (PAPER.md) with their dimensions. */
typedef struct {
	const char *name;      /* "Path Not Found" */
	const char *dimension; /* "Execution environment" */
} jf_category;

/** Every category, in the study's order, ended by { NULL, NULL }. */
extern const jf_category jf_categories[];

/**
 * Compiles the prefilters of the rule's queries (those that have one) into
 * prefilter_re; false when one does not compile.
 */
bool jf_rule_compile_prefilter(jf_rule *rule);
/** Whether the query of `rule` for `lang` may match in `text`: false only when
 * its prefilter finds nothing. */
bool jf_rule_may_match(const jf_rule *rule, jf_lang lang, const char *text, uint32_t len);
/** Frees the compiled prefilters. */
void jf_rule_release_compiled(jf_rule *rule);

/* Query compilation and matching (query.c). */

/**
 * Compiles `text` for `lang`, with predicates checked and regexes compiled.
 * Returns 0 with the query in *out (free with jf_query_free()), or JF_EQUERY
 * with a message with the line:col in `path` in `err`.
 */
int jf_query_compile(jf_lang lang, const char *path, const char *text, uint32_t len,
                     uint32_t body_offset, jf_query **out, jf_error *err);
void jf_query_free(jf_query *self);
/** The same, reporting the byte offset of an error and a static message instead. */
jf_query *jf_query__compile_raw(jf_lang lang, const char *text, uint32_t len,
                                uint32_t *err_offset, const char **err);
uint32_t jf_query_pattern_count(const jf_query *self);
/** Whether some pattern of the query captures `name`. */
bool jf_query_has_capture(const jf_query *self, const char *name);
/** Byte offset in the query text where pattern `pattern` starts. */
uint32_t jf_query_pattern_start(const jf_query *self, uint32_t pattern);

/* The rule queries a linter has compiled: one per language and set of rules. */
typedef struct {
	JF_ARRAY(struct jf_lang_query *) items;
} jf_query_cache;

/**
 * The rule queries of `lang` compiled as one query: of the rules of `rules`
 * whose entry in `wanted` (indexed like the list) is true, or of all with
 * NULL. Each combination is compiled once per cache (the analysis tree-sitter
 * does per query is the larger part of its cost). Sets *out NULL when no such
 * rule has a query for `lang`; `*rule_of` maps each pattern to its rule.
 * Returns 0, or JF_EQUERY with the message in `err`.
 */
int jf_query_cache_get(jf_query_cache *self, const jf_rule_list *rules, jf_lang lang,
                       const bool *wanted, const jf_query **out,
                       const jf_rule *const **rule_of, jf_error *err);
void jf_query_cache_release(jf_query_cache *self);

typedef void (*jf_match_fn)(void *data, const jf_match *match);
/**
 * Runs the query over `root`, calling `fn` for each match whose predicates
 * hold. Returns -1, or the first pattern whose regular expression gave up at
 * its limits (the match it was deciding is left out).
 */
long jf_query_run(const jf_query *self, TSNode root, const char *text, jf_match_fn fn,
                  void *data);

/** The first node captured as `name`, or a null node. */
TSNode jf_match_get(const jf_match *m, const char *name);

#endif
