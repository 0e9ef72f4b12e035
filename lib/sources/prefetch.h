/* prefetch.h - files a lint is about to read, read and parsed ahead on other threads
 *
 * While the facts of a job's Python files are gathered, the modules each one
 * imports are handed here (jf_prefetch_submit) before the workspace loads
 * them; the pool's threads read and parse them, each with parsers of its
 * own, and jf_workspace_load() takes the source and tree (jf_prefetch_take)
 * instead of making them. What the lint reads and the order in which the
 * workspace adds files stay those of a lint without the pool: only where the
 * parsing happens changes. A file waited for that no thread has begun is
 * read by the thread that waits; while one is being parsed elsewhere, the
 * waiting thread parses the next in the queue. A file whose tree was
 * released, about to be read again, is parsed again ahead the same way
 * (jf_prefetch_parse_ahead).
 */
#ifndef JF_PREFETCH_H
#define JF_PREFETCH_H

#include "sources/workspace.h"

typedef struct jf_prefetch jf_prefetch;

/** A pool of `threads` threads, started with the first file submitted. */
jf_prefetch *jf_prefetch_new(unsigned threads);
/** Ends the threads and drops what was not taken; NULL is a no-op. */
void jf_prefetch_free(jf_prefetch *self);
/**
 * Queues `fs_path`, to be read as `display_path` and parsed as `lang`, with
 * the folders this thread may read (core/confine.h); a file `kept` has (NULL:
 * none) is read, not parsed. A path already queued or taken since the last
 * jf_prefetch_drop() is not queued again.
 */
void jf_prefetch_submit(jf_prefetch *self, const char *fs_path, const char *display_path,
                        jf_lang lang, const jf_kept_files *kept);
/**
 * Whether `fs_path` was queued as `display_path` and `lang` and not taken
 * yet; then its source is in *src (the caller's) and its tree in *tree (the
 * caller's; NULL when the source is not JF_SOURCE_OK, the parse ran out of
 * time, or the file is kept: then *unparsed), read and parsed by the pool or,
 * with `parsers`, here.
 */
bool jf_prefetch_take(jf_prefetch *self, jf_parsers *parsers, const char *fs_path,
                      const char *display_path, jf_lang lang, jf_source **src, TSTree **tree,
                      bool *unparsed);
/* A parse of a source read before, queued with jf_prefetch_parse_ahead(). */
typedef struct jf_prefetch_task jf_prefetch_task;

/**
 * Queues a parse of `src` as `lang` (a file whose tree was released, about to
 * be read again); `src` must outlive the task. The task is the caller's until
 * it hands it to jf_prefetch_parsed() or jf_prefetch_cancel(), or the pool
 * drops it (jf_prefetch_drop()).
 */
jf_prefetch_task *jf_prefetch_parse_ahead(jf_prefetch *self, const jf_source *src, jf_lang lang);
/**
 * The tree of task `t` (the caller's; NULL when the parse ran out of time), parsed by the
 * pool or, when no thread has begun it, here with `parsers`; `t` is spent.
 */
TSTree *jf_prefetch_parsed(jf_prefetch *self, jf_parsers *parsers, jf_prefetch_task *t);
/** Spends task `t`, whose tree no one will take: freed now, or once a thread has made it. */
void jf_prefetch_cancel(jf_prefetch *self, jf_prefetch_task *t);
/** Drops every file not taken, once no thread works on it (at the end of a lint). */
void jf_prefetch_drop(jf_prefetch *self);

#endif
