/* fuzz.h - the libFuzzer entry point every fuzz target defines, and the scratch files they write */
#ifndef JF_FUZZ_H
#define JF_FUZZ_H


#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The target's scratch folder, made by fuzz_make_dir(). */
extern char fuzz_dir[64];

/* Removes folder `path` and everything in it (the targets make no links). */
static inline void fuzz_remove(const char *path)
{
	DIR *d = opendir(path);
	for (struct dirent *e; d && (e = readdir(d));) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		size_t n = strlen(path) + strlen(e->d_name) + 2;
		char *sub = malloc(n);
		if (!sub)
			abort();
		snprintf(sub, n, "%s/%s", path, e->d_name);
		if (unlink(sub) != 0)
			fuzz_remove(sub);
		free(sub);
	}
	if (d)
		closedir(d);
	rmdir(path);
}

static inline void fuzz_remove_dir(void)
{
	fuzz_remove(fuzz_dir);
}

/* Makes fuzz_dir, a fresh folder under /tmp removed with all it holds at exit. */
static inline void fuzz_make_dir(void)
{
	snprintf(fuzz_dir, sizeof fuzz_dir, "/tmp/jobfix-fuzz-XXXXXX");
	if (!mkdtemp(fuzz_dir))
		abort();
	atexit(fuzz_remove_dir);
}

/* Writes `n` bytes to fuzz_dir/name; a fuzz target has no better answer than abort(). */
static inline void fuzz_put(const char *name, const void *data, size_t n)
{
	char path[192];
	snprintf(path, sizeof path, "%s/%s", fuzz_dir, name);
	FILE *f = fopen(path, "wb");
	if (!f)
		abort();
	fwrite(data, 1, n, f);
	fclose(f);
}

static inline void fuzz_put_str(const char *name, const char *text)
{
	fuzz_put(name, text, strlen(text));
}

#endif
