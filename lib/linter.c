/* linter.c - the linter: the pipeline of one lint, from the path to the findings
 *
 * job (job/) -> image (env/) -> workspace and facts (sources/, shell/,
 * python/, facts/) -> rules (rules/) -> suppressions and the config's filter
 * -> the report, which the linter keeps until it is freed.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "linter.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <pthread.h>
#include <sys/stat.h>

#include "cache.h"
#include "core/confine.h"
#include "core/deps.h"
#include "core/path.h"
#include "env/image.h"
#include "facts/facts.h"
#include "job/job.h"
#include "rules/config.h"
#include "rules/record.h"
#include "rules/run.h"
#include "rules/suppress.h"
#include "sources/prefetch.h"

static void *ts_malloc(size_t n)
{
	return jf_xmalloc(n);
}

static void *ts_calloc(size_t n, size_t size)
{
	return jf_xcalloc(n, size);
}

static void *ts_realloc(void *p, size_t n)
{
	return jf_xrealloc(p, n);
}

static void set_allocator(void)
{
	ts_set_allocator(ts_malloc, ts_calloc, ts_realloc, free);
}

/* The source bytes whose trees a lint keeps: twice the largest file read (the
 * checks' pass reads the records the gather took of each file and parses
 * again only the few files a check still reads the tree of; a file above the
 * budget would be parsed again by each reader), and at least 512 KiB, so that
 * a small job is parsed once; the trees kept are in proportion to the
 * largest file, not to the job. Or exactly JOBFIX_TREE_BUDGET bytes (0: each
 * file's tree is released as soon as it may be, which the tests use to read
 * every file again). */
#define JF_TREE_BUDGET_FLOOR ((size_t)512 << 10)
static jf_gather_options gather_options(void)
{
	const char *env = getenv("JOBFIX_TREE_BUDGET");
	char *end;
	unsigned long long n = env && *env ? strtoull(env, &end, 10) : 0;
	if (env && *env && !*end)
		return (jf_gather_options){ (size_t)n, false, NULL };
	return (jf_gather_options){ JF_TREE_BUDGET_FLOOR, true, NULL };
}

jf_linter *jf_linter_new(const jf_options *opts)
{
	static pthread_once_t allocator_once = PTHREAD_ONCE_INIT;
	pthread_once(&allocator_once, set_allocator);
	jf_linter *l = jf_xcalloc(1, sizeof(*l));
	jf_options defaults = JF_OPTIONS_INIT;
	l->opts = defaults;
	if (opts && opts->version < 2) /* the caller's struct ends before `threads` */
		memcpy(&l->opts, opts, offsetof(jf_options, threads));
	else if (opts && opts->version < 3) /* before `coverage` */
		memcpy(&l->opts, opts, offsetof(jf_options, coverage));
	else if (opts)
		l->opts = *opts;
	l->threads = l->opts.threads ? l->opts.threads : jf_cores();
	l->matcher = jf_matcher_new(l->threads > 1);
	l->prefetch = l->threads > 1 ? jf_prefetch_new(l->threads - 1) : NULL;
	l->gather = gather_options();
	l->shown_text = l->shown_json = (jf_buf)JF_BUF_INIT;
	return l;
}

void jf_linter_free(jf_linter *self)
{
	if (!self)
		return;
	jf_report_release(&self->report);
	jf_sources_release(&self->sources);
	jf_parsers_release(&self->parsers);
	jf_matcher_free(self->matcher);
	jf_prefetch_free(self->prefetch);
	jf_query_cache_release(&self->queries);
	jf_error_clear(&self->error);
	jf_linter_restrict(self, NULL);
	jf_array_release(&self->read);
	jf_strings_release(&self->skipped);
	jf_cover_jobs_release(&self->coverage);
	jf_strings_release(&self->covered);
	if (self->cache_stores)
		jf_cache_prune(self->opts.cache_dir, JF_CACHE_MAX_BYTES, JF_CACHE_MAX_ENTRIES);
	jf_strings_release(&self->cache_strings);
	jf_buf_release(&self->shown_text);
	jf_buf_release(&self->shown_json);
	free(self);
}

/* Changed files */

static bool file_id_of(const char *path, jf_file_id *out)
{
	struct stat st;
	if (!path || stat(path, &st) != 0)
		return false;
	*out = (jf_file_id){ st.st_dev, st.st_ino };
	return true;
}

