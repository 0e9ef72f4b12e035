/* prefetch.c - a pool of threads that read and parse the files a lint is about to load */
#include "sources/prefetch.h"

#include <pthread.h>

#include "core/confine.h"
#include "core/deps.h"
#include "core/strmap.h"

typedef struct jf_prefetch_task {
	char *fs_path, *display_path; /* NULL for a parse of a source read before */
	const jf_source *given;       /* that source (borrowed), or NULL */
	jf_lang lang;
	const jf_confine *confine; /* of the thread that submitted it */
	jf_deps *deps;             /* the same */
	const jf_kept_files *kept; /* the workspace's: a kept file is not parsed */
	enum { QUEUED, WORKING, DONE, TAKEN } state;
	bool unparsed; /* read, and not parsed: the file is kept */
	bool cancelled; /* no one will take it: its tree goes when it is done */
	jf_source *src;
	TSTree *tree;
} task;

struct jf_prefetch {
	pthread_mutex_t lock;
	pthread_cond_t changed; /* a task was queued or finished, or the threads must stop */
	pthread_t *threads;
	unsigned nthreads, started;
	bool stop;
	JF_ARRAY(task *) tasks; /* in the order submitted */
	size_t next;            /* the first task that may still be queued */
	jf_strmap by_path;      /* fs_path -> task */
};

/* Reads and parses `t` with `parsers`, as the thread that submitted it may read. */
static void work(task *t, jf_parsers *parsers)
{
	if (t->given) { /* in memory: no file is read */
		t->tree = jf_parse(parsers, t->lang, t->given, NULL, 0);
		return;
	}
	const jf_confine *was = jf_confine_current();
	jf_deps *was_deps = jf_deps_current();
	jf_confine_enter(t->confine);
	jf_deps_enter(t->deps);
	t->src = jf_source_load(t->fs_path, t->display_path);
	bool kept = t->lang == JF_LANG_PYTHON && t->src->status == JF_SOURCE_OK && t->kept &&
	            t->kept->has(t->kept->data, t->src);
	if (t->src->status == JF_SOURCE_OK && !kept)
		t->tree = jf_parse(parsers, t->lang, t->src, NULL, 0);
	t->unparsed = kept;
	jf_confine_enter(was);
	jf_deps_enter(was_deps);
}

/* The first queued task, marked WORKING, or NULL; with the lock held. */
static task *next_queued(jf_prefetch *self)
{
	while (self->next < self->tasks.size && self->tasks.items[self->next]->state != QUEUED)
		self->next++;
	if (self->next == self->tasks.size)
		return NULL;
	task *t = self->tasks.items[self->next++];
	t->state = WORKING;
	return t;
}

/* Frees what `t` made and marks it taken; with the lock held, `t` not being worked. */
static void forget(task *t)
{
	if (t->tree)
		ts_tree_delete(t->tree);
	jf_source_free(t->src);
	t->tree = NULL;
	t->src = NULL;
	t->state = TAKEN;
}

/* Works `t` with the lock released, and marks it done. */
static void work_unlocked(jf_prefetch *self, task *t, jf_parsers *parsers)
{
	pthread_mutex_unlock(&self->lock);
	work(t, parsers);
	pthread_mutex_lock(&self->lock);
	t->state = DONE;
	if (t->cancelled)
		forget(t);
	pthread_cond_broadcast(&self->changed);
}

/* Waits until `t` is done, working it here when no thread has begun it and
 * the next queued files meanwhile; with the lock held. */
static void wait_done(jf_prefetch *self, task *t, jf_parsers *parsers)
{
	if (t->state == QUEUED) {
		t->state = WORKING;
		work_unlocked(self, t, parsers);
	}
	while (t->state == WORKING) {
		/* Parsed elsewhere: meanwhile, parse the next file in the queue here. */
		task *other = next_queued(self);
		if (other)
			work_unlocked(self, other, parsers);
		else
			pthread_cond_wait(&self->changed, &self->lock);
	}
}

static void *run(void *data)
{
	jf_prefetch *self = data;
	jf_parsers parsers = { 0 };
	pthread_mutex_lock(&self->lock);
	for (;;) {
		task *t = NULL;
		while (!self->stop && !(t = next_queued(self)))
			pthread_cond_wait(&self->changed, &self->lock);
		if (self->stop)
			break;
		work_unlocked(self, t, &parsers);
	}
	pthread_mutex_unlock(&self->lock);
	jf_parsers_release(&parsers);
	return NULL;
}

