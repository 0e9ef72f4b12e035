/* wire.c - values written as bytes and read back (wire.h) */
#include "core/wire.h"

/* The length written for a NULL string: no string is that long. */
#define NULL_STRING UINT32_MAX

void jf_wire_put_u8(jf_buf *b, uint8_t v)
{
	jf_buf_add(b, (const char *)&v, 1);
}

void jf_wire_put_u32(jf_buf *b, uint32_t v)
{
	jf_buf_add(b, (const char *)&v, sizeof v);
}

void jf_wire_put_u64(jf_buf *b, uint64_t v)
{
	jf_buf_add(b, (const char *)&v, sizeof v);
}

void jf_wire_put_str(jf_buf *b, const char *s)
{
	if (!s) {
		jf_wire_put_u32(b, NULL_STRING);
		return;
	}
	size_t n = strlen(s);
	jf_wire_put_u32(b, (uint32_t)n);
	jf_buf_add(b, s, n);
}

void jf_wire_put_span(jf_buf *b, jf_span s)
{
	jf_wire_put_u32(b, s.start);
	jf_wire_put_u32(b, s.end);
}

void jf_wire_put_strings(jf_buf *b, const char *const *items, size_t n)
{
	jf_wire_put_u32(b, (uint32_t)n);
	for (size_t i = 0; i < n; i++)
		jf_wire_put_str(b, items[i]);
}

static bool take(jf_wire *r, void *out, size_t n)
{
	if (r->bad || (size_t)(r->end - r->p) < n) {
		r->bad = true;
		memset(out, 0, n);
		return false;
	}
	memcpy(out, r->p, n);
	r->p += n;
	return true;
}

uint8_t jf_wire_get_u8(jf_wire *r)
{
	uint8_t v;
	take(r, &v, 1);
	return v;
}

uint32_t jf_wire_get_u32(jf_wire *r)
{
	uint32_t v;
	take(r, &v, sizeof v);
	return v;
}

uint64_t jf_wire_get_u64(jf_wire *r)
{
	uint64_t v;
	take(r, &v, sizeof v);
	return v;
}

bool jf_wire_get_bool(jf_wire *r)
{
	uint8_t v = jf_wire_get_u8(r);
	if (v > 1)
		r->bad = true;
	return v == 1;
}

/* The next string's bytes, left in place: NULL for NULL, or bad. */
static const char *next_string(jf_wire *r, uint32_t *len)
{
	uint32_t n = jf_wire_get_u32(r);
	*len = 0;
	if (r->bad || n == NULL_STRING)
		return NULL;
	if ((size_t)(r->end - r->p) < n) {
		r->bad = true;
		return NULL;
	}
	const char *s = r->p;
	r->p += n;
	*len = n;
	return s;
}

char *jf_wire_get_bytes(jf_wire *r, uint32_t *len)
{
	uint32_t n;
	const char *s = next_string(r, &n);
	if (len)
		*len = n;
	return s ? jf_xstrndup(s, n) : NULL;
}

char *jf_wire_get_str(jf_wire *r)
{
	return jf_wire_get_bytes(r, NULL);
}

const char *jf_wire_get_str_in(jf_wire *r, jf_arena *arena)
{
	uint32_t n;
	const char *s = next_string(r, &n);
	return s ? jf_arena_strndup(arena, s, n) : NULL;
}

jf_span jf_wire_get_span(jf_wire *r)
{
	jf_span s;
	s.start = jf_wire_get_u32(r);
	s.end = jf_wire_get_u32(r);
	if (s.end < s.start)
		r->bad = true;
	return s;
}

jf_span jf_wire_get_span_in(jf_wire *r, uint32_t len)
{
	jf_span s = jf_wire_get_span(r);
	if (s.end > len)
		r->bad = true;
	return s;
}

uint32_t jf_wire_get_count(jf_wire *r, size_t size)
{
	uint32_t n = jf_wire_get_u32(r);
	if (!r->bad && (size_t)(r->end - r->p) / (size ? size : 1) < n)
		r->bad = true;
	return r->bad ? 0 : n;
}

void *jf_wire_get_items(jf_wire *r, jf_arena *arena, size_t size, size_t min, size_t *n)
{
	*n = jf_wire_get_count(r, min);
	return *n ? jf_arena_calloc(arena, *n, size) : NULL;
}

const char **jf_wire_get_strings_in(jf_wire *r, jf_arena *arena, size_t *n)
{
	const char **items = jf_wire_get_items(r, arena, sizeof *items, 4, n);
	for (size_t i = 0; i < *n; i++)
		items[i] = jf_wire_get_str_in(r, arena);
	return items;
}
