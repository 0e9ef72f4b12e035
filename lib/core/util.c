/* util.c - allocation, jf_buf and jf_array helpers, the number of cores, fields of data lines */
#define _GNU_SOURCE /* sched_getaffinity */
#include "core/util.h"

#include <ctype.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

char jf_buf__empty[1];

static _Noreturn void out_of_memory(size_t n)
{
	fprintf(stderr, "jobfix: fatal: out of memory allocating %zu bytes\n", n);
	abort();
}

void *jf_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		out_of_memory(n);
	return p;
}

void *jf_xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		out_of_memory(count * size);
	return p;
}

void *jf_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		out_of_memory(n);
	return q;
}

char *jf_xstrndup(const char *s, size_t n)
{
	char *p = jf_xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *jf_xstrdup(const char *s)
{
	return jf_xstrndup(s, strlen(s));
}

char *jf_xasprintf(const char *fmt, ...)
{
	jf_buf b = JF_BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	jf_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	return jf_buf_detach(&b, NULL);
}

void jf_buf_grow(jf_buf *b, size_t extra)
{
	size_t need = b->len + extra + 1;
	if (need <= b->alloc)
		return;
	size_t n = b->alloc ? b->alloc : 64;
	while (n < need)
		n *= 2;
	if (b->alloc == 0) {
		b->buf = jf_xmalloc(n);
		b->buf[0] = '\0';
	} else {
		b->buf = jf_xrealloc(b->buf, n);
	}
	b->alloc = n;
}

void jf_buf_add(jf_buf *b, const char *s, size_t n)
{
	if (!n)
		return;
	jf_buf_grow(b, n);
	memcpy(b->buf + b->len, s, n);
	b->len += n;
	b->buf[b->len] = '\0';
}

void jf_buf_adds(jf_buf *b, const char *s)
{
	jf_buf_add(b, s, strlen(s));
}

void jf_buf_addc(jf_buf *b, char c)
{
	jf_buf_add(b, &c, 1);
}

void jf_buf_vaddf(jf_buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	va_copy(cp, ap);
	int n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n <= 0)
		return;
	jf_buf_grow(b, (size_t)n);
	vsnprintf(b->buf + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void jf_buf_addf(jf_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	jf_buf_vaddf(b, fmt, ap);
	va_end(ap);
}

size_t jf_utf8_seq(const unsigned char *s, size_t n)
{
	if (s[0] < 0x80)
		return 1;
	size_t len = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
	if (!len || len > n || s[0] > 0xf4)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if (len == 3 && ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0)))
		return 0;
	if (len == 4 && ((s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90)))
		return 0;
	return len;
}

void jf_buf_add_json_str(jf_buf *b, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	jf_buf_addc(b, '"');
	for (size_t i = 0; i < n;) {
		unsigned char c = u[i];
		if (c == '"' || c == '\\') {
			jf_buf_addc(b, '\\');
			jf_buf_addc(b, (char)c);
		} else if (c == '\n') {
			jf_buf_adds(b, "\\n");
		} else if (c == '\t') {
			jf_buf_adds(b, "\\t");
		} else if (c == '\r') {
			jf_buf_adds(b, "\\r");
		} else if (c < 0x20 || c == 0x7f) {
			jf_buf_addf(b, "\\u%04x", c);
		} else if (c >= 0x80) {
			size_t len = jf_utf8_seq(u + i, n - i);
			if (!len) {
				jf_buf_adds(b, "\\ufffd");
				i++;
				continue;
			}
			jf_buf_add(b, s + i, len);
			i += len;
			continue;
		} else {
			jf_buf_addc(b, (char)c);
		}
		i++;
	}
	jf_buf_addc(b, '"');
}

void jf_buf_add_gh_escaped(jf_buf *b, const char *s, bool property)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strlen(s);
	for (size_t i = 0; i < n;) {
		unsigned char c = u[i];
		if (c == '%' || c == '\r' || c == '\n' || (property && (c == ':' || c == ','))) {
			jf_buf_addf(b, "%%%02X", c);
		} else if (c >= 0x80) {
			size_t len = jf_utf8_seq(u + i, n - i);
			jf_buf_add(b, len ? s + i : "\xef\xbf\xbd", len ? len : 3);
			i += len ? len : 1;
			continue;
		} else {
			jf_buf_addc(b, (char)c);
		}
		i++;
	}
}

void jf_buf_add_uri_path(jf_buf *b, const char *path)
{
	static const char keep[] = "-._~!$&'()*+,;=@/";
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		unsigned char c = *p;
		bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
		if (alnum || strchr(keep, c))
			jf_buf_addc(b, (char)c);
		else
			jf_buf_addf(b, "%%%02X", c);
	}
}

