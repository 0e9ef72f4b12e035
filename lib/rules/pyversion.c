/* pyversion.c - JF310: code that the image's Python version cannot run
 *
 * Syntax newer than the image's Python (a SyntaxError before the first line
 * runs), annotations that Python evaluates when the function or module is
 * defined (`int | None`, `list[int]`: a TypeError at import), and Python 2
 * statements on a Python 3 image. Only when the image's Python is known.
 */
#include "rules/checks.h"

/* A construct that needs a Python version, as the gather's recorder took it. */
typedef enum {
	USE_NEEDS,   /* needs Python 3.`minor` */
	USE_KEYWORD, /* `what` (async, await) as an argument name: a keyword from 3.7 */
	USE_PY2,     /* a Python 2 `what` (print, exec) statement */
} use_kind;

typedef struct {
	jf_span span;
	use_kind kind;
	int minor;
	const char *what; /* static text */
} version_use;

typedef JF_ARRAY(version_use) version_record;

/* The recorder's walk over one file. */
typedef struct {
	const jf_file *unit;
	bool lazy_annotations; /* `from __future__ import annotations` */
	version_record uses;
} recorder;

static void record(recorder *c, TSNode at, use_kind kind, int minor, const char *what)
{
	version_use u = { jf_node_span(at), kind, minor, what };
	jf_array_push(&c->uses, u);
}

static void needs(recorder *c, TSNode at, int minor, const char *what)
{
	record(c, at, USE_NEEDS, minor, what);
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
static void check_fstring(recorder *c, TSNode s)
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
			needs(c, n, 8, "an f-string with a self-documenting '=' (f\"{x=}\")");
		}
		if (reuse || ts_node_eq(n, s) || !jf_node_type_is(n, JF_T_string) ||
		    quote_of(c->unit, n) != q || (triple && !triple_quoted(c->unit, n)))
			continue;
		bool inside = false;
		for (TSNode p = ts_node_parent(n); !ts_node_eq(p, s); p = ts_node_parent(p))
			inside |= jf_node_type_is(p, JF_T_interpolation);
		if (inside) {
			reuse = true;
			needs(c, n, 12, "an f-string that reuses its quote inside a replacement field");
		}
	}
	jf_iter_release(&it);
}

