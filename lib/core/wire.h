/* wire.h - values written as bytes and read back, every read checked: the cache's entries
 *
 * Numbers are written in this machine's byte order (an entry is read back
 * by the build that wrote it: the cache's key holds the build), strings as
 * a length and their bytes. A reader that runs past the end, or finds a
 * value that cannot be, is `bad` from then on and reads zeros and NULLs:
 * the caller checks `bad` once, at the end.
 */
#ifndef JF_WIRE_H
#define JF_WIRE_H

#include "core/arena.h"
#include "core/source.h"
#include "core/util.h"

void jf_wire_put_u8(jf_buf *b, uint8_t v);
void jf_wire_put_u32(jf_buf *b, uint32_t v);
void jf_wire_put_u64(jf_buf *b, uint64_t v);
/** A string, NULL kept apart from "". */
void jf_wire_put_str(jf_buf *b, const char *s);
void jf_wire_put_span(jf_buf *b, jf_span s);
/** `n` strings and their count. */
void jf_wire_put_strings(jf_buf *b, const char *const *items, size_t n);

typedef struct {
	const char *p, *end;
	bool bad;
} jf_wire;

uint8_t jf_wire_get_u8(jf_wire *r);
uint32_t jf_wire_get_u32(jf_wire *r);
uint64_t jf_wire_get_u64(jf_wire *r);
/** A bool written with jf_wire_put_u8(); another value is bad. */
bool jf_wire_get_bool(jf_wire *r);
/** The next string (its length in *len, when not NULL), copied and
 * NUL-terminated; NULL for a NULL written, or a bad read. Caller frees. */
char *jf_wire_get_bytes(jf_wire *r, uint32_t *len);
char *jf_wire_get_str(jf_wire *r);
/** The same, in `arena`. */
const char *jf_wire_get_str_in(jf_wire *r, jf_arena *arena);
jf_span jf_wire_get_span(jf_wire *r);
/** A span that must lie within `len` bytes (a place in a file of that size). */
jf_span jf_wire_get_span_in(jf_wire *r, uint32_t len);
/** A count of items of at least `size` bytes each that the rest can hold; 0 when bad. */
uint32_t jf_wire_get_count(jf_wire *r, size_t size);
/** A count (jf_wire_get_count() with `min` bytes each) in *n, and that many
 * zeroed items of `size` bytes in `arena`; NULL for none. */
void *jf_wire_get_items(jf_wire *r, jf_arena *arena, size_t size, size_t min, size_t *n);
/** Strings written by jf_wire_put_strings(), in an array of `arena`; their count in *n. */
const char **jf_wire_get_strings_in(jf_wire *r, jf_arena *arena, size_t *n);

#endif