static bool ids_have(const jf_file_ids *ids, jf_file_id id)
{
	for (size_t i = 0; i < ids->size; i++)
		if (ids->items[i].dev == id.dev && ids->items[i].ino == id.ino)
			return true;
	return false;
}

void jf_linter_restrict(jf_linter *self, const char *const *files)
{
	jf_array_release(&self->changed);
	jf_strings_release(&self->changed_real);
	self->restricted = files != NULL;
	for (size_t i = 0; files && files[i]; i++) {
		jf_file_id id;
		char *real = realpath(files[i], NULL);
		if (!file_id_of(files[i], &id) || !real) {
			free(real);
			continue;
		}
		jf_array_push(&self->changed, id);
		jf_array_push(&self->changed_real, real);
	}
}

void jf_linter__note_read(jf_linter *self, const char *fs_path)
{
	jf_file_id id;
	if (file_id_of(fs_path, &id) && !ids_have(&self->read, id))
		jf_array_push(&self->read, id);
}

int jf_linter_has_read(const jf_linter *self, const char *path)
{
	jf_file_id id;
	return file_id_of(path, &id) && ids_have(&self->read, id);
}

/* Whether the job may read a changed file: one is its spec, or lies in its code folder. */
static bool may_read_changed(const jf_linter *self, const jf_job *job)
{
	jf_file_id id;
	if (file_id_of(job->file->fs_path, &id) && ids_have(&self->changed, id))
		return true;
	char *code = job->code_dir ? realpath(job->code_dir, NULL) : NULL;
	bool found = false;
	for (size_t i = 0; code && i < self->changed_real.size && !found; i++)
		found = jf_path_under(self->changed_real.items[i], code) != NULL;
	free(code);
	return found;
}

/* Whether one of `sources` is a changed file. */
static bool read_changed(const jf_linter *self, const jf_sources *sources)
{
	jf_file_id id;
	for (size_t i = 0; i < sources->size; i++)
		if (file_id_of(sources->items[i]->fs_path, &id) && ids_have(&self->changed, id))
			return true;
	return false;
}

static bool keep_none(void *data, jf_diag *d)
{
	(void)data;
	(void)d;
	return false;
}

const char *jf_linter_error(const jf_linter *self)
{
	return jf_error_message(&self->error);
}

const char *jf_linter_skipped(const jf_linter *self, size_t i)
{
	return i < self->skipped.size ? self->skipped.items[i] : NULL;
}

const jf_rule *jf_linter__rule_of(const void *config, const char *id)
{
	return jf_config__find_rule(config, id);
}

/* The workspace's hook: a file is parsed, its rule queries can start. */
static void match_rules(void *matcher, const jf_file *file)
{
	jf_matcher_add(matcher, file);
}

/* What a file given to lint is: JF_LANG_YAML stands for a job file of any format. */
static jf_lang lang_of_file(const char *path)
{
	/* A Python file is Python, whatever YAML or #SBATCH lines its strings hold. */
	if (jf_str_ends(path, ".py"))
		return JF_LANG_PYTHON;
	if (jf_str_ends(path, ".yaml") || jf_str_ends(path, ".yml") || jf_job_sniff_file(path))
		return JF_LANG_YAML;
	if (jf_str_ends(path, ".sh") || jf_str_ends(path, ".bash") || jf_str_ends(path, ".sbatch") ||
	    jf_str_ends(path, ".slurm"))
		return JF_LANG_BASH;
	jf_deps_note(JF_DEP_FILE, path);
	FILE *f = fopen(path, "rb");
	char line[128] = "";
	if (f) {
		if (!fgets(line, sizeof line, f))
			line[0] = '\0';
		fclose(f);
	}
	if (jf_str_starts(line, "#!")) {
		if (strstr(line, "python"))
			return JF_LANG_PYTHON;
		if (strstr(line, "sh"))
			return JF_LANG_BASH;
	}
	return JF_LANG_NONE;
}

/* The state of one lint, each stage's, freed at its end. */
typedef struct {
	jf_sink sink;
	jf_job *job;
	jf_image *image;
	jf_workspace ws;
	jf_facts facts;
	jf_sources sources; /* the lint's sources, job and workspace, once it is over */
} lint;

/* The Python files the lint read, and what it cost, for the tests. */
static void count_python(jf_linter *self, const jf_workspace *ws)
{
	for (size_t i = 0; i < ws->files.size; i++) {
		const jf_file *f = ws->files.items[i];
		if (f->lang != JF_LANG_PYTHON)
			continue;
		self->python_files++;
		self->python_walks += f->walks;
	}
}

