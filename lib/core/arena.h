/* arena.h - memory for what is derived from one input file, released all at once
 *
 * A jf_arena hands out memory that lives until jf_arena_release(): the
 * strings a job copies out of its YAML, the facts of a Python file. Nothing
 * in an arena is freed one by one, so the structures built in it need no
 * release code of their own. Memory comes in blocks of 512 bytes, doubling
 * up to 64 KiB (a request above 16 KiB gets a block of its own); an array
 * grown with realloc elsewhere can be handed over whole with
 * jf_arena_adopt().
 *
 * Built with JF_DEBUG_ARENA (the CMake option of that name, on with
 * JF_SANITIZE), every allocation is a malloc of its own, so that
 * AddressSanitizer sees the bounds of each and LeakSanitizer an arena that
 * is never released.
 */
#ifndef JF_ARENA_H
#define JF_ARENA_H

#include "core/util.h"

typedef struct jf_arena_block jf_arena_block;

typedef struct {
	jf_arena_block *blocks; /* newest first; the first has room at `next` */
	char *next, *end;       /* the free part of the first block */
} jf_arena;

#define JF_ARENA_INIT { NULL, NULL, NULL }

/** `n` bytes, aligned for any type, zeroed. Owned by the arena. */
void *jf_arena_alloc(jf_arena *self, size_t n);
/** An array of `count` zeroed elements of `size` bytes (overflow aborts). */
void *jf_arena_calloc(jf_arena *self, size_t count, size_t size);
/** A copy of `s` (NUL-terminated). */
char *jf_arena_strdup(jf_arena *self, const char *s);
/** A copy of the `n` bytes at `s`, NUL-terminated. */
char *jf_arena_strndup(jf_arena *self, const char *s, size_t n);
/**
 * Takes `p` (from malloc or jf_xmalloc; NULL is a no-op): the arena frees it
 * on release. For arrays grown by realloc and done growing.
 */
void jf_arena_adopt(jf_arena *self, void *p);
/**
 * Hands the items of JF_ARRAY `a` to the arena, shrunk to their number: the
 * array is read-only afterwards (growing it would move memory the arena
 * frees).
 */
#define jf_arena_adopt_array(arena, a)                                                     \
	((a)->items = jf_arena__adopt_shrunk((arena), (a)->items,                          \
	                                     (a)->size * sizeof(*(a)->items)),             \
	 (a)->cap = (a)->size)
void *jf_arena__adopt_shrunk(jf_arena *self, void *items, size_t bytes);
/** Frees everything the arena handed out or adopted; it is empty again. */
void jf_arena_release(jf_arena *self);
/** Whether this build gives every allocation a malloc of its own (JF_DEBUG_ARENA). */
bool jf_arena_debug(void);

#endif
