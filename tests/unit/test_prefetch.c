/* test_prefetch.c - parses of released files, made ahead by the pool: taken, cancelled, dropped */
#include "helpers.h"

#include "sources/prefetch.h"

#define SOURCES 12

/* Python sources of different lengths, each with a syntax of its own. */
static jf_source *source_at(int i)
{
	jf_buf b = JF_BUF_INIT;
	for (int k = 0; k <= i * 40; k++)
		jf_buf_addf(&b, "def f%d_%d(x):\n    return [y * %d for y in x if y]\n", i, k, k);
	jf_source *src = jf_source_from_string("ahead.py", b.buf, b.len);
	jf_buf_release(&b);
	return src;
}

/* Whether `tree` is the tree `src` parses to here. */
static bool same_tree(jf_parsers *parsers, const jf_source *src, TSTree *tree)
{
	TSTree *here = jf_parse(parsers, JF_LANG_PYTHON, src, NULL, 0);
	char *a = ts_node_string(ts_tree_root_node(here));
	char *b = ts_node_string(ts_tree_root_node(tree));
	bool same = !strcmp(a, b);
	free(a);
	free(b);
	ts_tree_delete(here);
	return same;
}

/* With `threads` threads: every other task taken, the others cancelled at
 * once or after their parse, and some left to the drop. */
static void run_tasks(unsigned threads)
{
	jf_parsers parsers = { 0 };
	jf_source *src[SOURCES];
	jf_prefetch_task *t[SOURCES];
	jf_prefetch *pool = jf_prefetch_new(threads);
	for (int round = 0; round < 3; round++) { /* a task may be named again after its tree went */
		for (int i = 0; i < SOURCES; i++) {
			src[i] = round ? src[i] : source_at(i);
			t[i] = jf_prefetch_parse_ahead(pool, src[i], JF_LANG_PYTHON);
		}
		for (int i = 0; i < SOURCES; i++) {
			if (i % 2 == 0) {
				TSTree *tree = jf_prefetch_parsed(pool, &parsers, t[i]);
				assert_non_null(tree);
				assert_true(same_tree(&parsers, src[i], tree));
				ts_tree_delete(tree);
			} else if (i % 4 == 1 || round < 2) {
				jf_prefetch_cancel(pool, t[i]);
			} /* else: left to jf_prefetch_drop() */
		}
		jf_prefetch_drop(pool);
	}
	jf_prefetch_free(pool);
	for (int i = 0; i < SOURCES; i++)
		jf_source_free(src[i]);
	jf_parsers_release(&parsers);
}

static void test_prefetch__parse_ahead_one_thread(void **state)
{
	(void)state;
	run_tasks(1);
}

static void test_prefetch__parse_ahead_three_threads(void **state)
{
	(void)state;
	run_tasks(3);
}

/* A task cancelled before any thread began it does not hold up the next:
 * with no thread, the taker parses the one it takes. */
static void test_prefetch__cancelled_is_not_parsed(void **state)
{
	(void)state;
	jf_parsers parsers = { 0 };
	jf_prefetch *pool = jf_prefetch_new(0); /* no thread: the taker works */
	jf_source *a = source_at(3), *b = source_at(4);
	jf_prefetch_task *ta = jf_prefetch_parse_ahead(pool, a, JF_LANG_PYTHON);
	jf_prefetch_task *tb = jf_prefetch_parse_ahead(pool, b, JF_LANG_PYTHON);
	jf_prefetch_cancel(pool, ta);
	TSTree *tree = jf_prefetch_parsed(pool, &parsers, tb);
	assert_true(same_tree(&parsers, b, tree));
	ts_tree_delete(tree);
	jf_prefetch_free(pool);
	jf_source_free(a);
	jf_source_free(b);
	jf_parsers_release(&parsers);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prefetch__parse_ahead_one_thread),
		cmocka_unit_test(test_prefetch__parse_ahead_three_threads),
		cmocka_unit_test(test_prefetch__cancelled_is_not_parsed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
