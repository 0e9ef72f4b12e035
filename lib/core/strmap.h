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

#endif
