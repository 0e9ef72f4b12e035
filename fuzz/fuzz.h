/* fuzz.h - the libFuzzer entry point every fuzz target defines, and the scratch files they write */
#ifndef JF_FUZZ_H
#define JF_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The target's scratch folder, made once by the target. */
extern char fuzz_dir[64];

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
