/* deps.h - what a lint asked of the file system, to tell later whether any answer changed
 *
 * While a lint runs, the thread that runs it (and the threads that read
 * files for it) record each question about the file system into the lint's
 * jf_deps: a file's bytes, what a path is, a folder's entries, a real path,
 * whether the lint may read a path. Each is kept once with a hash of its
 * answer; jf_deps_unchanged() asks them all again. The fact cache keeps a
 * lint's findings with its questions and gives the findings back only while
 * every answer is the same (lib/cache.c).
 */
#ifndef JF_DEPS_H
#define JF_DEPS_H

#include <pthread.h>

#include "core/strmap.h"

typedef enum {
	JF_DEP_KIND,  /* stat(): none, file, folder, other */
	JF_DEP_LKIND, /* lstat(): the same, a symlink as such */
	JF_DEP_FILE,  /* the bytes of a file (bounded), or why it cannot be read */
	JF_DEP_DIR,   /* the names and types of a folder's entries */
	JF_DEP_REAL,  /* realpath() */
	JF_DEP_ALLOW, /* jf_confine_allows() */
	JF_DEP_COUNT
} jf_dep_kind;

typedef struct {
	jf_dep_kind kind;
	char *path;
	uint64_t value; /* a hash of the answer */
} jf_dep;

typedef struct {
	pthread_mutex_t lock;
	jf_strmap seen; /* kind letter + path */
	JF_ARRAY(jf_dep) items;
	bool overflow; /* more than JF_DEPS_MAX questions: not worth keeping */
} jf_deps;

#define JF_DEPS_MAX 200000

void jf_deps_init(jf_deps *self);
void jf_deps_release(jf_deps *self);
/** `self` records this thread's questions until jf_deps_leave() (NULL: none). */
void jf_deps_enter(jf_deps *self);
void jf_deps_leave(void);
jf_deps *jf_deps_current(void);
/** Records the question `kind` about `path` in this thread's jf_deps, once; a no-op without one. */
void jf_deps_note(jf_dep_kind kind, const char *path);
/** The hash of the answer to `kind` about `path` now. */
uint64_t jf_dep_value(jf_dep_kind kind, const char *path);
/** Whether every one of `n` answers is still the same. */
bool jf_deps_unchanged(const jf_dep *deps, size_t n);

/** A 64-bit hash of `n` bytes, chained from `seed` (not cryptographic). */
uint64_t jf_hash(const void *data, size_t n, uint64_t seed);

#endif
