/* test_diag.c - unit tests of the report renderers: GitHub annotations, SARIF details, the
 * table of formats */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "report/report.h"
#include "rules/registry.h"

/* Renders `r` in `format` as a new string. */
static char *render(jf_report *r, jf_format format)
{
	jf_buf b = JF_BUF_INIT;
	jf_report_finish(r);
	jf_report_render(r, &b, format, false);
	return jf_buf_detach(&b, NULL);
}

/* The value of the first "jobfixLineHash/v1" after `from` in `sarif`, as a new string. */
static char *fingerprint(const char *sarif, const char *from)
{
	const char *p = strstr(sarif, from);
	assert_non_null(p);
	p = strstr(p, "\"jobfixLineHash/v1\": \"");
	assert_non_null(p);
	p += strlen("\"jobfixLineHash/v1\": \"");
	return jf_xstrndup(p, 16);
}

static const jf_rule *rule(const char *id)
{
	const jf_rule *r = jf_rule_list_find(jf_rules_builtin(), id);
	assert_non_null(r);
	return r;
}

static void test_diag__github_levels_and_columns(void **state)
{
	(void)state;
	static const char text[] = "a = 1\nb = [\n  2]\n";
	jf_source *s = jf_source_from_string("dir,x/t:1.py", text, sizeof text - 1);
	jf_report r = { 0 };
	jf_report_add(&r, rule("JF101"), s, (jf_span){ 0, 1 }, "one line");
	jf_diag *d = jf_report_add(&r, rule("JF301"), s, (jf_span){ 10, 15 }, "two lines");
	d->severity = JF_SEV_NOTE;
	jf_diag_relate(d, s, (jf_span){ 4, 5 }, "50%% here");
	jf_diag_set_help(d, "say\nmore");
	char *out = render(&r, JF_FORMAT_GITHUB);
	assert_string_equal(out,
		"::error file=dir%2Cx/t%3A1.py,line=1,endLine=1,col=1,endColumn=2,"
		"title=JF101 hard-coded-local-path::one line%0Ahelp: "
		"pass the path as an argument or environment variable, and point it at a mount "
		"declared in the job's inputs or outputs\n"
		/* A span over two lines: GitHub takes no columns. */
		"::notice file=dir%2Cx/t%3A1.py,line=2,endLine=3,title=JF301 syntax-error::"
		"two lines%0Anote: dir,x/t:1.py:1:5: 50%25 here%0Ahelp: say%0Amore\n");
	free(out);
	jf_report_release(&r);
	jf_source_free(s);
}

static void test_diag__sarif_fingerprints(void **state)
{
	(void)state;
	/* The same line twice, and once more indented differently in another run. */
	static const char a[] = "x = open('/home/u/a')\nx = open('/home/u/a')\n";
	static const char b[] = "\n\n    x  =\topen('/home/u/a')   \n";
	jf_source *sa = jf_source_from_string("t.py", a, sizeof a - 1);
	jf_source *sb = jf_source_from_string("t.py", b, sizeof b - 1);
	jf_report ra = { 0 }, rb = { 0 };
	jf_report_add(&ra, rule("JF101"), sa, (jf_span){ 9, 20 }, "first");
	jf_report_add(&ra, rule("JF101"), sa, (jf_span){ 31, 42 }, "second");
	jf_report_add(&rb, rule("JF101"), sb, (jf_span){ 15, 26 }, "moved");
	char *out_a = render(&ra, JF_FORMAT_SARIF);
	char *out_b = render(&rb, JF_FORMAT_SARIF);
	char *first = fingerprint(out_a, "\"first\"");
	char *second = fingerprint(out_a, "\"second\"");
	char *moved = fingerprint(out_b, "\"moved\"");
	/* Equal lines are told apart by their order ... */
	assert_string_not_equal(first, second);
	/* ... and a finding keeps its fingerprint when its line moves or is re-indented. */
	assert_string_equal(first, moved);
	assert_non_null(strstr(out_b, "\"region\": {\"startLine\": 3, \"startColumn\": 14, "
	                              "\"endLine\": 3, \"endColumn\": 25}"));
	free(first);
	free(second);
	free(moved);
	free(out_a);
	free(out_b);
	jf_report_release(&ra);
	jf_report_release(&rb);
	jf_source_free(sa);
	jf_source_free(sb);
}

