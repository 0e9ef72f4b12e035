/* test_explain.c - unit tests of the rule texts (rules/<id>.md), lookup, suggestions and rendering */
#include "helpers.h"

#include "core/embed.h"
#include "report/explain.h"
#include "rules/registry.h"

static int setup_rules(void **state)
{
	(void)state;
	const char *err = jf_rules_builtin_error();
	if (err)
		print_error("jobfix's rule table: %s\n", err);
	return err != NULL;
}

/* Every rule of the table has a complete text: each section, non-empty. */
static void test_explain__every_rule_has_text(void **state)
{
	(void)state;
	size_t n = jf_rules_count();
	assert_true(n > 0);
	for (size_t i = 0; i < n; i++) {
		const jf_rule_info *r = jf_rules_get(i);
		const char *err = jf_rule_doc__error(r);
		if (err)
			fail_msg("%s: %s", r->id, err);
		for (int s = 0; s < JF_DOC_COUNT; s++) {
			const char *body = jf_rule_doc(r, (jf_doc_section)s);
			if (!body || !*body)
				fail_msg("%s: no '## %s'", r->id, jf_doc_section_title((jf_doc_section)s));
			/* Trimmed: no blank line at either end. */
			assert_true(body[0] != '\n' && body[strlen(body) - 1] != '\n');
		}
	}
}

/* Every embedded text is named after a rule of the table. */
static void test_explain__every_text_belongs_to_a_rule(void **state)
{
	(void)state;
	assert_int_equal(jf_embedded_rule_docs_count, jf_rules_count());
	for (size_t i = 0; i < jf_embedded_rule_docs_count; i++) {
		const char *path = jf_embedded_rule_docs[i].path;
		char id[16] = "";
		size_t n = strcspn(path, ".");
		if (n < sizeof id)
			memcpy(id, path, n), id[n] = '\0';
		const jf_rule *r = th_rule(id);
		if (!r || strcmp(path + n, ".md"))
			fail_msg("rules/%s is the text of no rule (rules/<id>.md)", path);
	}
}

/* The issue asks for the error users see: every `error` rule shows it in a text block. */
static void test_explain__errors_show_the_failure(void **state)
{
	(void)state;
	for (size_t i = 0; i < jf_rules_count(); i++) {
		const jf_rule_info *r = jf_rules_get(i);
		const char *example = jf_rule_doc(r, JF_DOC_EXAMPLE);
		if (!example)
			fail_msg("%s: no complete text", r->id);
		if (!strstr(example, "\n```") && strncmp(example, "```", 3))
			fail_msg("%s: the example has no code block", r->id);
		if (r->severity == JF_SEV_ERROR && !strstr(jf_rule_doc(r, JF_DOC_WHY), "```text\n"))
			fail_msg("%s: 'Why it fails' does not show the run-time error in a ```text block",
			         r->id);
	}
}

static void test_explain__categories_are_the_study_s(void **state)
{
	(void)state;
	for (size_t i = 0; i < jf_rules_count(); i++) {
		const jf_rule_info *r = jf_rules_get(i);
		if (!jf_category_dimension(r->category))
			fail_msg("%s: '%s' is not a category of the study", r->id, r->category);
	}
	assert_string_equal(jf_category_dimension("Path Not Found"), "Execution environment");
	assert_string_equal(jf_category_dimension("Type Mismatch"), "General code error");
	assert_string_equal(jf_category_dimension("Framework API Misuse"), "Deep-learning specific");
	assert_string_equal(jf_category_dimension("Unexpected Encoding"), "Data");
	assert_null(jf_category_dimension("path not found"));
	assert_null(jf_category_dimension(""));
	assert_null(jf_category_dimension(NULL));
}

static void test_explain__section_titles(void **state)
{
	(void)state;
	assert_string_equal(jf_doc_section_title(JF_DOC_FINDS), "What it finds");
	assert_string_equal(jf_doc_section_title(JF_DOC_WHY), "Why it fails");
	assert_string_equal(jf_doc_section_title(JF_DOC_EXAMPLE), "Example");
	assert_string_equal(jf_doc_section_title(JF_DOC_FIX), "How to fix");
	assert_string_equal(jf_doc_section_title(JF_DOC_SILENCE), "How to silence");
	assert_null(jf_doc_section_title(JF_DOC_COUNT));
	assert_null(jf_rule_doc(jf_rules_get(0), JF_DOC_COUNT));
	assert_null(jf_rule_doc(NULL, JF_DOC_FINDS));
	assert_null(jf_rule_explain(NULL, JF_EXPLAIN_TEXT));
}

#define GOOD                                                                            \
	"## What it finds\n\nx\n\n## Why it fails\n\ny\n\n## Example\n\n```python\n# a\n## b\n" \
	"```\n\n## How to fix\n\nz\n\n## How to silence\n\nw\n"

