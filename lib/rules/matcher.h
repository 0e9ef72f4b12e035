/* matcher.h - the rule queries of each file, matched on a second thread while the lint goes on
 *
 * Matching a file's rule queries needs only its tree, so it starts as soon
 * as the file is parsed (jf_matcher_add()) and runs on a thread of the
 * matcher's own while the main thread reads the job's other files and
 * gathers the facts. jf_rules_run() then takes each file's matches
 * (jf_matcher_wait()) and hands them to the rules on the main thread, in the
 * order of the files: what a rule sees and reports is the same as if the
 * queries ran there.
 *
 * A file is matched with one query of the rules that may match in it:
 * rules of its language the lint runs (for a file alone, no job-only rule),
 * active for the file, whose prefilter finds something in it. Each set of
 * rules is compiled once per linter (jf_query_cache).
 */
#ifndef JF_MATCHER_H
#define JF_MATCHER_H

#include "rules/registry.h"
#include "sources/workspace.h"

typedef struct jf_matcher jf_matcher;

/* A match of a file: its pattern and its captures in the file's capture array. */
struct jf_matched {
	uint32_t pattern, first, count;
};

/* The matches of one file. */
typedef struct {
	const jf_file *file;
	bool *may;             /* per rule of the lint's list: it may match in the file */
	bool any;              /* some rule may match: the file was matched */
	const jf_query *query; /* what it was matched with (NULL: nothing to match) */
	const jf_rule *const *rule_of; /* per pattern of `query` */
	int error;             /* JF_EQUERY when the query did not compile (message in `message`) */
	char *message;
	/* The matches, in the order the query found them; their captures in one array. */
	JF_ARRAY(struct jf_matched) matches;
	JF_ARRAY(jf_capture) captures;
} jf_file_matches;

/** A matcher; its thread starts with the first file. Free with jf_matcher_free(). */
jf_matcher *jf_matcher_new(void);
/** Ends the thread (after the file it is matching) and frees everything. NULL is a no-op. */
void jf_matcher_free(jf_matcher *self);

/**
 * Starts a lint: its rules (borrowed, the config's), the queries compiled for
 * them (borrowed), the config and whether a job is linted.
 */
void jf_matcher_begin(jf_matcher *self, const jf_rule_list *rules, jf_query_cache *queries,
                      const jf_config *config, bool job);
/** Starts matching `file` (parsed, of the lint's workspace) when a rule may match in it. */
void jf_matcher_add(jf_matcher *self, const jf_file *file);
/**
 * The record of `file`, NULL when it was not added: which rules may match and
 * the query, at once; the matches only after jf_matcher_wait(). Owned by the
 * matcher until jf_matcher_end().
 */
const jf_file_matches *jf_matcher_find(const jf_matcher *self, const jf_file *file);
/** Waits for the matches of `m`; their captures' nodes are then nodes of the file's tree. */
void jf_matcher_wait(jf_matcher *self, const jf_file_matches *m);
/** Ends the lint: files not begun are dropped, the one being matched is waited for. */
void jf_matcher_end(jf_matcher *self);

#endif
