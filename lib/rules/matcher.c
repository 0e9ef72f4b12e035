/* matcher.c - rule queries worked on by a thread of their own, a file at a time, in order */
#include "rules/matcher.h"

#include <pthread.h>

#include "rules/config.h"

/* A file and how far its work is. */
typedef struct {
	jf_file_matches m;   /* first: jf_matcher_wait() hands it out */
	bool *active;        /* per rule: runs for this file, if its prefilter agrees */
	TSTree *tree;        /* the file's tree, copied for the matcher's thread */
	const char *text;
	uint32_t len;
	jf_lang lang;
	enum { QUEUED, WORKING, DONE } state;
} item;

struct jf_matcher {
	pthread_mutex_t lock;
	pthread_cond_t changed; /* an item was queued or finished, or the thread must stop */
	pthread_t thread;
	bool threaded, started, stop;
	JF_ARRAY(item *) items; /* of this lint, in the order added */
	size_t next;            /* the first item the thread has not taken */
	/* The lint */
	const jf_rule_list *rules;
	jf_query_cache *queries;
	bool *runs[JF_LANG_COUNT]; /* per language and rule: the lint runs its query */
	const jf_config *config;
};

static void on_match(void *data, const jf_match *match)
{
	item *it = data;
	struct jf_matched m = { match->pattern, (uint32_t)it->m.captures.size, (uint32_t)match->size };
	for (size_t i = 0; i < match->size; i++) {
		struct jf_captured c = { match->items[i].name, jf_node_ref_of(match->items[i].node) };
		jf_array_push(&it->m.captures, c);
	}
	jf_array_push(&it->m.matches, m);
}

/* The work on one file: the prefilters, the query, the matches. The query
 * cache is touched here only, on one thread at a time. */
static void work(jf_matcher *self, item *it)
{
	jf_file_matches *m = &it->m;
	/* Only the bytes the tree covers can match: a command parsed from a few
	 * ranges of a YAML file is prefiltered on those, not on the whole file. */
	TSNode root = ts_tree_root_node(it->tree);
	uint32_t from = ts_node_start_byte(root), to = ts_node_end_byte(root);
	if (to > it->len || from > to) {
		from = 0;
		to = it->len;
	}
	for (size_t r = 0; r < self->rules->items.size; r++) {
		m->may[r] = it->active[r] && jf_rule_may_match(self->rules->items.items[r], it->lang,
		                                               it->text + from, to - from);
		m->any |= m->may[r];
	}
	if (!m->any)
		return;
	jf_error err = JF_ERROR_INIT;
	m->error = jf_query_cache_get(self->queries, self->rules, it->lang, self->runs[it->lang],
	                              &m->query, &m->rule_of, &err);
	if (m->error)
		m->message = jf_xstrdup(jf_error_message(&err));
	jf_error_clear(&err);
	long limited = m->query ? jf_query_run(m->query, ts_tree_root_node(it->tree), it->text,
	                                       on_match, it)
	                        : -1;
	if (limited >= 0)
		m->limited = m->rule_of[limited];
}

/* The work on one file on the main thread, then its copy of the tree let
 * go: the matches hold references, not nodes. */
static void work_and_drop(jf_matcher *self, item *it)
{
	work(self, it);
	ts_tree_delete(it->tree);
	it->tree = NULL;
}

/*
 * Lets go of the tree copies of the files the thread is done with. A copy
 * shares its subtrees with the file's own tree, which the main thread may
 * release at any time (facts/facts.h), and tree-sitter's release of shared
 * subtrees is not meant to run on two threads at once (its assertions read
 * the counts without atomics): every copy is deleted on the main thread.
 */
static void drop_done(jf_matcher *self)
{
	JF_ARRAY(TSTree *) done = { 0 };
	pthread_mutex_lock(&self->lock);
	for (size_t i = 0; i < self->items.size; i++) {
		item *it = self->items.items[i];
		if (it->state == DONE && it->tree) {
			jf_array_push(&done, it->tree);
			it->tree = NULL;
		}
	}
	pthread_mutex_unlock(&self->lock);
	for (size_t i = 0; i < done.size; i++)
		ts_tree_delete(done.items[i]);
	jf_array_release(&done);
}

static void *run(void *data)
{
	jf_matcher *self = data;
	pthread_mutex_lock(&self->lock);
	for (;;) {
		while (!self->stop && self->next == self->items.size)
			pthread_cond_wait(&self->changed, &self->lock);
		if (self->stop)
			break;
		item *it = self->items.items[self->next++];
		if (it->state != QUEUED)
			continue; /* done by jf_matcher_wait() */
		it->state = WORKING;
		pthread_mutex_unlock(&self->lock);
		work(self, it); /* its tree copy is dropped on the main thread: drop_done() */
		pthread_mutex_lock(&self->lock);
		it->state = DONE;
		pthread_cond_broadcast(&self->changed);
	}
	pthread_mutex_unlock(&self->lock);
	return NULL;
}

jf_matcher *jf_matcher_new(bool threaded)
{
	jf_matcher *self = jf_xcalloc(1, sizeof(*self));
	self->threaded = threaded;
	pthread_mutex_init(&self->lock, NULL);
	pthread_cond_init(&self->changed, NULL);
	return self;
}

