/* bounds.c - JF122: a version bound the code asserts when it is imported, which the job's version breaks
 *
 * Libraries and training code check the versions they were written for at
 * import: `assert mmcv_version < digit_version('2.2.0')` in OpenMMLab's
 * packages, `assert version.parse(transformers.__version__) <
 * version.parse("4.27")`. The recorder keeps, of each assert at a module's
 * top level whose condition is a conjunction of comparisons between the
 * version of a distribution and a literal, the distribution, the operator
 * and the bound; the check reports the first bound the version the job
 * installs (or its image has) breaks, in the files whose top level runs.
 *
 * The version side is `X.__version__` of an imported module X, wrapped or
 * not in a parser of versions (`version.parse`, `parse_version`,
 * `LooseVersion`, `StrictVersion`, `Version`, `digit_version`),
 * `get_distribution('d').version`, `importlib.metadata.version('d')`, or a
 * module-level name bound to one of those. A condition with `or` or `not`
 * is not read: its bounds are not all required.
 */
#include "rules/checks.h"

#include "env/pymodules.h"
#include "python/eval.h"
#include "rules/versions.h"

typedef enum { OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE } bound_op;

static const char *const op_text[] = { "<", "<=", ">", ">=", "==", "!=" };

/* One bound of an assert: the distribution's version `op` `bound`. */
typedef struct {
	const char *dist;
	const char *bound;
	uint32_t op;
	jf_span at;     /* the comparison */
	jf_span assert; /* the whole assert */
} bound_item;

typedef JF_ARRAY(bound_item) bounds_record;

/* The recorder's view of one file. */
typedef struct {
	const jf_pyfacts *py;
	jf_pyeval *eval;
	jf_arena *arena;
	TSNode root;
} reader;

static bool op_of(const char *s, bound_op *op)
{
	for (size_t i = 0; i < sizeof op_text / sizeof *op_text; i++)
		if (!strcmp(s, op_text[i])) {
			*op = (bound_op)i;
			return true;
		}
	return false;
}

/* x op y read as y op' x */
static bound_op flipped(bound_op op)
{
	static const bound_op flip[] = { OP_GT, OP_GE, OP_LT, OP_LE, OP_EQ, OP_NE };
	return flip[op];
}

static TSNode unparen(TSNode n)
{
	while (!ts_node_is_null(n) && jf_node_type_is(n, JF_T_parenthesized_expression))
		n = ts_node_named_child(n, 0);
	return n;
}

/* The last part of a callee's name: `parse` of `version.parse`. */
static char *callee_name(const jf_file *f, TSNode call)
{
	TSNode fn = jf_node_field(call, JF_F_function);
	if (jf_node_type_is(fn, JF_T_attribute))
		fn = jf_node_field(fn, JF_F_attribute);
	return jf_node_type_is(fn, JF_T_identifier) ? jf_node_text(f, fn) : NULL;
}

/* The only argument of `call`, or a null node. */
static TSNode only_argument(TSNode call)
{
	TSNode args = jf_node_field(call, JF_F_arguments);
	if (ts_node_is_null(args) || ts_node_named_child_count(args) != 1)
		return (TSNode){ 0 };
	TSNode a = ts_node_named_child(args, 0);
	return jf_node_type_is(a, JF_T_keyword_argument) ? (TSNode){ 0 } : a;
}

/* `n` with the parsers of version strings taken off: `x` of `version.parse(x)`. */
static TSNode unwrap(const jf_file *f, TSNode n)
{
	static const char *const parsers[] = { "parse", "parse_version", "LooseVersion",
		                               "StrictVersion", "Version", "digit_version", NULL };
	for (int depth = 0; depth < 4; depth++) {
		n = unparen(n);
		if (ts_node_is_null(n) || !jf_node_type_is(n, JF_T_call))
			return n;
		char *name = callee_name(f, n);
		bool parser = name && jf_str_in(name, parsers);
		free(name);
		TSNode arg = parser ? only_argument(n) : (TSNode){ 0 };
		if (ts_node_is_null(arg))
			return n;
		n = arg;
	}
	return n;
}

