/* tree.h - syntax trees of the workspace's files: nodes, their text, walks below a node
 *
 * TSNodes are borrowed values: valid while their tree is kept, which the
 * facts may release before the workspace ends (jf_facts_settle(),
 * facts/facts.h). Types and fields are compared as integer ids
 * (core/grammar.h). A walk over a whole tree belongs to the fact walkers
 * (python/pyfacts.c, the shell's interpreter), which read each file once:
 * jf_iter walks below a node, and a root node is a bug (the tests would
 * abort).
 */
#ifndef JF_TREE_H
#define JF_TREE_H

#include "core/grammar.h"
#include "sources/workspace.h"

/** The tree-sitter grammar of `lang` (Python, bash); NULL for the others. */
const TSLanguage *jf_lang_ts(jf_lang lang);
/** "python", "bash", "yaml", or "job" for JF_LANG_NONE. */
const char *jf_lang_name(jf_lang lang);

static inline jf_span jf_node_span(TSNode n)
{
	return (jf_span){ ts_node_start_byte(n), ts_node_end_byte(n) };
}

/*
 * A node kept past its tree: where it is and what it is. The facts may
 * release a file's tree and parse it again (facts/facts.h); state kept across
 * files holds references, and jf_node_find() gives the node in the tree the
 * file has now. The zero reference is no node.
 */
typedef struct {
	uint32_t start, end;
	TSSymbol symbol;
} jf_node_ref;

static inline jf_node_ref jf_node_ref_of(TSNode n)
{
	if (ts_node_is_null(n))
		return (jf_node_ref){ 0 };
	return (jf_node_ref){ ts_node_start_byte(n), ts_node_end_byte(n), ts_node_symbol(n) };
}

/** The node `ref` names in `tree` (a parse of the same text); a null node for none. */
TSNode jf_node_find(TSTree *tree, jf_node_ref ref);


typedef JF_ARRAY(TSNode) jf_nodes;

/** The ancestors of `n` (not null), innermost first, into `out` (emptied first): one walk
 * down from the root, where ts_node_parent() walks down from the root for each. */
void jf_node_ancestors(TSNode n, jf_nodes *out);

/** The text of `n` in `file`'s source as a new string ("" for a null node); caller frees. */
char *jf_node_text(const jf_file *file, TSNode n);
/** The same in `arena` (records that outlive the tree). */
char *jf_node_text_in(jf_arena *arena, const jf_file *file, TSNode n);
/** Whether the text of `n` equals `s`; false for a null node. */
bool jf_node_is(const jf_file *file, TSNode n, const char *s);

/*
 * The named children of a node, in order, at a constant cost each
 * (ts_node_named_child(n, i) counts from the first child every time):
 *
 *	jf_children it;
 *	for (TSNode c = jf_children_start(&it, n); !ts_node_is_null(c);
 *	     c = jf_children_next(&it))
 *		...
 *	jf_children_release(&it);
 */
typedef struct {
	TSTreeCursor cur;
} jf_children;

TSNode jf_children_start(jf_children *it, TSNode n);
/** The next named child, or a null node after the last. */
TSNode jf_children_next(jf_children *it);
void jf_children_release(jf_children *it);

/*
 * A walk over a node below a tree's root and every node under it, in source
 * order:
 *
 *	jf_iter it;
 *	for (TSNode n = jf_iter_start(&it, node); !ts_node_is_null(n);
 *	     n = jf_iter_next(&it, descend))
 *		...
 *	jf_iter_release(&it);
 *
 * `descend` false skips the children of the node just visited.
 */
typedef struct {
	TSTreeCursor cur;
} jf_iter;

TSNode jf_iter_start(jf_iter *it, TSNode node);
/** The next node, or a null node at the end. */
TSNode jf_iter_next(jf_iter *it, bool descend);
void jf_iter_release(jf_iter *it);

#endif
