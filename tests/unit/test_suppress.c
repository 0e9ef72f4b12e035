/* test_suppress.c - unit tests of inline suppressions: the directive, YAML comments, JF006, JF007 */
#include "helpers.h"

#include "rules/suppress.h"
#include "core/yml.h"

/* Directives */

static void parse(const char *text, jf_directive *d)
{
	jf_directive_parse(text, strlen(text), d);
}

static void expect_code(const char *text, const jf_directive *d, size_t i, const char *code)
{
	assert_true(i < d->ncodes);
	size_t n = d->codes[i].end - d->codes[i].start;
	if (n != strlen(code) || memcmp(text + d->codes[i].start, code, n))
		fail_msg("code %zu is '%.*s', expected '%s'", i, (int)n, text + d->codes[i].start, code);
}

static void test_suppress__directive_forms(void **state)
{
	(void)state;
	jf_directive d;
	const char *t = "# jobfix: ignore[JF101]";
	parse(t, &d);
	assert_int_equal(d.kind, JF_DIRECTIVE_IGNORE);
	assert_int_equal(d.ncodes, 1);
	expect_code(t, &d, 0, "JF101");
	assert_int_equal(d.start, 0);
	assert_int_equal(d.end, strlen(t));

	t = "#jobfix:ignore[ hard-coded-local-path ,JF104 ] mounted at run time";
	parse(t, &d);
	assert_int_equal(d.kind, JF_DIRECTIVE_IGNORE);
	assert_int_equal(d.ncodes, 2);
	expect_code(t, &d, 0, "hard-coded-local-path");
	expect_code(t, &d, 1, "JF104");
	assert_int_equal(d.end, strchr(t, ']') - t + 1);

	t = "# jobfix: ignore-file[JF302]";
	parse(t, &d);
	assert_int_equal(d.kind, JF_DIRECTIVE_FILE);
	expect_code(t, &d, 0, "JF302");

	/* After another tool's directive in the same comment. */
	t = "# noqa: E501  # jobfix: ignore[JF101]";
	parse(t, &d);
	assert_int_equal(d.kind, JF_DIRECTIVE_IGNORE);
	assert_int_equal(d.start, strstr(t, "# jobfix") - t);
}

static void test_suppress__directive_broken(void **state)
{
	(void)state;
	jf_directive d;
	parse("# jobfix: ignore", &d);
	assert_int_equal(d.kind, JF_DIRECTIVE_BARE);
	parse("# jobfix: ignore-file", &d);
	assert_int_equal(d.kind, JF_DIRECTIVE_BARE);
	parse("# jobfix: ignore[]", &d);
	assert_int_equal(d.kind, JF_DIRECTIVE_BARE);
	parse("# jobfix: ignore[ , ]", &d);
	assert_int_equal(d.kind, JF_DIRECTIVE_BARE);
	parse("# jobfix: ignore: JF101", &d);
	assert_int_equal(d.kind, JF_DIRECTIVE_BARE);
	parse("# jobfix: ignore[JF101", &d);
	assert_int_equal(d.kind, JF_DIRECTIVE_UNCLOSED);
	const char *t = "# jobfix: ignor[JF101]";
	parse(t, &d);
	assert_int_equal(d.kind, JF_DIRECTIVE_UNKNOWN);
	assert_int_equal(d.word_end - d.word_start, 5);
	parse("# jobfix: ignore-files[JF101]", &d);
	assert_int_equal(d.kind, JF_DIRECTIVE_UNKNOWN);
}

static void test_suppress__directive_none(void **state)
{
	(void)state;
	jf_directive d;
	parse("# an ordinary comment", &d);
	assert_int_equal(d.kind, JF_DIRECTIVE_NONE);
	parse("# see jobfix: it lints jobs", &d); /* `jobfix:` must follow a '#' */
	assert_int_equal(d.kind, JF_DIRECTIVE_NONE);
	parse("# JOBFIX: ignore[JF101]", &d);
	assert_int_equal(d.kind, JF_DIRECTIVE_NONE);
	parse("", &d);
	assert_int_equal(d.kind, JF_DIRECTIVE_NONE);
	parse("# jobfix", &d);
	assert_int_equal(d.kind, JF_DIRECTIVE_NONE);
}

/* YAML comments */

typedef struct {
	const jf_source *src;
	jf_buf found; /* each comment's "line:text\n" */
} comments;