/* The coverage's line of the files a job's lint read: Python files and shell
 * scripts (not the job's own command). */
static char *files_line(const jf_workspace *ws)
{
	size_t python = 0, shell = 0;
	for (size_t i = 0; i < ws->files.size; i++) {
		python += ws->files.items[i]->lang == JF_LANG_PYTHON;
		shell += ws->files.items[i]->lang == JF_LANG_BASH &&
		         ws->files.items[i]->role != JF_ROLE_COMMAND;
	}
	return jf_cover_files_line(python, shell);
}

static int lint_path(jf_linter *self, const char *path)
{
	const char *broken = jf_rules_builtin_error();
	if (broken)
		return jf_error_set(&self->error, JF_EQUERY, "%s", broken);
	if (jf_path_is_dir(path))
		return jf_error_set(&self->error, JF_EIO, "cannot lint '%s': Is a directory", path);
	struct stat st;
	if (stat(path, &st) != 0)
		return jf_error_set(&self->error, JF_EIO, "cannot read '%s': %s", path,
		                    strerror(errno));
	/* A FIFO or a device would block or never end: only regular files are read. */
	if (!S_ISREG(st.st_mode))
		return jf_error_set(&self->error, JF_EIO, "cannot lint '%s': not a regular file",
		                    path);
	const jf_config *cfg = self->opts.config;
	if (jf_config__excluded(cfg, path))
		return 0; /* the config excludes it: nothing to lint */
	jf_lang lang = lang_of_file(path);
	if (lang == JF_LANG_NONE)
		return jf_error_set(&self->error, JF_ENOTFOUND,
		                    "cannot tell what '%s' is: name job specs *.yaml, Python *.py and "
		                    "shell scripts *.sh",
		                    path);
	lint L = { .sink = { &self->report, jf_linter__rule_of, cfg, &self->skipped,
	                     lang == JF_LANG_YAML ? path : NULL,
	                     lang == JF_LANG_YAML ? &self->covered : NULL } };
	jf_workspace_init(&L.ws, &self->parsers, &L.sink);
	L.ws.on_parsed = match_rules;
	L.ws.on_parsed_data = self->matcher;
	L.ws.prefetch = self->prefetch;
	size_t first = self->report.diags.size;
	int rc = 0;
	bool left_out = false; /* a job that reads no changed file (jf_linter_restrict) */
	jf_matcher_begin(self->matcher, jf_config__rules(cfg), &self->queries, cfg,
	                 lang == JF_LANG_YAML);
	if (lang == JF_LANG_YAML) {
		rc = jf_job_load(path, path, jf_config__images(cfg), &L.sink, &L.job, &self->error);
		left_out = !rc && self->restricted && !may_read_changed(self, L.job);
	} else if (!jf_workspace_load(&L.ws, path, path, lang, JF_ROLE_FILE, NULL, 0) &&
	           !self->report.diags.size) {
		rc = jf_error_set(&self->error, JF_EIO, "cannot read '%s'", path);
	}
	L.image = jf_image_resolve(L.job, &L.sink);
	L.facts = (jf_facts){ .job = L.job, .image = L.image, .ws = &L.ws };
	jf_records *records = jf_records_new(cfg, L.job, L.image);
	jf_file_cache *kept = jf_file_cache_new(self, L.job, records);
	jf_facts_recorder recorder = kept ? jf_file_cache_recorder(kept) : jf_records_recorder(records);
	L.ws.kept = jf_file_cache_kept(kept);
	jf_gather_options gather = self->gather;
	gather.recorder = &recorder;
	if (!rc && !left_out)
		jf_facts_gather(&L.facts, L.job, L.image, &L.ws, &gather);
	if (kept && !rc && !left_out) /* written while the checks run */
		jf_file_cache_store(kept, &L.facts);
	if (L.job)
		jf_job_keep_sources(L.job, &L.sources);
	jf_workspace_keep_sources(&L.ws, &L.sources);
	left_out = left_out || (!rc && self->restricted && L.job && !read_changed(self, &L.sources));
	if (!rc && !left_out)
		rc = jf_rules_run(&L.facts, records, cfg, self->matcher, &L.sink, &self->error);
	if (left_out)
		jf_report_filter(&self->report, first, keep_none, NULL);
	else
		jf_suppress_finish(&L.facts, cfg, &L.sink, first);
	if (L.sink.covered && !rc && !left_out)
		jf_array_push(L.sink.covered, files_line(&L.ws));
	count_python(self, &L.ws);
	if (jf_facts_trees_peak(&L.facts) > self->python_trees_peak)
		self->python_trees_peak = jf_facts_trees_peak(&L.facts);
	if (jf_facts_ahead_peak(&L.facts) > self->python_ahead_peak)
		self->python_ahead_peak = jf_facts_ahead_peak(&L.facts);
	jf_matcher_end(self->matcher);
	if (self->prefetch)
		jf_prefetch_drop(self->prefetch);
	jf_facts_release(&L.facts);
	jf_file_cache_free(kept);
	jf_records_free(records);
	jf_workspace_release(&L.ws);
	jf_image_free(L.image);
	jf_job_free(L.job);
	if (left_out) {
		/* Nothing points into the files of a job left out: let them go. */
		jf_sources_release(&L.sources);
		return 0;
	}
	for (size_t i = 0; i < L.sources.size; i++) {
		jf_linter__note_read(self, L.sources.items[i]->fs_path);
		jf_array_push(&self->sources, L.sources.items[i]);
	}
	jf_array_release(&L.sources);
	return rc;
}

