/* test_query.c - unit tests of query compilation (predicates, error positions) and matching */
#include "helpers.h"

#include "rules/registry.h"

/* Compiles `text` as t.scm for Python; NULL with the message in *err (caller
 * frees) on failure, else *err NULL. */
static jf_query *compile(const char *text, char **err)
{
	jf_query *q = NULL;
	jf_error e = JF_ERROR_INIT;
	int rc = jf_query_compile(JF_LANG_PYTHON, "t.scm", text, (uint32_t)strlen(text), 0, &q, &e);
	assert_true(rc == 0 || rc == JF_EQUERY);
	assert_true((rc == 0) == (q != NULL));
	*err = rc ? jf_xstrdup(jf_error_message(&e)) : NULL;
	jf_error_clear(&e);
	return q;
}

/* Asserts that `text` does not compile and that the message holds both parts. */
static void assert_compile_error(const char *text, const char *where, const char *what)
{
	char *err = NULL;
	jf_query *q = compile(text, &err);
	if (q) {
		jf_query_free(q);
		fail_msg("query compiled: %s", text);
	}
	assert_non_null(err);
	if (!strstr(err, where) || !strstr(err, what))
		fail_msg("error \"%s\" lacks \"%s\" or \"%s\"", err, where, what);
	free(err);
}

static void test_query__compile_supported_predicates(void **state)
{
	(void)state;
	static const char text[] =
		"; a comment\n"
		"(call function: (identifier) @fn\n"
		"  (#match? @fn \"^(open|load)$\")\n"
		"  (#not-match? @fn \"^print\")\n"
		"  (#any-of? @fn \"open\" \"load\" \"save\")\n"
		"  (#not-any-of? @fn \"eval\")\n"
		"  (#not-eq? @fn \"exec\")) @call\n"
		"(assignment left: (identifier) @l right: (identifier) @r (#eq? @l @r))\n"
		"(assignment left: (identifier) @l2 right: (identifier) @r2 (#not-eq? @l2 @r2))\n"
		"((identifier) @i (#eq? @i \"x\"))\n";
	char *err = (char *)"unset";
	jf_query *q = compile(text, &err);
	assert_non_null(q);
	assert_null(err);
	jf_query_free(q);
	jf_query_free(NULL);
}

static void test_query__unknown_predicate(void **state)
{
	(void)state;
	/* The message points at the pattern holding the predicate (line 3, column 3). */
	assert_compile_error("; header\n"
	                     "\n"
	                     "  ((call) @c (#foo? @c \"x\"))\n",
	                     "t.scm:3:3:", "unknown predicate");
	assert_compile_error("((identifier) @i (#set! @i \"x\"))", "t.scm:1:1:",
	                     "unknown predicate");
	/* Only the second pattern is wrong. */
	assert_compile_error("((identifier) @i (#eq? @i \"x\"))\n"
	                     "((string) @s (#is-not? @s \"x\"))\n",
	                     "t.scm:2:1:", "unknown predicate");
}

static void test_query__syntax_errors(void **state)
{
	(void)state;
	/* Unbalanced parentheses: at the end of the text, and at the extra one. */
	assert_compile_error("(call\n  function: (identifier) @fn\n", "t.scm:3:1:", "syntax error");
	assert_compile_error("(call))", "t.scm:1:7:", "syntax error");
	/* A node type the grammar does not have, on line 2 at column 2. */
	assert_compile_error("; x\n(no_such_node) @x\n", "t.scm:2:2:", "unknown node type");
	/* A field the grammar does not have. */
	assert_compile_error("(call nosuchfield: (identifier))", "t.scm:1:7:", "unknown field");
	/* Columns count characters: "é" before the error is one column. */
	assert_compile_error("; \xc3\xa9\n(call) (nope)", "t.scm:2:9:", "unknown node type");
	/* Stacked quantifiers (tree-sitter loops forever on some): refused at the second. */
	assert_compile_error("(identifier)?+", "t.scm:1:14:", "quantifier applied to a quantified");
	assert_compile_error("(identifier)* @x +", "t.scm:1:18:", "quantifier applied to a quantified");
	/* A query with no patterns at all. */
	assert_compile_error("; only a comment\n", "t.scm:1:1:", "no patterns");
	/* An empty string (tree-sitter would strncmp or memcpy NULL), as a node or an argument. */
	assert_compile_error("\"\"", "t.scm:1:1:", "empty string names no node");
	assert_compile_error("(call \"\")", "t.scm:1:7:", "empty string names no node");
	assert_compile_error("((identifier) @i (#not-eq? @i \"\"))", "t.scm:1:31:",
	                     "an empty string: tree-sitter cannot take one");
}

/* A NUL byte in a query never reaches tree-sitter (it read a node name past its end). */
static void test_query__nul_byte(void **state)
{
	(void)state;
	static const char text[] = "\"+\0\" (identifier)";
	uint32_t off = 0;
	const char *what = NULL;
	jf_query *q = jf_query__compile_raw(JF_LANG_PYTHON, text, sizeof text - 1, &off, &what);
	assert_null(q);
	assert_string_equal(what, "a NUL byte");
	assert_int_equal(off, 2);
	static const char comment[] = "; a\0b\n(identifier)";
	q = jf_query__compile_raw(JF_LANG_PYTHON, comment, sizeof comment - 1, &off, &what);
	assert_null(q);
	assert_int_equal(off, 3);
}

