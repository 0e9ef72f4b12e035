/* test_job.c - unit tests of the job spec loader through the linter: JF001-JF004 and read errors */
#include "helpers.h"

#include <time.h>

#include "job/job.h"

/* Writes `n` bytes as job.yaml in the fixture's folder and lints it; asserts success. */
static void lint_n(th_fixture *f, const char *text, size_t n)
{
	char *path = th_write_n(f->dir, "job.yaml", text, n);
	int rc = jf_linter_lint(f->linter, path);
	if (rc != 0)
		fail_msg("jf_linter_lint: %d: %s", rc, jf_linter_error(f->linter));
	free(path);
}

static void lint(th_fixture *f, const char *text)
{
	lint_n(f, text, strlen(text));
}

/* Asserts the number of diagnostics, printing them all when it is wrong. */
static void expect_total(const th_fixture *f, size_t n)
{
	if (f->linter->report.diags.size != n) {
		th_dump(f->linter);
		fail_msg("%zu diagnostics, expected %zu", f->linter->report.diags.size, n);
	}
}

static void expect_count(const th_fixture *f, const char *id, size_t n)
{
	if (th_count(f->linter, id) != n) {
		th_dump(f->linter);
		fail_msg("%zu %s, expected %zu", th_count(f->linter, id), id, n);
	}
}

static void test_job__valid_spec_is_clean(void **state)
{
	th_fixture *f = *state;
	lint(f, "version: 1\n"
	        "name: demo\n"
	        "image: python:3.11\n"
	        "workdir: /workspace\n"
	        "command: echo hi\n"
	        "env: {SEED: \"1\"}\n"
	        "resources: {gpus: 8, nodes: 1}\n");
	expect_total(f, 0);
	assert_int_equal(jf_linter_count(f->linter, JF_SEV_NOTE), 0);
}

static void test_job__unclosed_flow_sequence(void **state)
{
	th_fixture *f = *state;
	lint(f, "image: python:3.11\n"
	        "command: echo hi\n"
	        "env: {a: [1, 2\n");
	expect_total(f, 1);
	const jf_diag *d = th_find(f->linter, "JF001", 0);
	assert_non_null(d);
	/* libyaml finds the end of the stream at 4:1, inside the list opened at 3:10. */
	th_assert_at(d, 4, 1);
	assert_non_null(strstr(d->message, "did not find expected ',' or ']'"));
	assert_int_equal(d->severity, JF_SEV_ERROR);
	assert_int_equal(d->related.size, 1);
	jf_pos ctx = jf_source_pos(d->related.items[0].src, d->related.items[0].span.start);
	assert_int_equal(ctx.line, 3);
	assert_int_equal(ctx.col, 10);
	assert_non_null(strstr(d->related.items[0].message, "flow sequence"));
}

static void test_job__flow_sequence_alone(void **state)
{
	th_fixture *f = *state;
	lint(f, "a: [1, 2");
	expect_total(f, 1);
	const jf_diag *d = th_find(f->linter, "JF001", 0);
	assert_non_null(d);
	th_assert_at(d, 1, 9); /* the end of the file, which has no final newline */
	assert_int_equal(d->span.start, 8);
}

static void test_job__tab_indented_mapping(void **state)
{
	th_fixture *f = *state;
	lint(f, "image: python:3.11\n"
	        "command: echo hi\n"
	        "resources:\n"
	        "\tgpus: 1\n");
	expect_total(f, 1);
	const jf_diag *d = th_find(f->linter, "JF001", 0);
	assert_non_null(d);
	th_assert_at(d, 4, 1);
	assert_non_null(strstr(d->message, "cannot start any token"));
}

static void test_job__error_column_counts_characters(void **state)
{
	th_fixture *f = *state;
	/* Two 2-byte characters before the error: column 9, byte 8 of the line. */
	lint(f, "image: python:3.11\n"
	        "command: echo hi\n"
	        "name: \xc3\xa9\xc3\xa9: x\n");
	expect_total(f, 1);
	const jf_diag *d = th_find(f->linter, "JF001", 0);
	assert_non_null(d);
	th_assert_at(d, 3, 9);
	assert_int_equal(d->src->data[d->span.start], ':');
}