static void on_comment(void *data, jf_span c)
{
	comments *cs = data;
	jf_pos p = jf_source_pos(cs->src, c.start);
	jf_buf_addf(&cs->found, "%u:%.*s\n", p.line, (int)(c.end - c.start), cs->src->data + c.start);
}

static void expect_comments(const char *yaml, const char *expect)
{
	jf_source *src = jf_source_from_string("t.yaml", yaml, strlen(yaml));
	yaml_document_t doc;
	jf_yml_error err;
	if (!jf_yml_load(src, &doc, &err))
		fail_msg("YAML does not load: %s", err.problem);
	comments cs = { src, JF_BUF_INIT };
	jf_yml_comments(src, &doc, on_comment, &cs);
	if (strcmp(cs.found.buf, expect))
		fail_msg("comments:\n%s\nexpected:\n%s", cs.found.buf, expect);
	jf_buf_release(&cs.found);
	yaml_document_delete(&doc);
	jf_source_free(src);
}

static void test_suppress__yaml_comments(void **state)
{
	(void)state;
	expect_comments("# top\na: 1 # after a value\n  # indented\n", "1:# top\n2:# after a value\n3:# indented\n");
	/* Quoted scalars hold a '#', comments do not start in them. */
	expect_comments("a: \"x # not\" # yes\nb: 'y # not'\n", "1:# yes\n");
	/* A plain scalar holds a '#' not after a blank. */
	expect_comments("a: x#y\nb: c # d\n", "2:# d\n");
	/* Block scalars: their text is not comments; the header line may have one. */
	expect_comments("cmd: |  # header\n"
	                "  pip install x  # shell's\n"
	                "  # shell's too\n"
	                "# after the block\n"
	                "b: >-\n"
	                "    folded # text\n"
	                "c: 1\n",
	                "1:# header\n4:# after the block\n");
	/* Flow collections, keys, a multi-line quoted scalar, CRLF line ends. */
	expect_comments("{a: [1, 2], # in flow\n b: 3}\n", "1:# in flow\n");
	expect_comments("k: \"line one\n  # still the string\n  end\" # real\n", "3:# real\n");
	expect_comments("a: 1 # crlf\r\nb: 2\r\n", "1:# crlf\n");
	/* Only the first document. */
	expect_comments("a: 1 # one\n---\nb: \"# x\" # two\n", "1:# one\n");
}

/* Suppressions in a lint */

/* Lints `rel` of the fixture's folder with `config` (NULL: defaults). */
static void lint_with(th_fixture *f, const char *rel, const char *config_text)
{
	jf_config *c = NULL;
	if (config_text) {
		char *path = th_write(f->dir, ".jobfix.yaml", config_text);
		c = jf_config_new();
		assert_int_equal(jf_config_load(c, path), 0);
		assert_int_equal(jf_config_resolve(c), 0);
		free(path);
	}
	jf_linter_free(f->linter);
	jf_options opts = JF_OPTIONS_INIT;
	opts.config = c;
	f->linter = jf_linter_new(&opts);
	char *path = jf_xasprintf("%s/%s", f->dir, rel);
	int rc = jf_linter_lint(f->linter, path);
	if (rc)
		fail_msg("lint: %s", jf_linter_error(f->linter));
	free(path);
	/* The report borrows nothing from the config once the lint is over. */
	jf_config_free(c);
	f->linter->opts.config = NULL;
}

static void lint(th_fixture *f, const char *rel)
{
	lint_with(f, rel, NULL);
}

static void expect(th_fixture *f, const char *id, size_t n)
{
	if (th_count(f->linter, id) != n) {
		th_dump(f->linter);
		fail_msg("%zu %s, expected %zu", th_count(f->linter, id), id, n);
	}
}

static void expect_total(th_fixture *f, size_t n)
{
	if (f->linter->report.diags.size != n) {
		th_dump(f->linter);
		fail_msg("%zu diagnostics, expected %zu", f->linter->report.diags.size, n);
	}
}