int jf_linter_lint(jf_linter *self, const char *path)
{
	/* Everything the lint reads lies in the path's repository (core/confine.h). */
	jf_confine in;
	jf_confine_init(&in, path, jf_config__allow_outside(self->opts.config));
	jf_confine_enter(&in);
	jf_cache_key key;
	bool keep = jf_cache_key_of(self, path, &key);
	int rc = 0;
	/* What this lint skips and covers, whatever earlier lints skipped too;
	 * the cache gives back both. */
	jf_strings skipped = self->skipped;
	memset(&self->skipped, 0, sizeof self->skipped);
	jf_strings_release(&self->covered);
	if (!keep || !jf_cache_replay(self, &key, &in)) {
		size_t first_diag = self->report.diags.size, first_source = self->sources.size;
		size_t files = self->python_files, walks = self->python_walks;
		jf_deps deps;
		jf_deps_init(&deps);
		if (keep)
			jf_deps_enter(&deps);
		rc = lint_path(self, path);
		jf_deps_leave();
		if (keep && rc == 0)
			jf_cache_store(self, &key, &in, &deps, first_diag, first_source, &self->skipped,
			               &self->covered, self->python_files - files,
			               self->python_walks - walks);
		jf_deps_release(&deps);
	}
	if (self->covered.size) {
		jf_cover_job job = { jf_xstrdup(path), self->covered, { 0 } };
		for (size_t i = 0; i < self->skipped.size; i++)
			jf_array_push(&job.skipped, jf_xstrdup(self->skipped.items[i]));
		jf_array_push(&self->coverage, job);
		memset(&self->covered, 0, sizeof self->covered);
	}
	jf_strings_merge(&skipped, &self->skipped);
	self->skipped = skipped;
	jf_confine_leave();
	jf_confine_release(&in);
	if (rc < 0)
		jf_report_add_failure(&self->report, jf_linter_error(self));
	return rc;
}

/* What lints left, moved between linters (a thread's, the fact cache's) */

void jf_linter__move(jf_linter *self, jf_lint_result *out)
{
	*out = (jf_lint_result){ self->report,        self->sources,      self->read,
		                 self->skipped,       self->covered,      self->coverage,
		                 self->cache_strings, self->python_files, self->python_walks,
		                 self->cache_hits };
	memset(&self->report, 0, sizeof self->report);
	memset(&self->sources, 0, sizeof self->sources);
	memset(&self->read, 0, sizeof self->read);
	memset(&self->skipped, 0, sizeof self->skipped);
	memset(&self->covered, 0, sizeof self->covered);
	memset(&self->coverage, 0, sizeof self->coverage);
	memset(&self->cache_strings, 0, sizeof self->cache_strings);
	self->python_files = self->python_walks = self->cache_hits = 0;
}

