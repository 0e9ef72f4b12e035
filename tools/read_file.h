/* read_file.h - a whole file into memory, for the small tools beside the benchmark
 * (parse_only.c, pgo_train.c), each built alone */
#ifndef JF_TOOLS_READ_FILE_H
#define JF_TOOLS_READ_FILE_H

#include <stdio.h>
#include <stdlib.h>

/* The bytes of `path` (not NUL-terminated), their number in *len; NULL, said
 * on stderr, when it cannot be read. */
static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return NULL;
	}
	char *data = NULL;
	size_t cap = 0, n = 0, got;
	do {
		if (n == cap) {
			cap = cap ? cap * 2 : 1 << 16;
			char *bigger = realloc(data, cap);
			if (!bigger) {
				fprintf(stderr, "%s: out of memory\n", path);
				free(data);
				fclose(f);
				return NULL;
			}
			data = bigger;
		}
		got = fread(data + n, 1, cap - n, f);
		n += got;
	} while (got);
	if (ferror(f)) {
		perror(path);
		free(data);
		data = NULL;
	}
	fclose(f);
	*len = n;
	return data;
}

#endif
