/* tree.c - syntax trees: the grammars, node text, fields by name, walks below a node */
#include "sources/tree.h"

#include <pthread.h>

#include "core/strmap.h"

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

/* Per grammar, its field names to their ids (as id + 1: NULL is no field).
 * Built once per process, then only read. */
static jf_strmap field_ids[JF_LANG_COUNT];
static pthread_once_t field_ids_once = PTHREAD_ONCE_INIT;

static void build_field_ids(void)
{
	for (int l = 0; l < JF_LANG_COUNT; l++) {
		const TSLanguage *ts = jf_lang_ts((jf_lang)l);
		uint32_t count = ts ? ts_language_field_count(ts) : 0;
		for (TSFieldId id = 1; id <= count; id++) {
			const char *name = ts_language_field_name_for_id(ts, id);
			if (name)
				jf_strmap_put(&field_ids[l], name, strlen(name), (void *)(uintptr_t)(id + 1));
		}
	}
}

TSNode jf_node_field(TSNode n, const char *name)
{
	if (ts_node_is_null(n))
		return n;
	pthread_once(&field_ids_once, build_field_ids);
	const TSLanguage *ts = ts_node_language(n);
	jf_lang l = ts == jf_lang_ts(JF_LANG_PYTHON) ? JF_LANG_PYTHON : JF_LANG_BASH;
	uintptr_t id = (uintptr_t)jf_strmap_get(&field_ids[l], name, strlen(name));
	return id ? ts_node_child_by_field_id(n, (TSFieldId)(id - 1)) : (TSNode){ 0 };
}

char *jf_node_text(const jf_file *file, TSNode n)
{
	if (ts_node_is_null(n))
		return jf_xstrdup("");
	uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
	if (b > file->src->len || a > b)
		return jf_xstrdup("");
	return jf_xstrndup(file->src->data + a, b - a);
}

bool jf_node_is(const jf_file *file, TSNode n, const char *s)
{
	if (ts_node_is_null(n))
		return false;
	uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
	size_t len = strlen(s);
	return b - a == len && memcmp(file->src->data + a, s, len) == 0;
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
	if (ts_node_is_null(ts_node_parent(node)))
		JF_BUG("a walk of a whole tree: read the file's facts instead (python/facts.h)");
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
