/* apis.c - JF120, JF121: names the job's version of a library or of Python does not have
 *
 * Each name the job's Python uses is resolved as Python resolves it (the
 * file's imports and `x = module.sub` aliases; a name bound in any other
 * way is left alone), then looked up in data/api-changes.yaml, against the
 * job's version of its package (rules/versions.h); a range decides only
 * when all its versions agree. Uses under a guard stay silent: a `try` that catches the error, an
 * `if` on a version, `hasattr` or the package.
 */
#include <ctype.h>

#include "rules/checks.h"
#include "rules/versions.h"
#include "core/path.h"
#include "core/strmap.h"
#include "env/api_changes.h"
#include "env/pymodules.h"


typedef struct {
	jf_rule_ctx *ctx;
	const jf_facts *f;
	jf_pyfiles files;
	jf_versions *versions;
	jf_strmap said;     /* packages whose unknown version --verbose said */
	jf_module_finder local; /* for a file recorded again (check_apis_in()) */
	/* tf.keras is Keras 3 (TensorFlow >= 2.16, no TF_USE_LEGACY_KERAS): 1, 0 not, -1 not asked */
	int keras3;
	jf_dist_version keras_in_tf;   /* Keras's version when written as tf.keras */
	/* One finding per entry: later uses become notes, and their fixes. */
	JF_ARRAY(struct api_report { const jf_api_change *c; size_t diag; size_t more; }) reported;
} checker;

/* Whether the job's tf.keras is Keras 3: TensorFlow 2.16 or later (every
 * version the job may have), and nothing sets TF_USE_LEGACY_KERAS, which
 * makes it tf_keras (Keras 2) again. Sets c->keras_in_tf. */
static bool tf_keras_is_keras3(checker *c)
{
	if (c->keras3 >= 0)
		return c->keras3 == 1;
	static const jf_api_change tf216 = { .name = "tensorflow.keras", .package = "tensorflow",
		                             .added = "2.16" };
	const jf_dist_version *tf = jf_versions_of(c->versions, "tensorflow");
	const char *var = "TF_USE_LEGACY_KERAS";
	const jf_facts *f = c->f;
	bool legacy = jf_job_env(f->job, var) || jf_image_env(f->image, var) ||
	              jf_strings_have(&f->shell.exported, var);
	for (size_t i = 0; i < f->ws->files.size && !legacy; i++) {
		const jf_file *u = f->ws->files.items[i];
		legacy = u->src->data && strstr(u->src->data, var);
	}
	c->keras3 = tf->known && !legacy && jf_api_fails(&tf216, tf->version, tf->spec) == JF_NO;
	if (c->keras3) {
		c->keras_in_tf.known = true;
		c->keras_in_tf.spec = jf_xstrdup(">=3.0");
		c->keras_in_tf.shown = jf_xasprintf("%s, whose tf.keras is Keras 3", tf->shown);
		c->keras_in_tf.pin = tf->pin;
		c->keras_in_tf.docker = tf->docker;
	}
	return c->keras3 == 1;
}

/* ---- names ---- */

/* A use of a name of the data, as the gather's recorder took it: the
 * verdict waits for the job's versions, which only the pass knows. The uses
 * of one name in the code (an attribute chain, an import, a call) are a
 * group, in the order they are asked: where one that is not known to work
 * is guarded, or fails, the rest of a group that `stops` is not asked. */
typedef enum { USE_ATTRIBUTE, USE_IMPORT_MODULE, USE_IMPORT_NAME, USE_KEYWORD } use_kind;

typedef struct {
	const jf_api_change *e;
	uint32_t group;
	bool stops;
	bool guarded;      /* guarded in the code, or asked about by a string */
	bool keras3_only;  /* asked only where tf.keras is Keras 3 */
	bool via_tf_keras; /* keras.X written as tf.keras.X */
	bool cond;         /* it runs only under a condition of the program's own */
	use_kind kind;
	jf_span span;      /* where it is reported, and replaced by `fix` */
	const char *name;  /* the dotted name, for Python's own messages */
	const char *fix;   /* the replacement text, or NULL */
	const char *shown; /* how to quote the use; NULL: the text at `span` */
	const char *error; /* the error it raises when not the entry's, or NULL */
	jf_py_place place; /* whether it runs when its module is imported */
} api_use;

/* Whether a top-level module was the job's own when the file was recorded. */
typedef struct {
	const char *top;
	bool local;
} local_answer;

typedef struct {
	api_use *uses;
	size_t size;
	/* The file's folder for its own modules when it was recorded, and the
	 * answers found from it: an entry's folder may be known only after its
	 * first walk. */
	const char *import_root;
	local_answer *answers;
	size_t nanswers;
} api_record;

/* The recorder's look at one file. */
typedef struct {
	const jf_record_ctx *ctx;
	const jf_file *unit;
	const jf_pyfacts *py;
	jf_strmap asked;            /* asked_by_string()'s answers, by name */
	JF_ARRAY(api_use) uses;
	JF_ARRAY(local_answer) answers; /* local_module()'s */
	TSNode up_of;                   /* the node whose ancestors are `up`, innermost first */
	jf_nodes up;
	uint32_t group;             /* of the uses being recorded */
	const jf_py_node *at;       /* the recorded node they are in, or NULL: the module */
} recorder;

/* One place a name of a file is bound, in which scope, and to what. */
typedef struct {
	char *name;
	uint32_t scope;   /* the recorded function, class or lambda (an index of the
	                     file's nodes), or JF_PY_NONE for the module */
	uint32_t at;      /* where it binds: its start, or the end of its assignment */
	char *target;     /* the dotted name it stands for (`import numpy as np`), or NULL */
	char *made_by;    /* the call that made its object (`df = pd.read_csv(...)`), or NULL */
	bool keeps;       /* `df = df.append(...)`: its object is still what made it */
	const jf_py_node *assignment; /* `name = ...` that binds it, or NULL */
	/* What the name stands for after this binding, over the bindings of its
	 * scope up to it: NULL when they disagree or one is not known. Set once
	 * the binding is read (`done`), in the order of the file. */
	const char *upto_target, *upto_made_by;
	bool done;
} binding;

/* The names of a file and what they stand for, by scope, as Python resolves
 * them: a use sees the bindings of its own function before it, else those of
 * the functions around it, else the module's; a class body is no scope of the
 * functions in it. A name stands for something only when all the bindings it
 * sees agree. */
typedef struct {
	const jf_pyfacts *py;
	JF_ARRAY(binding) items; /* sorted by name, scope and place once read */
} aliases;

static int binding_cmp(const void *pa, const void *pb)
{
	const binding *a = pa, *b = pb;
	int d = strcmp(a->name, b->name);
	if (d)
		return d;
	if (a->scope != b->scope)
		return a->scope < b->scope ? -1 : 1;
	return a->at < b->at ? -1 : a->at > b->at;
}

/* The innermost recorded function, class or lambda of `py` around byte `at`
 * (the name of a def is bound around the def), or JF_PY_NONE. */