static void test_query__bad_predicate_arguments(void **state)
{
	(void)state;
	assert_compile_error("((identifier) @i (#match? @i \"(\"))", "t.scm:1:1:",
	                     "invalid regular expression");
	assert_compile_error("((identifier) @i (#match? @i \"[a-\"))", "t.scm:",
	                     "invalid regular expression");
	assert_compile_error("((identifier) @i (#eq? @i \"a\" \"b\"))", "t.scm:",
	                     "exactly two arguments");
	assert_compile_error("((identifier) @i (#eq? \"a\" @i))", "t.scm:",
	                     "takes a capture");
	assert_compile_error("((identifier) @i (#any-of? @i))", "t.scm:", "takes a capture");
	assert_compile_error("((identifier) @i (#any-of? @i \"a\" @i))", "t.scm:",
	                     "must be strings");
	assert_compile_error("((identifier) @i (#match? @i @i))", "t.scm:", "must be strings");
}

/* Python parsed once per test. */
static const char snippet[] = "print(\"a\")\n"
                              "printf(1)\n"
                              "open(\"x\")\n"
                              "foo(bar)\n"
                              "x = x\n"
                              "y = z\n"
                              "load(\"\xc3\xa9t\xc3\xa9\")\n";

typedef struct {
	TSParser *parser;
	TSTree *tree;
} tree_fixture;

static int setup_tree(void **state)
{
	tree_fixture *f = jf_xcalloc(1, sizeof(*f));
	f->parser = ts_parser_new();
	assert_true(ts_parser_set_language(f->parser, jf_lang_ts(JF_LANG_PYTHON)));
	f->tree = ts_parser_parse_string(f->parser, NULL, snippet, (uint32_t)strlen(snippet));
	assert_non_null(f->tree);
	assert_false(ts_node_has_error(ts_tree_root_node(f->tree)));
	*state = f;
	return 0;
}

static int teardown_tree(void **state)
{
	tree_fixture *f = *state;
	ts_tree_delete(f->tree);
	ts_parser_delete(f->parser);
	free(f);
	return 0;
}

/* What the callback saw: how many matches, and the text of capture `name` in each. */
typedef struct {
	const char *name;
	size_t count;
	jf_buf texts; /* "a,b,c," */
} seen;

static void on_match(void *data, const jf_match *m)
{
	seen *s = data;
	s->count++;
	if (!s->name)
		return;
	TSNode n = jf_match_get(m, s->name);
	assert_false(ts_node_is_null(n));
	uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
	jf_buf_add(&s->texts, snippet + a, b - a);
	jf_buf_addc(&s->texts, ',');
}

/* Runs `query` over the snippet; asserts the match count and the captured texts. */
static void assert_matches(const tree_fixture *f, const char *query, const char *capture,
                           size_t count, const char *texts)
{
	char *err = NULL;
	jf_query *q = compile(query, &err);
	if (!q)
		fail_msg("query does not compile: %s", err);
	seen s = { capture, 0, JF_BUF_INIT };
	jf_query_run(q, ts_tree_root_node(f->tree), snippet, on_match, &s);
	if (s.count != count || (texts && strcmp(s.texts.buf, texts)))
		fail_msg("%s\n  matched %zu times (%s), expected %zu (%s)", query, s.count,
		         s.texts.buf, count, texts ? texts : "?");
	jf_buf_release(&s.texts);
	jf_query_free(q);
}

#define CALL "(call function: (identifier) @fn "

static void test_query__run_without_predicates(void **state)
{
	const tree_fixture *f = *state;
	assert_matches(f, CALL ")", "fn", 5, "print,printf,open,foo,load,");
	assert_matches(f, "(assignment) @a", "a", 2, "x = x,y = z,");
	/* A pattern that matches nothing. */
	assert_matches(f, "(lambda) @l", NULL, 0, NULL);
}

static void test_query__run_match(void **state)
{
	const tree_fixture *f = *state;
	assert_matches(f, CALL "(#match? @fn \"^print$\"))", "fn", 1, "print,");
	assert_matches(f, CALL "(#match? @fn \"^print\"))", "fn", 2, "print,printf,");
	assert_matches(f, CALL "(#not-match? @fn \"^print\"))", "fn", 3, "open,foo,load,");
	/* A regex sees the node's text only, not the rest of the line. */
	assert_matches(f, CALL "(#match? @fn \"^open\\\\(\"))", "fn", 0, "");
	/* UTF-8 in the regex and the text. */
	assert_matches(f, "((string) @s (#match? @s \"^\\\"\xc3\xa9.\xc3\xa9\\\"$\"))", "s", 1,
	               "\"\xc3\xa9t\xc3\xa9\",");
}