static void test_job__nul_byte(void **state)
{
	th_fixture *f = *state;
	static const char text[] = "image: python:3.11\ncommand: echo\0 hi\n";
	lint_n(f, text, sizeof text - 1);
	expect_total(f, 1);
	const jf_diag *d = th_find(f->linter, "JF001", 0);
	assert_non_null(d);
	th_assert_at(d, 2, 14);
	assert_non_null(strstr(d->message, "NUL"));
}

static void test_job__unknown_key_suggestion(void **state)
{
	th_fixture *f = *state;
	lint(f, "imgae: python:3.11\n"
	        "command: echo hi\n");
	expect_count(f, "JF002", 1);
	const jf_diag *d = th_find(f->linter, "JF002", 0);
	th_assert_at(d, 1, 1);
	assert_int_equal(d->span.end - d->span.start, 5); /* the key */
	assert_non_null(strstr(d->message, "'imgae'"));
	assert_non_null(d->help);
	assert_string_equal(d->help, "did you mean 'image'?");
	/* With the key misspelt, `image` itself is missing. */
	expect_count(f, "JF004", 1);
	expect_total(f, 2);
}

static void test_job__unknown_key_far_from_any(void **state)
{
	th_fixture *f = *state;
	lint(f, "image: python:3.11\n"
	        "command: echo hi\n"
	        "resources: {gpus: 1, gpu_count: 2}\n"
	        "zzzzzz: 1\n");
	expect_count(f, "JF002", 2);
	const jf_diag *nested = th_find(f->linter, "JF002", 0);
	th_assert_at(nested, 3, 22);
	assert_non_null(strstr(nested->message, "'gpu_count'"));
	const jf_diag *top = th_find(f->linter, "JF002", 1);
	th_assert_at(top, 4, 1);
	assert_null(top->help); /* nothing close: the rule's help */
	expect_total(f, 2);
}

static void test_job__quoted_gpu_count(void **state)
{
	th_fixture *f = *state;
	lint(f, "image: python:3.11\n"
	        "command: echo hi\n"
	        "resources: {gpus: \"8\"}\n");
	expect_total(f, 1);
	const jf_diag *d = th_find(f->linter, "JF003", 0);
	assert_non_null(d);
	th_assert_at(d, 3, 19); /* the value, quotes included */
	assert_int_equal(d->span.end - d->span.start, 3);
	assert_non_null(strstr(d->message, "resources.gpus"));
}

static void test_job__wrong_types(void **state)
{
	th_fixture *f = *state;
	lint(f, "image: python:3.11\n"
	        "command: [python, train.py]\n"
	        "workdir: relative/dir\n"
	        "resources:\n"
	        "  nodes: -1\n");
	expect_count(f, "JF003", 3);
	th_assert_at(th_find(f->linter, "JF003", 0), 2, 10);
	th_assert_at(th_find(f->linter, "JF003", 1), 3, 10);
	th_assert_at(th_find(f->linter, "JF003", 2), 5, 10);
	expect_total(f, 3);
}

static void test_job__missing_image_and_command(void **state)
{
	th_fixture *f = *state;
	lint(f, "name: x\n");
	expect_total(f, 2);
	expect_count(f, "JF004", 2);
	const jf_diag *a = th_find(f->linter, "JF004", 0), *b = th_find(f->linter, "JF004", 1);
	bool image_first = strstr(a->message, "'image'") != NULL;
	assert_non_null(strstr((image_first ? a : b)->message, "'image'"));
	assert_non_null(strstr((image_first ? b : a)->message, "'command'"));
}

static void test_job__empty_file(void **state)
{
	th_fixture *f = *state;
	lint(f, "");
	expect_total(f, 1);
	const jf_diag *d = th_find(f->linter, "JF004", 0);
	assert_non_null(d);
	th_assert_at(d, 1, 1);
	assert_non_null(strstr(d->message, "empty"));
}

static void test_job__comments_only_is_empty(void **state)
{
	th_fixture *f = *state;
	lint(f, "# nothing here\n---\n");
	expect_total(f, 1);
	expect_count(f, "JF004", 1);
}

