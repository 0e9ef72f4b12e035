/* strmap.c - a hash map from strings to pointers */
#include "core/strmap.h"

static uint64_t hash_of(const char *key, size_t len)
{
	uint64_t h = 0xcbf29ce484222325u;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)key[i]) * 0x100000001b3u;
	return h;
}

static struct jf_strmap_slot *find(const jf_strmap *self, const char *key, size_t len,
                                   uint64_t hash)
{
	size_t mask = self->cap - 1;
	for (size_t i = hash & mask;; i = (i + 1) & mask) {
		struct jf_strmap_slot *s = &self->slots[i];
		if (!s->key || (s->hash == hash && s->len == len && !memcmp(s->key, key, len)))
			return s;
	}
}

void *jf_strmap_get(const jf_strmap *self, const char *key, size_t len)
{
	if (!self->cap)
		return NULL;
	struct jf_strmap_slot *s = find(self, key, len, hash_of(key, len));
	return s->key ? s->value : NULL;
}

static void grow(jf_strmap *self)
{
	jf_strmap bigger = { jf_xcalloc(self->cap ? self->cap * 2 : 16, sizeof(*self->slots)), 0,
		             self->cap ? self->cap * 2 : 16 };
	for (size_t i = 0; i < self->cap; i++) {
		struct jf_strmap_slot *s = &self->slots[i];
		if (s->key)
			*find(&bigger, s->key, s->len, s->hash) = *s;
	}
	bigger.size = self->size;
	free(self->slots);
	*self = bigger;
}

void jf_strmap_put(jf_strmap *self, const char *key, size_t len, void *value)
{
	if ((self->size + 1) * 4 > self->cap * 3)
		grow(self);
	uint64_t hash = hash_of(key, len);
	struct jf_strmap_slot *s = find(self, key, len, hash);
	if (!s->key) {
		*s = (struct jf_strmap_slot){ jf_xstrndup(key, len), len, hash, NULL };
		self->size++;
	}
	s->value = value;
}

void jf_strmap_release(jf_strmap *self)
{
	for (size_t i = 0; i < self->cap; i++)
		free(self->slots[i].key);
	free(self->slots);
	*self = (jf_strmap)JF_STRMAP_INIT;
}
