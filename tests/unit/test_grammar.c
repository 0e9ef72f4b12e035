/* test_grammar.c - node types and fields compared as ids mean what their names mean */
#include "helpers.h"

#include "core/grammar.h"
#include "sources/tree.h"

const TSLanguage *tree_sitter_python(void);
const TSLanguage *tree_sitter_bash(void);
const TSLanguage *tree_sitter_toml(void);

static void test_grammar__every_name_is_a_grammars(void **state)
{
	(void)state;
	jf_grammar_check(); /* aborts on a misspelt type or field */
	assert_string_equal(jf_type_name(JF_T_call), "call");
	assert_string_equal(jf_type_name(JF_T_or_or), "||");
	assert_string_equal(jf_field_name(JF_F_module_name), "module_name");
	assert_int_equal(jf_node_type((TSNode){ 0 }), JF_T_NONE);
	assert_true(ts_node_is_null(jf_node_field((TSNode){ 0 }, JF_F_name)));
}

/* Every node of `text` in `lang`: its type id is the listed type of its name
 * (named node or token), and each listed field is the child of that name;
 * at least `min_listed` of them listed and `min_fields` fields found. */
static void expect_same_as_names(const TSLanguage *lang, const char *text, size_t min_listed,
                                 size_t min_fields)
{
	TSParser *p = ts_parser_new();
	assert_true(ts_parser_set_language(p, lang));
	TSTree *tree = ts_parser_parse_string(p, NULL, text, (uint32_t)strlen(text));
	TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
	size_t listed = 0, fields = 0;
	for (bool more = true; more;) {
		TSNode n = ts_tree_cursor_current_node(&c);
		jf_type type = jf_node_type(n);
		for (int t = 1; t < JF_T_COUNT; t++)
			if ((type == (jf_type)t) != !strcmp(ts_node_type(n), jf_type_name((jf_type)t)))
				fail_msg("'%s' read as '%s'", ts_node_type(n), jf_type_name((jf_type)t));
		listed += type != JF_T_NONE;
		for (int f = 1; f < JF_F_COUNT; f++) {
			const char *name = jf_field_name((jf_field_id)f);
			TSNode want = ts_node_child_by_field_name(n, name, (uint32_t)strlen(name));
			if (!ts_node_eq(jf_node_field(n, (jf_field_id)f), want))
				fail_msg("field '%s' of '%s'", name, ts_node_type(n));
			fields += !ts_node_is_null(want);
		}
		TSFieldId id = ts_tree_cursor_current_field_id(&c);
		const char *fname = ts_tree_cursor_current_field_name(&c);
		jf_field_id mine = jf_field_of(n, id);
		if (mine != JF_F_NONE && strcmp(jf_field_name(mine), fname))
			fail_msg("field id %u read as '%s'", id, jf_field_name(mine));
		if (ts_tree_cursor_goto_first_child(&c))
			continue;
		while (!ts_tree_cursor_goto_next_sibling(&c))
			if (!ts_tree_cursor_goto_parent(&c)) {
				more = false;
				break;
			}
	}
	ts_tree_cursor_delete(&c);
	ts_tree_delete(tree);
	ts_parser_delete(p);
	if (listed < min_listed || fields < min_fields)
		fail_msg("only %zu listed nodes and %zu fields: the text is not %s", listed, fields,
		         "what the test means");
}

static void test_grammar__python(void **state)
{
	(void)state;
	expect_same_as_names(tree_sitter_python(),
	                     "import os, a.b as c\n"
	                     "from .m import x as y, z\n"
	                     "f = lambda v: v + 1\n"
	                     "@dec\n"
	                     "def main(a: int = 1, *rest, **kw) -> None:\n"
	                     "    global g\n"
	                     "    try:\n"
	                     "        print(f\"{a!r:>4}\", os.environ['HOME'], kw['k'])\n"
	                     "    except (KeyError, ValueError) as e:\n"
	                     "        raise SystemExit(1) from e\n"
	                     "    while True and not None:\n"
	                     "        break\n"
	                     "    return [i for i in range(3) if i]\n"
	                     "x += 2.5 if a else -1\n"
	                     "with open('p') as fh, ctx(): pass\n",
	                     40, 20);
}

