/* strmap.h - a hash map from strings to pointers
 *
 * Open addressing with linear probing, FNV-1a hashes; keys are copied, values
 * are borrowed. Lookups by a (pointer, length) pair need no NUL-terminated
 * key, so a name can be looked up where it stands in a source. Not for
 * untrusted sizes: it grows without bound like any array of the lint.
 */
#ifndef JF_STRMAP_H
#define JF_STRMAP_H

#include "core/util.h"

typedef struct {
	struct jf_strmap_slot {
		char *key; /* NULL: empty */
		size_t len;
		uint64_t hash;
		void *value;
	} *slots;
	size_t size, cap; /* entries, slots (a power of two, or 0) */
} jf_strmap;

#define JF_STRMAP_INIT { NULL, 0, 0 }

/** The value of `key` (`len` bytes), or NULL when there is none. */
void *jf_strmap_get(const jf_strmap *self, const char *key, size_t len);
/** Sets the value of `key` (`len` bytes), replacing an earlier one. */
void jf_strmap_put(jf_strmap *self, const char *key, size_t len, void *value);
/** Frees the keys and the table; the values are the caller's. */
void jf_strmap_release(jf_strmap *self);

/* A map used as a set of strings: a key is in it when it has a value. */
static inline bool jf_strmap_has(const jf_strmap *self, const char *key)
{
	return jf_strmap_get(self, key, strlen(key)) != NULL;
}
/** Adds `key` to the set; whether it was not in it yet. */
static inline bool jf_strmap_add(jf_strmap *self, const char *key)
{
	if (jf_strmap_has(self, key))
		return false;
	jf_strmap_put(self, key, strlen(key), (void *)1);
	return true;
}

#endif
