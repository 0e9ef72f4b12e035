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
 * waiting thread parses the next in the queue.
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
 * the folders this thread may read (core/confine.h). A path already queued
 * or taken since the last jf_prefetch_drop() is not queued again.
 */
void jf_prefetch_submit(jf_prefetch *self, const char *fs_path, const char *display_path,
                        jf_lang lang);
/**
 * Whether `fs_path` was queued as `display_path` and `lang` and not taken
 * yet; then its source is in *src (the caller's) and its tree in *tree (the
 * caller's; NULL when the source is not JF_SOURCE_OK or the parse ran out of
 * time), read and parsed by the pool or, with `parsers`, here.
 */
bool jf_prefetch_take(jf_prefetch *self, jf_parsers *parsers, const char *fs_path,
                      const char *display_path, jf_lang lang, jf_source **src, TSTree **tree);
/** Drops every file not taken, once no thread works on it (at the end of a lint). */
void jf_prefetch_drop(jf_prefetch *self);

#endif