/* The module-level statement that binds `name` last before byte `before`:
 * its value, or a null node. */
static TSNode bound_value(const reader *r, const char *name, uint32_t before)
{
	TSNode found = { 0 };
	for (uint32_t i = 0; i < ts_node_named_child_count(r->root); i++) {
		TSNode s = ts_node_named_child(r->root, i);
		if (ts_node_start_byte(s) >= before)
			break;
		if (!jf_node_type_is(s, JF_T_expression_statement))
			continue;
		TSNode a = ts_node_named_child(s, 0);
		if (!jf_node_type_is(a, JF_T_assignment))
			continue;
		TSNode left = jf_node_field(a, JF_F_left);
		if (jf_node_type_is(left, JF_T_identifier) && jf_node_is(r->py->file, left, name))
			found = jf_node_field(a, JF_F_right);
	}
	return found;
}

/* Whether the file imports module `top` at its top level (`import mmcv`, `import torch.nn`). */
static bool imports_module(const reader *r, const char *top)
{
	for (uint32_t i = 0; i < ts_node_named_child_count(r->root); i++) {
		TSNode s = ts_node_named_child(r->root, i);
		if (!jf_node_type_is(s, JF_T_import_statement))
			continue;
		for (uint32_t k = 0; k < ts_node_named_child_count(s); k++) {
			TSNode m = ts_node_named_child(s, k);
			if (jf_node_type_is(m, JF_T_aliased_import))
				continue; /* `import torch as t`: t.__version__ is not read */
			char *text = jf_node_text(r->py->file, m);
			size_t n = strcspn(text, ".");
			bool same = strlen(top) == n && !strncmp(text, top, n);
			free(text);
			if (same)
				return true;
		}
	}
	return false;
}

/* The string `n` evaluates to, in the arena, or NULL. */
static const char *string_of(const reader *r, TSNode n)
{
	if (ts_node_is_null(n))
		return NULL;
	jf_pyvalue v = jf_pyeval_expr(r->eval, r->py->file, n);
	const char *s = v.value && *v.value ? jf_arena_strdup(r->arena, v.value) : NULL;
	jf_pyvalue_release(&v);
	return s;
}

/* The distribution whose version `n` is, in the arena, or NULL. */
static const char *version_of(const reader *r, TSNode n, uint32_t before, int depth)
{
	const jf_file *f = r->py->file;
	n = unwrap(f, n);
	if (ts_node_is_null(n) || depth > 3)
		return NULL;
	if (jf_node_type_is(n, JF_T_identifier)) {
		char *name = jf_node_text(f, n);
		TSNode value = bound_value(r, name, before);
		free(name);
		return ts_node_is_null(value) ? NULL : version_of(r, value, before, depth + 1);
	}
	if (jf_node_type_is(n, JF_T_attribute)) {
		TSNode obj = jf_node_field(n, JF_F_object), attr = jf_node_field(n, JF_F_attribute);
		if (jf_node_is(f, attr, "__version__") && jf_node_type_is(obj, JF_T_identifier)) {
			char *top = jf_node_text(f, obj);
			const char *dist = NULL;
			if (imports_module(r, top)) {
				const char *const *dists = jf_import_distributions(top);
				dist = jf_arena_strdup(r->arena, dists && dists[0] ? dists[0] : top);
			}
			free(top);
			return dist;
		}
		/* get_distribution('torch').version */
		if (jf_node_is(f, attr, "version") && jf_node_type_is(obj, JF_T_call)) {
			char *name = callee_name(f, obj);
			bool get = name && !strcmp(name, "get_distribution");
			free(name);
			return get ? string_of(r, only_argument(obj)) : NULL;
		}
		return NULL;
	}
	if (jf_node_type_is(n, JF_T_call)) {
		/* importlib.metadata.version('torch') */
		TSNode fn = jf_node_field(n, JF_F_function);
		char *text = jf_node_text(f, fn);
		bool metadata = !strcmp(text, "version") || !strcmp(text, "metadata.version") ||
		                !strcmp(text, "importlib.metadata.version") ||
		                !strcmp(text, "importlib_metadata.version");
		free(text);
		return metadata ? string_of(r, only_argument(n)) : NULL;
	}
	return NULL;
}

