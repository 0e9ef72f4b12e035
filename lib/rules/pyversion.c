/* pyversion.c - JF310: code that the image's Python version cannot run
 *
 * Syntax newer than the image's Python (a SyntaxError before the first line
 * runs), annotations that Python evaluates when the function or module is
 * defined (`int | None`, `list[int]`: a TypeError at import), and Python 2
 * statements on a Python 3 image. Only when the image's Python is known.
 */
#include "rules/checks.h"

typedef struct {
	jf_rule_ctx *ctx;
	const jf_file *unit;
	const jf_rule *rule;
	const jf_image *img;
	bool lazy_annotations; /* `from __future__ import annotations` */
} checker;

static void report(checker *c, TSNode at, int minor, const char *what)
{
	const jf_image *img = c->img;
	if (!jf_image_python_before(img, 3, minor))
		return;
	jf_diag *d = jf_sink_add(c->ctx->out, c->rule->info.id, c->unit->src, jf_node_span(at),
	                           "%s needs Python 3.%d; the image has Python %d.%d", what, minor,
	                           img->py_major, img->py_minor);
	jf_image_relate(d, img, JF_FACT_PYTHON, "Python %d.%d", img->py_major,
	                img->py_minor);
}

static bool has_token(TSNode n, const char *token)
{
	for (uint32_t i = 0; i < ts_node_child_count(n); i++) {
		TSNode k = ts_node_child(n, i);
		if (!ts_node_is_named(k) && !strcmp(ts_node_type(k), token))
			return true;
	}
	return false;
}

/* The quote character of a string literal node (after its prefix letters). */
static char quote_of(const jf_file *unit, TSNode s)
{
	const char *p = unit->src->data + ts_node_start_byte(s);
	const char *end = unit->src->data + ts_node_end_byte(s);
	while (p < end && *p != '"' && *p != '\'')
		p++;
	return p < end ? *p : 0;
}

static bool is_fstring(const jf_file *unit, TSNode s)
{
	const char *p = unit->src->data + ts_node_start_byte(s);
	const char *end = unit->src->data + ts_node_end_byte(s);
	for (; p < end && *p != '"' && *p != '\''; p++)
		if (*p == 'f' || *p == 'F')
			return true;
	return false;
}

/* Whether string literal `s` opens with three quotes. */
static bool triple_quoted(const jf_file *unit, TSNode s)
{
	const char *p = unit->src->data + ts_node_start_byte(s);
	const char *end = unit->src->data + ts_node_end_byte(s);
	while (p < end && *p != '"' && *p != '\'')
		p++;
	return end - p >= 6 && p[1] == p[0] && p[2] == p[0];
}

/* f"{d["k"]}": a string inside a replacement field that closes the f-string
 * before 3.12 (its own quote; in a triple-quoted one, its own three quotes);
 * f"{x=}" (3.8). */
static void check_fstring(checker *c, TSNode s)
{
	if (!is_fstring(c->unit, s))
		return;
	char q = quote_of(c->unit, s);
	bool triple = triple_quoted(c->unit, s);
	bool reuse = false, self_documenting = false;
	jf_iter it;
	for (TSNode n = jf_iter_start(&it, s); !ts_node_is_null(n); n = jf_iter_next(&it, true)) {
		if (!self_documenting && jf_node_type_is(n, JF_T_interpolation) && has_token(n, "=")) {
			self_documenting = true;
			report(c, n, 8, "an f-string with a self-documenting '=' (f\"{x=}\")");
		}
		if (reuse || ts_node_eq(n, s) || !jf_node_type_is(n, JF_T_string) ||
		    quote_of(c->unit, n) != q || (triple && !triple_quoted(c->unit, n)))
			continue;
		bool inside = false;
		for (TSNode p = ts_node_parent(n); !ts_node_eq(p, s); p = ts_node_parent(p))
			inside |= jf_node_type_is(p, JF_T_interpolation);
		if (inside) {
			reuse = true;
			report(c, n, 12, "an f-string that reuses its quote inside a replacement field");
		}
	}
	jf_iter_release(&it);
}

