/* syspath.c - the folders a Python file puts on sys.path (see syspath.h) */
#include "python/syspath.h"

#include "python/eval.h"

#define MAX_TEXT 60

/* The text of `n` on one line, its spaces collapsed, cut at MAX_TEXT
 * characters; caller frees. */
static char *short_text(const jf_file *unit, TSNode n)
{
	char *t = jf_node_text(unit, n);
	jf_buf b = JF_BUF_INIT;
	bool space = false;
	const char *p = t;
	for (; *p && b.len < MAX_TEXT; p++) {
		if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || (*p == '\\' && p[1] == '\n')) {
			space = true;
			continue;
		}
		if (space && b.len && !strchr("([", b.buf[b.len - 1]) && !strchr(")]", *p))
			jf_buf_addc(&b, ' ');
		space = false;
		jf_buf_addc(&b, *p);
	}
	if (*p)
		jf_buf_adds(&b, "...");
	free(t);
	return jf_buf_detach(&b, NULL);
}

static void add(jf_syspath_edits *out, const jf_file *unit, TSNode at, char *value, bool first)
{
	jf_syspath_edit e = { jf_node_span(at), short_text(unit, at), value, first };
	jf_array_push(out, e);
}

/* Each element of list or tuple `list` (`sys.path.extend([a, b])`), or one
 * edit not known when it is no literal list. */
static void add_each(jf_syspath_edits *out, jf_pyeval *ev, const jf_file *unit, TSNode at,
                     TSNode list)
{
	if (!jf_node_type_is(list, JF_T_list) && !jf_node_type_is(list, JF_T_tuple)) {
		add(out, unit, at, NULL, false);
		return;
	}
	for (uint32_t i = 0; i < ts_node_named_child_count(list); i++) {
		TSNode item = ts_node_named_child(list, i);
		if (jf_node_type_is(item, JF_T_comment))
			continue;
		jf_pyvalue v = jf_pyeval_expr(ev, unit, item);
		add(out, unit, at, v.value, false);
	}
}

/* Whether `n` is `sys.path` or a part of it (`sys.path[:0]`). */
static bool is_sys_path(const jf_file *unit, TSNode n)
{
	if (jf_node_type_is(n, JF_T_subscript))
		n = jf_node_field(n, JF_F_value);
	return jf_node_is(unit, n, "sys.path");
}

void jf_py_syspath_edits(const jf_job *job, const jf_pyfacts *py, jf_syspath_edits *out)
{
	const jf_file *unit = py->file;
	if (!jf_python_mentions(unit, "sys.path") && !jf_python_mentions(unit, "addsitedir"))
		return;
	jf_pyeval *ev = jf_pyeval_new_file(job, py);
	/* In source order: calls and assignments, merged by where they start. */
	const uint32_t *calls = py->of_kind[JF_PY_CALL].items;
	const uint32_t *sets = py->of_kind[JF_PY_ASSIGNMENT].items;
	const uint32_t *grows = py->of_kind[JF_PY_AUGMENTED_ASSIGNMENT].items;
	size_t nc = py->of_kind[JF_PY_CALL].size, ns = py->of_kind[JF_PY_ASSIGNMENT].size,
	       ng = py->of_kind[JF_PY_AUGMENTED_ASSIGNMENT].size;
	size_t ci = 0, ai = 0, gi = 0;
	for (;;) {
		uint32_t next = UINT32_MAX;
		if (ci < nc)
			next = calls[ci];
		if (ai < ns && sets[ai] < next)
			next = sets[ai];
		if (gi < ng && grows[gi] < next)
			next = grows[gi];
		if (next == UINT32_MAX)
			break;
		if (ci < nc && calls[ci] == next)
			ci++;
		else if (ai < ns && sets[ai] == next)
			ai++;
		else
			gi++;
		const jf_py_node *pn = &py->nodes.items[next];
		if (pn->kind == JF_PY_ASSIGNMENT) {
			/* sys.path = [...] + sys.path, sys.path[:0] = [...] */
			if (is_sys_path(unit, pn->a))
				add(out, unit, pn->node, NULL, false);
			continue;
		}
		if (pn->kind == JF_PY_AUGMENTED_ASSIGNMENT) {
			if (is_sys_path(unit, pn->a) && jf_node_type_is(pn->a, JF_T_attribute))
				add_each(out, ev, unit, pn->node, pn->b);
			else if (is_sys_path(unit, pn->a))
				add(out, unit, pn->node, NULL, false);
			continue;
		}
		TSNode args = pn->b;
		if (!jf_node_type_is(args, JF_T_argument_list))
			continue;
		uint32_t nargs = ts_node_named_child_count(args);
		bool insert = jf_node_is(unit, pn->a, "sys.path.insert");
		if (insert || jf_node_is(unit, pn->a, "sys.path.append") ||
		    jf_node_is(unit, pn->a, "site.addsitedir")) {
			uint32_t want = insert ? 2 : 1;
			TSNode arg = ts_node_named_child(args, want - 1);
			jf_pyvalue v = { 0 };
			if (nargs == want && !jf_node_type_is(arg, JF_T_keyword_argument))
				v = jf_pyeval_expr(ev, unit, arg);
			bool first = insert && jf_node_is(unit, ts_node_named_child(args, 0), "0");
			add(out, unit, pn->node, v.value, first);
		} else if (jf_node_is(unit, pn->a, "sys.path.extend")) {
			if (nargs == 1)
				add_each(out, ev, unit, pn->node, ts_node_named_child(args, 0));
			else
				add(out, unit, pn->node, NULL, false);
		}
	}
	jf_pyeval_free(ev);
}

void jf_syspath_edits_release(jf_syspath_edits *self)
{
	for (size_t i = 0; i < self->size; i++) {
		free(self->items[i].text);
		free(self->items[i].value);
	}
	jf_array_release(self);
}