/* An annotation Python evaluates at definition time: `X | Y` and `list[int]`. */
static void check_annotation(recorder *c, TSNode type)
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
			needs(c, n, 10, "a 'X | Y' union in an annotation evaluated at definition time");
			break;
		}
		if (jf_node_type_is(n, JF_T_generic_type)) {
			char *name = jf_node_text(c->unit, ts_node_named_child(n, 0));
			bool builtin = jf_str_in(name, builtin_generics);
			free(name);
			if (builtin) {
				needs(c, n, 9, "a subscripted builtin type in an annotation evaluated at "
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
static void check_isinstance(recorder *c, TSNode call, TSNode fn)
{
	if (!jf_node_is(c->unit, fn, "isinstance") && !jf_node_is(c->unit, fn, "issubclass"))
		return;
	TSNode args = jf_node_field(call, JF_F_arguments);
	TSNode second = ts_node_named_child(args, 1);
	if (jf_node_type_is(second, JF_T_binary_operator) && has_token(second, "|"))
		needs(c, second, 10, "a 'X | Y' union as the type of isinstance()");
}

static void check_node(recorder *c, TSNode n)
{
	jf_type t = jf_node_type(n);
	if (t == JF_T_named_expression) {
		needs(c, n, 8, "an assignment expression (:=)");
	} else if (t == JF_T_positional_separator) {
		needs(c, n, 8, "a positional-only parameter marker (/)");
	} else if (t == JF_T_with_clause && has_token(n, "(")) {
		/* Officially 3.10; CPython 3.9's parser accepts it already. */
		needs(c, n, 9, "a parenthesized group of context managers");
	} else if (t == JF_T_match_statement) {
		needs(c, ts_node_child(n, 0), 10, "a match statement");
	} else if (t == JF_T_except_clause && has_token(n, "*")) {
		needs(c, ts_node_child(n, 0), 11, "'except*'");
	} else if (t == JF_T_type_parameter &&
	           (jf_node_type_is(ts_node_parent(n), JF_T_function_definition) ||
	            jf_node_type_is(ts_node_parent(n), JF_T_class_definition))) {
		needs(c, n, 12, "a type parameter list");
	} else if (t == JF_T_type_alias_statement) {
		needs(c, n, 12, "a type statement");
	} else if (t == JF_T_string) {
		check_fstring(c, n);
	} else if (t == JF_T_typed_parameter || t == JF_T_typed_default_parameter) {
		check_annotation(c, jf_node_field(n, JF_F_type));
	} else if (t == JF_T_keyword_argument &&
	           (jf_node_is(c->unit, jf_node_field(n, JF_F_name), "async") ||
	            jf_node_is(c->unit, jf_node_field(n, JF_F_name), "await"))) {
		/* PyTorch 0.3's x.cuda(async=True): a keyword since Python 3.7. */
		TSNode name = jf_node_field(n, JF_F_name);
		record(c, name, USE_KEYWORD, 7,
		       jf_node_is(c->unit, name, "async") ? "async" : "await");
	} else if (t == JF_T_print_statement || t == JF_T_exec_statement) {
		record(c, n, USE_PY2, 0, t == JF_T_print_statement ? "print" : "exec");
	}
}

static bool future_annotations(const jf_file *unit)
{
	const char *s = unit->src->data;
	const char *f = strstr(s, "from __future__ import");
	return f && strstr(f, "annotations");
}

void *jf_pyversion_record(const jf_record_ctx *ctx, const jf_pyfacts *py)
{
	jf_arena *arena = ctx->arena;
	if (ctx->image->py_major != 3)
		return NULL; /* the check does not run */
	const jf_file *u = py->file;
	recorder c = { .unit = u, .lazy_annotations = future_annotations(u) };
	for (size_t k = 0; k < py->of_kind[JF_PY_SYNTAX].size; k++)
		check_node(&c, jf_pyfacts_at(py, JF_PY_SYNTAX, k)->node);
	for (size_t k = 0; k < py->of_kind[JF_PY_CALL].size; k++) {
		const jf_py_node *pn = jf_pyfacts_at(py, JF_PY_CALL, k);
		check_isinstance(&c, pn->node, pn->a);
	}
	for (size_t k = 0; k < py->of_kind[JF_PY_FUNCTION].size; k++)
		check_annotation(&c, jf_node_field(jf_pyfacts_at(py, JF_PY_FUNCTION, k)->node,
		                                   JF_F_return_type));
	/* Annotated assignments (`x: int = 0`) outside functions. */
	for (size_t k = 0; k < py->of_kind[JF_PY_ASSIGNMENT].size; k++) {
		const jf_py_node *pn = jf_pyfacts_at(py, JF_PY_ASSIGNMENT, k);
		if (!in_function(py, pn))
			check_annotation(&c, jf_node_field(pn->node, JF_F_type));
	}
	version_record *r = jf_arena_alloc(arena, sizeof *r);
	*r = c.uses;
	jf_arena_adopt(arena, c.uses.items);
	return r;
}

void jf_pyversion_record_write(jf_buf *b, const void *record)
{
	const version_record *r = record;
	jf_wire_put_u32(b, (uint32_t)r->size);
	for (size_t i = 0; i < r->size; i++) {
		jf_wire_put_span(b, r->items[i].span);
		jf_wire_put_u8(b, (uint8_t)r->items[i].kind);
		jf_wire_put_u32(b, (uint32_t)r->items[i].minor);
		jf_wire_put_str(b, r->items[i].what);
	}
}

void *jf_pyversion_record_load(jf_wire *w, jf_arena *arena, const jf_file *file)
{
	version_record *r = jf_arena_alloc(arena, sizeof *r);
	r->items = jf_wire_get_items(w, arena, sizeof *r->items, 17, &r->size);
	r->cap = r->size;
	for (size_t i = 0; i < r->size; i++) {
		version_use *u = &r->items[i];
		u->span = jf_wire_get_span_in(w, file->src->len);
		u->kind = (use_kind)jf_wire_get_u8(w);
		u->minor = (int)jf_wire_get_u32(w);
		u->what = jf_wire_get_str_in(w, arena);
		if (u->kind > USE_PY2 || !u->what)
			w->bad = true;
	}
	return r;
}

typedef struct {
	jf_rule_ctx *ctx;
	const jf_rule *rule;
	const jf_image *img;
} checker;

/* Reports use `u` of file `unit` when the image's Python cannot run it. */
static void check_use(const checker *c, const jf_file *unit, const version_use *u)
{
	const jf_image *img = c->img;
	jf_diag *d = NULL;
	switch (u->kind) {
	case USE_NEEDS:
		if (!jf_image_python_before(img, 3, u->minor))
			return;
		d = jf_sink_add(c->ctx->out, c->rule->info.id, unit->src, u->span,
		                "%s needs Python 3.%d; the image has Python %d.%d", u->what, u->minor,
		                img->py_major, img->py_minor);
		break;
	case USE_KEYWORD:
		if (img->py_minor < 7)
			return;
		d = jf_sink_add(c->ctx->out, c->rule->info.id, unit->src, u->span,
		                "'%s' is a keyword from Python 3.7, not an argument name: a "
		                "SyntaxError in Python %d.%d",
		                u->what, img->py_major, img->py_minor);
		if (!strcmp(u->what, "async"))
			jf_diag_set_help(d, "use non_blocking=True (PyTorch renamed the argument)");
		break;
	case USE_PY2:
		d = jf_sink_add(c->ctx->out, c->rule->info.id, unit->src, u->span,
		                "a Python 2 %s statement is a SyntaxError in Python %d.%d", u->what,
		                img->py_major, img->py_minor);
		jf_diag_set_help(d, "call it as a function: %s(...)", u->what);
		break;
	}
	if (d)
		jf_image_relate(d, img, JF_FACT_PYTHON, "Python %d.%d", img->py_major, img->py_minor);
}

static void check_version_in(void *state, size_t index, const jf_file *u)
{
	(void)index;
	checker *c = state;
	const version_record *r = jf_runs_python(u)
	                                  ? jf_records_of(c->ctx->records, JF_RECORD_PYVERSION, u)
	                                  : NULL;
	for (size_t k = 0; r && k < r->size; k++)
		check_use(c, u, &r->items[k]);
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
	static const jf_file_part part = { NULL, check_version_in, free };
	jf_check_each_file(ctx, &part, c);
}
