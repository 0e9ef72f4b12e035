/* tree.c - syntax trees: the grammars, node text, walks below a node */
#include "sources/tree.h"

const TSLanguage *tree_sitter_python(void);
const TSLanguage *tree_sitter_bash(void);

const TSLanguage *jf_lang_ts(jf_lang lang)
{
	switch (lang) {
	case JF_LANG_PYTHON:
		return tree_sitter_python();
	case JF_LANG_BASH:
		return tree_sitter_bash();
	default:
		return NULL;
	}
}

const char *jf_lang_name(jf_lang lang)
{
	switch (lang) {
	case JF_LANG_PYTHON:
		return "python";
	case JF_LANG_BASH:
		return "bash";
	case JF_LANG_YAML:
		return "yaml";
	default:
		return "job";
	}
}

/* The bytes of `n` in `file`'s source: none for a null node or one out of it. */
static jf_span text_span(const jf_file *file, TSNode n)
{
	uint32_t a = ts_node_is_null(n) ? 0 : ts_node_start_byte(n);
	uint32_t b = ts_node_is_null(n) ? 0 : ts_node_end_byte(n);
	return b > file->src->len || a > b ? (jf_span){ 0, 0 } : (jf_span){ a, b };
}

char *jf_node_text(const jf_file *file, TSNode n)
{
	jf_span s = text_span(file, n);
	return s.end ? jf_xstrndup(file->src->data + s.start, s.end - s.start) : jf_xstrdup("");
}

void jf_node_ancestors(TSNode n, jf_nodes *out)
{
	out->size = 0;
	for (TSNode a = ts_tree_root_node(n.tree); !ts_node_is_null(a) && !ts_node_eq(a, n);
	     a = ts_node_child_with_descendant(a, n))
		jf_array_push(out, a);
	for (size_t i = 0, j = out->size; i + 1 < j; i++, j--) {
		TSNode t = out->items[i];
		out->items[i] = out->items[j - 1];
		out->items[j - 1] = t;
	}
}

char *jf_node_text_in(jf_arena *arena, const jf_file *file, TSNode n)
{
	jf_span s = text_span(file, n);
	return s.end ? jf_arena_strndup(arena, file->src->data + s.start, s.end - s.start)
	             : jf_arena_strdup(arena, "");
}

bool jf_node_is(const jf_file *file, TSNode n, const char *s)
{
	if (ts_node_is_null(n))
		return false;
	uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
	size_t len = strlen(s);
	return b - a == len && memcmp(file->src->data + a, s, len) == 0;
}

TSNode jf_node_find(TSTree *tree, jf_node_ref ref)
{
	if (!tree || !ref.symbol)
		return (TSNode){ 0 };
	/* The smallest node over the range, then up through the nodes of the same
	 * range (an expression statement and its call) to the one of its symbol. */
	TSNode n = ts_node_descendant_for_byte_range(ts_tree_root_node(tree), ref.start, ref.end);
	while (!ts_node_is_null(n) && ts_node_start_byte(n) == ref.start &&
	       ts_node_end_byte(n) == ref.end) {
		if (ts_node_symbol(n) == ref.symbol)
			return n;
		n = ts_node_parent(n);
	}
	return (TSNode){ 0 };
}

/* The node at the cursor or after it among its siblings that is named, or a null node. */
static TSNode named_from(TSTreeCursor *cur)
{
	do {
		TSNode n = ts_tree_cursor_current_node(cur);
		if (ts_node_is_named(n))
			return n;
	} while (ts_tree_cursor_goto_next_sibling(cur));
	return (TSNode){ 0 };
}

TSNode jf_children_start(jf_children *it, TSNode n)
{
	it->cur = ts_tree_cursor_new(n);
	return ts_tree_cursor_goto_first_child(&it->cur) ? named_from(&it->cur) : (TSNode){ 0 };
}

TSNode jf_children_next(jf_children *it)
{
	return ts_tree_cursor_goto_next_sibling(&it->cur) ? named_from(&it->cur) : (TSNode){ 0 };
}

void jf_children_release(jf_children *it)
{
	ts_tree_cursor_delete(&it->cur);
}

TSNode jf_iter_start(jf_iter *it, TSNode node)
{
	/* The root, found without ts_node_parent(), which walks down from the root. */
	if (ts_node_eq(node, ts_tree_root_node(node.tree)))
		JF_BUG("a walk of a whole tree: read the file's facts instead (python/pyfacts.h)");
	it->cur = ts_tree_cursor_new(node);
	return node;
}

TSNode jf_iter_next(jf_iter *it, bool descend)
{
	if (descend && ts_tree_cursor_goto_first_child(&it->cur))
		return ts_tree_cursor_current_node(&it->cur);
	while (!ts_tree_cursor_goto_next_sibling(&it->cur))
		if (!ts_tree_cursor_goto_parent(&it->cur))
			return (TSNode){ 0 };
	return ts_tree_cursor_current_node(&it->cur);
}

void jf_iter_release(jf_iter *it)
{
	ts_tree_cursor_delete(&it->cur);
}
