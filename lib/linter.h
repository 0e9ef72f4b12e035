/* linter.h - the linter: the pipeline of one lint, and what it keeps between lints
 *
 * jf_linter_lint() runs the pipeline on one path: the job file through its
 * format's reader (job/), the image (env/), the files and the facts
 * (sources/, shell/, python/, facts/), the rules (rules/), the suppressions
 * and the config's filter; the findings stay in the report until the linter
 * is freed, with the sources they point into. Each stage's state lives for
 * one lint and is freed at its end.
 */
#ifndef JF_LINTER_H
#define JF_LINTER_H

#include <sys/types.h>

#include "core/error.h"
#include "core/sink.h"
#include "facts/facts.h"
#include "rules/matcher.h"
#include "rules/registry.h"
#include "sources/workspace.h"

/* A file by identity, whatever the path to it. */
typedef struct {
	dev_t dev;
	ino_t ino;
} jf_file_id;

typedef JF_ARRAY(jf_file_id) jf_file_ids;

struct jf_linter {
	jf_options opts;
	unsigned threads; /* opts.threads, or the number of cores */
	jf_report report;
	jf_sources sources; /* every source a diagnostic may point into */
	jf_parsers parsers;
	jf_query_cache queries; /* the rule queries of the config's rules, compiled */
	jf_matcher *matcher;    /* matches them on a second thread */
	struct jf_prefetch *prefetch; /* parses a job's modules ahead on other threads */
	jf_gather_options gather; /* jf_facts_gather()'s tree budget, for its lints */
	jf_error error;
	/* jf_linter_restrict(): the files, by identity and by real path. */
	bool restricted;
	jf_file_ids changed;
	jf_strings changed_real;
	jf_file_ids read;    /* the files of every lint that was not left out */
	jf_strings skipped;  /* jf_linter_skipped() */
	/* What each job's checks covered (core/cover.h), a job a lint, in the
	 * order linted; `covered` holds the lines of the lint under way. */
	jf_cover_jobs coverage;
	jf_strings covered;
	/* Counted over every lint, for the tests: Python files read, and full
	 * walks of their trees; the most trees one lint this linter ran (not
	 * one given back by the cache or another thread) kept at once, and the
	 * most source bytes it had parsed again ahead at once. */
	size_t python_files, python_walks, python_trees_peak, python_ahead_peak;
	/* The fact cache (cache.h): the categories of findings given back, and
	 * how many lints were given back or kept. */
	jf_strings cache_strings;
	size_t cache_hits, cache_stores;
	/* jf_linter_show(): the jobs described so far, in text and as JSON array members. */
	jf_buf shown_text, shown_json;
	size_t shown_jobs;
};

/* What lints left in a linter, moved out of one (a thread's, in
 * jf_linter_lint_all()) or given back by the fact cache, to be appended to
 * another as if it had made it. */
typedef struct {
	jf_report report;
	jf_sources sources;
	jf_file_ids read;
	jf_strings skipped;
	/* The lines of a lint given back by the cache (jf_linter.covered), and
	 * the jobs of a thread's lints (jf_linter.coverage). */
	jf_strings covered;
	jf_cover_jobs coverage;
	jf_strings cache_strings; /* what the findings given back by the cache point into */
	size_t python_files, python_walks, cache_hits;
} jf_lint_result;

/** Moves what `self` collected so far into `out`; `self` is left without it. */
void jf_linter__move(jf_linter *self, jf_lint_result *out);
/** Appends `r` to what `self` collected (files read and skipped checks once each); empties `r`. */
void jf_linter__take(jf_linter *self, jf_lint_result *r);
void jf_lint_result_release(jf_lint_result *r);
/** Adds the file at `fs_path` to the files the linter has read (jf_linter_has_read()). */
void jf_linter__note_read(jf_linter *self, const char *fs_path);
/** The rule `id` as the config `config` sees it (a jf_sink's `rule`). */
const jf_rule *jf_linter__rule_of(const void *config, const char *id);

#endif