static void test_suppress__python_lines(void **state)
{
	th_fixture *f = *state;
	th_put(f->dir, "a.py",
	       "a = open('/home/me/1')  # jobfix: ignore[JF101]\n"           /* same line */
	       "# jobfix: ignore[hard-coded-local-path] mounted at run time\n" /* by name, line before */
	       "b = open('/home/me/2')\n"
	       "# jobfix: ignore[JF101]\n"
	       "\n"
	       "c = open('/home/me/3')\n" /* two lines below: not covered */
	       "d = open('/home/me/4')  # jobfix: ignore[JF201]\n" /* another rule */
	       "e = \"# jobfix: ignore[JF101]\"; f = open('/home/me/5')\n"); /* a string, no comment */
	lint(f, "a.py");
	expect(f, "JF101", 3);
	th_assert_at(th_find(f->linter, "JF101", 0), 6, 10);
	th_assert_at(th_find(f->linter, "JF101", 1), 7, 10);
	th_assert_at(th_find(f->linter, "JF101", 2), 8, 41);
	/* The suppression two lines above and the one of another rule are unused. */
	expect(f, "JF007", 2);
	const jf_diag *d = th_find(f->linter, "JF007", 0);
	th_assert_at(d, 4, 1);
	assert_string_equal(d->message, "suppression of 'JF101' suppresses nothing");
	assert_int_equal(d->severity, JF_SEV_NOTE);
	th_assert_at(th_find(f->linter, "JF007", 1), 7, 25);
	expect_total(f, 5);
}

static void test_suppress__python_file_level(void **state)
{
	th_fixture *f = *state;
	th_put(f->dir, "a.py",
	       "a = open('/home/me/1')\n"
	       "def f():\n"
	       "    return open('/Users/me/2')\n"
	       "# jobfix: ignore-file[JF101, JF201]\n");
	lint(f, "a.py");
	expect(f, "JF101", 0);
	/* JF201 fired nowhere: the file-level suppression is partly unused. */
	expect(f, "JF007", 1);
	const jf_diag *d = th_find(f->linter, "JF007", 0);
	assert_string_equal(d->message, "file-level suppression of 'JF201' suppresses nothing in this file");
	th_assert_at(d, 4, 1);
	expect_total(f, 1);
}

static void test_suppress__bare_and_unknown(void **state)
{
	th_fixture *f = *state;
	th_put(f->dir, "a.py",
	       "a = open('/home/me/1')  # jobfix: ignore\n"
	       "b = open('/home/me/2')  # jobfix: ignore[JF999, JF101]\n"
	       "c = open('/home/me/3')  # jobfix: ignor[JF101]\n"
	       "d = open('/home/me/4')  # jobfix: ignore[JF101\n"
	       "# jobfix: ignore-file\n");
	lint(f, "a.py");
	/* A bare or broken suppression suppresses nothing; an unknown rule leaves the others. */
	expect(f, "JF101", 3);
	expect(f, "JF006", 5);
	const jf_diag *d = th_find(f->linter, "JF006", 0);
	th_assert_at(d, 1, 25);
	assert_string_equal(d->message, "'jobfix: ignore' names no rule: it suppresses nothing");
	assert_int_equal(d->severity, JF_SEV_WARNING);
	d = th_find(f->linter, "JF006", 1);
	th_assert_at(d, 2, 42);
	assert_string_equal(d->message, "unknown rule 'JF999' in a suppression");
	d = th_find(f->linter, "JF006", 2);
	th_assert_at(d, 3, 25);
	assert_string_equal(d->message, "unknown directive 'jobfix: ignor': it suppresses nothing");
	assert_string_equal(d->help, "did you mean 'ignore'?");
	d = th_find(f->linter, "JF006", 3);
	th_assert_at(d, 4, 25);
	assert_non_null(strstr(d->message, "without its closing ']'"));
	d = th_find(f->linter, "JF006", 4);
	th_assert_at(d, 5, 1);
	assert_string_equal(d->message, "'jobfix: ignore-file' names no rule: it suppresses nothing");
	expect(f, "JF007", 0);
}

static void test_suppress__shell(void **state)
{
	th_fixture *f = *state;
	th_put(f->dir, "run.sh",
	       "#!/bin/bash\n"
	       "cd /home/me/proj  # jobfix: ignore[JF101]\n"
	       "  # jobfix: ignore[hard-coded-local-path]\n"
	       "cp /home/me/a /tmp/\n"
	       "cat <<EOF\n"
	       "# jobfix: ignore[JF101]\n" /* heredoc text, not a comment */
	       "EOF\n"
	       "cp /home/me/b /tmp/\n"
	       "echo '# jobfix: ignore[JF101]' /home/me/c; cp /home/me/d /tmp/\n");
	lint(f, "run.sh");
	expect(f, "JF101", 2);
	th_assert_at(th_find(f->linter, "JF101", 0), 8, 4);
	th_assert_at(th_find(f->linter, "JF101", 1), 9, 47);
	expect_total(f, 2);
}