void jf_linter__take(jf_linter *self, jf_lint_result *r)
{
	jf_array_extend(&self->report.diags, r->report.diags.items, r->report.diags.size);
	jf_array_extend(&self->report.failures, r->report.failures.items,
	                r->report.failures.size);
	jf_array_extend(&self->sources, r->sources.items, r->sources.size);
	for (size_t i = 0; i < r->read.size; i++)
		if (!ids_have(&self->read, r->read.items[i]))
			jf_array_push(&self->read, r->read.items[i]);
	jf_strings_merge(&self->skipped, &r->skipped);
	jf_array_extend(&self->covered, r->covered.items, r->covered.size);
	jf_array_extend(&self->coverage, r->coverage.items, r->coverage.size);
	jf_array_extend(&self->cache_strings, r->cache_strings.items, r->cache_strings.size);
	self->python_files += r->python_files;
	self->python_walks += r->python_walks;
	self->cache_hits += r->cache_hits;
	/* The items are self's now: only the arrays go. */
	jf_array_release(&r->report.diags);
	jf_array_release(&r->report.failures);
	jf_array_release(&r->sources);
	jf_array_release(&r->read);
	jf_array_release(&r->covered);
	jf_array_release(&r->coverage);
	jf_array_release(&r->cache_strings);
	memset(r, 0, sizeof *r);
}

void jf_lint_result_release(jf_lint_result *r)
{
	jf_report_release(&r->report);
	jf_sources_release(&r->sources);
	jf_array_release(&r->read);
	jf_strings_release(&r->skipped);
	jf_strings_release(&r->covered);
	jf_cover_jobs_release(&r->coverage);
	jf_strings_release(&r->cache_strings);
	memset(r, 0, sizeof *r);
}

/* Several paths at once */

/* The lint of one path of a batch: what it left, and whether it failed. */
typedef struct {
	jf_lint_result result;
	int rc;
	char *error;
} lint_slot;

typedef struct {
	const jf_linter *parent;
	const char *const *paths;
	lint_slot *slots;
	size_t n;
	size_t next; /* the next path a worker takes, atomically */
} lint_batch;

/* A thread of jf_linter_lint_all(): a linter of its own lints the paths it takes. */
static void *lint_worker(void *data)
{
	lint_batch *b = data;
	jf_options opts = b->parent->opts;
	opts.threads = 1; /* the batch already keeps every core busy */
	jf_linter *w = jf_linter_new(&opts);
	w->restricted = b->parent->restricted;
	jf_array_extend(&w->changed, b->parent->changed.items, b->parent->changed.size);
	for (size_t i = 0; i < b->parent->changed_real.size; i++)
		jf_array_push(&w->changed_real, jf_xstrdup(b->parent->changed_real.items[i]));
	for (;;) {
		size_t i = __atomic_fetch_add(&b->next, 1, __ATOMIC_RELAXED);
		if (i >= b->n)
			break;
		lint_slot *slot = &b->slots[i];
		slot->rc = jf_linter_lint(w, b->paths[i]);
		if (slot->rc < 0)
			slot->error = jf_xstrdup(jf_linter_error(w));
		jf_linter__move(w, &slot->result);
	}
	jf_linter_free(w);
	return NULL;
}

int jf_linter_lint_all(jf_linter *self, const char *const *paths, size_t n,
                       jf_lint_error_fn *on_error, void *data)
{
	int first = 0;
	if (self->threads < 2 || n < 2) {
		for (size_t i = 0; i < n; i++) {
			int rc = jf_linter_lint(self, paths[i]);
			if (rc < 0 && on_error)
				on_error(data, paths[i], jf_linter_error(self));
			if (rc < 0 && !first)
				first = rc;
		}
		return first;
	}
	lint_batch b = { self, paths, jf_xcalloc(n, sizeof(lint_slot)), n, 0 };
	size_t extra = (self->threads < n ? self->threads : n) - 1, started = 0;
	pthread_t *threads = jf_xcalloc(extra, sizeof(pthread_t));
	while (started < extra && pthread_create(&threads[started], NULL, lint_worker, &b) == 0)
		started++;
	lint_worker(&b); /* this thread is one of the workers */
	for (size_t t = 0; t < started; t++)
		pthread_join(threads[t], NULL);
	free(threads);
	char *first_error = NULL;
	for (size_t i = 0; i < n; i++) {
		lint_slot *slot = &b.slots[i];
		jf_linter__take(self, &slot->result);
		if (slot->rc < 0 && on_error)
			on_error(data, paths[i], slot->error);
		if (slot->rc < 0 && !first) {
			first = slot->rc;
			first_error = slot->error;
		} else {
			free(slot->error);
		}
	}
	if (first_error)
		jf_error_set(&self->error, first, "%s", first_error);
	free(first_error);
	free(b.slots);
	return first;
}

size_t jf_linter_count(const jf_linter *self, jf_severity min)
{
	size_t n = 0;
	for (size_t i = 0; i < self->report.diags.size; i++)
		n += self->report.diags.items[i].severity >= min;
	return n;
}