/* An annotation Python evaluates at definition time: `X | Y` and `list[int]`. */
static void check_annotation(checker *c, TSNode type)
{
	static const char *const builtin_generics[] = { "list", "dict", "tuple", "set", "frozenset",
		                                        "type", NULL };
	if (c->lazy_annotations || ts_node_is_null(type))
		return;
	jf_iter it;
	bool descend = true;
	for (TSNode n = jf_iter_start(&it, type); !ts_node_is_null(n);
	     n = jf_iter_next(&it, descend)) {
		descend = !jf_node_type_is(n, JF_T_string); /* "int | None": not evaluated */
		if (jf_node_type_is(n, JF_T_binary_operator) && has_token(n, "|")) {
			report(c, n, 10, "a 'X | Y' union in an annotation evaluated at definition time");
			break;
		}
		if (jf_node_type_is(n, JF_T_generic_type)) {
			char *name = jf_node_text(c->unit, ts_node_named_child(n, 0));
			bool builtin = jf_str_in(name, builtin_generics);
			free(name);
			if (builtin) {
				report(c, n, 9, "a subscripted builtin type in an annotation evaluated at "
				                "definition time");
				break;
			}
		}
	}
	jf_iter_release(&it);
}

/* Whether recorded node `pn` is in a function body (where local annotations
 * are not evaluated): a function among the definitions around it. */
static bool in_function(const jf_pyfacts *py, const jf_py_node *pn)
{
	for (uint32_t d = pn->def; d != JF_PY_NONE; d = py->nodes.items[d].def)
		if (py->nodes.items[d].kind == JF_PY_FUNCTION)
			return true;
	return false;
}

/* isinstance(x, int | str) and issubclass(): unions as types from 3.10. */
static void check_isinstance(checker *c, TSNode call, TSNode fn)
{
	if (!jf_node_is(c->unit, fn, "isinstance") && !jf_node_is(c->unit, fn, "issubclass"))
		return;
	TSNode args = jf_node_field(call, JF_F_arguments);
	TSNode second = ts_node_named_child(args, 1);
	if (jf_node_type_is(second, JF_T_binary_operator) && has_token(second, "|"))
		report(c, second, 10, "a 'X | Y' union as the type of isinstance()");
}

