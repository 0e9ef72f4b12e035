/* patterns.h - data/triage.yaml: the failure categories and the messages of a failed job's log
 *
 * The table is read once per process (jf_triage_table_get()) and never freed. A line is matched
 * in two steps: a prefilter finds, in one pass over the line's bytes, the patterns whose
 * literal (the longest run of plain characters every match of the regex must contain, found
 * when the table is read) occurs in it, case-insensitively; only those patterns' regexes run.
 * Patterns with no such literal run on every line (few: tests/unit/test_triage.c counts).
 */
#ifndef JF_TRIAGE_PATTERNS_H
#define JF_TRIAGE_PATTERNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { JF_RETRY_NO, JF_RETRY_YES, JF_RETRY_MAYBE } jf_retry;

/** "no", "yes" or "maybe". */
const char *jf_retry_name(jf_retry r);

typedef struct {
	const char *name;      /* "GPU Out of Memory" */
	const char *dimension; /* "Deep-learning specific" */
	jf_retry retry;
	const char *why; /* why a retry does what `retry` says */
} jf_triage_category;

typedef struct jf_triage_pattern {
	const char *id;
	const char *match;
	const jf_triage_category *category;
	int rank;
	jf_retry retry;
	const char *why;   /* NULL: the category's */
	const char *cause; /* "CPE", ... or NULL */
	bool setup;        /* stage: setup */
	const char *hint;
	const char *example;
	const char *source;
	const jf_triage_category **explains; /* NULL-terminated, or NULL */
	void *re;                             /* pcre2_code */
	char **literals; /* lower case, NULL-terminated: every match holds one; NULL: none (always run) */
	unsigned line;                        /* in data/triage.yaml */
} jf_triage_pattern;

/* The keys a prefilter index is built from: byte strings of 4 bytes or more, lower case. */
typedef struct jf_keyset jf_keyset;

/* The words a log's progress, tracebacks and error lines are told by, found by the same scan
 * as the literals: word k has the id npatterns + k. JF_WORD_ERROR to JF_WORD_ASSERT make a
 * line read as an error (the study's keywords, a few of the shell's and of the schedulers'),
 * JF_WORD_WARN makes it a warning. */
enum { JF_WORD_EPOCH, JF_WORD_STEP, JF_WORD_ITER, JF_WORD_RATE, JF_WORD_RATE2, JF_WORD_EVAL,
       JF_WORD_VALID, JF_WORD_TEST, JF_WORD_TRACEBACK,
       JF_WORD_ERROR, JF_WORD_EXCEPTION, JF_WORD_FAIL, JF_WORD_FATAL, JF_WORD_ABORT,
       JF_WORD_KILLED, JF_WORD_DENIED, JF_WORD_REFUSED, JF_WORD_TIMED_OUT, JF_WORD_DUMPED,
       JF_WORD_SEGFAULT, JF_WORD_ILLEGAL, JF_WORD_CRASH, JF_WORD_UNSUCCESSFUL, JF_WORD_NO_SUCH,
       JF_WORD_NOT_FOUND, JF_WORD_UNRECOGNIZED, JF_WORD_REJECTED, JF_WORD_INVALID,
       JF_WORD_CANNOT, JF_WORD_UNABLE, JF_WORD_EXCEEDED, JF_WORD_ASSERT,
       JF_WORD_WARN, JF_WORD_COUNT };

typedef struct {
	jf_triage_category *categories;
	size_t ncategories;
	jf_triage_pattern *patterns;
	size_t npatterns;
	uint32_t *unfiltered; /* the patterns without a literal, in order */
	size_t nunfiltered;
	jf_keyset *literals;  /* key i < npatterns is pattern i's literal; then the words */
	const char *error;   /* why the table is empty: the data is broken ("line 12: ...") */
} jf_triage_table;

/** The table, read on first use; thread-safe. Never NULL; on broken data, `error` says why. */
const jf_triage_table *jf_triage_table_get(void);
/** The category named `name`, or NULL. */
const jf_triage_category *jf_triage_category_find(const jf_triage_table *t, const char *name);

/**
 * The literal every match of the PCRE2 pattern `re` contains, lower case, or NULL when
 * none of at least 4 bytes can be told (a top-level alternation, only classes). Caller frees.
 */
char *jf_triage_literal(const char *re);
/**
 * Literals one of which every match of `re` contains: jf_triage_literal()'s, else one for
 * each alternative of a top-level alternation or of a group every match goes through. NULL
 * when an alternative has none; free with jf_triage_literals_free().
 */
char **jf_triage_literals(const char *re);
void jf_triage_literals_free(char **literals);

/* A set of keys, found in a text in one pass (the prefilter). */
jf_keyset *jf_keyset_new(void);
void jf_keyset_free(jf_keyset *self);
/** Adds `key` (lower case, 4 bytes or more) with the value `id`. */
void jf_keyset_add(jf_keyset *self, const char *key, uint32_t id);
/**
 * Calls `found(data, id, at)` for each key occurring in text[0, len) (ASCII case ignored),
 * once per occurrence, in the order of their places `at`; stops when it returns false.
 */
void jf_keyset_scan(const jf_keyset *self, const char *text, size_t len,
                    bool (*found)(void *data, uint32_t id, size_t at), void *data);

/** Whether pattern `p` matches text[0, len). */
bool jf_triage_pattern_matches(const jf_triage_pattern *p, const char *text, size_t len,
                               void *match_data);
/** A pcre2_match_data for jf_triage_pattern_matches(); free with jf_triage_match_data_free(). */
void *jf_triage_match_data_new(void);
void jf_triage_match_data_free(void *md);

#endif