static void assert_check(const char *text, const char *expect)
{
	jf_error err = JF_ERROR_INIT;
	int rc = jf_rule_doc__check("rules/JF999.md", text, strlen(text), &err);
	const char *msg = jf_error_message(&err);
	if (!expect) {
		if (rc)
			fail_msg("unexpected error: %s", msg);
		return;
	}
	if (rc != JF_EPARSE)
		fail_msg("no error, expected '%s' for:\n%s", expect, text);
	if (!strstr(msg, expect))
		fail_msg("error '%s' does not say '%s'", msg, expect);
	jf_error_clear(&err);
}

/* The format is checked: every section once, in order, non-empty, nothing else. */
static void test_explain__format_is_checked(void **state)
{
	(void)state;
	assert_check(GOOD, NULL);
	assert_check("\n\n" GOOD "\n\n", NULL);
	/* `#` lines in a code fence are code; `###` belongs to its section. */
	assert_check("## What it finds\n\nx\n### More\ny\n## Why it fails\n\ny\n## Example\n\n"
	             "```\n## not a heading\n```\n## How to fix\nz\n## How to silence\nw",
	             NULL);
	/* Only `#` and a space (or nothing) make a heading. */
	assert_check("## What it finds\n#!/bin/bash\n##x\n## Why it fails\ny\n## Example\ne\n"
	             "## How to fix\nz\n## How to silence\nw\n",
	             NULL);
	assert_check("#\n" GOOD, "rules/JF999.md:1: '# ' headings are not allowed");
	assert_check("### Intro\n" GOOD, "rules/JF999.md:1: text before '## What it finds'");
	assert_check("", "'## What it finds' is missing");
	assert_check("intro\n" GOOD, "rules/JF999.md:1: text before '## What it finds'");
	assert_check("# JF999\n" GOOD, "rules/JF999.md:1: '# ' headings are not allowed");
	assert_check("## What it finds\nx\n## How to fix\nz\n",
	             "rules/JF999.md:3: expected '## Why it fails' here, found '## How to fix'");
	assert_check("## What it finds\n\n  \n## Why it fails\ny\n", "'## What it finds' is empty");
	assert_check("## What it finds\nx\n## Why it fails\ny\n## Example\ne\n## How to fix\nz\n"
	             "## How to silence\n\n",
	             "'## How to silence' is empty");
	assert_check("## What it finds\nx\n## Why it fails\ny\n## Example\ne\n## How to fix\nz\n",
	             "'## How to silence' is missing");
	assert_check(GOOD "## See also\nv\n", "'## See also' after the last section");
	assert_check("## What it finds\nx\n## Why it fails\n```text\ny\n## Example\n",
	             "rules/JF999.md:4: code fence never closed");
	assert_check("## what it finds\nx\n", "expected '## What it finds' here");
}

static void test_explain__lookup(void **state)
{
	(void)state;
	const jf_rule_info *r = jf_rules_lookup("JF101");
	assert_non_null(r);
	assert_string_equal(r->name, "hard-coded-local-path");
	assert_ptr_equal(jf_rules_lookup("jf101"), r);
	assert_ptr_equal(jf_rules_lookup("Jf101"), r);
	assert_ptr_equal(jf_rules_lookup("hard-coded-local-path"), r);
	assert_null(jf_rules_lookup("Hard-Coded-Local-Path")); /* names are exact */
	assert_null(jf_rules_lookup("JF10"));
	assert_null(jf_rules_lookup("JF1011"));
	assert_null(jf_rules_lookup(""));
	for (size_t i = 0; i < jf_rules_count(); i++) {
		const jf_rule_info *ri = jf_rules_get(i);
		assert_ptr_equal(jf_rules_lookup(ri->id), ri);
		assert_ptr_equal(jf_rules_lookup(ri->name), ri);
	}
}

static void assert_suggest(const char *s, const char *expect)
{
	const char *got = jf_rules_suggest(s);
	if (!expect) {
		if (got)
			fail_msg("suggestion for '%s': '%s', expected none", s, got);
		return;
	}
	if (!got || strcmp(got, expect))
		fail_msg("suggestion for '%s': '%s', expected '%s'", s, got ? got : "(none)", expect);
}

static void test_explain__suggest(void **state)
{
	(void)state;
	assert_suggest("JF10", "JF101");
	assert_suggest("jf1o1", "JF101");
	assert_suggest("JF3020", "JF302");
	assert_suggest("101", "JF101");
	assert_suggest("unknown-flg", "unknown-flag");
	assert_suggest("Unknown-Flag", "unknown-flag");
	assert_suggest("hard-coded-local-paths", "hard-coded-local-path");
	assert_suggest("local-path", "hard-coded-local-path");
	assert_suggest("JF999", NULL);
	assert_suggest("999", NULL);
	assert_suggest("frobnicate", NULL);
	assert_suggest("", NULL);
	assert_suggest("abc", NULL);
}