/* The bounds of condition `n` into `out`; false when it is not a
 * conjunction of comparisons between a version and a literal. */
static bool read_condition(const reader *r, TSNode n, jf_span whole, bounds_record *out)
{
	const jf_file *f = r->py->file;
	n = unparen(n);
	if (ts_node_is_null(n))
		return false;
	if (jf_node_type_is(n, JF_T_boolean_operator)) {
		TSNode op = jf_node_field(n, JF_F_operator);
		if (!jf_node_is(f, op, "and"))
			return false;
		return read_condition(r, jf_node_field(n, JF_F_left), whole, out) &&
		       read_condition(r, jf_node_field(n, JF_F_right), whole, out);
	}
	if (!jf_node_type_is(n, JF_T_comparison_operator))
		return false;
	/* a <= v < b: the operands are the named children, the operators the others */
	TSNode prev = { 0 };
	bound_op op = OP_LT;
	bool have_op = false, any = false;
	uint32_t count = ts_node_child_count(n);
	for (uint32_t i = 0; i < count; i++) {
		TSNode c = ts_node_child(n, i);
		if (!ts_node_is_named(c)) {
			char *t = jf_node_text(f, c);
			have_op = op_of(t, &op);
			free(t);
			if (!have_op)
				return false; /* in, is, not in: no bound */
			continue;
		}
		if (!ts_node_is_null(prev) && have_op) {
			uint32_t at = ts_node_start_byte(n);
			const char *dist = version_of(r, prev, at, 0), *bound = NULL;
			bound_op o = op;
			if (dist) {
				bound = string_of(r, unwrap(f, c));
			} else if ((dist = version_of(r, c, at, 0))) {
				bound = string_of(r, unwrap(f, prev));
				o = flipped(op);
			}
			if (!dist || !bound)
				return false;
			jf_array_push(out, ((bound_item){ dist, bound, o, jf_node_span(n), whole }));
			any = true;
		}
		prev = c;
		have_op = false;
	}
	return any;
}

void *jf_bounds_record(const jf_record_ctx *ctx, const jf_pyfacts *py)
{
	if (!ctx->job || !py->file->tree)
		return NULL;
	bounds_record *rec = jf_arena_calloc(ctx->arena, 1, sizeof *rec);
	reader r = { py, NULL, ctx->arena, ts_tree_root_node(py->file->tree) };
	for (uint32_t i = 0; i < ts_node_named_child_count(r.root); i++) {
		TSNode s = ts_node_named_child(r.root, i);
		if (!jf_node_type_is(s, JF_T_assert_statement))
			continue;
		if (!r.eval)
			r.eval = jf_pyeval_new_file(ctx->job, py);
		size_t before = rec->size;
		if (!read_condition(&r, ts_node_named_child(s, 0), jf_node_span(s), rec))
			rec->size = before; /* a part of it is not a bound: none is kept */
	}
	if (r.eval)
		jf_pyeval_free(r.eval);
	jf_arena_adopt(ctx->arena, rec->items);
	return rec;
}

void jf_bounds_record_write(jf_buf *b, const void *record)
{
	const bounds_record *r = record;
	jf_wire_put_u32(b, (uint32_t)r->size);
	for (size_t i = 0; i < r->size; i++) {
		jf_wire_put_str(b, r->items[i].dist);
		jf_wire_put_str(b, r->items[i].bound);
		jf_wire_put_u32(b, r->items[i].op);
		jf_wire_put_span(b, r->items[i].at);
		jf_wire_put_span(b, r->items[i].assert);
	}
}

