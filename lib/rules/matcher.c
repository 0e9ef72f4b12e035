/* matcher.c - rule queries matched on a thread of their own, a file at a time, in order */
#include "rules/matcher.h"

#include <pthread.h>

#include "rules/config.h"

/* A file's matches and how far they are. */
typedef struct {
	jf_file_matches m;
	TSTree *tree;   /* the file's tree, copied for the matcher's thread */
	const char *text;
	enum { QUEUED, MATCHING, DONE } state;
} item;

struct jf_matcher {
	pthread_mutex_t lock;
	pthread_cond_t changed; /* an item was queued, finished or dropped, or the thread must stop */
	pthread_t thread;
	bool started, stop;
	JF_ARRAY(item *) items; /* of this lint, in the order added */
	size_t next;            /* the first item the thread has not taken */
	/* The lint */
	const jf_rule_list *rules;
	jf_query_cache *queries;
	const jf_config *config;
	bool job;
};

static void on_match(void *data, const jf_match *match)
{
	item *it = data;
	struct jf_matched m = { match->pattern, (uint32_t)it->m.captures.size, (uint32_t)match->size };
	for (size_t i = 0; i < match->size; i++)
		jf_array_push(&it->m.captures, match->items[i]);
	jf_array_push(&it->m.matches, m);
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
			continue; /* nothing to match, or matched by jf_matcher_take() */
		it->state = MATCHING;
		pthread_mutex_unlock(&self->lock);
		jf_query_run(it->m.query, ts_tree_root_node(it->tree), it->text, on_match, it);
		pthread_mutex_lock(&self->lock);
		it->state = DONE;
		pthread_cond_broadcast(&self->changed);
	}
	pthread_mutex_unlock(&self->lock);
	return NULL;
}

jf_matcher *jf_matcher_new(void)
{
	jf_matcher *self = jf_xcalloc(1, sizeof(*self));
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
	self->job = job;
}

void jf_matcher_add(jf_matcher *self, const jf_file *file)
{
	size_t n = self->rules->items.size;
	item *it = jf_xcalloc(1, sizeof(*it));
	it->m.file = file;
	it->m.may = jf_xcalloc(n + 1, sizeof(bool));
	it->state = DONE;
	/* Findings in an excluded file are dropped: spare the queries. */
	const jf_source *shown = file->src->origin ? file->src->origin : file->src;
	bool excluded = jf_config__excluded(self->config, shown->fs_path);
	for (size_t r = 0; r < n && !excluded; r++) {
		const jf_rule *rule = self->rules->items.items[r];
		it->m.may[r] = rule->queries[file->lang].path && (self->job || !rule->job_only) &&
		               jf_config__active(self->config, rule, shown->fs_path) &&
		               jf_rule_may_match(rule, file->src->data, file->src->len);
		it->m.any |= it->m.may[r];
	}
	if (it->m.any) {
		jf_error err = JF_ERROR_INIT;
		it->m.error = jf_query_cache_get(self->queries, self->rules, file->lang, it->m.may,
		                                 &it->m.query, &it->m.rule_of, &err);
		if (it->m.error)
			it->m.message = jf_xstrdup(jf_error_message(&err));
		jf_error_clear(&err);
	}
	pthread_mutex_lock(&self->lock);
	if (it->m.query) {
		it->tree = ts_tree_copy(file->tree);
		it->text = file->src->data;
		it->state = QUEUED;
		if (!self->started)
			self->started = pthread_create(&self->thread, NULL, run, self) == 0;
	}
	jf_array_push(&self->items, it);
	pthread_cond_broadcast(&self->changed);
	pthread_mutex_unlock(&self->lock);
}

const jf_file_matches *jf_matcher_find(const jf_matcher *self, const jf_file *file)
{
	/* Only the main thread adds items: no lock needed to read the list here. */
	for (size_t i = 0; i < self->items.size; i++)
		if (self->items.items[i]->m.file == file)
			return &self->items.items[i]->m;
	return NULL;
}

void jf_matcher_wait(jf_matcher *self, const jf_file_matches *m)
{
	item *it = (item *)m; /* the record is the first member of its item */
	pthread_mutex_lock(&self->lock);
	if (it->state == QUEUED && !self->started) {
		/* No thread could be made: match here. */
		it->state = MATCHING;
		pthread_mutex_unlock(&self->lock);
		jf_query_run(it->m.query, ts_tree_root_node(it->tree), it->text, on_match, it);
		pthread_mutex_lock(&self->lock);
		it->state = DONE;
	}
	while (it->state != DONE)
		pthread_cond_wait(&self->changed, &self->lock);
	pthread_mutex_unlock(&self->lock);
	/* The nodes are of the copy: make them nodes of the file's own tree. */
	for (size_t i = 0; i < it->m.captures.size; i++)
		it->m.captures.items[i].node.tree = m->file->tree;
}

void jf_matcher_end(jf_matcher *self)
{
	pthread_mutex_lock(&self->lock);
	/* Drop what the thread has not begun; wait for what it has. */
	self->next = self->items.size;
	for (size_t i = 0; i < self->items.size; i++)
		while (self->items.items[i]->state == MATCHING)
			pthread_cond_wait(&self->changed, &self->lock);
	for (size_t i = 0; i < self->items.size; i++) {
		item *it = self->items.items[i];
		if (it->tree)
			ts_tree_delete(it->tree);
		free(it->m.may);
		free(it->m.message);
		jf_array_release(&it->m.matches);
		jf_array_release(&it->m.captures);
		free(it);
	}
	self->items.size = 0;
	self->next = 0;
	pthread_mutex_unlock(&self->lock);
}
