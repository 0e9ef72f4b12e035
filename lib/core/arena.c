/* arena.c - blocks of memory handed out in order and freed together */
#include "core/arena.h"

#include <stdalign.h>

#define BLOCK_SIZE ((size_t)64 << 10)
/* An arena's first block; each next one doubles, up to BLOCK_SIZE: many
 * arenas (a file's paths, a small file's names) need less than a KiB. */
#define FIRST_BLOCK ((size_t)512)
/* A request above this gets a block of its own, so that the room left in
 * the current block is not thrown away. */
#define OWN_BLOCK (BLOCK_SIZE / 4)
#define ALIGN alignof(max_align_t)

struct jf_arena_block {
	jf_arena_block *next;
	void *adopted; /* memory taken by jf_arena_adopt(), or NULL */
};

/* Where a block's memory starts: after its header, aligned. */
#define HEADER ((sizeof(jf_arena_block) + ALIGN - 1) / ALIGN * ALIGN)

bool jf_arena_debug(void)
{
#ifdef JF_DEBUG_ARENA
	return true;
#else
	return false;
#endif
}

/* A new block with `n` bytes of room, linked in as the current one or, with
 * `aside`, behind it (the current block keeps its room). */
static jf_arena_block *new_block(jf_arena *self, size_t n, bool aside)
{
	if (n > SIZE_MAX - HEADER)
		jf_xmalloc(SIZE_MAX); /* aborts: out of memory */
	jf_arena_block *b = jf_xmalloc(HEADER + n);
	b->adopted = NULL;
	if (aside && self->blocks) {
		b->next = self->blocks->next;
		self->blocks->next = b;
	} else {
		b->next = self->blocks;
		self->blocks = b;
		self->next = self->end = NULL; /* room is made by the caller */
	}
	return b;
}

static char *room_of(jf_arena_block *b)
{
	return (char *)b + HEADER;
}

void *jf_arena_alloc(jf_arena *self, size_t n)
{
	size_t rounded = (n + ALIGN - 1) / ALIGN * ALIGN;
	if (rounded < n)
		jf_xmalloc(SIZE_MAX); /* aborts: out of memory */
	char *p;
	if (jf_arena_debug() || rounded > OWN_BLOCK) {
		p = room_of(new_block(self, n ? n : 1, true));
	} else {
		if (!self->next || (size_t)(self->end - self->next) < rounded) {
			size_t last = self->next ? (size_t)(self->end - room_of(self->blocks)) : 0;
			size_t size = !last ? FIRST_BLOCK : last < BLOCK_SIZE ? 2 * last : BLOCK_SIZE;
			if (size < rounded)
				size = BLOCK_SIZE;
			self->next = room_of(new_block(self, size, false));
			self->end = self->next + size;
		}
		p = self->next;
		self->next += rounded;
	}
	memset(p, 0, n);
	return p;
}

void *jf_arena_calloc(jf_arena *self, size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size)
		jf_xmalloc(SIZE_MAX); /* aborts: out of memory */
	return jf_arena_alloc(self, count * size);
}

char *jf_arena_strndup(jf_arena *self, const char *s, size_t n)
{
	char *p = jf_arena_alloc(self, n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *jf_arena_strdup(jf_arena *self, const char *s)
{
	return jf_arena_strndup(self, s, strlen(s));
}

void jf_arena_adopt(jf_arena *self, void *p)
{
	if (p)
		new_block(self, 0, true)->adopted = p;
}

void *jf_arena__adopt_shrunk(jf_arena *self, void *items, size_t bytes)
{
	if (!bytes) {
		free(items);
		return NULL;
	}
	items = jf_xrealloc(items, bytes);
	jf_arena_adopt(self, items);
	return items;
}

void jf_arena_release(jf_arena *self)
{
	for (jf_arena_block *b = self->blocks, *next; b; b = next) {
		next = b->next;
		free(b->adopted);
		free(b);
	}
	*self = (jf_arena)JF_ARENA_INIT;
}