static uint32_t scope_at(const jf_pyfacts *py, uint32_t at, TSNode name)
{
	size_t lo = 0, hi = py->nodes.size;
	while (lo < hi) { /* the first node starting after `at` */
		size_t mid = lo + (hi - lo) / 2;
		if (ts_node_start_byte(py->nodes.items[mid].node) <= at)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return JF_PY_NONE;
	uint32_t k = (uint32_t)(lo - 1);
	const jf_py_node *n = &py->nodes.items[k];
	uint32_t s = n->kind == JF_PY_FUNCTION || n->kind == JF_PY_CLASS || n->kind == JF_PY_LAMBDA
	                     ? k
	                     : n->scope;
	while (s != JF_PY_NONE && ts_node_end_byte(py->nodes.items[s].node) <= at)
		s = py->nodes.items[s].scope;
	if (s != JF_PY_NONE && !ts_node_is_null(name) &&
	    ts_node_eq(jf_node_field(py->nodes.items[s].node, JF_F_name), name))
		s = py->nodes.items[s].scope;
	return s;
}

static void add_binding(aliases *a, const char *name, size_t len, uint32_t scope, uint32_t at,
                        const char *target, const jf_py_node *assignment)
{
	binding b = { .name = jf_xstrndup(name, len), .scope = scope, .at = at,
		      .target = target ? jf_xstrdup(target) : NULL, .assignment = assignment };
	jf_array_push(&a->items, b);
}

/* The index of the first binding of `a` not before (name, scope, at), in the
 * order the bindings are sorted in. */
static size_t lower_bound(const aliases *a, const char *name, size_t len, uint32_t scope,
                          uint32_t at)
{
	size_t lo = 0, hi = a->items.size;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const binding *b = &a->items.items[mid];
		int d = strncmp(b->name, name, len);
		if (!d && b->name[len])
			d = 1;
		if (d < 0 || (!d && (b->scope < scope || (b->scope == scope && b->at < at))))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Whether binding `i` of `a` binds `name` (`len` bytes) in `scope`. */
static bool binds(const aliases *a, size_t i, const char *name, size_t len, uint32_t scope)
{
	const binding *b = i < a->items.size ? &a->items.items[i] : NULL;
	return b && !strncmp(b->name, name, len) && !b->name[len] && b->scope == scope;
}

/* What `name` (`len` bytes), used in `scope` at byte `at`, stands for
 * (`instance`: the call that made its object), or NULL. */
static const char *lookup(const aliases *a, const char *name, size_t len, uint32_t scope,
                          uint32_t at, bool instance)
{
	for (;;) {
		size_t first = lower_bound(a, name, len, scope, 0);
		if (binds(a, first, name, len, scope)) {
			size_t next = lower_bound(a, name, len, scope, at);
			if (next == first)
				return NULL; /* used before its scope binds it */
			const binding *b = &a->items.items[next - 1];
			return !b->done ? NULL : instance ? b->upto_made_by : b->upto_target;
		}
		if (scope == JF_PY_NONE)
			return NULL;
		/* not bound here: the function around it, or the module (classes skipped) */
		do
			scope = a->py->nodes.items[scope].scope;
		while (scope != JF_PY_NONE && a->py->nodes.items[scope].kind == JF_PY_CLASS);
		at = UINT32_MAX;
	}
}

/* Sets b->upto_* from the binding before it in its scope (`prev`, or NULL). */
static void settle(binding *b, const binding *prev)
{
	const char *t = b->target, *m = b->keeps && prev ? prev->upto_made_by : b->made_by;
	if (prev) {
		t = !prev->upto_target || !t || strcmp(prev->upto_target, t) ? NULL : t;
		m = !prev->upto_made_by || !m || strcmp(prev->upto_made_by, m) ? NULL : m;
	}
	b->upto_target = t;
	b->upto_made_by = m;
	b->done = true;
}

static const char *alias_get(const aliases *a, TSNode name, const jf_file *unit, uint32_t scope,
                             uint32_t at)
{
	return lookup(a, unit->src->data + ts_node_start_byte(name),
	              ts_node_end_byte(name) - ts_node_start_byte(name), scope, at, false);
}

static const char *instance_get(const aliases *a, TSNode name, const jf_file *unit,
                                uint32_t scope, uint32_t at)
{
	return lookup(a, unit->src->data + ts_node_start_byte(name),
	              ts_node_end_byte(name) - ts_node_start_byte(name), scope, at, true);
}

/* Whether top-level module `top` is the job's own: next to `unit`, or in the code folder. */
static bool is_local(const jf_file *unit, const char *code_dir, jf_module_finder *finder,
                     const char *top)
{
	return (unit->import_root && jf_module_in(finder, unit->import_root, top)) ||
	       jf_module_in(finder, code_dir, top);
}

static bool local_module(recorder *r, const char *top)
{
	bool local = is_local(r->unit, r->ctx->job->code_dir, r->ctx->local, top);
	local_answer a = { jf_arena_strdup(r->ctx->arena, top), local };
	jf_array_push(&r->answers, a);
	return local;
}

/* The name the import of `imp` binds, and what it stands for (NULL: not known). */
static void import_binding(recorder *r, const jf_py_import *imp, aliases *a)
{
	const jf_file *unit = r->unit;
	TSNode what = !ts_node_is_null(imp->module) ? imp->module : imp->name;
	if (ts_node_is_null(what))
		return;
	TSNode parent = ts_node_parent(what);
	TSNode alias = jf_node_type_is(parent, JF_T_aliased_import) ? jf_node_field(parent, JF_F_alias)
	                                                          : (TSNode){ 0 };
	char *text = jf_node_text(unit, what);
	char *target = NULL, *bound;
	if (!ts_node_is_null(imp->module)) {
		target = ts_node_is_null(alias) ? jf_xstrndup(text, strcspn(text, ".")) : jf_xstrdup(text);
	} else if (jf_node_type_is(imp->from, JF_T_dotted_name)) {
		char *from = jf_node_text(unit, imp->from);
		target = jf_xasprintf("%s.%s", from, text);
		free(from);
	}
	bound = ts_node_is_null(alias) ? jf_xstrndup(text, strcspn(text, "."))
	                               : jf_node_text(unit, alias);
	if (target) {
		char *top = jf_xstrndup(target, strcspn(target, "."));
		if (local_module(r, top)) {
			free(target);
			target = NULL;
		}
		free(top);
	}
	uint32_t at = ts_node_start_byte(what);
	add_binding(a, bound, strlen(bound), scope_at(a->py, at, (TSNode){ 0 }), at, target, NULL);
	free(bound);
	free(target);
	free(text);
}

/* The identifiers of attribute chain `n` (`a.b.c`), root first; false when
 * it does not start at a name (`f().b`, `x[0].b`). parts[i] is the node that
 * ends with identifier i (the identifier itself for the root). */
static bool chain_parts(TSNode n, jf_nodes *parts, jf_nodes *names)
{
	while (jf_node_type_is(n, JF_T_attribute)) {
		jf_array_push(parts, n);
		jf_array_push(names, jf_node_field(n, JF_F_attribute));
		n = jf_node_field(n, JF_F_object);
	}
	if (!jf_node_type_is(n, JF_T_identifier))
		return false;
	jf_array_push(parts, n);
	jf_array_push(names, n);
	/* reverse: root first */
	for (size_t i = 0, j = parts->size - 1; i < j; i++, j--) {
		TSNode t = parts->items[i];
		parts->items[i] = parts->items[j];
		parts->items[j] = t;
		t = names->items[i];
		names->items[i] = names->items[j];
		names->items[j] = t;
	}
	return true;
}

/* The dotted name `n` (an identifier or an attribute chain, used in `scope`
 * at byte `at`) stands for, or NULL. */
static char *resolve(const aliases *a, const jf_file *unit, TSNode n, uint32_t scope, uint32_t at)
{
	jf_nodes parts = { 0 }, names = { 0 };
	char *out = NULL;
	if (chain_parts(n, &parts, &names)) {
		const char *t = alias_get(a, names.items[0], unit, scope, at);
		if (t) {
			jf_buf b = JF_BUF_INIT;
			jf_buf_adds(&b, t);
			for (size_t i = 1; i < names.size; i++) {
				jf_buf_addc(&b, '.');
				jf_buf_add(&b, unit->src->data + ts_node_start_byte(names.items[i]),
				           ts_node_end_byte(names.items[i]) - ts_node_start_byte(names.items[i]));
			}
			out = jf_buf_detach(&b, NULL);
		}
	}
	jf_array_release(&parts);
	jf_array_release(&names);
	return out;
}

/* Whether recorded binding `name` of `py` is in an import statement. */
static bool in_import(const jf_pyfacts *py, TSNode name)
{
	uint32_t at = ts_node_start_byte(name);
	size_t k = jf_pyfacts_first_at(py, JF_PY_IMPORT, at + 1); /* the first starting after it */
	if (!k)
		return false;
	const jf_py_node *imp = jf_pyfacts_at(py, JF_PY_IMPORT, k - 1);
	return ts_node_end_byte(imp->node) >= ts_node_end_byte(name);
}

/* A binding's place in the file and its index among the sorted bindings. */
typedef struct {
	uint32_t at;
	size_t index;
} placed;

static int by_place(const void *pa, const void *pb)
{
	const placed *a = pa, *b = pb;
	return a->at < b->at ? -1 : a->at > b->at;
}

static void read_aliases(recorder *r, aliases *a)
{
	const jf_pyfacts *py = r->py;
	const jf_file *unit = py->file;
	a->py = py;
	for (size_t i = 0; i < py->imports.size; i++)
		import_binding(r, &py->imports.items[i], a);
	/* `x = <...>`, by the id of x (a recorded node's parent is found this way
	 * without walking down from the root). */
	jf_strmap assigned = JF_STRMAP_INIT;
	for (size_t k = 0; k < py->of_kind[JF_PY_ASSIGNMENT].size; k++) {
		const jf_py_node *pn = jf_pyfacts_at(py, JF_PY_ASSIGNMENT, k);
		if (jf_node_type_is(pn->a, JF_T_identifier) && !ts_node_is_null(pn->b))
			jf_strmap_put(&assigned, (const char *)&pn->a.id, sizeof pn->a.id, (void *)pn);
	}
	/* Every other binding, in place; then, in the order of the file, what
	 * the assignments among them make (`x = np.linalg` an alias, `x =
	 * pd.read_csv(...)` an object of what made it) and what each name stands
	 * for from there on. */
	for (size_t i = 0; i < py->bindings.size; i++) {
		TSNode name = py->bindings.items[i].name;
		if (in_import(py, name))
			continue;
		uint32_t start = ts_node_start_byte(name);
		const jf_py_node *as = jf_strmap_get(&assigned, (const char *)&name.id, sizeof name.id);
		/* an assignment binds once its right side is evaluated */
		add_binding(a, unit->src->data + start, ts_node_end_byte(name) - start,
		            scope_at(py, start, name), as ? ts_node_end_byte(as->node) : start, NULL,
		            as);
	}
	jf_strmap_release(&assigned);
	if (a->items.size)
		qsort(a->items.items, a->items.size, sizeof *a->items.items, binding_cmp);
	JF_ARRAY(placed) order = { 0 };
	for (size_t i = 0; i < a->items.size; i++) {
		placed pl = { a->items.items[i].at, i };
		jf_array_push(&order, pl);
	}
	if (order.size)
		qsort(order.items, order.size, sizeof *order.items, by_place);
	for (size_t k = 0; k < order.size; k++) {
		size_t i = order.items[k].index;
		binding *b = &a->items.items[i];
		const jf_py_node *as = b->assignment;
		if (as) {
			b->target = resolve(a, unit, as->b, b->scope, b->at);
			TSNode fn = jf_node_type_is(as->b, JF_T_call) ? jf_node_field(as->b, JF_F_function)
			                                           : (TSNode){ 0 };
			b->made_by = ts_node_is_null(fn) ? NULL : resolve(a, unit, fn, b->scope, b->at);
			/* `df = df.append(...)`: the name keeps what made it */
			TSNode obj = jf_node_type_is(fn, JF_T_attribute) ? jf_node_field(fn, JF_F_object) : fn;
			size_t len = strlen(b->name);
			b->keeps = !b->made_by && jf_node_type_is(obj, JF_T_identifier) &&
			           !ts_node_eq(obj, fn) && ts_node_end_byte(obj) - ts_node_start_byte(obj) == len &&
			           !memcmp(unit->src->data + ts_node_start_byte(obj), b->name, len);
		}
		const binding *prev = i > 0 && !strcmp(a->items.items[i - 1].name, b->name) &&
		                              a->items.items[i - 1].scope == b->scope
		                              ? &a->items.items[i - 1]
		                              : NULL;
		settle(b, prev);
	}
	jf_array_release(&order);
}

static void aliases_release(aliases *a)
{
	for (size_t i = 0; i < a->items.size; i++) {
		free(a->items.items[i].name);
		free(a->items.items[i].target);
		free(a->items.items[i].made_by);
	}
	jf_array_release(&a->items);
}

/* ---- guards ---- */

static const char *const catches[] = { "ImportError", "ModuleNotFoundError", "AttributeError",
	                               "TypeError",   "ValueError",          "Exception",
	                               "BaseException", NULL };

/* Whether condition `cond` asks about versions or names: a version check,
 * hasattr/getattr, or the package (`if is_torch_2:`, `if TF2:`). */
static bool asks_about(const jf_file *unit, TSNode cond, const char *package, const char *alias)
{
	char *t = jf_node_text(unit, cond);
	for (char *p = t; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	char *pkg = jf_xstrdup(package);
	for (char *p = pkg; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	bool asks = strstr(t, "version") || strstr(t, "hasattr") || strstr(t, "getattr") ||
	            strstr(t, "type_checking") || strstr(t, pkg) || (alias && strstr(t, alias));
	free(pkg);
	free(t);
	return asks;
}

/* The ancestors of `n`, innermost first (jf_node_ancestors()), kept for the
 * next question about the same node. */
static const jf_nodes *ancestors(recorder *r, TSNode n)
{
	if (ts_node_eq(r->up_of, n) && !ts_node_is_null(n))
		return &r->up;
	r->up_of = n;
	jf_node_ancestors(n, &r->up);
	return &r->up;
}

/* Whether the use at `n` is guarded: in a `try` that catches what it raises,
 * in an `except` clause (the fallback of a newer name), or under a condition
 * that asks about the version or the name (`alias` is the name the job wrote
 * for the package, or NULL). */
static bool guarded(recorder *r, TSNode n, const char *package, const char *alias)
{
	const jf_file *unit = r->unit;
	const jf_nodes *up = ancestors(r, n);
	for (size_t k = 0; k < up->size; k++) {
		TSNode p = up->items[k], c = k ? up->items[k - 1] : n;
		jf_type t = jf_node_type(p);
		TSNode cond = { 0 };
		if (t == JF_T_try_statement && jf_node_type_is(c, JF_T_block) &&
		    jf_py_try_catches(unit, p, catches))
			return true;
		/* a fallback: runs only when what its `try` tried failed */
		if (t == JF_T_except_clause)
			return true;
		if (t == JF_T_if_statement || t == JF_T_elif_clause ||
		    t == JF_T_while_statement)
			cond = jf_node_field(p, JF_F_condition);
		else if (t == JF_T_conditional_expression) /* a if COND else b */
			cond = ts_node_named_child(p, 1);
		else if (t == JF_T_boolean_operator && !ts_node_eq(jf_node_field(p, JF_F_left), c))
			cond = jf_node_field(p, JF_F_left);
		if (!ts_node_is_null(cond) && !ts_node_eq(cond, c) &&
		    asks_about(unit, cond, package, alias))
			return true;
	}
	return false;
}

/* Whether the use at `n` runs only under a condition of the program's own
 * (an `if` other than `if __name__ == "__main__"`, a loop's `while`, an
 * `else`, a conditional expression, the right of `and`/`or`): whether it runs
 * depends on the job's arguments, which jobfix does not follow that far. */
static bool conditional(recorder *r, TSNode n)
{
	const jf_file *unit = r->unit;
	const jf_nodes *up = ancestors(r, n);
	for (size_t k = 0; k < up->size; k++) {
		TSNode p = up->items[k], c = k ? up->items[k - 1] : n;
		jf_type t = jf_node_type(p);
		if (t == JF_T_elif_clause || t == JF_T_else_clause ||
		    t == JF_T_conditional_expression ||
		    (t == JF_T_boolean_operator && !ts_node_eq(jf_node_field(p, JF_F_left), c)))
			return true;
		/* a loop's body runs when its condition holds; `while True:` always */
		if (t == JF_T_while_statement && !ts_node_eq(jf_node_field(p, JF_F_condition), c) &&
		    !jf_node_is(unit, jf_node_field(p, JF_F_condition), "True") &&
		    !jf_node_is(unit, jf_node_field(p, JF_F_condition), "1"))
			return true;
		if (t == JF_T_if_statement && !ts_node_eq(jf_node_field(p, JF_F_condition), c) &&
		    !jf_py_is_main_guard(unit, p))
			return true;
	}
	return false;
}

/* Whether the file names `name`'s last part as a string ('compile', "compile"):
 * a hasattr or getattr whose answer is kept (`self.flash = hasattr(F, ...)`).
 * Asked once per name. */
static bool asked_by_string(recorder *r, const char *name)
{
	const char *last = strrchr(name, '.');
	last = last ? last + 1 : name;
	void *v = jf_strmap_get(&r->asked, last, strlen(last));
	if (!v) {
		const char *text = r->unit->src->data;
		char *q1 = jf_xasprintf("'%s'", last), *q2 = jf_xasprintf("\"%s\"", last);
		v = strstr(text, q1) || strstr(text, q2) ? "yes" : "no";
		free(q1);
		free(q2);
		jf_strmap_put(&r->asked, last, strlen(last), v);
	}
	return !strcmp(v, "yes");
}

/* ---- the uses of a file, recorded ---- */

/* The text of `s` in the recorder's arena, or NULL. */
static const char *kept(recorder *r, const char *s)
{
	return s ? jf_arena_strdup(r->ctx->arena, s) : NULL;
}

/* The text the job writes for the use, when short enough to quote; else the entry's name. */
static char *use_text(const jf_file *unit, jf_span span, const char *name)
{
	size_t n = span.end - span.start;
	const char *s = unit->src->data + span.start;
	if (n > 60 || memchr(s, '\n', n))
		return jf_xstrdup(name);
	return jf_xstrndup(s, n);
}

/* Records use `u` of entry `e` (its strings copied) in the current group. */
static void record_use(recorder *r, const jf_api_change *e, api_use u)
{
	u.e = e;
	u.group = r->group;
	u.name = kept(r, u.name);
	u.fix = kept(r, u.fix);
	u.shown = kept(r, u.shown);
	u.error = kept(r, u.error);
	u.place = r->at ? jf_py_place_of(r->ctx->arena, r->py, r->at) : (jf_py_place){ false, NULL };
	jf_array_push(&r->uses, u);
}

/* The replacement text for `written_root` (the name the job wrote, standing
 * for `target`) followed by the rest of an entry's fix: `tf` standing for
 * tensorflow and fix "tensorflow.compat.v1.Session" give "tf.compat.v1.Session";
 * a fix outside the target's module (a builtin such as `float`) is written as is
 * when it has no dot. NULL when the fix cannot be written with the job's names. */
static char *fix_text(const jf_api_change *e, const char *written_root, const char *target)
{
	if (!e->fix)
		return NULL;
	if (!strchr(e->fix, '.'))
		return jf_xstrdup(e->fix);
	size_t n = strlen(target);
	if (!strncmp(e->fix, target, n) && e->fix[n] == '.')
		return jf_xasprintf("%s%s", written_root, e->fix + n);
	return NULL;
}

/* The method or arity entry for method `method` (`len` bytes) of an object
 * made by `made_by`, of kind `kind`, or NULL. */
static const jf_api_change *object_entry(jf_api_kind kind, const char *made_by,
                                         const char *method, size_t len)
{
	size_t total;
	const jf_api_change *t = jf_api_changes(&total);
	for (size_t i = 0; i < total; i++) {
		const jf_api_change *e = &t[i];
		if (e->kind != kind)
			continue;
		const char *last = strrchr(e->name, '.');
		if (strlen(last + 1) != len || strncmp(last + 1, method, len))
			continue;
		for (size_t k = 0; e->receivers[k]; k++)
			if (!strcmp(e->receivers[k], made_by))
				return e;
	}
	return NULL;
}

/* `x.method` where x holds an object made by a known call (`df.append`). */
static void record_method(recorder *r, const aliases *a, TSNode n, const jf_nodes *names,
                          uint32_t scope)
{
	const jf_file *unit = r->unit;
	TSNode root = names->items[0], method = names->items[1];
	const char *made_by = instance_get(a, root, unit, scope, ts_node_start_byte(root));
	if (!made_by)
		return;
	const jf_api_change *e =
		object_entry(JF_API_METHOD, made_by, unit->src->data + ts_node_start_byte(method),
		             ts_node_end_byte(method) - ts_node_start_byte(method));
	if (!e)
		return;
	char *shown = use_text(unit, jf_node_span(n), e->name);
	r->group++;
	record_use(r, e,
	           (api_use){ .stops = true,
	                      .guarded = guarded(r, n, e->package, NULL) || asked_by_string(r, e->name),
	                      .cond = conditional(r, n), .kind = USE_ATTRIBUTE,
	                      .span = jf_node_span(method), .name = e->name, .fix = e->fix,
	                      .shown = shown });
	free(shown);
}

/* `a, b, c, d = x.method(...)` where x holds an object made by a known call
 * and the method returns another number of values (gym's env.step). */
static void record_unpacking(recorder *r, const aliases *a, const jf_py_node *pn)
{
	const jf_file *unit = r->unit;
	if ((!jf_node_type_is(pn->a, JF_T_pattern_list) && !jf_node_type_is(pn->a, JF_T_tuple_pattern)) ||
	    !jf_node_type_is(pn->b, JF_T_call))
		return;
	TSNode fn = jf_node_field(pn->b, JF_F_function);
	if (!jf_node_type_is(fn, JF_T_attribute))
		return;
	TSNode obj = jf_node_field(fn, JF_F_object), method = jf_node_field(fn, JF_F_attribute);
	if (!jf_node_type_is(obj, JF_T_identifier))
		return;
	const char *made_by = instance_get(a, obj, unit, pn->scope, ts_node_start_byte(obj));
	const jf_api_change *e =
		made_by ? object_entry(JF_API_ARITY, made_by,
		                       unit->src->data + ts_node_start_byte(method),
		                       ts_node_end_byte(method) - ts_node_start_byte(method))
		        : NULL;
	if (!e)
		return;
	size_t targets = 0;
	bool starred = false;
	jf_children it;
	for (TSNode t = jf_children_start(&it, pn->a); !ts_node_is_null(t); t = jf_children_next(&it)) {
		starred |= jf_node_type_is(t, JF_T_list_splat_pattern);
		targets += !jf_node_type_is(t, JF_T_comment);
	}
	jf_children_release(&it);
	if (starred || targets == (size_t)e->arity)
		return;
	char *error = targets < (size_t)e->arity
	                      ? jf_xasprintf("ValueError: too many values to unpack (expected %zu)",
	                                     targets)
	                      : jf_xasprintf("ValueError: not enough values to unpack (expected %zu, "
	                                     "got %d)",
	                                     targets, e->arity);
	char *shown = use_text(unit, jf_node_span(fn), e->name);
	r->group++;
	record_use(r, e,
	           (api_use){ .stops = true, .guarded = guarded(r, pn->node, e->package, NULL),
	                      .cond = conditional(r, pn->node), .kind = USE_ATTRIBUTE,
	                      .span = jf_node_span(pn->a), .name = e->name, .shown = shown,
	                      .error = error });
	free(shown);
	free(error);
}

/* For `q` = "tensorflow.keras.X": "keras.X", the name its entries have
 * where tf.keras is Keras 3; else NULL. */
static const char *as_keras(const char *q)
{
	static const char prefix[] = "tensorflow.keras.";
	return jf_str_starts(q, prefix) ? q + strlen("tensorflow.") : NULL;
}

/* An attribute chain `n` that is the whole chain (not the object of another
 * attribute): each of its prefixes that is an entry, shortest first. */
static void record_chain(recorder *r, const aliases *a, TSNode n, uint32_t scope)
{
	const jf_file *unit = r->unit;
	jf_nodes parts = { 0 }, names = { 0 };
	if (!chain_parts(n, &parts, &names))
		goto done;
	TSNode root = names.items[0];
	const char *target = alias_get(a, root, unit, scope, ts_node_start_byte(root));
	if (!target) {
		if (names.size == 2)
			record_method(r, a, n, &names, scope);
		goto done;
	}
	char *root_text = jf_node_text(unit, root);
	r->group++;
	jf_buf q = JF_BUF_INIT;
	jf_buf_adds(&q, target);
	for (size_t i = 1; i < names.size; i++) {
		jf_buf_addc(&q, '.');
		jf_buf_add(&q, unit->src->data + ts_node_start_byte(names.items[i]),
		           ts_node_end_byte(names.items[i]) - ts_node_start_byte(names.items[i]));
		const jf_api_change *e = jf_api_find_name(q.buf, q.len);
		const char *keras = e ? NULL : as_keras(q.buf);
		if (keras)
			e = jf_api_find_name(keras, strlen(keras));
		if (!e)
			continue;
		char *fix = fix_text(e, root_text, target);
		record_use(r, e,
		           (api_use){ .stops = true,
		                      .guarded = guarded(r, n, e->package, root_text) ||
		                                 asked_by_string(r, e->name),
		                      .keras3_only = keras != NULL, .via_tf_keras = keras != NULL,
		                      .cond = conditional(r, n), .kind = USE_ATTRIBUTE,
		                      .span = jf_node_span(parts.items[i]), .name = e->name,
		                      .fix = fix });
		free(fix);
	}
	jf_buf_release(&q);
	free(root_text);
done:
	jf_array_release(&parts);
	jf_array_release(&names);
}

/* The module that replaces `from <m> import a, b` exactly: every name the
 * statement `stmt` imports has an entry `m.name` whose fix is `M.name`, the
 * same M for all (`from torch._six import inf` -> `from math import inf`);
 * NULL when there is none. */
static char *from_import_fix(const jf_file *unit, TSNode stmt, const char *m)
{
	char *module = NULL;
	bool ok = true;
	TSNode from = jf_node_field(stmt, JF_F_module_name);
	jf_children it;
	size_t names = 0;
	for (TSNode n = jf_children_start(&it, stmt); ok && !ts_node_is_null(n);
	     n = jf_children_next(&it)) {
		if (ts_node_eq(n, from))
			continue;
		TSNode name = jf_node_type_is(n, JF_T_aliased_import) ? jf_node_field(n, JF_F_name) : n;
		if (!jf_node_type_is(name, JF_T_dotted_name)) {
			ok = jf_node_type_is(n, JF_T_comment);
			continue;
		}
		names++;
		char *nm = jf_node_text(unit, name);
		char *q = jf_xasprintf("%s.%s", m, nm);
		const jf_api_change *e = jf_api_find_name(q, strlen(q));
		const char *dot = e && e->fix ? strrchr(e->fix, '.') : NULL;
		ok = dot && !strcmp(dot + 1, nm);
		if (ok && !module)
			module = jf_xstrndup(e->fix, (size_t)(dot - e->fix));
		else if (ok)
			ok = strlen(module) == (size_t)(dot - e->fix) &&
			     !strncmp(module, e->fix, (size_t)(dot - e->fix));
		free(q);
		free(nm);
	}
	jf_children_release(&it);
	if (!ok || !names) {
		free(module);
		return NULL;
	}
	return module;
}

/* The dotted module `mod` (`import a.b.c`, `from a.b import x`) when
 * `whole`, and, for a from-import, `name`. */
static void record_import(recorder *r, TSNode stmt, TSNode mod, TSNode name, bool whole)
{
	const jf_file *unit = r->unit;
	char *m = jf_node_text(unit, mod);
	char *top = jf_xstrndup(m, strcspn(m, "."));
	if (local_module(r, top))
		goto done;
	r->group++;
	/* the shortest dotted prefix that is an entry */
	size_t n = strlen(m);
	for (size_t len = strcspn(m, "."); whole && len <= n; len += 1 + strcspn(m + len + 1, ".")) {
		const jf_api_change *e = jf_api_find_name(m, len);
		if (e) {
			char *name_of = jf_xstrndup(m, len);
			char *fix = len == n && jf_node_type_is(stmt, JF_T_import_from_statement)
			                    ? from_import_fix(unit, stmt, m)
			                    : NULL;
			record_use(r, e,
			           (api_use){ .stops = true,
			                      .guarded = guarded(r, stmt, e->package, NULL),
			                      .kind = USE_IMPORT_MODULE, .span = jf_node_span(mod),
			                      .name = name_of, .fix = fix });
			free(fix);
			free(name_of);
		}
		if (len == n)
			break;
	}
	if (!ts_node_is_null(name)) {
		char *nm = jf_node_text(unit, name);
		char *q = jf_xasprintf("%s.%s", m, nm);
		const jf_api_change *e = jf_api_find_name(q, strlen(q));
		if (e)
			record_use(r, e,
			           (api_use){ .stops = true,
			                      .guarded = guarded(r, stmt, e->package, NULL),
			                      .kind = USE_IMPORT_NAME, .span = jf_node_span(name),
			                      .name = q, .shown = q });
		free(q);
		free(nm);
	}
done:
	free(top);
	free(m);
}

/* The error Keras 3 prints for keyword argument `kwarg` it rejects, with the
 * job's literal value; NULL for other entries. */
static char *keras_unknown_argument(const jf_file *unit, const jf_api_change *e, TSNode kwarg)
{
	if (!jf_str_starts(e->error, "ValueError: Argument(s) not recognized: {"))
		return NULL;
	TSNode value = jf_node_field(kwarg, JF_F_value);
	bool literal = (jf_node_type_is(value, JF_T_float) || jf_node_type_is(value, JF_T_integer)) &&
	               ts_node_end_byte(value) - ts_node_start_byte(value) <= 24;
	char *v = literal ? jf_node_text(unit, value) : jf_xstrdup("...");
	char *error = jf_xasprintf("ValueError: Argument(s) not recognized: {'%s': %s}", e->keyword, v);
	free(v);
	return error;
}

/* The keyword entries of call `call` (a recorded call node). */
static void record_call(recorder *r, const aliases *a, const jf_py_node *call)
{
	const jf_file *unit = r->unit;
	if (!jf_node_type_is(call->a, JF_T_identifier) && !jf_node_type_is(call->a, JF_T_attribute))
		return;
	char *q = resolve(a, unit, call->a, call->scope, ts_node_start_byte(call->a));
	if (!q)
		return;
	size_t first, count = jf_api_find(q, strlen(q), &first), total;
	const jf_api_change *t = jf_api_changes(&total);
	bool own = false; /* keyword entries of its own name */
	for (size_t i = first; i < first + count; i++)
		own |= t[i].kind == JF_API_KEYWORD;
	const char *keras = own ? NULL : as_keras(q);
	if (keras)
		count = jf_api_find(keras, strlen(keras), &first);
	char *callee = use_text(unit, jf_node_span(call->a), q);
	r->group++;
	for (size_t i = first; i < first + count; i++) {
		const jf_api_change *e = &t[i];
		if (e->kind != JF_API_KEYWORD)
			continue;
		TSNode kwarg = { 0 };
		size_t positional = 0;
		bool splat = false;
		jf_children it;
		for (TSNode arg = jf_children_start(&it, call->b); !ts_node_is_null(arg);
		     arg = jf_children_next(&it)) {
			if (jf_node_type_is(arg, JF_T_keyword_argument)) {
				if (jf_node_is(unit, jf_node_field(arg, JF_F_name), e->keyword))
					kwarg = arg;
			} else if (jf_node_type_is(arg, JF_T_list_splat) ||
			           jf_node_type_is(arg, JF_T_dictionary_splat)) {
				splat = true;
			} else if (!jf_node_type_is(arg, JF_T_comment)) {
				positional++;
			}
		}
		jf_children_release(&it);
		bool left_out = e->required && ts_node_is_null(kwarg) && !splat &&
		                (!e->position || positional < (size_t)e->position) &&
		                jf_node_type_is(call->b, JF_T_argument_list);
		bool passed = !e->required && !ts_node_is_null(kwarg);
		if (!left_out && !passed)
			continue;
		api_use u = { .guarded = guarded(r, call->node, e->package, NULL),
			      .keras3_only = keras != NULL, .via_tf_keras = keras != NULL,
			      .cond = conditional(r, call->node), .kind = USE_KEYWORD, .name = q };
		if (left_out) {
			u.span = jf_node_span(call->node);
			record_use(r, e, u);
		} else {
			char *error = keras_unknown_argument(unit, e, kwarg);
			u.span = jf_node_span(jf_node_field(kwarg, JF_F_name));
			u.fix = e->fix;
			u.shown = callee;
			u.error = error;
			record_use(r, e, u);
			free(error);
		}
	}
	free(callee);
	free(q);
}

/* The attribute nodes of `py` that are the object of another attribute
 * (`a.b` in `a.b.c`), by node id: found from the outer ones, since asking a
 * node for its parent walks down from the root. */
static void inner_attributes(const jf_pyfacts *py, jf_strmap *inner)
{
	for (size_t k = 0; k < py->of_kind[JF_PY_ATTRIBUTE].size; k++) {
		TSNode obj = jf_pyfacts_at(py, JF_PY_ATTRIBUTE, k)->a;
		if (jf_node_type_is(obj, JF_T_attribute))
			jf_strmap_put(inner, (const char *)&obj.id, sizeof obj.id, "");
	}
}

void *jf_apis_record(const jf_record_ctx *ctx, const jf_pyfacts *py)
{
	if (!ctx->job || !ctx->job->code_dir)
		return NULL; /* the check does not run */
	const jf_file *unit = py->file;
	recorder r = { .ctx = ctx, .unit = unit, .py = py, .asked = JF_STRMAP_INIT };
	aliases a = { py, { 0 } };
	read_aliases(&r, &a);
	for (size_t i = 0; i < py->imports.size; i++) {
		const jf_py_import *imp = &py->imports.items[i];
		TSNode mod = !ts_node_is_null(imp->module) ? imp->module : imp->from;
		if (!jf_node_type_is(mod, JF_T_dotted_name))
			continue; /* relative: the job's own */
		TSNode stmt = ts_node_parent(mod);
		if (jf_node_type_is(stmt, JF_T_aliased_import))
			stmt = ts_node_parent(stmt);
		uint32_t at = jf_pyfacts_find(py, stmt);
		r.at = at != JF_PY_NONE ? &py->nodes.items[at] : NULL;
		/* a from-import's module is checked once, with its first name */
		bool whole = ts_node_is_null(imp->from) || i == 0 ||
		             !ts_node_eq(py->imports.items[i - 1].from, imp->from);
		record_import(&r, stmt, mod, imp->name, whole);
	}
	jf_strmap inner = JF_STRMAP_INIT;
	inner_attributes(py, &inner);
	for (size_t k = 0; k < py->of_kind[JF_PY_ATTRIBUTE].size; k++) {
		const jf_py_node *pn = jf_pyfacts_at(py, JF_PY_ATTRIBUTE, k);
		if (jf_strmap_get(&inner, (const char *)&pn->node.id, sizeof pn->node.id))
			continue;
		r.at = pn;
		record_chain(&r, &a, pn->node, pn->scope);
	}
	jf_strmap_release(&inner);
	for (size_t k = 0; k < py->of_kind[JF_PY_CALL].size; k++) {
		r.at = jf_pyfacts_at(py, JF_PY_CALL, k);
		record_call(&r, &a, r.at);
	}
	for (size_t k = 0; k < py->of_kind[JF_PY_ASSIGNMENT].size; k++) {
		r.at = jf_pyfacts_at(py, JF_PY_ASSIGNMENT, k);
		record_unpacking(&r, &a, r.at);
	}
	aliases_release(&a);
	jf_strmap_release(&r.asked);
	jf_array_release(&r.up);
	api_record *rec = jf_arena_alloc(ctx->arena, sizeof *rec);
	rec->uses = r.uses.items;
	rec->size = r.uses.size;
	jf_arena_adopt(ctx->arena, r.uses.items);
	rec->import_root = unit->import_root ? jf_arena_strdup(ctx->arena, unit->import_root) : NULL;
	rec->answers = r.answers.items;
	rec->nanswers = r.answers.size;
	jf_arena_adopt(ctx->arena, r.answers.items);
	return rec;
}

void jf_apis_record_write(jf_buf *b, const void *record)
{
	const api_record *r = record;
	size_t count;
	const jf_api_change *all = jf_api_changes(&count);
	jf_wire_put_u32(b, (uint32_t)r->size);
	for (size_t i = 0; i < r->size; i++) {
		const api_use *u = &r->uses[i];
		jf_wire_put_u32(b, (uint32_t)(u->e - all));
		jf_wire_put_u32(b, u->group);
		jf_wire_put_u8(b, (uint8_t)(u->stops | u->guarded << 1 | u->keras3_only << 2 |
		                            u->via_tf_keras << 3 | u->cond << 4));
		jf_wire_put_u8(b, (uint8_t)u->kind);
		jf_wire_put_span(b, u->span);
		jf_wire_put_str(b, u->name);
		jf_wire_put_str(b, u->fix);
		jf_wire_put_str(b, u->shown);
		jf_wire_put_str(b, u->error);
		jf_wire_put_u8(b, u->place.main);
		jf_wire_put_str(b, u->place.outer);
	}
	jf_wire_put_str(b, r->import_root);
	jf_wire_put_u32(b, (uint32_t)r->nanswers);
	for (size_t i = 0; i < r->nanswers; i++) {
		jf_wire_put_str(b, r->answers[i].top);
		jf_wire_put_u8(b, r->answers[i].local);
	}
}

void *jf_apis_record_load(jf_wire *w, jf_arena *arena, const jf_file *file)
{
	size_t count;
	const jf_api_change *all = jf_api_changes(&count);
	api_record *r = jf_arena_alloc(arena, sizeof *r);
	api_use *uses = jf_wire_get_items(w, arena, sizeof *uses, 43, &r->size);
	for (size_t i = 0; i < r->size; i++) {
		api_use *u = &uses[i];
		uint32_t e = jf_wire_get_u32(w);
		u->e = e < count ? &all[e] : NULL;
		u->group = jf_wire_get_u32(w);
		uint8_t flags = jf_wire_get_u8(w);
		u->stops = flags & 1;
		u->guarded = flags & 2;
		u->keras3_only = flags & 4;
		u->via_tf_keras = flags & 8;
		u->cond = flags & 16;
		u->kind = (use_kind)jf_wire_get_u8(w);
		u->span = jf_wire_get_span_in(w, file->src->len);
		u->name = jf_wire_get_str_in(w, arena);
		u->fix = jf_wire_get_str_in(w, arena);
		u->shown = jf_wire_get_str_in(w, arena);
		u->error = jf_wire_get_str_in(w, arena);
		u->place.main = jf_wire_get_bool(w);
		u->place.outer = jf_wire_get_str_in(w, arena);
		if (!u->e || flags > 31 || u->kind > USE_KEYWORD)
			w->bad = true;
	}
	r->uses = uses;
	r->import_root = jf_wire_get_str_in(w, arena);
	local_answer *answers = jf_wire_get_items(w, arena, sizeof *answers, 5, &r->nanswers);
	for (size_t i = 0; i < r->nanswers; i++) {
		answers[i].top = jf_wire_get_str_in(w, arena);
		answers[i].local = jf_wire_get_bool(w);
		if (!answers[i].top)
			w->bad = true;
	}
	r->answers = answers;
	return r;
}

/* ---- findings ---- */

/* The error the use raises: the data's, or Python's own for another form of use. */
static char *error_for(const jf_api_change *e, use_kind use, const char *name)
{
	const char *dot = strrchr(name, '.');
	int mod_len = (int)(dot - name);
	bool attr_error = jf_str_starts(e->error, "AttributeError: module '");
	bool import_error = jf_str_starts(e->error, "ImportError: cannot import name");
	if (use == USE_IMPORT_NAME && (attr_error || e->kind == JF_API_MODULE))
		return jf_xasprintf("ImportError: cannot import name '%s' from '%.*s'", dot + 1, mod_len,
		                    name);
	if (use == USE_IMPORT_MODULE && e->kind == JF_API_ATTRIBUTE && (attr_error || import_error))
		return jf_xasprintf("ModuleNotFoundError: No module named '%s'", name);
	if (use == USE_ATTRIBUTE && (import_error || e->kind == JF_API_MODULE))
		return jf_xasprintf("AttributeError: module '%.*s' has no attribute '%s'", mod_len, name,
		                    dot + 1);
	return jf_xstrdup(e->error);
}

static void relate_version(checker *c, jf_diag *d, const jf_api_change *e, const jf_dist_version *v)
{
	jf_dist_version_relate(d, c->f, v, !strcmp(e->package, "python"));
}

/* The --verbose line for a name whose package version is not known; once per package. */
static void say_unknown(checker *c, const jf_api_change *e, const jf_dist_version *v,
                        const char *written)
{
	if (jf_strmap_get(&c->said, e->package, strlen(e->package)))
		return;
	jf_strmap_put(&c->said, e->package, strlen(e->package), "");
	jf_sink_skip(c->ctx->out, e->added ? JF121 : JF120,
	             "'%s' and other names whose presence depends on the %s version are not "
	             "checked: %s",
	             written, e->package, v->why ? v->why : "its version is not known");
}

/* The version the use of `e` is decided by. */
static const jf_dist_version *version_for(checker *c, const jf_api_change *e, bool via_tf_keras)
{
	return via_tf_keras ? &c->keras_in_tf : jf_versions_of(c->versions, e->package);
}

/* Reports use `u` when the job's version fails it; one that runs only under
 * a condition is said with --verbose instead, once per name. Whether the
 * version fails it. */
static bool report(checker *c, const jf_file *unit, const api_use *u)
{
	const jf_api_change *e = u->e;
	const char *fix = u->fix;
	jf_span span = u->span;
	const jf_dist_version *v = version_for(c, e, u->via_tf_keras);
	char *written = u->shown ? jf_xstrdup(u->shown) : use_text(unit, span, u->name);
	if (!v->known) {
		say_unknown(c, e, v, written);
		free(written);
		return false;
	}
	jf_tri fails = jf_api_fails(e, v->version, v->spec);
	if (fails == JF_UNKNOWN)
		jf_sink_skip(c->ctx->out, e->added ? JF121 : JF120,
		             "'%s' is not checked: %s allows versions with and without it (%s %s)",
		             written, v->shown, e->added ? "added in" : "removed in",
		             e->added ? e->added : e->removed);
	if (fails != JF_YES) {
		free(written);
		return false;
	}
	if (u->cond) {
		char *key = jf_xasprintf("if %s", e->name);
		if (!jf_strmap_get(&c->said, key, strlen(key))) {
			jf_strmap_put(&c->said, key, strlen(key), "");
			jf_sink_skip(c->ctx->out, e->added ? JF121 : JF120,
			             "%s:%u: '%s' fails on %s, and is not reported: it runs only under a "
			             "condition of the program's own (the first such use)",
			             unit->src->path, jf_source_line_of(unit->src, span.start) + 1, written,
			             v->shown);
		}
		free(key);
		free(written);
		return true;
	}
	/* A fix only inside the job's code folder. */
	const jf_job *j = c->f->job;
	if (fix && (!unit->fs_path || !jf_path_under(unit->fs_path, j->code_dir)))
		fix = NULL;
	for (size_t i = 0; i < c->reported.size; i++) {
		struct api_report *r = &c->reported.items[i];
		if (r->c != e)
			continue;
		jf_diag *d = &c->ctx->out->report->diags.items[r->diag];
		if (r->more++ < 3)
			jf_diag_relate(d, unit->src, span, "'%s' is used here too", written);
		if (fix)
			jf_diag_add_edit(d, unit->src, span, fix);
		free(written);
		return true;
	}
	const char *pkg = !strcmp(e->package, "python") ? "Python" : e->package;
	char *error = u->error ? jf_xstrdup(u->error) : error_for(e, u->kind, u->name);
	char *what = u->kind == USE_KEYWORD && e->required
	                     ? jf_xasprintf("'%s' without %s=", written, e->keyword)
	             : u->kind == USE_KEYWORD ? jf_xasprintf("keyword '%s=' of %s()", e->keyword, written)
	                                  : jf_xasprintf("'%s'", written);
	const char *has = v->pin || (v->docker && v->spec) ? "installs" : "has";
	jf_diag *d;
	if (e->added)
		d = jf_sink_add(c->ctx->out, JF121, unit->src, span,
		                "%s is in %s only from %s, and the job %s %s: %s", what, pkg, e->added,
		                has, v->shown, error);
	else if (e->restored)
		d = jf_sink_add(c->ctx->out, JF120, unit->src, span,
		                "%s is not in %s from %s until %s, and the job %s %s: %s", what, pkg,
		                e->removed, e->restored, has, v->shown, error);
	else if (e->kind == JF_API_ARITY)
		d = jf_sink_add(c->ctx->out, JF120, unit->src, span,
		                "%s returns %d values from %s %s, and the job %s %s: %s", what,
		                e->arity, pkg, e->removed, has, v->shown, error);
	else if (u->kind == USE_KEYWORD && e->required)
		d = jf_sink_add(c->ctx->out, JF120, unit->src, span,
		                "%s fails from %s %s, and the job %s %s: %s", what, pkg, e->removed,
		                has, v->shown, error);
	else
		d = jf_sink_add(c->ctx->out, JF120, unit->src, span,
		                "%s was removed in %s %s, and the job %s %s: %s", what, pkg, e->removed,
		                has, v->shown, error);
	d->category = e->kind == JF_API_KEYWORD || e->kind == JF_API_ARITY ? "Framework API Misuse"
	                                                                   : "Attribute Not Found";
	relate_version(c, d, e, v);
	const char *fits = e->added ? ">=" : "<";
	const char *bound = e->added ? e->added : e->removed;
	if (u->via_tf_keras)
		jf_diag_set_help(d, "use %s, or install tf_keras and set TF_USE_LEGACY_KERAS=1 in the "
		                    "job's env (tf.keras is then Keras 2)",
		                 e->replacement ? e->replacement : "the Keras 3 API");
	else if (!strcmp(e->package, "python") && e->replacement)
		jf_diag_set_help(d, "use %s, or an image with Python %s %s", e->replacement, fits, bound);
	else if (!strcmp(e->package, "python"))
		jf_diag_set_help(d, "use an image with Python %s %s", fits, bound);
	else if (e->replacement)
		jf_diag_set_help(d, "use %s, or install %s%s%s", e->replacement, e->package, fits, bound);
	else
		jf_diag_set_help(d, "install %s%s%s", e->package, fits, bound);
	if (fix)
		jf_diag_add_edit(d, unit->src, span, fix);
	struct api_report r = { e, c->ctx->out->report->diags.size - 1, 0 };
	jf_array_push(&c->reported, r);
	free(what);
	free(error);
	free(written);
	return true;
}

/* Whether the job's version of `e`'s package is known to keep the use
 * working: nothing more to look at (the guards cost more than this). */
static bool known_to_work(checker *c, const jf_api_change *e, bool via_tf_keras)
{
	const jf_dist_version *v = version_for(c, e, via_tf_keras);
	return v->known && jf_api_fails(e, v->version, v->spec) == JF_NO;
}

/* The uses recorded in `unit` (`rec`), judged against the job's versions;
 * `called` (jf_py_called_names) and `own` (jf_py_own_calls) for an imported
 * module, whose functions nothing calls do not run, nor does its `__main__`
 * block. */
static void judge(checker *c, const jf_file *unit, const api_record *rec, const jf_strmap *called,
                  const jf_strmap *own)
{
	bool stopped = false;
	for (size_t i = 0; i < rec->size; i++) {
		const api_use *u = &rec->uses[i];
		if (i == 0 || u->group != rec->uses[i - 1].group)
			stopped = false;
		if (stopped || (called && !jf_py_place_runs(&u->place, called, own)) ||
		    (u->keras3_only && !tf_keras_is_keras3(c)) ||
		    known_to_work(c, u->e, u->via_tf_keras))
			continue;
		if (u->guarded)
			stopped = u->stops;
		else if (report(c, unit, u))
			stopped = u->stops;
	}
}

/* Whether what `rec` found to be the job's own modules still is: the folder
 * of an entry's own modules may be known only after its first walk, and
 * where that changes an answer, the file is recorded again from its tree. */
static bool still_local(checker *c, const jf_file *u, const api_record *rec)
{
	if (rec->import_root == u->import_root ||
	    (rec->import_root && u->import_root && !strcmp(rec->import_root, u->import_root)))
		return true;
	for (size_t i = 0; i < rec->nanswers; i++)
		if (is_local(u, c->f->job->code_dir, &c->local, rec->answers[i].top) !=
		    rec->answers[i].local)
			return false;
	return true;
}

static void check_apis_in(void *state, size_t index, const jf_file *u)
{
	(void)index;
	checker *c = state;
	const api_record *rec = jf_runs_python(u) ? jf_records_of(c->ctx->records, JF_RECORD_APIS, u)
	                                          : NULL;
	if (!rec)
		return;
	if (u->lazy) {
		jf_sink_skip(c->ctx->out, JF120, "%s is imported only inside functions: the names "
		                                 "it uses are not checked",
		             u->src->path);
		return;
	}
	bool module = u->role == JF_ROLE_MODULE;
	const jf_strmap *called = module ? c->files.called : NULL;
	const jf_strmap *own = module ? jf_pyfiles_own(&c->files, u) : NULL;
	if (!still_local(c, u, rec)) {
		const jf_pyfacts *py = jf_facts_python(c->f, u);
		if (!py)
			return;
		jf_arena arena = JF_ARENA_INIT;
		jf_record_ctx ctx = { &arena, c->f->job, c->f->image, &c->local };
		judge(c, u, jf_apis_record(&ctx, py), called, own);
		jf_arena_release(&arena);
		return;
	}
	judge(c, u, rec, called, own);
}

static void check_apis_end(void *state)
{
	checker *c = state;
	for (size_t i = 0; i < c->reported.size; i++) {
		struct api_report *r = &c->reported.items[i];
		jf_diag *d = &c->ctx->out->report->diags.items[r->diag];
		if (r->more > 3)
			jf_diag_relate(d, d->src, d->span, "and %zu more uses", r->more - 3);
	}
	jf_array_release(&c->reported);
	jf_versions_free(c->versions);
	jf_strmap_release(&c->said);
	jf_module_finder_release(&c->local);
	free(c->keras_in_tf.spec);
	free(c->keras_in_tf.shown);
	free(c);
}

void jf_check_apis(jf_rule_ctx *ctx, const jf_rule *rule)
{
	(void)rule;
	const jf_facts *f = ctx->facts;
	if (!f->job || !f->job->code_dir)
		return;
	/* The data is read only for a job with Python the facts read (their
	 * names tell, without parsing a released file again). */
	jf_pyfiles files = jf_facts_pyfiles(f);
	bool python = false;
	for (size_t i = 0; i < f->ws->files.size && !python; i++)
		python = jf_pyfiles_names(&files, f->ws->files.items[i]) != NULL;
	if (!python)
		return;
	checker *c = jf_xcalloc(1, sizeof *c);
	*c = (checker){ .ctx = ctx, .f = f, .files = files, .said = JF_STRMAP_INIT,
		        .local = { JF_STRMAP_INIT, JF_STRMAP_INIT }, .keras3 = -1 };
	c->versions = jf_versions_new(f);
	static const jf_file_part part = { NULL, check_apis_in, check_apis_end };
	jf_check_each_file(ctx, &part, c);
}
