/* deps.c - the file-system questions of a lint, recorded and asked again */
#define _XOPEN_SOURCE 700 /* realpath */
#include "core/deps.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "core/confine.h"
#include "core/source.h"

static _Thread_local jf_deps *current;

uint64_t jf_hash(const void *data, size_t n, uint64_t seed)
{
	const unsigned char *p = data;
	uint64_t h = seed ^ (n * 0x9E3779B97F4A7C15ull);
	for (; n >= 8; p += 8, n -= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		h = (h ^ w) * 0xBF58476D1CE4E5B9ull;
		h ^= h >> 31;
	}
	uint64_t w = 0;
	memcpy(&w, p, n);
	h = (h ^ w ^ n) * 0x94D049BB133111EBull;
	h ^= h >> 29;
	h *= 0xBF58476D1CE4E5B9ull;
	return h ^ (h >> 32);
}

static uint64_t hash_u64(uint64_t v, uint64_t seed)
{
	return jf_hash(&v, sizeof v, seed);
}

void jf_deps_init(jf_deps *self)
{
	memset(self, 0, sizeof *self);
	pthread_mutex_init(&self->lock, NULL);
}

void jf_deps_release(jf_deps *self)
{
	for (size_t i = 0; i < self->items.size; i++)
		free(self->items.items[i].path);
	jf_array_release(&self->items);
	jf_strmap_release(&self->seen);
	pthread_mutex_destroy(&self->lock);
}

void jf_deps_enter(jf_deps *self)
{
	current = self;
}

void jf_deps_leave(void)
{
	current = NULL;
}

jf_deps *jf_deps_current(void)
{
	return current;
}

/* The kind of a stat: 1 none (with the errno class), 2 file, 3 folder, 4 link, 5 other. */
static uint64_t kind_of(int rc, const struct stat *st)
{
	if (rc != 0)
		return errno == ENOENT || errno == ENOTDIR ? 1 : 6;
	return S_ISREG(st->st_mode) ? 2 : S_ISDIR(st->st_mode) ? 3 : S_ISLNK(st->st_mode) ? 4 : 5;
}

/* What jf_source_load() would make of `path`: its kind, whether the lint
 * may read it, and its bytes up to the size a source may have. */
static uint64_t file_value(const char *path)
{
	struct stat st;
	uint64_t h = kind_of(stat(path, &st), &st);
	if (h != 2)
		return h;
	if (!jf_confine_allows(path))
		return hash_u64(9, h); /* not read: outside the lint's roots */
	if ((uint64_t)st.st_size > JF_SOURCE_MAX_BYTES)
		return hash_u64((uint64_t)st.st_size, h);
	FILE *f = fopen(path, "rb");
	if (!f)
		return hash_u64(7, h);
	char chunk[65536];
	size_t n, total = 0;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0 && total <= JF_SOURCE_MAX_BYTES) {
		h = jf_hash(chunk, n, h);
		total += n;
	}
	h = hash_u64(ferror(f) ? 8 : total, h);
	fclose(f);
	return h;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of the entries of folder `path` with their types, sorted. */
static uint64_t dir_value(const char *path)
{
	DIR *d = opendir(path);
	if (!d)
		return 1;
	jf_strings names = { 0 };
	for (struct dirent *e; (e = readdir(d));)
		jf_array_push(&names, jf_xasprintf("%s/%d", e->d_name, (int)e->d_type));
	closedir(d);
	if (names.size)
		qsort(names.items, names.size, sizeof *names.items, cmp_entry);
	uint64_t h = 2;
	for (size_t i = 0; i < names.size; i++)
		h = jf_hash(names.items[i], strlen(names.items[i]) + 1, h);
	jf_strings_release(&names);
	return h;
}

uint64_t jf_dep_value(jf_dep_kind kind, const char *path)
{
	struct stat st;
	switch (kind) {
	case JF_DEP_KIND:
		return kind_of(stat(path, &st), &st);
	case JF_DEP_LKIND:
		return kind_of(lstat(path, &st), &st);
	case JF_DEP_FILE:
		return file_value(path);
	case JF_DEP_DIR:
		return dir_value(path);
	case JF_DEP_REAL: {
		char *real = realpath(path, NULL);
		uint64_t h = real ? jf_hash(real, strlen(real), 3) : 1;
		free(real);
		return h;
	}
	case JF_DEP_ALLOW:
		return jf_confine_allows(path) ? 2 : 1;
	default:
		return 0;
	}
}

void jf_deps_note(jf_dep_kind kind, const char *path)
{
	jf_deps *self = current;
	if (!self || !path)
		return;
	char *key = jf_xasprintf("%c%s", 'a' + (int)kind, path);
	pthread_mutex_lock(&self->lock);
	bool fresh = !self->overflow && jf_strmap_add(&self->seen, key);
	if (fresh && self->items.size >= JF_DEPS_MAX)
		self->overflow = true;
	pthread_mutex_unlock(&self->lock);
	free(key);
	if (!fresh || self->overflow)
		return;
	/* Asked outside the lock: another thread may record meanwhile. */
	current = NULL; /* what the answer itself asks is not a question of the lint */
	jf_dep d = { kind, jf_xstrdup(path), jf_dep_value(kind, path) };
	current = self;
	pthread_mutex_lock(&self->lock);
	jf_array_push(&self->items, d);
	pthread_mutex_unlock(&self->lock);
}

bool jf_deps_unchanged(const jf_dep *deps, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (jf_dep_value(deps[i].kind, deps[i].path) != deps[i].value)
			return false;
	return true;
}