static void test_job__not_a_mapping(void **state)
{
	th_fixture *f = *state;
	lint(f, "- image: python:3.11\n");
	expect_total(f, 1);
	const jf_diag *d = th_find(f->linter, "JF003", 0);
	assert_non_null(d);
	assert_non_null(strstr(d->message, "a list"));
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* "Billion laughs": nine levels of nine aliases, also used where values are expected. */
static void test_job__alias_bomb(void **state)
{
	th_fixture *f = *state;
	jf_buf b = JF_BUF_INIT;
	jf_buf_adds(&b, "image: python:3.11\ncommand: echo hi\n");
	jf_buf_adds(&b, "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
	for (char c = 'b'; c <= 'i'; c++) {
		jf_buf_addf(&b, "%c: &%c [", c, c);
		for (int k = 0; k < 9; k++)
			jf_buf_addf(&b, "%s*%c", k ? "," : "", c - 1);
		jf_buf_adds(&b, "]\n");
	}
	jf_buf_adds(&b, "env: *i\ninputs: *i\nresources: *i\n");
	double t0 = now();
	lint_n(f, b.buf, b.len);
	double took = now() - t0;
	jf_buf_release(&b);
	if (took >= 1.0)
		fail_msg("linting the alias bomb took %.2f s", took);
	/* The nine made-up keys, and three values of the wrong type. */
	expect_count(f, "JF002", 9);
	expect_count(f, "JF003", 3);
}

static void test_job__spec_is_a_directory(void **state)
{
	th_fixture *f = *state;
	char *path = jf_xasprintf("%s/job.yaml", f->dir);
	assert_int_equal(mkdir(path, 0755), 0);
	int rc = jf_linter_lint(f->linter, path);
	assert_true(rc < 0);
	assert_non_null(strstr(jf_linter_error(f->linter), "Is a directory"));
	assert_non_null(strstr(jf_linter_error(f->linter), path));
	expect_total(f, 0);
	free(path);
}

static void test_job__spec_is_missing(void **state)
{
	th_fixture *f = *state;
	assert_string_equal(jf_linter_error(f->linter), ""); /* no error yet */
	char *path = jf_xasprintf("%s/nope.yaml", f->dir);
	int rc = jf_linter_lint(f->linter, path);
	assert_true(rc < 0);
	assert_non_null(strstr(jf_linter_error(f->linter), "No such file"));
	assert_non_null(strstr(jf_linter_error(f->linter), "nope.yaml"));
	expect_total(f, 0);
	free(path);
}

/* One linter lints several specs; findings add up. */
static void test_job__linter_reused(void **state)
{
	th_fixture *f = *state;
	char *a = th_write(f->dir, "a.yaml", "imgae: python:3.11\ncommand: echo hi\n");
	char *b = th_write(f->dir, "b.yaml", "image: python:3.11\n");
	assert_int_equal(jf_linter_lint(f->linter, a), 0);
	assert_int_equal(jf_linter_lint(f->linter, b), 0);
	expect_count(f, "JF002", 1);
	expect_count(f, "JF004", 2);
	assert_string_equal(th_find(f->linter, "JF002", 0)->src->path, a);
	assert_string_equal(th_find(f->linter, "JF004", 1)->src->path, b);
	assert_int_equal(jf_linter_count(f->linter, JF_SEV_ERROR), 3);
	free(a);
	free(b);
}

#define T(name) cmocka_unit_test_setup_teardown(name, th_setup, th_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_job__valid_spec_is_clean),
		T(test_job__unclosed_flow_sequence),
		T(test_job__flow_sequence_alone),
		T(test_job__tab_indented_mapping),
		T(test_job__error_column_counts_characters),
		T(test_job__nul_byte),
		T(test_job__unknown_key_suggestion),
		T(test_job__unknown_key_far_from_any),
		T(test_job__quoted_gpu_count),
		T(test_job__wrong_types),
		T(test_job__missing_image_and_command),
		T(test_job__empty_file),
		T(test_job__comments_only_is_empty),
		T(test_job__not_a_mapping),
		T(test_job__alias_bomb),
		T(test_job__spec_is_a_directory),
		T(test_job__spec_is_missing),
		T(test_job__linter_reused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
