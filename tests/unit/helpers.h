/* helpers.h - temp folders, file writing and diagnostic lookup shared by the unit tests */
#ifndef JF_TEST_HELPERS_H
#define JF_TEST_HELPERS_H

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linter.h"
#include "rules/registry.h"
#include "core/source.h"
#include "core/util.h"

/* jobfix's own rules, by id or name and by place. */
static inline const jf_rule *th_rule(const char *id_or_name)
{
	return jf_rule_list_find(jf_rules_builtin(), id_or_name);
}

static inline size_t th_rules_size(void)
{
	return jf_rules_builtin()->items.size;
}

static inline const jf_rule *th_rule_at(size_t i)
{
	assert_true(i < th_rules_size());
	return jf_rules_builtin()->items.items[i];
}

/* A fresh folder under /tmp; caller removes it with th_rmtree() and frees the name. */
static inline char *th_mkdtemp(void)
{
	char *dir = jf_xstrdup("/tmp/jobfix-unit-XXXXXX");
	assert_non_null(mkdtemp(dir));
	return dir;
}

/* Creates every missing folder of `path` (not `path` itself). */
static inline void th_mkparents(const char *path)
{
	char *p = jf_xstrdup(path);
	for (char *s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(p, 0755) != 0 && errno != EEXIST)
			fail_msg("mkdir %s: %s", p, strerror(errno));
		*s = '/';
	}
	free(p);
}

/* Writes `n` bytes to `dir`/`rel`, creating folders; returns the full path (caller frees). */
static inline char *th_write_n(const char *dir, const char *rel, const char *data, size_t n)
{
	char *path = jf_xasprintf("%s/%s", dir, rel);
	th_mkparents(path);
	FILE *f = fopen(path, "wb");
	if (!f)
		fail_msg("cannot write %s: %s", path, strerror(errno));
	assert_int_equal(fwrite(data, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
	return path;
}

static inline char *th_write(const char *dir, const char *rel, const char *text)
{
	return th_write_n(dir, rel, text, strlen(text));
}

/* Writes the file and drops the name. */
static inline void th_put(const char *dir, const char *rel, const char *text)
{
	free(th_write(dir, rel, text));
}

/* rm -rf, without following symbolic links. */
static inline void th_rmtree(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return;
	if (S_ISDIR(st.st_mode)) {
		DIR *d = opendir(path);
		if (d) {
			struct dirent *e;
			while ((e = readdir(d)) != NULL) {
				if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
					continue;
				char *child = jf_xasprintf("%s/%s", path, e->d_name);
				th_rmtree(child);
				free(child);
			}
			closedir(d);
		}
		rmdir(path);
	} else {
		unlink(path);
	}
}

/* How many diagnostics of rule `id` the linter holds. */
static inline size_t th_count(const jf_linter *l, const char *id)
{
	size_t n = 0;
	for (size_t i = 0; i < l->report.diags.size; i++)
		n += !strcmp(l->report.diags.items[i].rule->info.id, id);
	return n;
}

/* The `nth` diagnostic of rule `id`, or NULL. */
static inline const jf_diag *th_find(const jf_linter *l, const char *id, size_t nth)
{
	for (size_t i = 0; i < l->report.diags.size; i++) {
		const jf_diag *d = &l->report.diags.items[i];
		if (!strcmp(d->rule->info.id, id) && nth-- == 0)
			return d;
	}
	return NULL;
}

/* Every diagnostic as "file:line:col: ID message" lines, for failure messages. */
static inline void th_dump(const jf_linter *l)
{
	for (size_t i = 0; i < l->report.diags.size; i++) {
		const jf_diag *d = &l->report.diags.items[i];
		jf_pos p = jf_source_pos(d->src, d->span.start);
		print_message("  %s:%u:%u: %s %s\n", d->src->path, p.line, p.col, d->rule->info.id,
		              d->message);
	}
}

/* Asserts that diagnostic `d` starts at 1-based `line`:`col` of its source. */
#define th_assert_at(d, l, c)                                                            \
	do {                                                                             \
		jf_pos th_p_ = jf_source_pos((d)->src, (d)->span.start);                 \
		if (th_p_.line != (uint32_t)(l) || th_p_.col != (uint32_t)(c))           \
			fail_msg("%s at %u:%u, expected %u:%u (%s)", (d)->rule->info.id, \
			         th_p_.line, th_p_.col, (unsigned)(l), (unsigned)(c),    \
			         (d)->message);                                          \
	} while (0)

/* A temporary folder and a linter, for the tests that lint jobs they write. */
typedef struct {
	char *dir;
	jf_linter *linter;
} th_fixture;

static inline int th_setup(void **state)
{
	th_fixture *f = jf_xcalloc(1, sizeof(*f));
	f->dir = th_mkdtemp();
	f->linter = jf_linter_new(NULL);
	*state = f;
	return 0;
}

static inline int th_teardown(void **state)
{
	th_fixture *f = *state;
	jf_linter_free(f->linter);
	th_rmtree(f->dir);
	free(f->dir);
	free(f);
	return 0;
}

#endif