static void test_suppress__job_spec_yaml(void **state)
{
	th_fixture *f = *state;
	th_put(f->dir, "train.py", "print(1)\n");
	th_put(f->dir, "job.yaml",
	       "image: {name: team/train:1, user: \"1000\"}\n"
	       "imgae: x  # jobfix: ignore[JF002]\n"
	       "# jobfix: ignore[unknown-key]\n"
	       "resources: {gpus: 1, gpu: 2}\n"
	       "naem: \"y # jobfix: ignore[JF002]\"\n" /* inside a quoted scalar: no comment */
	       "env:\n"
	       "  PYTHONNOUSERSITE: \"1\"\n"
	       "  NOTE: |\n"
	       "    # jobfix: ignore[JF002]\n" /* inside a block scalar: no comment */
	       "comand: z\n"
	       "command: |\n"
	       "  pip install a  # jobfix: ignore[JF104]\n" /* the command's own shell comment */
	       "  # jobfix: ignore[pip-install-without-user]\n"
	       "  pip install b\n"
	       "  pip install c\n"
	       "  python train.py\n");
	lint(f, "job.yaml");
	expect(f, "JF002", 2);
	th_assert_at(th_find(f->linter, "JF002", 0), 5, 1);
	th_assert_at(th_find(f->linter, "JF002", 1), 10, 1);
	expect(f, "JF104", 1);
	th_assert_at(th_find(f->linter, "JF104", 0), 15, 3);
	expect_total(f, 3);
}

static void test_suppress__job_spec_file_level(void **state)
{
	th_fixture *f = *state;
	th_put(f->dir, "train.py", "print(1)\n");
	th_put(f->dir, "job.yaml",
	       "image: python:3.11\n"
	       "imgae: x\n"
	       "command: python train.py\n"
	       "# jobfix: ignore-file[JF002, JF004]\n");
	lint(f, "job.yaml");
	expect(f, "JF002", 0);
	expect(f, "JF007", 1); /* JF004: nothing is missing */
	expect_total(f, 1);
}

static void test_suppress__unused_only_for_rules_that_ran(void **state)
{
	th_fixture *f = *state;
	th_put(f->dir, "a.py",
	       "import argparse  # jobfix: ignore[JF302]\n" /* needs a job: not judged alone */
	       "x = 1  # jobfix: ignore[JF101]\n");
	lint(f, "a.py");
	expect(f, "JF007", 1);
	th_assert_at(th_find(f->linter, "JF007", 0), 2, 8);
	/* A rule switched off by the config: its suppressions are not judged. */
	lint_with(f, "a.py", "ignore: [JF101]\n");
	expect_total(f, 0);
	lint_with(f, "a.py", "per-file-ignores: {\"*.py\": [JF1]}\n");
	expect_total(f, 0);
	lint_with(f, "a.py", "select: [JF3, JF007]\n");
	expect_total(f, 0);
}

static void test_suppress__meta_rules_obey_the_config(void **state)
{
	th_fixture *f = *state;
	th_put(f->dir, "a.py",
	       "x = 1  # jobfix: ignore[JF101]\n"
	       "y = 2  # jobfix: ignore[JF101, JF007]\n" /* silences its own JF007 */
	       "z = 3  # jobfix: ignore\n");
	lint(f, "a.py");
	expect(f, "JF007", 1);
	expect(f, "JF006", 1);
	lint_with(f, "a.py", "ignore: [unused-suppression]\nseverity: {JF006: error}\n");
	expect(f, "JF007", 0);
	expect(f, "JF006", 1);
	assert_int_equal(th_find(f->linter, "JF006", 0)->severity, JF_SEV_ERROR);
	/* An excluded file reports nothing, its suppressions included. */
	th_put(f->dir, "job.yaml", "image: python:3.11\ncommand: python a.py\n");
	lint_with(f, "job.yaml", "exclude: [a.py]\n");
	expect_total(f, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_suppress__directive_forms),
		cmocka_unit_test(test_suppress__directive_broken),
		cmocka_unit_test(test_suppress__directive_none),
		cmocka_unit_test(test_suppress__yaml_comments),
		cmocka_unit_test_setup_teardown(test_suppress__python_lines, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_suppress__python_file_level, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_suppress__bare_and_unknown, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_suppress__shell, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_suppress__job_spec_yaml, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_suppress__job_spec_file_level, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_suppress__unused_only_for_rules_that_ran, th_setup,
		                                th_teardown),
		cmocka_unit_test_setup_teardown(test_suppress__meta_rules_obey_the_config, th_setup,
		                                th_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
