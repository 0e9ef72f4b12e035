/* test_cover.c - unit tests of the coverage lines (core/cover.h) and what the sink keeps of them */
#include "helpers.h"

#include "core/sink.h"

static void test_cover__lines_read_back(void **state)
{
	(void)state;
	char *line = jf_cover_entry_line("tools/train.py", JF_COVER_NOT_CHECKED,
	                                 "it reads sys.argv by hand");
	jf_cover_line l;
	assert_true(jf_cover_line_read(line, &l));
	assert_int_equal(l.kind, JF_COVER_LINE_ENTRY);
	assert_int_equal(l.state, JF_COVER_NOT_CHECKED);
	assert_string_equal(l.script, "tools/train.py");
	assert_string_equal(l.why, "it reads sys.argv by hand");
	jf_cover_line_release(&l);
	free(line);

	line = jf_cover_entry_line("a b: c.py", JF_COVER_CHECKED, NULL);
	assert_true(jf_cover_line_read(line, &l));
	assert_string_equal(l.script, "a b: c.py");
	assert_null(l.why);
	jf_cover_line_release(&l);
	free(line);

	line = jf_cover_imports_line(JF_COVER_PARTIAL, 44, 3, NULL);
	assert_true(jf_cover_line_read(line, &l));
	assert_int_equal(l.kind, JF_COVER_LINE_IMPORTS);
	assert_int_equal(l.state, JF_COVER_PARTIAL);
	assert_int_equal(l.a, 44);
	assert_int_equal(l.b, 3);
	jf_cover_line_release(&l);
	free(line);

	line = jf_cover_files_line(12, 2);
	assert_true(jf_cover_line_read(line, &l));
	assert_int_equal(l.kind, JF_COVER_LINE_FILES);
	assert_int_equal(l.a, 12);
	assert_int_equal(l.b, 2);
	jf_cover_line_release(&l);
	free(line);

	/* What is no line of jf_cover_*(): refused, nothing to release. */
	assert_false(jf_cover_line_read("entry\x1f" "checked", &l));
	assert_false(jf_cover_line_read("bogus\x1f" "checked\x1fx\x1f", &l));
	assert_false(jf_cover_line_read("entry\x1f" "sometimes\x1fx\x1f", &l));
	assert_string_equal(jf_cover_name(JF_COVER_NOTHING), "nothing");
}

static const jf_rule *no_rule(const void *data, const char *id)
{
	(void)data;
	(void)id;
	return NULL;
}

static void test_cover__sink_keeps_an_entry_once(void **state)
{
	(void)state;
	jf_report report = { 0 };
	jf_strings skipped = { 0 }, covered = { 0 };
	jf_sink sink = { &report, no_rule, NULL, &skipped, "job.yaml", &covered };
	jf_sink_cover_entry(&sink, "train.py", JF_COVER_CHECKED, NULL);
	jf_sink_cover_entry(&sink, "train.py", JF_COVER_NOT_CHECKED, "later");
	jf_sink_cover_entry(&sink, "eval.py", JF_COVER_NOTHING, "no parser");
	jf_sink_cover_imports(&sink, JF_COVER_CHECKED, 5, 0, NULL);
	assert_int_equal(covered.size, 3);
	jf_cover_line l;
	assert_true(jf_cover_line_read(covered.items[0], &l));
	assert_int_equal(l.state, JF_COVER_CHECKED);
	jf_cover_line_release(&l);
	/* A sink that keeps none: nothing said, nothing kept. */
	sink.covered = NULL;
	jf_sink_cover_entry(&sink, "x.py", JF_COVER_CHECKED, NULL);
	assert_int_equal(covered.size, 3);
	jf_strings_release(&covered);
	jf_strings_release(&skipped);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cover__lines_read_back),
		cmocka_unit_test(test_cover__sink_keeps_an_entry_once),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
