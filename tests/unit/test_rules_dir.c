/* test_rules_dir.c - unit tests of rules loaded from a user's rules folder: headers, checks, positions */
#include "helpers.h"

#include "rules/registry.h"

#define HEADER(id, name)                                                                   \
	"; id: " id "\n"                                                                   \
	"; name: " name "\n"                                                               \
	"; severity: warning\n"                                                            \
	"; category: Illegal Argument\n"                                                   \
	"; summary: a call of print\n"                                                     \
	"; message: print called with {{arg}}\n"                                           \
	"; help: use logging\n"

#define PRINT_QUERY                                                                        \
	"\n(call function: (identifier) @_f arguments: (argument_list (_) @arg)\n"         \
	"  (#eq? @_f \"print\")) @finding\n"

typedef struct {
	char *dir;
	jf_rules_dir rules;
	jf_rule_list list;         /* jobfix's own and the folder's */
	const jf_report *problems; /* the folder's */
} loaded;

static int setup(void **state)
{
	loaded *l = jf_xcalloc(1, sizeof(*l));
	l->dir = th_mkdtemp();
	*state = l;
	return 0;
}

static int teardown(void **state)
{
	loaded *l = *state;
	jf_rule_list_release(&l->list);
	jf_rules_dir_release(&l->rules);
	th_rmtree(l->dir);
	free(l->dir);
	free(l);
	return 0;
}

static void load(loaded *l)
{
	assert_int_equal(jf_rules_dir_load(&l->rules, l->dir, "rules"), 0);
	assert_non_null(l->rules.dir);
	l->problems = &l->rules.problems;
	jf_rule_list_init(&l->list, &l->rules);
}

static void dump(const loaded *l)
{
	for (size_t i = 0; i < l->problems->diags.size; i++) {
		const jf_diag *d = &l->problems->diags.items[i];
		jf_pos p = d->src ? jf_source_pos(d->src, d->span.start) : (jf_pos){ 0, 0, 0 };
		print_message("  %s:%u:%u: %s\n", d->src ? d->src->path : "-", p.line, p.col,
		              d->message);
	}
}

/* Asserts exactly one problem, at `path`:`line`:`col`, whose message holds `text`. */
static const jf_diag *expect_problem(const loaded *l, const char *path, unsigned line,
                                     unsigned col, const char *text)
{
	if (l->problems->diags.size != 1) {
		dump(l);
		fail_msg("%zu problems, expected 1", l->problems->diags.size);
	}
	const jf_diag *d = &l->problems->diags.items[0];
	assert_null(d->rule);
	assert_non_null(d->src);
	assert_string_equal(d->src->path, path);
	jf_pos p = jf_source_pos(d->src, d->span.start);
	if (p.line != line || p.col != col || !strstr(d->message, text))
		fail_msg("problem at %u:%u '%s', expected %u:%u '%s'", p.line, p.col, d->message, line,
		         col, text);
	return d;
}

