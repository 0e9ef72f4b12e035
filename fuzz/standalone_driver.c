/* standalone_driver.c - runs a fuzz target without libFuzzer
 *
 *   <target> [--mutate N] FILE|DIR...
 *
 * Feeds every file (directories: every file in them) to the target; with
 * --mutate, also N mutations of each (seeded, so a failure repeats): bit
 * flips, bytes that matter to the parsers, copied and deleted chunks,
 * truncation. The first byte, which picks the kind of input, is kept.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static uint64_t rng;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static size_t mutate(uint8_t *buf, size_t len, size_t cap)
{
	static const char special[] = "\"'[]{}()\n\t:#$`\\|&;<>-=*~@!%, \xff\x80\xc3";
	for (int k = 1 + (int)(next() % 4); k > 0; k--) {
		size_t at = len > 1 ? 1 + next() % (len - 1) : len;
		switch (next() % 6) {
		case 0:
			if (at < len)
				buf[at] ^= (uint8_t)(1u << (next() % 8));
			break;
		case 1:
			if (at < len)
				buf[at] = (uint8_t)special[next() % (sizeof special - 1)];
			break;
		case 2: { /* copy a chunk of the input to `at` */
			size_t n = 1 + next() % 64, from = next() % (len ? len : 1);
			if (n > len - from)
				n = len - from;
			if (len + n > cap || at > len)
				break;
			memmove(buf + at + n, buf + at, len - at);
			memmove(buf + at, buf + from + (from >= at ? n : 0), n);
			len += n;
			break;
		}
		case 3: { /* delete a chunk */
			size_t n = 1 + next() % 32;
			if (at + n <= len) {
				memmove(buf + at, buf + at + n, len - at - n);
				len -= n;
			}
			break;
		}
		case 4:
			if (at < len)
				len = at;
			break;
		default: /* repeat one byte many times: deep nesting, long lines */
			if (at < len) {
				size_t n = next() % 512;
				if (len + n <= cap) {
					memmove(buf + at + n, buf + at, len - at);
					memset(buf + at, buf[at], n);
					len += n;
				}
			}
		}
	}
	return len;
}

static int run_file(const char *path, long mutations)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return 1;
	}
	fseek(f, 0, SEEK_END);
	long size = ftell(f);
	fseek(f, 0, SEEK_SET);
	size_t cap = (size_t)size * 2 + 4096;
	uint8_t *orig = malloc((size_t)size + 1), *buf = malloc(cap);
	size_t len = fread(orig, 1, (size_t)size, f);
	fclose(f);
	LLVMFuzzerTestOneInput(orig, len);
	rng = 0x9e3779b97f4a7c15ull ^ (uint64_t)len;
	for (long i = 0; i < mutations; i++) {
		memcpy(buf, orig, len);
		LLVMFuzzerTestOneInput(buf, mutate(buf, len, cap));
	}
	free(orig);
	free(buf);
	return 0;
}

static int run_path(const char *path, long mutations, int *files)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		perror(path);
		return 1;
	}
	if (!S_ISDIR(st.st_mode)) {
		++*files;
		return run_file(path, mutations);
	}
	DIR *d = opendir(path);
	struct dirent *e;
	int rc = 0;
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char child[4096];
		snprintf(child, sizeof child, "%s/%s", path, e->d_name);
		rc |= run_path(child, mutations, files);
	}
	if (d)
		closedir(d);
	return rc;
}

int main(int argc, char **argv)
{
	long mutations = 0;
	int files = 0, rc = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--mutate") && i + 1 < argc)
			mutations = strtol(argv[++i], NULL, 10);
		else
			rc |= run_path(argv[i], mutations, &files);
	}
	printf("%d inputs, %ld mutations each: %s\n", files, mutations, rc ? "errors" : "no crash");
	return rc;
}