void jf_buf_truncate(jf_buf *b, size_t len)
{
	if (len < b->len) {
		b->len = len;
		b->buf[len] = '\0';
	}
}

char *jf_buf_detach(jf_buf *b, size_t *len_out)
{
	char *p = b->alloc ? b->buf : jf_xstrdup("");
	if (len_out)
		*len_out = b->len;
	b->buf = jf_buf__empty;
	b->len = b->alloc = 0;
	return p;
}

void jf_buf_release(jf_buf *b)
{
	if (b->alloc)
		free(b->buf);
	b->buf = jf_buf__empty;
	b->len = b->alloc = 0;
}

void jf_array__grow(void **items, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return;
	size_t n = *cap ? *cap * 2 : 8;
	while (n < need)
		n *= 2;
	*items = jf_xrealloc(*items, n * elem);
	*cap = n;
}

void jf_array__extend(void **items, size_t *size, size_t *cap, const void *src, size_t n,
                      size_t elem)
{
	if (!n)
		return;
	jf_array__grow(items, cap, *size + n, elem);
	memcpy((char *)*items + *size * elem, src, n * elem);
	*size += n;
}

unsigned jf_cores(void)
{
	/* The cores of the process's CPU set (a container's limit), else those online. */
	cpu_set_t set;
	long n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set)
	                                                    : sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 64 ? 64 : (unsigned)n;
}

void jf_array__check(size_t i, size_t size)
{
	if (i >= size)
		JF_BUG("array index %zu out of bounds (size %zu)", i, size);
}

bool jf_str_starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool jf_str_ends(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

bool jf_str_in(const char *s, const char *const *list)
{
	return jf_strn_in(s, strlen(s), list);
}

bool jf_strn_in(const char *s, size_t n, const char *const *list)
{
	for (; *list; list++)
		if (strlen(*list) == n && !memcmp(*list, s, n))
			return true;
	return false;
}

size_t jf_edit_distance(const char *a, const char *b, size_t max)
{
	/* Optimal string alignment: insert, delete, substitute, swap neighbours. */
	size_t n = strlen(a), m = strlen(b);
	if ((n > m ? n - m : m - n) > max)
		return max + 1;
	size_t w = m + 1;
	size_t *d = jf_xmalloc((n + 1) * w * sizeof(*d));
	for (size_t i = 0; i <= n; i++)
		d[i * w] = i;
	for (size_t j = 0; j <= m; j++)
		d[j] = j;
	for (size_t i = 1; i <= n; i++) {
		for (size_t j = 1; j <= m; j++) {
			size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
			size_t best = d[(i - 1) * w + j - 1] + cost;
			if (d[(i - 1) * w + j] + 1 < best)
				best = d[(i - 1) * w + j] + 1;
			if (d[i * w + j - 1] + 1 < best)
				best = d[i * w + j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[(i - 2) * w + j - 2] + 1 < best)
				best = d[(i - 2) * w + j - 2] + 1;
			d[i * w + j] = best;
		}
	}
	size_t r = d[n * w + m];
	free(d);
	return r > max ? max + 1 : r;
}

void jf__bug(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "jobfix: BUG: %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

void jf_strings_release(jf_strings *list)
{
	for (size_t i = 0; i < list->size; i++)
		free(list->items[i]);
	jf_array_release(list);
}

bool jf_strings_have(const jf_strings *list, const char *s)
{
	for (size_t i = 0; i < list->size; i++)
		if (!strcmp(list->items[i], s))
			return true;
	return false;
}

void jf_strings_merge(jf_strings *into, jf_strings *from)
{
	for (size_t i = 0; i < from->size; i++) {
		if (jf_strings_have(into, from->items[i]))
			free(from->items[i]);
		else
			jf_array_push(into, from->items[i]);
	}
	jf_array_release(from);
}

size_t jf_next_fields(const char **p, char **fields, size_t max)
{
	while (**p) {
		const char *line = *p;
		size_t len = strcspn(line, "\n");
		*p += len + (line[len] == '\n');
		size_t n = 0;
		for (const char *s = line; s < line + len && *s != '#' && n < max;) {
			while (s < line + len && isspace((unsigned char)*s))
				s++;
			if (s >= line + len || *s == '#')
				break;
			size_t k = 0;
			while (s + k < line + len && !isspace((unsigned char)s[k]) && s[k] != '#')
				k++;
			fields[n++] = jf_xstrndup(s, k);
			s += k;
		}
		if (n)
			return n;
	}
	return 0;
}