static void test_rules_dir__rule_loads(void **state)
{
	loaded *l = *state;
	size_t before = th_rules_size();
	/* The prefilter is the query's: it may differ between the languages. */
	th_put(l->dir, "python/X101-print-call.scm",
	       HEADER("X101", "print-call") "; prefilter: print\n" PRINT_QUERY);
	th_put(l->dir, "bash/X101-print-call.scm",
	       HEADER("X101", "print-call") "; prefilter: echo\n"
	                                    "\n(command name: (command_name) @arg) @finding\n");
	th_put(l->dir, "README.md", "not a rule\n");
	load(l);
	if (l->problems->diags.size) {
		dump(l);
		fail_msg("unexpected problems");
	}
	assert_int_equal(l->rules.rules.size, 1); /* one rule, two languages */
	assert_int_equal(l->list.items.size, before + 1);
	const jf_rule *r = jf_rule_list_find(&l->list, "X101");
	assert_non_null(r);
	assert_ptr_equal(jf_rule_list_find(&l->list, "print-call"), r);
	assert_string_equal(r->info.language, "python, bash");
	assert_string_equal(r->dir, l->rules.dir);
	assert_int_equal(r->info.severity, JF_SEV_WARNING);
	assert_string_equal(r->queries[JF_LANG_PYTHON].path, "rules/python/X101-print-call.scm");
	assert_true(jf_rule_may_match(r, JF_LANG_PYTHON, "print(1)", 8));
	assert_false(jf_rule_may_match(r, JF_LANG_PYTHON, "echo 1", 6));
	assert_true(jf_rule_may_match(r, JF_LANG_BASH, "echo 1", 6));
	assert_false(jf_rule_may_match(r, JF_LANG_BASH, "print(1)", 8));
	/* Not one of jobfix's own: their table does not change. */
	assert_null(th_rule("X101"));
	assert_int_equal(th_rules_size(), before);
	/* The list is sorted by id. */
	for (size_t i = 0; i + 1 < l->list.items.size; i++)
		assert_true(strcmp(l->list.items.items[i]->info.id,
		                   l->list.items.items[i + 1]->info.id) <= 0);
	/* A second load of the folder has rules of its own. */
	jf_rules_dir again;
	assert_int_equal(jf_rules_dir_load(&again, l->dir, "rules"), 0);
	assert_int_equal(again.rules.size, 1);
	assert_ptr_not_equal(again.rules.items[0], r);
	assert_string_equal(again.rules.items[0]->info.id, "X101");
	jf_rules_dir_release(&again);
}

static void test_rules_dir__missing_folder(void **state)
{
	loaded *l = *state;
	char *missing = jf_xasprintf("%s/nope", l->dir);
	jf_rules_dir d;
	assert_int_equal(jf_rules_dir_load(&d, missing, "nope"), JF_ENOTFOUND);
	assert_null(d.dir);
	assert_int_equal(d.rules.size, 0);
	jf_rules_dir_release(&d);
	char *file = th_write(l->dir, "file", "x");
	assert_int_equal(jf_rules_dir_load(&d, file, "file"), JF_ENOTFOUND);
	jf_rules_dir_release(&d);
	free(file);
	free(missing);
}

static void test_rules_dir__unknown_header_key(void **state)
{
	loaded *l = *state;
	th_put(l->dir, "python/X102-a.scm",
	       "; id: X102\n; name: a\n; severity: note\n;  sevrity: note\n" PRINT_QUERY);
	load(l);
	expect_problem(l, "rules/python/X102-a.scm", 4, 4, "unknown header key 'sevrity'");
	assert_non_null(strstr(l->problems->diags.items[0].message, "did you mean 'severity'"));
	assert_null(jf_rule_list_find(&l->list, "X102"));
}

static void test_rules_dir__bad_severity(void **state)
{
	loaded *l = *state;
	th_put(l->dir, "python/X103-a.scm",
	       "; id: X103\n; name: a\n; severity: fatal\n; category: Illegal Argument\n"
	       "; summary: s\n; message: m\n; help: h\n" PRINT_QUERY);
	load(l);
	expect_problem(l, "rules/python/X103-a.scm", 3, 13, "severity must be error, warning or note");
}

static void test_rules_dir__missing_field(void **state)
{
	loaded *l = *state;
	th_put(l->dir, "python/X104-a.scm", "; id: X104\n; name: a\n; severity: note\n" PRINT_QUERY);
	load(l);
	expect_problem(l, "rules/python/X104-a.scm", 1, 1, "the header has no 'category'");
}

static void test_rules_dir__bad_id_and_taken_id(void **state)
{
	loaded *l = *state;
	th_put(l->dir, "python/x1-lower.scm", HEADER("x1", "lower") PRINT_QUERY);
	th_put(l->dir, "python/JF101-mine.scm", HEADER("JF101", "mine") PRINT_QUERY);
	th_put(l->dir, "python/X105-hard-coded-local-path.scm",
	       HEADER("X105", "hard-coded-local-path") PRINT_QUERY);
	load(l);
	assert_int_equal(l->problems->diags.size, 3);
	const jf_diag *d = &l->problems->diags.items[0]; /* files in name order */
	assert_string_equal(d->src->path, "rules/python/JF101-mine.scm");
	th_assert_at((const jf_diag *)d, 1, 7);
	assert_non_null(strstr(d->message, "rule id 'JF101' is taken by jobfix's rule"));
	d = &l->problems->diags.items[1];
	assert_string_equal(d->src->path, "rules/python/X105-hard-coded-local-path.scm");
	th_assert_at(d, 2, 9);
	assert_non_null(strstr(d->message, "rule name 'hard-coded-local-path' is taken by JF101"));
	d = &l->problems->diags.items[2];
	th_assert_at(d, 1, 7);
	assert_non_null(strstr(d->message, "rule id 'x1' is not letters followed by digits"));
}