static void check_node(checker *c, TSNode n)
{
	jf_type t = jf_node_type(n);
	if (t == JF_T_named_expression) {
		report(c, n, 8, "an assignment expression (:=)");
	} else if (t == JF_T_positional_separator) {
		report(c, n, 8, "a positional-only parameter marker (/)");
	} else if (t == JF_T_with_clause && has_token(n, "(")) {
		/* Officially 3.10; CPython 3.9's parser accepts it already. */
		report(c, n, 9, "a parenthesized group of context managers");
	} else if (t == JF_T_match_statement) {
		report(c, ts_node_child(n, 0), 10, "a match statement");
	} else if (t == JF_T_except_clause && has_token(n, "*")) {
		report(c, ts_node_child(n, 0), 11, "'except*'");
	} else if (t == JF_T_type_parameter &&
	           (jf_node_type_is(ts_node_parent(n), JF_T_function_definition) ||
	            jf_node_type_is(ts_node_parent(n), JF_T_class_definition))) {
		report(c, n, 12, "a type parameter list");
	} else if (t == JF_T_type_alias_statement) {
		report(c, n, 12, "a type statement");
	} else if (t == JF_T_string) {
		check_fstring(c, n);
	} else if (t == JF_T_typed_parameter || t == JF_T_typed_default_parameter) {
		check_annotation(c, jf_node_field(n, JF_F_type));
	} else if (t == JF_T_keyword_argument && c->img->py_minor >= 7 &&
	           (jf_node_is(c->unit, jf_node_field(n, JF_F_name), "async") ||
	            jf_node_is(c->unit, jf_node_field(n, JF_F_name), "await"))) {
		/* PyTorch 0.3's x.cuda(async=True): a keyword since Python 3.7. */
		TSNode name = jf_node_field(n, JF_F_name);
		char *kw = jf_node_text(c->unit, name);
		jf_diag *d = jf_sink_add(c->ctx->out, c->rule->info.id, c->unit->src, jf_node_span(name),
		                           "'%s' is a keyword from Python 3.7, not an argument name: a "
		                           "SyntaxError in Python %d.%d",
		                           kw, c->img->py_major, c->img->py_minor);
		jf_image_relate(d, c->img, JF_FACT_PYTHON, "Python %d.%d",
		                c->img->py_major, c->img->py_minor);
		if (!strcmp(kw, "async"))
			jf_diag_set_help(d, "use non_blocking=True (PyTorch renamed the argument)");
		free(kw);
	} else if (t == JF_T_print_statement || t == JF_T_exec_statement) {
		jf_diag *d = jf_sink_add(c->ctx->out, c->rule->info.id, c->unit->src, jf_node_span(n),
		                           "a Python 2 %s statement is a SyntaxError in Python %d.%d",
		                           t == JF_T_print_statement ? "print" : "exec", c->img->py_major,
		                           c->img->py_minor);
		jf_image_relate(d, c->img, JF_FACT_PYTHON, "Python %d.%d",
		                c->img->py_major, c->img->py_minor);
		jf_diag_set_help(d, "call it as a function: %s(...)", t == JF_T_print_statement ? "print" : "exec");
	}
}

static bool future_annotations(const jf_file *unit)
{
	const char *s = unit->src->data;
	const char *f = strstr(s, "from __future__ import");
	return f && strstr(f, "annotations");
}

static void check_version_in(void *state, size_t index, const jf_file *u)
{
	(void)index;
	checker *c = state;
	if (!jf_runs_python(u))
		return;
	const jf_pyfacts *py = jf_facts_python(c->ctx->facts, u);
	if (!py)
		return;
	c->unit = u;
	c->lazy_annotations = future_annotations(u);
	for (size_t k = 0; k < py->of_kind[JF_PY_SYNTAX].size; k++)
		check_node(c, jf_pyfacts_at(py, JF_PY_SYNTAX, k)->node);
	for (size_t k = 0; k < py->of_kind[JF_PY_CALL].size; k++) {
		const jf_py_node *pn = jf_pyfacts_at(py, JF_PY_CALL, k);
		check_isinstance(c, pn->node, pn->a);
	}
	for (size_t k = 0; k < py->of_kind[JF_PY_FUNCTION].size; k++)
		check_annotation(c, jf_node_field(jf_pyfacts_at(py, JF_PY_FUNCTION, k)->node,
		                                  JF_F_return_type));
	/* Annotated assignments (`x: int = 0`) outside functions. */
	for (size_t k = 0; k < py->of_kind[JF_PY_ASSIGNMENT].size; k++) {
		const jf_py_node *pn = jf_pyfacts_at(py, JF_PY_ASSIGNMENT, k);
		if (!in_function(py, pn))
			check_annotation(c, jf_node_field(pn->node, JF_F_type));
	}
}

void jf_check_python_version(jf_rule_ctx *ctx, const jf_rule *rule)
{
	const jf_image *img = ctx->facts->image;
	if (ctx->facts->job && !img->py_major && ctx->facts->ws->files.size > 1)
		jf_sink_skip(ctx->out, rule->info.id, "the image's Python version is unknown: declare "
		                                "image.python (\"3.10\") to check syntax against it");
	if (img->py_major != 3)
		return;
	checker *c = jf_xcalloc(1, sizeof *c);
	*c = (checker){ .ctx = ctx, .rule = rule, .img = img };
	jf_check_each_file(ctx, check_version_in, free, c);
}