static void test_diag__sarif_failures(void **state)
{
	(void)state;
	jf_report r = { 0 };
	char *ok = render(&r, JF_FORMAT_SARIF);
	assert_non_null(strstr(ok, "\"executionSuccessful\": true"));
	assert_null(strstr(ok, "toolExecutionNotifications"));
	assert_non_null(strstr(ok, "\"results\": []"));
	jf_report_add_failure(&r, "cannot read 'x.py': \"quoted\"");
	char *failed = render(&r, JF_FORMAT_SARIF);
	assert_non_null(strstr(failed, "\"executionSuccessful\": false"));
	assert_non_null(strstr(failed, "{\"text\": \"cannot read 'x.py': \\\"quoted\\\"\"}"));
	free(ok);
	free(failed);
	jf_report_release(&r);
}

static void test_diag__format_table(void **state)
{
	(void)state;
	/* Every format has a row, under a name that gives it back. */
	static const jf_format all[] = { JF_FORMAT_TEXT, JF_FORMAT_CONCISE, JF_FORMAT_JSON,
		                         JF_FORMAT_SARIF, JF_FORMAT_GITHUB };
	jf_buf names = JF_BUF_INIT;
	const char *name;
	jf_format f, g;
	size_t i;
	for (i = 0; (name = jf_format_name_at(i, &f)); i++) {
		assert_int_equal(jf_format_from_name(name, &g), 0);
		assert_int_equal(g, f);
		jf_buf_addf(&names, "%s%s", i ? ", " : "", name);
	}
	assert_int_equal(i, sizeof all / sizeof *all);
	for (i = 0; i < sizeof all / sizeof *all; i++) {
		bool found = false;
		for (size_t k = 0; jf_format_name_at(k, &f); k++)
			found |= f == all[i];
		assert_true(found);
	}
	assert_string_equal(names.buf, "text, concise, json, sarif, github");
	jf_buf_release(&names);
	g = JF_FORMAT_GITHUB;
	assert_int_equal(jf_format_from_name("JSON", &g), JF_ENOTFOUND);
	assert_int_equal(jf_format_from_name("", &g), JF_ENOTFOUND);
	assert_int_equal(g, JF_FORMAT_GITHUB);

	/* The longest suffix wins; a name that is only a suffix has none. */
	static const struct {
		const char *path;
		int rc;
		jf_format format;
	} files[] = {
		{ "out.sarif", 0, JF_FORMAT_SARIF },
		{ "out.sarif.json", 0, JF_FORMAT_SARIF },
		{ "out.json", 0, JF_FORMAT_JSON },
		{ "dir.sarif/out.txt", 0, JF_FORMAT_TEXT },
		{ ".sarif.json", 0, JF_FORMAT_JSON },
		{ ".json", JF_ENOTFOUND, JF_FORMAT_GITHUB },
		{ "out.JSON", JF_ENOTFOUND, JF_FORMAT_GITHUB },
		{ "out", JF_ENOTFOUND, JF_FORMAT_GITHUB },
	};
	for (i = 0; i < sizeof files / sizeof *files; i++) {
		f = JF_FORMAT_GITHUB;
		assert_int_equal(jf_format_from_file_name(files[i].path, &f), files[i].rc);
		assert_int_equal(f, files[i].format);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diag__github_levels_and_columns),
		cmocka_unit_test(test_diag__sarif_fingerprints),
		cmocka_unit_test(test_diag__sarif_failures),
		cmocka_unit_test(test_diag__format_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