static void test_rules_dir__unknown_category(void **state)
{
	loaded *l = *state;
	th_put(l->dir, "python/X106-a.scm",
	       "; id: X106\n; name: a\n; severity: note\n; category: Path Not Fond\n"
	       "; summary: s\n; message: m\n; help: h\n" PRINT_QUERY);
	load(l);
	expect_problem(l, "rules/python/X106-a.scm", 4, 13,
	               "unknown category 'Path Not Fond': did you mean 'Path Not Found'?");
}

static void test_rules_dir__file_name(void **state)
{
	loaded *l = *state;
	th_put(l->dir, "python/print.scm", HEADER("X107", "print-call") PRINT_QUERY);
	load(l);
	expect_problem(l, "rules/python/print.scm", 1, 1,
	               "the file of rule X107 must be named 'X107-print-call.scm'");
}

static void test_rules_dir__query_does_not_compile(void **state)
{
	loaded *l = *state;
	th_put(l->dir, "python/X108-a.scm", HEADER("X108", "a") "\n(call (no_such_node)) @finding\n");
	load(l);
	expect_problem(l, "rules/python/X108-a.scm", 9, 8, "unknown node type");
}

static void test_rules_dir__unknown_predicate(void **state)
{
	loaded *l = *state;
	th_put(l->dir, "bash/X109-a.scm",
	       HEADER("X109", "a") "\n((word) @finding (#frob? @finding \"x\"))\n");
	load(l);
	expect_problem(l, "rules/bash/X109-a.scm", 9, 1, "unknown predicate");
}

static void test_rules_dir__no_finding_capture(void **state)
{
	loaded *l = *state;
	th_put(l->dir, "python/X110-a.scm", HEADER("X110", "a") "\n(call) @call\n");
	load(l);
	expect_problem(l, "rules/python/X110-a.scm", 9, 1, "the query captures no @finding");
}

static void test_rules_dir__misplaced_files(void **state)
{
	loaded *l = *state;
	th_put(l->dir, "X111-a.scm", HEADER("X111", "a") PRINT_QUERY);
	th_put(l->dir, "python/helpers.scm", "(call) @call\n");
	load(l);
	assert_int_equal(l->problems->diags.size, 2);
	assert_string_equal(l->problems->diags.items[0].src->path, "rules/X111-a.scm");
	assert_non_null(strstr(l->problems->diags.items[0].message, "python/ or bash/"));
	assert_string_equal(l->problems->diags.items[1].src->path, "rules/python/helpers.scm");
	assert_non_null(strstr(l->problems->diags.items[1].message, "the header has no 'id'"));
}

static void test_rules_dir__bad_prefilter(void **state)
{
	loaded *l = *state;
	th_put(l->dir, "python/X112-a.scm", HEADER("X112", "a") "; prefilter: (unclosed\n" PRINT_QUERY);
	load(l);
	expect_problem(l, "rules/python/X112-a.scm", 8, 14, "the prefilter does not compile");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_rules_dir__rule_loads, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rules_dir__missing_folder, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rules_dir__unknown_header_key, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rules_dir__bad_severity, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rules_dir__missing_field, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rules_dir__bad_id_and_taken_id, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rules_dir__unknown_category, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rules_dir__file_name, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rules_dir__query_does_not_compile, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rules_dir__unknown_predicate, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rules_dir__no_finding_capture, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rules_dir__misplaced_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rules_dir__bad_prefilter, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