void jf_matcher_free(jf_matcher *self)
{
	if (!self)
		return;
	jf_matcher_end(self);
	if (self->started) {
		pthread_mutex_lock(&self->lock);
		self->stop = true;
		pthread_cond_broadcast(&self->changed);
		pthread_mutex_unlock(&self->lock);
		pthread_join(self->thread, NULL);
	}
	jf_array_release(&self->items);
	for (int l = 0; l < JF_LANG_COUNT; l++)
		free(self->runs[l]);
	pthread_cond_destroy(&self->changed);
	pthread_mutex_destroy(&self->lock);
	free(self);
}

void jf_matcher_begin(jf_matcher *self, const jf_rule_list *rules, jf_query_cache *queries,
                      const jf_config *config, bool job)
{
	jf_matcher_end(self);
	self->rules = rules;
	self->queries = queries;
	self->config = config;
	size_t n = rules->items.size;
	for (int l = 0; l < JF_LANG_COUNT; l++) {
		free(self->runs[l]);
		self->runs[l] = jf_xcalloc(n + 1, sizeof(bool));
		for (size_t r = 0; r < n; r++) {
			const jf_rule *rule = rules->items.items[r];
			self->runs[l][r] = rule->queries[l].path && jf_config__runs(config, rule, job);
		}
	}
}

/* Whether some rule the lint runs on `src` (of `lang`) is active for it (`active`, per rule: may be NULL). */
static bool any_active(const jf_matcher *self, const jf_source *src, jf_lang lang, bool *active)
{
	const jf_source *shown = src->origin ? src->origin : src;
	if (jf_config__excluded(self->config, shown->fs_path))
		return false; /* findings in an excluded file are dropped: spare the queries */
	bool any = false;
	for (size_t r = 0; r < self->rules->items.size; r++) {
		bool on = self->runs[lang][r] &&
		          jf_config__active(self->config, self->rules->items.items[r], shown->fs_path);
		if (active)
			active[r] = on;
		any |= on;
	}
	return any;
}

bool jf_matcher_needs_tree(const jf_matcher *self, const jf_source *src, jf_lang lang)
{
	size_t n = self->rules->items.size;
	bool *active = jf_xcalloc(n + 1, sizeof(bool)), may = false;
	if (any_active(self, src, lang, active))
		for (size_t r = 0; r < n && !may; r++)
			may = active[r] && jf_rule_may_match(self->rules->items.items[r], lang, src->data,
			                                     src->len);
	free(active);
	return may;
}

void jf_matcher_add(jf_matcher *self, const jf_file *file)
{
	if (self->threaded)
		drop_done(self);
	size_t n = self->rules->items.size;
	item *it = jf_xcalloc(1, sizeof(*it));
	it->m.file = file;
	it->m.may = jf_xcalloc(n + 1, sizeof(bool));
	it->active = jf_xcalloc(n + 1, sizeof(bool));
	it->text = file->src->data;
	it->len = file->src->len;
	it->lang = file->lang;
	/* A file added without a tree is one no rule may match in
	 * (jf_matcher_needs_tree()): there is nothing to run. */
	bool any = file->tree && any_active(self, file->src, file->lang, it->active);
	it->state = DONE;
	if (any) {
		it->tree = ts_tree_copy(file->tree);
		it->state = QUEUED;
	}
	if (any && !self->threaded) {
		/* One thread: the work is done now, while the file surely has its tree. */
		work_and_drop(self, it);
		it->state = DONE;
	}
	pthread_mutex_lock(&self->lock);
	if (any && self->threaded && !self->started)
		self->started = pthread_create(&self->thread, NULL, run, self) == 0;
	jf_array_push(&self->items, it);
	pthread_cond_broadcast(&self->changed);
	pthread_mutex_unlock(&self->lock);
}

const jf_file_matches *jf_matcher_wait(jf_matcher *self, const jf_file *file)
{
	item *it = NULL;
	pthread_mutex_lock(&self->lock);
	for (size_t i = 0; i < self->items.size && !it; i++)
		if (self->items.items[i]->m.file == file)
			it = self->items.items[i];
	if (it && it->state == QUEUED && !self->started) {
		/* No thread (none wanted, or none could be made): the work is done here. */
		it->state = WORKING;
		pthread_mutex_unlock(&self->lock);
		work_and_drop(self, it);
		pthread_mutex_lock(&self->lock);
		it->state = DONE;
	}
	while (it && it->state != DONE)
		pthread_cond_wait(&self->changed, &self->lock);
	pthread_mutex_unlock(&self->lock);
	if (self->threaded)
		drop_done(self);
	return it ? &it->m : NULL;
}

void jf_matcher_end(jf_matcher *self)
{
	pthread_mutex_lock(&self->lock);
	/* Drop what the thread has not begun; wait for what it has. */
	self->next = self->items.size;
	for (size_t i = 0; i < self->items.size; i++)
		while (self->items.items[i]->state == WORKING)
			pthread_cond_wait(&self->changed, &self->lock);
	for (size_t i = 0; i < self->items.size; i++) {
		item *it = self->items.items[i];
		if (it->tree)
			ts_tree_delete(it->tree);
		free(it->m.may);
		free(it->active);
		free(it->m.message);
		jf_array_release(&it->m.matches);
		jf_array_release(&it->m.captures);
		free(it);
	}
	self->items.size = 0;
	self->next = 0;
	pthread_mutex_unlock(&self->lock);
}