void *jf_bounds_record_load(jf_wire *w, jf_arena *arena, const jf_file *file)
{
	bounds_record *r = jf_arena_alloc(arena, sizeof *r);
	/* 26: the fewest bytes an item takes written (two empty strings, an op, two spans) */
	r->items = jf_wire_get_items(w, arena, sizeof *r->items, 26, &r->size);
	r->cap = r->size;
	for (size_t i = 0; i < r->size; i++) {
		bound_item *it = &r->items[i];
		it->dist = jf_wire_get_str_in(w, arena);
		it->bound = jf_wire_get_str_in(w, arena);
		it->op = jf_wire_get_u32(w);
		if (it->op >= sizeof op_text / sizeof *op_text || !it->dist || !it->bound)
			w->bad = true;
		it->at = jf_wire_get_span_in(w, file->src->len);
		it->assert = jf_wire_get_span_in(w, file->src->len);
	}
	return r;
}

typedef struct {
	jf_rule_ctx *ctx;
	jf_versions *versions;
	jf_strings unknown; /* distributions whose version is not known, said once */
} checker;

static bool holds(const char *version, bound_op op, const char *bound)
{
	int c = jf_version_cmp(version, bound);
	switch (op) {
	case OP_LT: return c < 0;
	case OP_LE: return c <= 0;
	case OP_GT: return c > 0;
	case OP_GE: return c >= 0;
	case OP_EQ: return c == 0;
	case OP_NE: return c != 0;
	}
	return true;
}

static void check_file(void *state, size_t index, const jf_file *u)
{
	(void)index;
	checker *c = state;
	const bounds_record *r =
		jf_runs_python(u) ? jf_records_of(c->ctx->records, JF_RECORD_BOUNDS, u) : NULL;
	if (!r || u->lazy)
		return; /* its top level runs only when a function imports it */
	uint32_t reported = UINT32_MAX; /* one finding per assert */
	for (size_t i = 0; i < r->size; i++) {
		const bound_item *b = &r->items[i];
		if (b->assert.start == reported)
			continue;
		const jf_dist_version *v = jf_versions_of(c->versions, b->dist);
		if (!v->known || !v->version) {
			if (!jf_strings_have(&c->unknown, b->dist)) {
				jf_array_push(&c->unknown, jf_xstrdup(b->dist));
				jf_sink_skip(c->ctx->out, JF122, "%s:%u asserts a bound on the version of %s, "
				                                 "which is not checked: %s",
				             u->src->path, jf_source_line_of(u->src, b->at.start) + 1, b->dist,
				             v->why ? v->why : "the job's version is a range");
			}
			continue;
		}
		if (holds(v->version, (bound_op)b->op, b->bound))
			continue;
		reported = b->assert.start;
		jf_diag *d = jf_sink_add(c->ctx->out, JF122, u->src, b->at,
		                         "the assert needs %s %s %s, and the job %s %s: AssertionError "
		                         "when %s %s",
		                         b->dist, op_text[b->op], b->bound,
		                         v->pin || v->docker ? "installs" : "has", v->shown, u->src->path,
		                         u->role == JF_ROLE_ENTRY ? "starts" : "is imported");
		jf_dist_version_relate(d, c->ctx->facts, v, false);
	}
}

static void check_end(void *state)
{
	checker *c = state;
	jf_versions_free(c->versions);
	jf_strings_release(&c->unknown);
	free(c);
}

void jf_check_bounds(jf_rule_ctx *ctx, const jf_rule *rule)
{
	(void)rule;
	if (!ctx->facts->job)
		return; /* a file alone has no records */
	checker *c = jf_xcalloc(1, sizeof *c);
	c->ctx = ctx;
	c->versions = jf_versions_new(ctx->facts);
	static const jf_file_part part = { NULL, check_file, check_end };
	jf_check_each_file(ctx, &part, c);
}
