/* path.c - lexical path helpers */
#include "core/path.h"

#include <sys/stat.h>

#include "core/deps.h"
#include "core/util.h"

char *jf_path_normalize(const char *p)
{
	bool abs = p[0] == '/';
	JF_ARRAY(const char *) parts = { 0 };
	JF_ARRAY(size_t) lens = { 0 };
	const char *s = p;
	while (*s) {
		while (*s == '/')
			s++;
		if (!*s)
			break;
		const char *e = strchr(s, '/');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		if (n == 1 && s[0] == '.') {
			/* skip */
		} else if (n == 2 && s[0] == '.' && s[1] == '.') {
			if (parts.size && !(lens.items[lens.size - 1] == 2 &&
			                    !strncmp(parts.items[parts.size - 1], "..", 2))) {
				parts.size--;
				lens.size--;
			} else if (!abs) {
				jf_array_push(&parts, s);
				jf_array_push(&lens, n);
			}
		} else {
			jf_array_push(&parts, s);
			jf_array_push(&lens, n);
		}
		s += n;
	}
	jf_buf b = JF_BUF_INIT;
	if (abs)
		jf_buf_addc(&b, '/');
	for (size_t i = 0; i < parts.size; i++) {
		if (i)
			jf_buf_addc(&b, '/');
		jf_buf_add(&b, parts.items[i], lens.items[i]);
	}
	if (!b.len)
		jf_buf_addc(&b, '.');
	jf_array_release(&parts);
	jf_array_release(&lens);
	return jf_buf_detach(&b, NULL);
}

char *jf_path_join(const char *dir, const char *rel)
{
	if (rel[0] == '/' || !dir[0])
		return jf_path_normalize(rel);
	char *joined = jf_xasprintf("%s/%s", dir, rel);
	char *n = jf_path_normalize(joined);
	free(joined);
	return n;
}

char *jf_path_dirname(const char *p)
{
	const char *slash = strrchr(p, '/');
	if (!slash)
		return jf_xstrdup("");
	if (slash == p)
		return jf_xstrdup("/");
	return jf_xstrndup(p, (size_t)(slash - p));
}

const char *jf_path_under(const char *path, const char *dir)
{
	if (!strcmp(dir, "."))
		return path[0] != '/' && strcmp(path, "..") && !jf_str_starts(path, "../")
		               ? (strcmp(path, ".") ? path : path + 1)
		               : NULL;
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (n == 1 && dir[0] == '/')
		return path[0] == '/' ? path + 1 : NULL;
	if (strncmp(path, dir, n))
		return NULL;
	if (path[n] == '\0')
		return path + n;
	if (path[n] == '/')
		return path + n + 1;
	return NULL;
}

