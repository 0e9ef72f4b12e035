/* config_fuzzer.c - the config loader end to end: the input is a .jobfix.yaml
 * after a first byte whose bits pick command-line overrides. Loads it in a
 * scratch folder that also holds a rules folder and a Python file with
 * suppressions, renders its errors in every format, and when it has none,
 * lints the file with it and renders the findings and the statistics. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "jobfix/jobfix.h"

char fuzz_dir[64];

static void setup(void)
{
	fuzz_make_dir();
	char path[160];
	snprintf(path, sizeof path, "%s/rules", fuzz_dir);
	mkdir(path, 0755);
	snprintf(path, sizeof path, "%s/rules/python", fuzz_dir);
	mkdir(path, 0755);
	fuzz_put_str("rules/python/X901-print-call.scm",
	        "; id: X901\n; name: print-call\n; severity: note\n; category: Illegal Argument\n"
	        "; summary: s\n; message: print\n; help: h\n"
	        "((call function: (identifier) @_f) @finding (#eq? @_f \"print\"))\n");
	fuzz_put_str("train.py", "# jobfix: ignore-file[JF201]\n"
	                    "x = open('/home/me/a')  # jobfix: ignore[JF101]\n"
	                    "# jobfix: ignore[hard-coded-local-path, X901]\n"
	                    "print(open('/Users/me/b'))\n"
	                    "y = 1  # jobfix: ignore\n");
}

static void render(jf_linter *l, const jf_config *c, FILE *f)
{
	jf_format fmt;
	for (size_t i = 0; jf_format_name_at(i, &fmt); i++) {
		if (c)
			jf_config_write_errors(c, f, fmt, fmt == JF_FORMAT_TEXT);
		if (l) {
			jf_linter_write(l, f, fmt, 0);
			jf_linter_write_statistics(l, f, fmt);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!fuzz_dir[0])
		setup();
	if (size < 1)
		return 0;
	fuzz_put(".jobfix.yaml", data + 1, size - 1);
	char path[160];
	snprintf(path, sizeof path, "%s/.jobfix.yaml", fuzz_dir);

	jf_config *c = jf_config_new();
	jf_config_load(c, path);
	if (data[0] & 1)
		jf_config_set(c, "select", "JF1, X9,print-call");
	if (data[0] & 2)
		jf_config_set(c, "ignore", data[0] & 4 ? "JF101" : "Path Not Found,,");
	if (data[0] & 8) {
		snprintf(path, sizeof path, "%s/rules", fuzz_dir);
		jf_config_set(c, "rules-dir", path);
	}
	if (data[0] & 16)
		jf_config_set(c, "fail-on", data[0] & 32 ? "note" : "fatal");
	jf_config_resolve(c);
	for (size_t i = 0; jf_config_job_pattern(c, i); i++)
		;
	jf_severity s;
	jf_config_fail_on(c, &s);

	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	if (jf_config_error_count(c)) {
		render(NULL, c, f);
	} else {
		jf_options opts = JF_OPTIONS_INIT;
		opts.config = c;
		jf_linter *l = jf_linter_new(&opts);
		snprintf(path, sizeof path, "%s/train.py", fuzz_dir);
		jf_linter_lint(l, path);
		render(l, NULL, f);
		jf_linter_free(l);
	}
	fclose(f);
	free(out);
	jf_config_free(c);
	return 0;
}
