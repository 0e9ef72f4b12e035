/* matcher.h - the rule queries of each file, matched on a second thread while the lint goes on
 *
 * A file's rule queries need only its text and tree, so their work starts
 * as soon as the workspace has parsed the file (jf_matcher_add()) and runs
 * on a thread of the matcher's own while the main thread reads the job's
 * other files and gathers the facts: the rules' prefilters over the text,
 * the compilation of the query (once per language and linter), the
 * matching. jf_rules_run() then takes each file's matches (jf_matcher_wait())
 * and hands them to the rules on the main thread, in the order of the files:
 * what a rule sees and reports is the same as if the queries ran there.
 *
 * A file is matched when some rule may match in it (a rule of its language
 * the lint runs, active for the file, whose prefilter finds something in
 * it), with one query of every rule of its language the lint runs; the
 * caller keeps the matches of the rules it wants.
 */
#ifndef JF_MATCHER_H
#define JF_MATCHER_H

#include "rules/registry.h"
#include "sources/tree.h"
#include "sources/workspace.h"

typedef struct jf_matcher jf_matcher;

/* A match in a file: its pattern, and its captures in the file's array. */
struct jf_matched {
	uint32_t pattern, first, count;
};

/* A capture, kept as a reference: the file's tree may be released and read
 * again before the rules take the matches (jf_node_find()). */
struct jf_captured {
	const char *name;
	jf_node_ref node;
};

/* What the matcher found in one file. Valid after jf_matcher_wait(). */
typedef struct {
	const jf_file *file;
	bool *may;             /* per rule of the lint's list: it may match in the file */
	bool any;              /* some rule may match: the file was matched */
	const jf_query *query; /* what it was matched with, when it was */
	const jf_rule *const *rule_of; /* per pattern of `query` */
	int error;             /* JF_EQUERY when the query did not compile (message in `message`) */
	const jf_rule *limited; /* a rule whose regular expression gave up at its limits, or NULL */
	char *message;
	JF_ARRAY(struct jf_matched) matches; /* in the order the query found them */
	JF_ARRAY(struct jf_captured) captures;
} jf_file_matches;

/**
 * A matcher; with `threaded`, its thread starts with the first file, else
 * each file's queries run in jf_matcher_add(). Either way the matcher lets
 * go of its copy of a file's tree once the queries ran (with a thread, at the
 * next jf_matcher_add() or jf_matcher_wait(): copies are deleted on the
 * caller's thread). Free with jf_matcher_free().
 */
jf_matcher *jf_matcher_new(bool threaded);
/** Ends the thread (after the file it is working on) and frees everything. NULL is a no-op. */
void jf_matcher_free(jf_matcher *self);

/**
 * Starts a lint: its rules (borrowed, the config's), the queries compiled for
 * them (borrowed; only the matcher uses them until jf_matcher_free()), the
 * config and whether a job is linted.
 */
void jf_matcher_begin(jf_matcher *self, const jf_rule_list *rules, jf_query_cache *queries,
                      const jf_config *config, bool job);
/**
 * Whether some rule the lint runs may match in `src` (of `lang`): active for
 * it, with a prefilter that finds something in its text. A file for which
 * this is false may be added without a tree.
 */
bool jf_matcher_needs_tree(const jf_matcher *self, const jf_source *src, jf_lang lang);
/** Starts the work on `file` (of the lint's workspace; parsed, or one
 * jf_matcher_needs_tree() says needs no tree). */
void jf_matcher_add(jf_matcher *self, const jf_file *file);
/**
 * What the matcher found in `file`, waiting for it; NULL when the file was
 * not added. Owned by the matcher until jf_matcher_end().
 */
const jf_file_matches *jf_matcher_wait(jf_matcher *self, const jf_file *file);
/** Ends the lint: files not begun are dropped, the one being worked on is waited for. */
void jf_matcher_end(jf_matcher *self);

#endif