bool jf_path_is_file(const char *p)
{
	jf_deps_note(JF_DEP_KIND, p);
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

bool jf_path_is_dir(const char *p)
{
	jf_deps_note(JF_DEP_KIND, p);
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Globs */

/* The length of the bracket expression at p[0] == '[' within `n` bytes, or 0
 * when it is not closed (then '[' is an ordinary character). */
static size_t class_len(const char *p, size_t n)
{
	size_t i = 1;
	if (i < n && (p[i] == '!' || p[i] == '^'))
		i++;
	if (i < n && p[i] == ']')
		i++; /* a leading ']' is a member */
	for (; i < n; i++) {
		if (p[i] == '\\' && i + 1 < n)
			i++;
		else if (p[i] == ']')
			return i + 1;
	}
	return 0;
}

/* Whether byte `c` is in the bracket expression p[0, len). */
static bool class_has(const char *p, size_t len, char c)
{
	size_t i = 1, end = len - 1;
	bool negate = p[i] == '!' || p[i] == '^';
	bool found = false;
	if (negate)
		i++;
	for (bool first = true; i < end; first = false) {
		char lo = p[i];
		if (lo == '\\' && i + 1 < end)
			lo = p[++i];
		else if (lo == ']' && !first)
			break;
		i++;
		char hi = lo;
		if (i + 1 < end && p[i] == '-') {
			hi = p[i + 1];
			if (hi == '\\' && i + 2 < end)
				hi = p[++i + 1];
			i += 2;
		}
		found |= (unsigned char)c >= (unsigned char)lo && (unsigned char)c <= (unsigned char)hi;
	}
	return found != negate;
}

/* Matches one path segment s[0, sn) against pattern segment p[0, pn): `*`, `?`,
 * `[...]`, `\x`. Greedy with one backtracking point, so linear for `*` runs. */
static bool segment_match(const char *p, size_t pn, const char *s, size_t sn)
{
	size_t pi = 0, si = 0, star = SIZE_MAX, mark = 0;
	while (si < sn) {
		if (pi < pn && p[pi] == '*') {
			star = pi++;
			mark = si;
			continue;
		}
		if (pi < pn) {
			size_t step = 1;
			bool ok;
			if (p[pi] == '?') {
				ok = true;
			} else if (p[pi] == '[' && (step = class_len(p + pi, pn - pi)) > 0) {
				ok = class_has(p + pi, step, s[si]);
			} else if (p[pi] == '\\' && pi + 1 < pn) {
				step = 2;
				ok = p[pi + 1] == s[si];
			} else {
				step = 1;
				ok = p[pi] == s[si];
			}
			if (ok) {
				pi += step;
				si++;
				continue;
			}
		}
		if (star == SIZE_MAX)
			return false;
		pi = star + 1;
		si = ++mark;
	}
	while (pi < pn && p[pi] == '*')
		pi++;
	return pi == pn;
}

typedef struct {
	const char *s;
	size_t n;
} segment;

static size_t split(const char *s, segment **out)
{
	size_t n = 1;
	for (const char *c = s; *c; c++)
		n += *c == '/';
	segment *segs = jf_xmalloc(n * sizeof(*segs));
	size_t k = 0;
	for (const char *c = s;; c++) {
		if (*c == '/' || !*c) {
			segs[k].n = (size_t)(c - s);
			segs[k++].s = s;
			s = c + 1;
		}
		if (!*c)
			break;
	}
	*out = segs;
	return k;
}

static bool is_globstar(const segment *g)
{
	return g->n == 2 && g->s[0] == '*' && g->s[1] == '*';
}

bool jf_path_glob(const char *pattern, const char *path)
{
	segment *p, *s;
	size_t pn = split(pattern, &p), sn = split(path, &s);
	/* The same greedy walk as segment_match, over segments, with `**` as the star. */
	size_t pi = 0, si = 0, star = SIZE_MAX, mark = 0;
	bool ok = true;
	while (si < sn) {
		if (pi < pn && is_globstar(&p[pi])) {
			star = pi++;
			mark = si;
			continue;
		}
		if (pi < pn && segment_match(p[pi].s, p[pi].n, s[si].s, s[si].n)) {
			pi++;
			si++;
			continue;
		}
		if (star == SIZE_MAX) {
			ok = false;
			break;
		}
		pi = star + 1;
		si = ++mark;
	}
	while (ok && pi < pn && is_globstar(&p[pi]))
		pi++;
	ok = ok && pi == pn;
	free(p);
	free(s);
	return ok;
}

const char *jf_path_glob_error(const char *pattern)
{
	size_t n = strlen(pattern);
	if (!n)
		return "an empty pattern matches nothing";
	for (size_t i = 0; i < n; i++) {
		if (pattern[i] == '\\') {
			if (i + 1 == n)
				return "the pattern ends with a lone '\\'";
			i++;
		} else if (pattern[i] == '[') {
			size_t seg_end = i;
			while (seg_end < n && pattern[seg_end] != '/')
				seg_end++;
			size_t len = class_len(pattern + i, seg_end - i);
			if (!len)
				return "'[' without a closing ']'";
			i += len - 1;
		}
	}
	return NULL;
}