static void test_explain__markdown_page(void **state)
{
	(void)state;
	const jf_rule_info *r = jf_rules_lookup("JF101");
	char *md = jf_rule_explain(r, JF_EXPLAIN_MARKDOWN);
	assert_non_null(md);
	assert_true(jf_str_starts(md, "# JF101 hard-coded-local-path\n\nA path on the developer's "
	                              "machine (/home/\\<user\\>, /Users, C:\\\\, ~/, /mnt/c) "));
	assert_non_null(strstr(md, "| error: the job will fail | Path Not Found | Execution "
	                           "environment |\n"));
	const char *last = md;
	for (int s = 0; s < JF_DOC_COUNT; s++) {
		char *h = jf_xasprintf("\n## %s\n\n%s\n", jf_doc_section_title((jf_doc_section)s),
		                       jf_rule_doc(r, (jf_doc_section)s));
		const char *at = strstr(md, h);
		if (!at || at < last)
			fail_msg("section '%s' missing or out of order", h);
		last = at;
		free(h);
	}
	assert_non_null(strstr(md, "`# jobfix: ignore[JF101]`"));
	assert_non_null(strstr(md, "`# jobfix: ignore-file[JF101]`"));
	assert_non_null(strstr(md, "`ignore: [JF101]` in `.jobfix.yaml`"));
	assert_true(jf_str_ends(md, "reported as JF007 unused-suppression.\n"));
	free(md);
}

static void test_explain__text_page(void **state)
{
	(void)state;
	const jf_rule_info *r = jf_rules_lookup("JF102");
	char *t = jf_rule_explain(r, JF_EXPLAIN_TEXT);
	assert_non_null(t);
	assert_true(jf_str_starts(t, "JF102 missing-script\n\n  A launch or entry script"));
	assert_non_null(strstr(t, "\n  severity:   error (the job will fail)\n"));
	assert_non_null(strstr(t, "\n  category:   Path Not Found\n"));
	assert_non_null(strstr(t, "\n  dimension:  Execution environment\n"));
	for (int s = 0; s < JF_DOC_COUNT; s++) {
		char *h = jf_xasprintf("\n%s\n\n", jf_doc_section_title((jf_doc_section)s));
		assert_non_null(strstr(t, h));
		free(h);
	}
	/* Code is indented, fences and link targets are gone. */
	assert_null(strstr(t, "```"));
	assert_non_null(strstr(t, "\n      python: can't open file '/workspace/trian.py'"));
	assert_non_null(strstr(t, "\n      command: python trian.py --epochs 10\n"));
	assert_non_null(strstr(t, "`# jobfix: ignore[JF102]`"));
	/* No line wider than 80 columns outside code (the texts wrap at 78). */
	for (size_t i = 0; i < jf_rules_count(); i++) {
		char *page = jf_rule_explain(jf_rules_get(i), JF_EXPLAIN_TEXT);
		if (!page)
			fail_msg("%s: no complete text", jf_rules_get(i)->id);
		for (const char *p = page; *p;) {
			size_t n = strcspn(p, "\n"), cols = 0;
			for (size_t k = 0; k < n; k++)
				cols += ((unsigned char)p[k] & 0xC0) != 0x80;
			if (cols > 80 && strncmp(p, "      ", 6))
				fail_msg("%s: line too wide: %.*s", jf_rules_get(i)->id, (int)n, p);
			p += n + (p[n] == '\n');
		}
		free(page);
	}
	free(t);

	/* Links become their text. */
	t = jf_rule_explain(jf_rules_lookup("JF002"), JF_EXPLAIN_TEXT);
	assert_non_null(strstr(jf_rule_doc(jf_rules_lookup("JF002"), JF_DOC_FIX), "](../jobs.md)"));
	assert_non_null(strstr(t, "docs/jobs.md"));
	assert_null(strstr(t, "](../jobs.md)"));
	free(t);
}

static void test_explain__index(void **state)
{
	(void)state;
	char *md = jf_rules_index_markdown();
	assert_true(jf_str_starts(md, "# Rules\n"));
	for (size_t i = 0; i < jf_rules_count(); i++) {
		const jf_rule_info *r = jf_rules_get(i);
		char *row = jf_xasprintf("\n| [%s %s](rules/%s-%s.md) | %s | %s | ", r->id, r->name, r->id,
		                         r->name, jf_severity_name(r->severity), r->category);
		if (!strstr(md, row))
			fail_msg("index has no row '%s'", row);
		free(row);
	}
	assert_non_null(strstr(md, "## Silencing"));
	free(md);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_explain__every_rule_has_text),
		cmocka_unit_test(test_explain__every_text_belongs_to_a_rule),
		cmocka_unit_test(test_explain__errors_show_the_failure),
		cmocka_unit_test(test_explain__categories_are_the_study_s),
		cmocka_unit_test(test_explain__section_titles),
		cmocka_unit_test(test_explain__format_is_checked),
		cmocka_unit_test(test_explain__lookup),
		cmocka_unit_test(test_explain__suggest),
		cmocka_unit_test(test_explain__markdown_page),
		cmocka_unit_test(test_explain__text_page),
		cmocka_unit_test(test_explain__index),
	};
	return cmocka_run_group_tests(tests, setup_rules, NULL);
}