static void test_query__run_any_of(void **state)
{
	const tree_fixture *f = *state;
	assert_matches(f, CALL "(#any-of? @fn \"open\" \"foo\"))", "fn", 2, "open,foo,");
	assert_matches(f, CALL "(#not-any-of? @fn \"open\" \"foo\"))", "fn", 3,
	               "print,printf,load,");
	/* Whole-text comparison: "print" is not "printf". */
	assert_matches(f, CALL "(#any-of? @fn \"print\"))", "fn", 1, "print,");
}

static void test_query__run_eq(void **state)
{
	const tree_fixture *f = *state;
	assert_matches(f, CALL "(#eq? @fn \"open\"))", "fn", 1, "open,");
	assert_matches(f, CALL "(#not-eq? @fn \"open\"))", "fn", 4, "print,printf,foo,load,");
	/* Between two captures. */
	assert_matches(f, "(assignment left: (identifier) @l right: (identifier) @r (#eq? @l @r))",
	               "r", 1, "x,");
	assert_matches(f,
	               "(assignment left: (identifier) @l right: (identifier) @r (#not-eq? @l @r))",
	               "r", 1, "z,");
}

static void test_query__run_predicates_combine(void **state)
{
	const tree_fixture *f = *state;
	/* Every predicate of a pattern must hold. */
	assert_matches(f,
	               CALL "(#match? @fn \"o\") (#not-eq? @fn \"foo\") (#not-any-of? @fn \"load\"))",
	               "fn", 1, "open,");
	/* Predicates belong to their own pattern. */
	assert_matches(f,
	               CALL "(#eq? @fn \"open\"))\n"
	                    "(assignment left: (identifier) @fn (#eq? @fn \"y\"))",
	               "fn", 2, "open,y,");
}

/* Checks the captures handed to the callback for `open("x")`. */
static void on_open_match(void *data, const jf_match *m)
{
	size_t *n = data;
	(*n)++;
	assert_int_equal(m->size, 2);
	TSNode fn = jf_match_get(m, "fn"), arg = jf_match_get(m, "arg");
	assert_false(ts_node_is_null(fn));
	assert_false(ts_node_is_null(arg));
	assert_string_equal(ts_node_type(fn), "identifier");
	assert_string_equal(ts_node_type(arg), "string");
	assert_memory_equal(snippet + ts_node_start_byte(fn), "open", 4);
	assert_int_equal(ts_node_end_byte(arg) - ts_node_start_byte(arg), 3); /* "x" */
	/* Capture names are the query's, without the '@'. */
	bool names = (!strcmp(m->items[0].name, "fn") && !strcmp(m->items[1].name, "arg")) ||
	             (!strcmp(m->items[0].name, "arg") && !strcmp(m->items[1].name, "fn"));
	assert_true(names);
	assert_true(ts_node_is_null(jf_match_get(m, "nope")));
	assert_true(ts_node_is_null(jf_match_get(m, "@fn")));
}

static void test_query__match_get(void **state)
{
	const tree_fixture *f = *state;
	char *err = NULL;
	jf_query *q = compile(CALL "arguments: (argument_list (string) @arg) (#eq? @fn \"open\"))",
	                      &err);
	assert_non_null(q);
	size_t n = 0;
	jf_query_run(q, ts_tree_root_node(f->tree), snippet, on_open_match, &n);
	assert_int_equal(n, 1);
	jf_query_free(q);
}

/* A query compiled once runs over several trees, with the predicates of each. */
static void test_query__run_twice(void **state)
{
	const tree_fixture *f = *state;
	char *err = NULL;
	jf_query *q = compile(CALL "(#match? @fn \"^(open|load)$\"))", &err);
	assert_non_null(q);
	for (int round = 0; round < 2; round++) {
		seen s = { "fn", 0, JF_BUF_INIT };
		jf_query_run(q, ts_tree_root_node(f->tree), snippet, on_match, &s);
		assert_int_equal(s.count, 2);
		assert_string_equal(s.texts.buf, "open,load,");
		jf_buf_release(&s.texts);
	}
	/* A sub-tree: only the matches inside it. */
	TSNode third = ts_node_named_child(ts_tree_root_node(f->tree), 2);
	seen s = { "fn", 0, JF_BUF_INIT };
	jf_query_run(q, third, snippet, on_match, &s);
	assert_int_equal(s.count, 1);
	assert_string_equal(s.texts.buf, "open,");
	jf_buf_release(&s.texts);
	jf_query_free(q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_query__compile_supported_predicates),
		cmocka_unit_test(test_query__unknown_predicate),
		cmocka_unit_test(test_query__syntax_errors),
		cmocka_unit_test(test_query__nul_byte),
		cmocka_unit_test(test_query__bad_predicate_arguments),
		cmocka_unit_test_setup_teardown(test_query__run_without_predicates, setup_tree,
		                                teardown_tree),
		cmocka_unit_test_setup_teardown(test_query__run_match, setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(test_query__run_any_of, setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(test_query__run_eq, setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(test_query__run_predicates_combine, setup_tree,
		                                teardown_tree),
		cmocka_unit_test_setup_teardown(test_query__match_get, setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(test_query__run_twice, setup_tree, teardown_tree),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