static void test_grammar__bash(void **state)
{
	(void)state;
	expect_same_as_names(tree_sitter_bash(),
	                     "export A=1 B+=2\n"
	                     "f() { echo \"$1\" ${X:-y} > out.log; }\n"
	                     "if [ -n \"$A\" ] || true; then python train.py --lr $(cat lr) <<< s; fi\n"
	                     "for i in 1 2; do (cd d && torchrun x.py); done\n",
	                     15, 5);
}

static void test_grammar__toml(void **state)
{
	(void)state;
	expect_same_as_names(tree_sitter_toml(),
	                     "[project]\n"
	                     "name = \"x\"\n"
	                     "dependencies = [\"torch>=2\", 'numpy']\n"
	                     "a.\"b\" = { c = 1 }\n",
	                     8, 0); /* the TOML grammar has no fields */
}

/* A node kept as a reference is found again in another parse of the same
 * text, and in its own tree is the node itself: through nodes of the same
 * range (an expression statement and its call, a call and its callee's text). */
static void test_grammar__node_refs_found_again(void **state)
{
	(void)state;
	static const char text[] = "f(x)\n"
	                           "a = b.c(d)[0]\n"
	                           "if x:\n    y = \"s\" + f'{z}'\n"
	                           "def g(p=q): return (p)\n";
	TSParser *p = ts_parser_new();
	assert_true(ts_parser_set_language(p, tree_sitter_python()));
	TSTree *one = ts_parser_parse_string(p, NULL, text, sizeof text - 1);
	TSTree *two = ts_parser_parse_string(p, NULL, text, sizeof text - 1);
	size_t seen = 0, same_range = 0;
	TSNode root = ts_tree_root_node(one);
	for (uint32_t i = 0; i < ts_node_named_child_count(root); i++) {
		jf_iter it;
		for (TSNode n = jf_iter_start(&it, ts_node_named_child(root, i)); !ts_node_is_null(n);
		     n = jf_iter_next(&it, true)) {
			jf_node_ref ref = jf_node_ref_of(n);
			assert_true(ts_node_eq(jf_node_find(one, ref), n));
			TSNode again = jf_node_find(two, ref);
			assert_false(ts_node_is_null(again));
			assert_int_equal(ts_node_start_byte(again), ts_node_start_byte(n));
			assert_int_equal(ts_node_end_byte(again), ts_node_end_byte(n));
			assert_int_equal(ts_node_symbol(again), ts_node_symbol(n));
			TSNode up = ts_node_parent(n);
			same_range += ts_node_start_byte(up) == ref.start && ts_node_end_byte(up) == ref.end;
			seen++;
		}
		jf_iter_release(&it);
	}
	assert_true(seen > 10 && same_range > 0);
	/* No node: the zero reference, no tree, or a range with no node of the symbol. */
	TSNode call = ts_node_named_child(ts_node_named_child(ts_tree_root_node(one), 0), 0);
	assert_int_equal(jf_node_type(call), JF_T_call);
	jf_node_ref other = jf_node_ref_of(call);
	other.symbol = ts_node_symbol(ts_node_named_child(call, 0)); /* an identifier's */
	assert_true(ts_node_is_null(jf_node_find(one, other)));
	assert_true(ts_node_is_null(jf_node_find(one, (jf_node_ref){ 0 })));
	assert_true(ts_node_is_null(jf_node_find(NULL, jf_node_ref_of(call))));
	ts_tree_delete(two);
	ts_tree_delete(one);
	ts_parser_delete(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grammar__every_name_is_a_grammars),
		cmocka_unit_test(test_grammar__python),
		cmocka_unit_test(test_grammar__bash),
		cmocka_unit_test(test_grammar__toml),
		cmocka_unit_test(test_grammar__node_refs_found_again),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
