/* path.c - lexical path helpers */
#include "path.h"

#include <sys/stat.h>

#include "util.h"

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
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

bool jf_path_is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}