jf_prefetch *jf_prefetch_new(unsigned threads)
{
	jf_prefetch *self = jf_xcalloc(1, sizeof(*self));
	pthread_mutex_init(&self->lock, NULL);
	pthread_cond_init(&self->changed, NULL);
	self->nthreads = threads;
	self->threads = jf_xcalloc(threads ? threads : 1, sizeof(pthread_t));
	return self;
}

static void free_task(task *t)
{
	forget(t);
	free(t->fs_path);
	free(t->display_path);
	free(t);
}

void jf_prefetch_drop(jf_prefetch *self)
{
	pthread_mutex_lock(&self->lock);
	for (size_t i = 0; i < self->tasks.size; i++) {
		task *t = self->tasks.items[i];
		while (t->state == WORKING)
			pthread_cond_wait(&self->changed, &self->lock);
		free_task(t);
	}
	self->tasks.size = 0;
	self->next = 0;
	jf_strmap_release(&self->by_path);
	pthread_mutex_unlock(&self->lock);
}

void jf_prefetch_free(jf_prefetch *self)
{
	if (!self)
		return;
	jf_prefetch_drop(self);
	pthread_mutex_lock(&self->lock);
	self->stop = true;
	pthread_cond_broadcast(&self->changed);
	pthread_mutex_unlock(&self->lock);
	for (unsigned i = 0; i < self->started; i++)
		pthread_join(self->threads[i], NULL);
	jf_array_release(&self->tasks);
	free(self->threads);
	pthread_cond_destroy(&self->changed);
	pthread_mutex_destroy(&self->lock);
	free(self);
}

/* Queues `t` for the threads, starting them with the first; with the lock held. */
static void queue(jf_prefetch *self, task *t)
{
	jf_array_push(&self->tasks, t);
	while (self->started < self->nthreads &&
	       pthread_create(&self->threads[self->started], NULL, run, self) == 0)
		self->started++;
	pthread_cond_broadcast(&self->changed);
}

void jf_prefetch_submit(jf_prefetch *self, const char *fs_path, const char *display_path,
                        jf_lang lang, const jf_kept_files *kept)
{
	pthread_mutex_lock(&self->lock);
	if (!jf_strmap_has(&self->by_path, fs_path)) {
		task *t = jf_xcalloc(1, sizeof(*t));
		t->fs_path = jf_xstrdup(fs_path);
		t->display_path = jf_xstrdup(display_path);
		t->lang = lang;
		t->confine = jf_confine_current();
		t->deps = jf_deps_current();
		t->kept = kept;
		jf_strmap_put(&self->by_path, fs_path, strlen(fs_path), t);
		queue(self, t);
	}
	pthread_mutex_unlock(&self->lock);
}

jf_prefetch_task *jf_prefetch_parse_ahead(jf_prefetch *self, const jf_source *src, jf_lang lang)
{
	task *t = jf_xcalloc(1, sizeof(*t));
	t->given = src;
	t->lang = lang;
	pthread_mutex_lock(&self->lock);
	queue(self, t);
	pthread_mutex_unlock(&self->lock);
	return t;
}

TSTree *jf_prefetch_parsed(jf_prefetch *self, jf_parsers *parsers, jf_prefetch_task *t)
{
	pthread_mutex_lock(&self->lock);
	wait_done(self, t, parsers);
	TSTree *tree = t->tree;
	t->tree = NULL;
	t->state = TAKEN;
	pthread_mutex_unlock(&self->lock);
	return tree;
}

void jf_prefetch_cancel(jf_prefetch *self, jf_prefetch_task *t)
{
	pthread_mutex_lock(&self->lock);
	if (t->state == WORKING)
		t->cancelled = true;
	else
		forget(t);
	pthread_mutex_unlock(&self->lock);
}

bool jf_prefetch_take(jf_prefetch *self, jf_parsers *parsers, const char *fs_path,
                      const char *display_path, jf_lang lang, jf_source **src, TSTree **tree,
                      bool *unparsed)
{
	pthread_mutex_lock(&self->lock);
	task *t = jf_strmap_get(&self->by_path, fs_path, strlen(fs_path));
	if (t)
		wait_done(self, t, parsers);
	bool found = t && t->state == DONE && t->lang == lang &&
	             !strcmp(t->display_path, display_path);
	if (found) {
		*src = t->src;
		*tree = t->tree;
		*unparsed = t->unparsed;
		t->src = NULL;
		t->tree = NULL;
		t->state = TAKEN;
	}
	pthread_mutex_unlock(&self->lock);
	return found;
}
