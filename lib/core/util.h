/* util.h - allocation, the growable string buffer and the typed dynamic array
 *
 * Invariants of jf_buf (as git's strbuf):
 *  - `buf` is never NULL: a fresh buffer points at the shared empty string;
 *  - `buf` is always NUL-terminated, `buf[len] == '\0'`;
 *  - jf_buf_detach() is the only way to take ownership of the bytes.
 *
 * Out of memory aborts the process with a message: jobfix is a command-line
 * tool and has nothing better to do (as cmark and jq).
 */
#ifndef JF_UTIL_H
#define JF_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JF_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* An answer that may not be known. */
typedef enum { JF_UNKNOWN, JF_NO, JF_YES } jf_tri;

void *jf_xmalloc(size_t n);
void *jf_xcalloc(size_t count, size_t size);
void *jf_xrealloc(void *p, size_t n);
char *jf_xstrdup(const char *s);
char *jf_xstrndup(const char *s, size_t n);
/** A freshly allocated formatted string; caller frees with free(). */
char *jf_xasprintf(const char *fmt, ...) JF_PRINTF(1, 2);

typedef struct {
	char *buf;
	size_t len, alloc;
} jf_buf;

extern char jf_buf__empty[];
#define JF_BUF_INIT { jf_buf__empty, 0, 0 }

void jf_buf_grow(jf_buf *b, size_t extra);
void jf_buf_add(jf_buf *b, const char *s, size_t n);
void jf_buf_adds(jf_buf *b, const char *s);
void jf_buf_addc(jf_buf *b, char c);
void jf_buf_addf(jf_buf *b, const char *fmt, ...) JF_PRINTF(2, 3);
void jf_buf_vaddf(jf_buf *b, const char *fmt, va_list ap) JF_PRINTF(2, 0);
/** The length of the valid UTF-8 sequence at s[0, n) (1 to 4), or 0 when it is invalid. */
size_t jf_utf8_seq(const unsigned char *s, size_t n);
/** Appends `s` as a JSON string literal, quotes included; invalid UTF-8 becomes U+FFFD. */
void jf_buf_add_json_str(jf_buf *b, const char *s, size_t n);
/**
 * Appends `s` escaped for a GitHub Actions workflow command: '%', CR and LF
 * as %25, %0D, %0A; a `property` value also ':' and ',' as %3A, %2C. Invalid
 * UTF-8 becomes U+FFFD.
 */
void jf_buf_add_gh_escaped(jf_buf *b, const char *s, bool property);
/**
 * Appends a '/'-separated file path as the path of a URI reference (RFC 3986):
 * every byte but letters, digits, '/' and the characters a path segment allows
 * as they are is percent-encoded, ':' too (a first segment with ':' would read
 * as a scheme), and so are bytes of non-ASCII characters.
 */
void jf_buf_add_uri_path(jf_buf *b, const char *path);
void jf_buf_truncate(jf_buf *b, size_t len);
/** Hands over the bytes (always heap memory); the buffer is reset. Caller frees. */
char *jf_buf_detach(jf_buf *b, size_t *len_out);
void jf_buf_release(jf_buf *b);

/* A typed dynamic array: `typedef JF_ARRAY(int) int_array;`, zero-initialised. */
#define JF_ARRAY(T) struct { T *items; size_t size, cap; }
#define jf_array_grow(a, n)                                                        \
	jf_array__grow((void **)&(a)->items, &(a)->cap, (a)->size + (n), sizeof(*(a)->items))
#define jf_array_push(a, v) (jf_array_grow(a, 1), (a)->items[(a)->size++] = (v))
#define jf_array_get(a, i) (jf_array__check((i), (a)->size), &(a)->items[(i)])
#define jf_array_last(a) jf_array_get(a, (a)->size - 1)
#define jf_array_release(a) (free((a)->items), (a)->items = NULL, (a)->size = (a)->cap = 0)
/* Appends the `n` items at `src`. */
#define jf_array_extend(a, src, n)                                                          \
	jf_array__extend((void **)&(a)->items, &(a)->size, &(a)->cap, (src), (n),          \
	                 sizeof(*(a)->items))

void jf_array__grow(void **items, size_t *cap, size_t need, size_t elem);
void jf_array__extend(void **items, size_t *size, size_t *cap, const void *src, size_t n,
                      size_t elem);
void jf_array__check(size_t i, size_t size);

/* A list of strings, each owned by the list. */
typedef JF_ARRAY(char *) jf_strings;
/** Frees every string and the list. */
void jf_strings_release(jf_strings *list);
/** Whether `list` holds `s`. */
bool jf_strings_have(const jf_strings *list, const char *s);
/** Moves the strings of `from` that `into` does not hold to its end, in order; frees the others and empties `from`. */
void jf_strings_merge(jf_strings *into, jf_strings *from);

/** The cores this process may run on (at least 1, at most 64). */
unsigned jf_cores(void);

/* Small string helpers. */
bool jf_str_starts(const char *s, const char *prefix);
bool jf_str_ends(const char *s, const char *suffix);
/** Whether `s` is one of the NULL-terminated `list`. */
bool jf_str_in(const char *s, const char *const *list);
/** Whether `c` may stand in a Python or shell name: a letter, a digit or '_' (ASCII). */
static inline bool jf_is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}
/** Whether the `n` bytes at `p` of `text` stand as a whole name (no name character beside). */
static inline bool jf_is_word_at(const char *text, const char *p, size_t n)
{
	return (p == text || !jf_is_name_char(p[-1])) && !jf_is_name_char(p[n]);
}
/** The same for the `n` bytes at `s` (not NUL-terminated). */
bool jf_strn_in(const char *s, size_t n, const char *const *list);
/** Edit distance (a swap of neighbours counts one), capped at `max + 1`. */
size_t jf_edit_distance(const char *a, const char *b, size_t max);

/** Splits the next line of `*p` that holds something besides a `#` comment
 * into at most `max` whitespace-separated fields (each a copy the caller
 * frees) and moves `*p` past it; returns the count, 0 at the end. */
size_t jf_next_fields(const char **p, char **fields, size_t max);

#define JF_BUG(...) jf__bug(__FILE__, __LINE__, __VA_ARGS__)
_Noreturn void jf__bug(const char *file, int line, const char *fmt, ...) JF_PRINTF(3, 4);

#endif
