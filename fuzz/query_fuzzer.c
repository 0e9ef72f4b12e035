/* query_fuzzer.c - compiles the input as a rule query (users write .scm files)
 * for Python and for bash, and runs what compiles over a small tree. */
#include <stdlib.h>

#include "fuzz.h"
#include "rules/registry.h"

static void count(void *data, const jf_match *m)
{
	(void)m;
	++*(size_t *)data;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const samples[] = { "", "import os\nopen('/home/a/b', 'w')\nx = f(1, y=2)\n",
		                               "cd /x && python t.py --a=1 > /tmp/o\n" };
	static TSParser *parser;
	if (!parser)
		parser = ts_parser_new();
	for (jf_lang lang = JF_LANG_PYTHON; lang <= JF_LANG_BASH; lang++) {
		jf_query *q = NULL;
		jf_error err = JF_ERROR_INIT;
		int rc = jf_query_compile(lang, "fuzz.scm", (const char *)data, (uint32_t)size, 0, &q, &err);
		jf_error_clear(&err);
		if (rc)
			continue;
		ts_parser_set_language(parser, jf_lang_ts(lang));
		TSTree *t = ts_parser_parse_string(parser, NULL, samples[lang - 1],
		                                   (uint32_t)strlen(samples[lang - 1]));
		size_t n = 0;
		jf_query_run(q, ts_tree_root_node(t), samples[lang - 1], count, &n);
		ts_tree_delete(t);
		jf_query_free(q);
	}
	return 0;
}
