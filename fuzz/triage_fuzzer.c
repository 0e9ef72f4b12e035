/* triage_fuzzer.c - `jobfix triage` end to end on one log: the input is the log,
 * written plain, and (when its first byte is odd) gzip-compressed too; each is
 * read and rendered in text and json. */
#include <zlib.h>

#include "fuzz.h"
#include "jobfix/jobfix.h"

char fuzz_dir[64];

static void triage(const char *name)
{
	char path[160];
	snprintf(path, sizeof path, "%s/%s", fuzz_dir, name);
	jf_triage *t = jf_triage_new();
	jf_triage_read(t, path);
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	jf_triage_write(t, f, JF_FORMAT_TEXT);
	jf_triage_write(t, f, JF_FORMAT_JSON);
	jf_triage_verdict(t);
	fclose(f);
	free(out);
	jf_triage_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!fuzz_dir[0])
		fuzz_make_dir();
	fuzz_put("train.log", data, size);
	triage("train.log");
	if (size && data[0] & 1) {
		char path[160];
		snprintf(path, sizeof path, "%s/train.log.gz", fuzz_dir);
		gzFile gz = gzopen(path, "wb");
		if (gz) {
			gzwrite(gz, data, (unsigned)size);
			gzclose(gz);
			triage("train.log.gz");
		}
	}
	return 0;
}
