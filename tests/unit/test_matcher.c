/* test_matcher.c - unit tests of the rule queries matched on the matcher's thread */
#include "helpers.h"

#include "rules/matcher.h"

typedef struct {
	jf_report report;
	jf_strings skipped;
	jf_sink sink;
	jf_parsers parsers;
	jf_workspace ws;
	jf_query_cache queries;
	jf_matcher *matcher;
	char *dir;
} fixture;

static const jf_rule *no_rule(const void *data, const char *id)
{
	(void)data;
	return jf_rule_list_find(jf_rules_builtin(), id);
}

static int setup(void **state)
{
	fixture *f = jf_xcalloc(1, sizeof(*f));
	f->sink = (jf_sink){ &f->report, no_rule, NULL, &f->skipped, NULL, NULL };
	jf_workspace_init(&f->ws, &f->parsers, &f->sink);
	f->matcher = jf_matcher_new(true);
	f->dir = th_mkdtemp();
	jf_matcher_begin(f->matcher, jf_rules_builtin(), &f->queries, NULL, false);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	fixture *f = *state;
	jf_matcher_free(f->matcher);
	jf_query_cache_release(&f->queries);
	jf_workspace_release(&f->ws);
	jf_parsers_release(&f->parsers);
	jf_report_release(&f->report);
	jf_strings_release(&f->skipped);
	th_rmtree(f->dir);
	free(f->dir);
	free(f);
	return 0;
}

static const jf_file *load(fixture *f, const char *name, const char *text)
{
	char *path = th_write(f->dir, name, text);
	const jf_file *file = jf_workspace_load(&f->ws, path, name, JF_LANG_PYTHON, JF_ROLE_FILE,
	                                        NULL, 0);
	assert_non_null(file);
	free(path);
	return file;
}

/* A file where a rule may match is matched; the captures are references to
 * nodes of its own tree, in the order of the file. */
static void test_matcher__matches_on_its_thread(void **state)
{
	fixture *f = *state;
	static const char text[] = "open('/home/alice/data.csv')\n"
	                           "x = 1\n"
	                           "open('/Users/bob/out.txt', 'w')\n";
	const jf_file *file = load(f, "a.py", text);
	jf_matcher_add(f->matcher, file);
	const jf_file_matches *m = jf_matcher_wait(f->matcher, file);
	assert_non_null(m);
	assert_true(m->any);
	assert_int_equal(m->error, 0);
	assert_non_null(m->query);
	/* Each path literal is captured. */
	uint32_t home = (uint32_t)(strstr(text, "'/home") - text);
	uint32_t users = (uint32_t)(strstr(text, "'/Users") - text);
	bool saw_home = false, saw_users = false;
	for (size_t i = 0; i < m->matches.size; i++) {
		const struct jf_matched *x = &m->matches.items[i];
		assert_true(x->first + x->count <= m->captures.size);
		assert_true(x->pattern < jf_query_pattern_count(m->query));
	}
	for (size_t i = 0; i < m->captures.size; i++) {
		TSNode n = jf_node_find(file->tree, m->captures.items[i].node);
		assert_false(ts_node_is_null(n));
		saw_home |= ts_node_start_byte(n) == home;
		saw_users |= ts_node_start_byte(n) == users;
	}
	assert_true(saw_home);
	assert_true(saw_users);
}

/* A file where no rule's prefilter finds anything is not matched. */
static void test_matcher__nothing_to_match(void **state)
{
	fixture *f = *state;
	/* A URL is no drive path ("http://" holds "p:/"): JF101's prefilter wants a
	 * quote before the path, as its query does. */
	const jf_file *file = load(f, "b.py", "x = 1\nprint(x, 'see http://example.com/a')\n");
	jf_matcher_add(f->matcher, file);
	const jf_file_matches *m = jf_matcher_wait(f->matcher, file);
	assert_non_null(m);
	assert_false(m->any);
	assert_null(m->query);
	assert_int_equal(m->matches.size, 0);
	assert_null(jf_matcher_wait(f->matcher, NULL));
}

/* A lint may end with files not matched yet: they are dropped, and the
 * matcher serves the next lint. */
static void test_matcher__end_drops_what_is_queued(void **state)
{
	fixture *f = *state;
	jf_buf text = JF_BUF_INIT;
	for (int i = 0; i < 2000; i++)
		jf_buf_addf(&text, "open('/home/alice/d%d.csv')\n", i);
	for (int i = 0; i < 8; i++) {
		char name[16];
		snprintf(name, sizeof name, "c%d.py", i);
		jf_matcher_add(f->matcher, load(f, name, text.buf));
	}
	jf_buf_release(&text);
	jf_matcher_end(f->matcher);
	jf_matcher_begin(f->matcher, jf_rules_builtin(), &f->queries, NULL, false);
	const jf_file *file = load(f, "d.py", "open('/home/alice/x')\n");
	jf_matcher_add(f->matcher, file);
	const jf_file_matches *m = jf_matcher_wait(f->matcher, file);
	assert_true(m->matches.size >= 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_matcher__matches_on_its_thread, setup, teardown),
		cmocka_unit_test_setup_teardown(test_matcher__nothing_to_match, setup, teardown),
		cmocka_unit_test_setup_teardown(test_matcher__end_drops_what_is_queued, setup,
		                                teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
