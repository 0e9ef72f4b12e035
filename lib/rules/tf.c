/* tf.c - JF201 and JF202: TensorFlow 1.x graph-mode API misuse
 *
 * JF201 (python/JF201-tf-variable-scope-without-reuse.scm) matches each
 * `with tf.variable_scope(...)`. Its hook reports a scope with a constant
 * name and no `reuse` that a loop enters again, directly or through a call
 * of the function of the same file holding the `with` (one level), and
 * under which variables are created, directly or by the job's functions it
 * calls (three levels, across files): the second iteration raises
 * "Variable tower/w already exists, disallowed".
 *
 * JF202 (python/JF202-tf-session-run-before-init.scm) matches each
 * `<name>.run(...)`. Its hook reports the first run of a tf.Session or
 * tf.InteractiveSession created in the same function (or at module level)
 * when nothing between the two initialises or restores variables, the run
 * itself is no initialiser and the job's Python files create variables:
 * the run raises "FailedPreconditionError: Attempting to use uninitialized
 * value".
 *
 * Both stay silent whenever the code leaves a doubt, and skip files larger
 * than TF_MAX_BYTES: name lookups cost time proportional to the file, and no
 * hand-written training script comes near that size. Tree walks use a
 * cursor; the one recursion, into called functions, is three levels deep
 * and budgeted. Lookups of a name search the source text, then check the
 * node there. No TSNode outlives a hook call.
 */
#include <ctype.h>

#include "rules/checks.h"

#define TF_MAX_BYTES (512u << 10)

/* Tree helpers */

/* Whether the text of `n` is `s`; false for a null node. */
static bool text_is(const jf_file *unit, TSNode n, const char *s)
{
	return !ts_node_is_null(n) && jf_node_is(unit, n, s);
}

static bool contains(TSNode outer, TSNode n)
{
	return !ts_node_is_null(outer) && ts_node_start_byte(n) >= ts_node_start_byte(outer) &&
	       ts_node_end_byte(n) <= ts_node_end_byte(outer);
}

/* A node that opens a new Python scope: its body does not run where it stands. */
static bool is_definition(TSNode n)
{
	return jf_node_type_is(n, JF_T_function_definition) || jf_node_type_is(n, JF_T_class_definition) || jf_node_type_is(n, JF_T_lambda);
}

typedef enum { WALK_ENTER, WALK_SKIP, WALK_STOP } walk_step;
typedef walk_step (*visit_fn)(const jf_file *unit, TSNode n, void *data);

/*
 * Calls `visit` on `root` and the named nodes under it in source order; a
 * node's children are skipped on WALK_SKIP. Returns true when `visit`
 * stopped the walk with WALK_STOP. For the module itself (a session created
 * at module level), its statements are walked one after the other.
 */
static bool walk(const jf_file *unit, TSNode root, visit_fn visit, void *data)
{
	if (ts_node_is_null(root))
		return false;
	if (ts_node_is_null(ts_node_parent(root))) {
		for (uint32_t i = 0; i < ts_node_child_count(root); i++)
			if (walk(unit, ts_node_child(root, i), visit, data))
				return true;
		return false;
	}
	jf_iter it;
	walk_step step = WALK_ENTER;
	for (TSNode n = jf_iter_start(&it, root); !ts_node_is_null(n);
	     n = jf_iter_next(&it, step == WALK_ENTER)) {
		step = ts_node_is_named(n) ? visit(unit, n, data) : WALK_ENTER;
		if (step == WALK_STOP)
			break;
	}
	jf_iter_release(&it);
	return step == WALK_STOP;
}

/* The text of a call's callee ("tf.layers.dense"), or NULL; caller frees. */
static char *callee(const jf_file *unit, TSNode call)
{
	if (!jf_node_type_is(call, JF_T_call))
		return NULL;
	TSNode fn = jf_node_field(call, JF_F_function);
	return ts_node_is_null(fn) ? NULL : jf_node_text(unit, fn);
}

/* The last name of a call's callee: "dense" for tf.layers.dense(...), or a null node. */
static TSNode callee_name(TSNode call)
{
	TSNode fn = jf_node_field(call, JF_F_function);
	if (jf_node_type_is(fn, JF_T_attribute))
		return jf_node_field(fn, JF_F_attribute);
	return jf_node_type_is(fn, JF_T_identifier) ? fn : (TSNode){ 0 };
}

static bool callee_name_in(const jf_file *unit, TSNode call, const char *const *list)
{
	TSNode name = callee_name(call);
	if (ts_node_is_null(name))
		return false;
	char *text = jf_node_text(unit, name);
	bool found = jf_str_in(text, list);
	free(text);
	return found;
}

/* What follows "tf.", "tensorflow." and an optional "compat.v1." in `name`, or NULL. */
static const char *tf_member(const char *name)
{
	const char *p;
	if (jf_str_starts(name, "tf."))
		p = name + 3;
	else if (jf_str_starts(name, "tensorflow."))
		p = name + 11;
	else
		return NULL;
	return jf_str_starts(p, "compat.v1.") ? p + 10 : p;
}

static bool callee_is_tf(const jf_file *unit, TSNode call, const char *const *members)
{
	char *fn = callee(unit, call);
	const char *m = fn ? tf_member(fn) : NULL;
	bool found = m && jf_str_in(m, members);
	free(fn);
	return found;
}

/* Whether `call` passes the keyword argument `name=`. */
static bool has_keyword(const jf_file *unit, TSNode call, const char *name)
{
	TSNode args = jf_node_field(call, JF_F_arguments);
	uint32_t n = jf_node_type_is(args, JF_T_argument_list) ? ts_node_named_child_count(args) : 0;
	for (uint32_t i = 0; i < n; i++) {
		TSNode a = ts_node_named_child(args, i);
		if (jf_node_type_is(a, JF_T_keyword_argument) && text_is(unit, jf_node_field(a, JF_F_name), name))
			return true;
	}
	return false;
}

/* Whether `n` holds the identifier `name` (as a name, not inside a string). */
static walk_step visit_identifier(const jf_file *unit, TSNode n, void *data)
{
	if (jf_node_type_is(n, JF_T_string))
		return WALK_SKIP;
	return jf_node_type_is(n, JF_T_identifier) && text_is(unit, n, data) ? WALK_STOP : WALK_ENTER;
}

static bool mentions(const jf_file *unit, TSNode n, const char *name)
{
	return walk(unit, n, visit_identifier, (void *)name);
}

/* A set of names, each owned by it. */
typedef JF_ARRAY(char *) name_array;

static bool in_names(const jf_file *unit, TSNode n, const name_array *names)
{
	for (size_t i = 0; i < names->size; i++)
		if (text_is(unit, n, names->items[i]))
			return true;
	return false;
}

static void names_release(name_array *names)
{
	for (size_t i = 0; i < names->size; i++)
		free(names->items[i]);
	jf_array_release(names);
}

/* Whether `text` occurs in the source of `n`: a cheap test before a walk. */
static bool spelled_in(const jf_file *unit, TSNode n, const char *text)
{
	const char *data = unit->src->data;
	const char *at = strstr(data + ts_node_start_byte(n), text);
	return at && at + strlen(text) <= data + ts_node_end_byte(n);
}

typedef bool (*identifier_fn)(const jf_file *unit, TSNode id, void *data);

/* Where a name found by text search stands: after `def`, or before `(`. */
typedef enum { NAME_DEFINED, NAME_CALLED } name_use;

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\\' || c == '\n' || c == '\r';
}

static bool looks_used(const char *text, const char *at, size_t len, name_use use)
{
	if (use == NAME_CALLED) {
		const char *p = at + len;
		while (is_blank(*p))
			p++;
		return *p == '(';
	}
	const char *p = at;
	while (p > text && is_blank(p[-1]))
		p--;
	return p - text >= 3 && !strncmp(p - 3, "def", 3) && p < at &&
	       (p - text == 3 || !(isalnum((unsigned char)p[-4]) || p[-4] == '_'));
}

/*
 * Calls `fn` on each identifier `name` of the file that looks defined or
 * called, until it returns true. A text search finds them: a lookup costs
 * no walk of the tree.
 */
static bool each_identifier(const jf_file *unit, const char *name, name_use use, identifier_fn fn,
                            void *data)
{
	const char *text = unit->src->data;
	size_t len = strlen(name);
	TSNode root = ts_tree_root_node(unit->tree);
	for (const char *p = strstr(text, name); p && len; p = strstr(p + 1, name)) {
		if (!looks_used(text, p, len, use))
			continue;
		uint32_t at = (uint32_t)(p - text);
		TSNode id = ts_node_named_descendant_for_byte_range(root, at, at + (uint32_t)len);
		if (jf_node_type_is(id, JF_T_identifier) && ts_node_start_byte(id) == at &&
		    ts_node_end_byte(id) == at + len && fn(unit, id, data))
			return true;
	}
	return false;
}

/* The callee `f` of f(...) or self.f(...), or a null node. */
static TSNode plain_callee(const jf_file *unit, TSNode call)
{
	TSNode fn = jf_node_field(call, JF_F_function);
	if (jf_node_type_is(fn, JF_T_attribute) && text_is(unit, jf_node_field(fn, JF_F_object), "self"))
		fn = jf_node_field(fn, JF_F_attribute);
	return jf_node_type_is(fn, JF_T_identifier) ? fn : (TSNode){ 0 };
}

/* The call whose plain callee is the identifier `id`, or a null node. */
static TSNode call_of_callee(const jf_file *unit, TSNode id)
{
	TSNode call = ts_node_parent(id);
	if (jf_node_type_is(call, JF_T_attribute))
		call = ts_node_parent(call);
	return jf_node_type_is(call, JF_T_call) && ts_node_eq(plain_callee(unit, call), id) ? call : (TSNode){ 0 };
}

/* Variable creation */

/* tf.layers functions that create variables (pooling, dropout, flatten do not). */
static const char *const tf_layers[] = {
	"dense", "conv1d", "conv2d", "conv3d", "conv2d_transpose", "conv3d_transpose",
	"separable_conv1d", "separable_conv2d", "batch_normalization", NULL
};

/* tf.contrib.layers / slim functions that create variables. */
static const char *const slim_layers[] = {
	"batch_norm", "bias_add", "conv1d", "conv2d", "conv2d_in_plane", "conv2d_transpose",
	"conv3d", "conv3d_transpose", "convolution", "convolution1d", "convolution2d",
	"convolution2d_in_plane", "convolution2d_transpose", "convolution3d",
	"convolution3d_transpose", "embed_sequence", "fully_connected", "group_norm",
	"instance_norm", "layer_norm", "linear", "model_variable", "repeat",
	"separable_conv2d", "separable_convolution2d", "stack", "variable", NULL
};

/*
 * Whether the callee `fn` creates graph variables by name in the current
 * variable scope (and so fails when the scope is entered again without
 * reuse). With `any_kind`, tf.Variable and Keras layers count too: they
 * create variables but pick fresh names.
 */
static bool is_creation(const char *fn, bool any_kind)
{
	const char *m = tf_member(fn);
	const char *slim = NULL;
	if (m) {
		if (!strcmp(m, "get_variable"))
			return true;
		if (jf_str_starts(m, "layers."))
			return jf_str_in(m + 7, tf_layers);
		if (any_kind && !strcmp(m, "Variable"))
			return true;
		if (any_kind && jf_str_starts(m, "keras.layers.") && isupper((unsigned char)m[13]))
			return true;
		if (jf_str_starts(m, "contrib.layers."))
			slim = m + 15;
		else if (jf_str_starts(m, "contrib.slim."))
			slim = m + 13;
		else if (jf_str_starts(m, "contrib.framework."))
			slim = m + 18;
	} else if (jf_str_starts(fn, "slim.")) {
		slim = fn + 5;
	}
	return slim && jf_str_in(slim, slim_layers);
}

static bool is_creation_call(const jf_file *unit, TSNode call, bool any_kind)
{
	char *fn = callee(unit, call);
	bool found = fn && is_creation(fn, any_kind);
	free(fn);
	return found;
}

/* JF201: variable scopes */

/* Ordered: a `with` holding several items takes the largest kind. */
typedef enum {
	SCOPE_NONE,    /* not a variable scope */
	SCOPE_SAME,    /* a constant name and no reuse: the same scope on every entry */
	SCOPE_VARYING, /* a name that may change between entries */
	SCOPE_REUSE,   /* reuse is or may be set */
} scope_kind;

/* A scope name that is the same on every entry: a plain string or tf.get_variable_scope(). */
static bool is_constant_scope_name(const jf_file *unit, TSNode n)
{
	static const char *const current[] = { "get_variable_scope", NULL };
	if (jf_node_type_is(n, JF_T_call))
		return callee_is_tf(unit, n, current);
	if (!jf_node_type_is(n, JF_T_string))
		return false;
	for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
		if (jf_node_type_is(ts_node_named_child(n, i), JF_T_interpolation))
			return false;
	return true;
}

static scope_kind classify_scope(const jf_file *unit, TSNode call)
{
	static const char *const variable_scope[] = { "variable_scope", NULL };
	char *fn = callee(unit, call);
	bool vs = fn && (!strcmp(fn, "variable_scope") || callee_is_tf(unit, call, variable_scope));
	free(fn);
	if (!vs)
		return SCOPE_NONE;
	TSNode args = jf_node_field(call, JF_F_arguments);
	if (!jf_node_type_is(args, JF_T_argument_list))
		return SCOPE_VARYING;
	TSNode first = { 0 };
	uint32_t positional = 0;
	for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
		TSNode a = ts_node_named_child(args, i);
		if (jf_node_type_is(a, JF_T_comment))
			continue;
		if (jf_node_type_is(a, JF_T_keyword_argument)) {
			if (text_is(unit, jf_node_field(a, JF_F_name), "reuse"))
				return SCOPE_REUSE;
			continue;
		}
		if (jf_node_type_is(a, JF_T_list_splat) || jf_node_type_is(a, JF_T_dictionary_splat))
			return SCOPE_REUSE;
		if (!positional++)
			first = a;
	}
	if (positional >= 9) /* reuse is the ninth parameter */
		return SCOPE_REUSE;
	return is_constant_scope_name(unit, first) ? SCOPE_SAME : SCOPE_VARYING;
}

/* The call of a `with` item: `c` in `with c:` and `with c as x:`. */
static TSNode with_item_call(TSNode item)
{
	TSNode v = jf_node_field(item, JF_F_value);
	if (jf_node_type_is(v, JF_T_as_pattern))
		v = ts_node_named_child(v, 0);
	return jf_node_type_is(v, JF_T_call) ? v : (TSNode){ 0 };
}

/* The variable scopes a `with` statement enters; SCOPE_REUSE when one of its items sets reuse. */
static scope_kind with_scope_kind(const jf_file *unit, TSNode with)
{
	scope_kind kind = SCOPE_NONE;
	for (uint32_t i = 0; i < ts_node_named_child_count(with); i++) {
		TSNode clause = ts_node_named_child(with, i);
		if (!jf_node_type_is(clause, JF_T_with_clause))
			continue;
		for (uint32_t k = 0; k < ts_node_named_child_count(clause); k++) {
			TSNode call = with_item_call(ts_node_named_child(clause, k));
			if (ts_node_is_null(call))
				continue;
			/* Also slim.arg_scope(..., reuse=True) and the like. */
			scope_kind here = classify_scope(unit, call);
			if (has_keyword(unit, call, "reuse"))
				here = SCOPE_REUSE;
			if (here > kind)
				kind = here;
		}
	}
	return kind;
}

/* The `with` statement of the call `c` in `with c:` or `with c as x:`. */
static TSNode with_of_call(TSNode call)
{
	TSNode p = ts_node_parent(call);
	if (jf_node_type_is(p, JF_T_as_pattern))
		p = ts_node_parent(p);
	if (!jf_node_type_is(p, JF_T_with_item))
		return (TSNode){ 0 };
	p = ts_node_parent(ts_node_parent(p));
	return jf_node_type_is(p, JF_T_with_statement) ? p : (TSNode){ 0 };
}

/* Whether `child` is the part of `p` that a loop runs on every iteration. */
static bool is_loop_body(TSNode p, TSNode child)
{
	if (jf_node_type_is(p, JF_T_for_statement) || jf_node_type_is(p, JF_T_while_statement) || jf_node_type_is(p, JF_T_list_comprehension) ||
	    jf_node_type_is(p, JF_T_set_comprehension) || jf_node_type_is(p, JF_T_dictionary_comprehension) ||
	    jf_node_type_is(p, JF_T_generator_expression))
		return ts_node_eq(jf_node_field(p, JF_F_body), child);
	return false;
}

/* A loop whose body leaves it unconditionally in the first iteration. */
static bool leaves_first_iteration(TSNode loop)
{
	TSNode body = jf_node_field(loop, JF_F_body);
	if (!jf_node_type_is(body, JF_T_block))
		return false;
	bool leaves = false;
	TSTreeCursor c = ts_tree_cursor_new(body);
	for (bool more = ts_tree_cursor_goto_first_child(&c); more && !leaves;
	     more = ts_tree_cursor_goto_next_sibling(&c)) {
		TSNode s = ts_tree_cursor_current_node(&c);
		leaves = jf_node_type_is(s, JF_T_break_statement) || jf_node_type_is(s, JF_T_return_statement) ||
		         jf_node_type_is(s, JF_T_raise_statement);
	}
	ts_tree_cursor_delete(&c);
	return leaves;
}

static walk_step visit_reuse_variables(const jf_file *unit, TSNode n, void *data)
{
	static const char *const reuse[] = { "reuse_variables", NULL };
	(void)data;
	return jf_node_type_is(n, JF_T_call) && callee_name_in(unit, n, reuse) ? WALK_STOP : WALK_ENTER;
}

static bool calls_reuse_variables(const jf_file *unit, TSNode n)
{
	return !ts_node_is_null(n) && spelled_in(unit, n, "reuse_variables") &&
	       walk(unit, n, visit_reuse_variables, NULL);
}

/*
 * Climbs from `n` to the nearest loop that runs it on every iteration and
 * has no reuse_variables() call; sets *loop, or *def to the function
 * holding `n` when no loop is found there. Returns false when a scope on
 * the way decides: a scope with reuse (inner scopes inherit it), a scope
 * below the loop whose name may vary, or one that is reported itself.
 */
static bool climb_to_loop(const jf_file *unit, TSNode n, TSNode *loop, TSNode *def)
{
	*loop = *def = (TSNode){ 0 };
	TSNode child = n;
	for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); child = p, p = ts_node_parent(p)) {
		if (jf_node_type_is(p, JF_T_with_statement) && ts_node_eq(jf_node_field(p, JF_F_body), child)) {
			scope_kind kind = with_scope_kind(unit, p);
			if (kind == SCOPE_REUSE || (ts_node_is_null(*loop) && kind != SCOPE_NONE))
				return false;
		} else if (is_definition(p)) {
			if (ts_node_is_null(*loop) && jf_node_type_is(p, JF_T_function_definition))
				*def = p;
			break;
		} else if (ts_node_is_null(*loop) && is_loop_body(p, child)) {
			if (leaves_first_iteration(p) || calls_reuse_variables(unit, child))
				return false;
			*loop = p;
		}
	}
	return true;
}

/* A call of a function (not in the function itself) that a loop runs again. */
typedef struct {
	TSNode def;
	TSNode loop; /* out */
} call_site;

static bool is_call_in_loop(const jf_file *unit, TSNode id, void *data)
{
	call_site *cs = data;
	TSNode call = call_of_callee(unit, id), def;
	return !ts_node_is_null(call) && !contains(cs->def, call) &&
	       climb_to_loop(unit, call, &cs->loop, &def) && !ts_node_is_null(cs->loop);
}

/* A loop of the file that calls the function `def` named `name`: f(...) or self.f(...). */
static TSNode loop_calling(const jf_file *unit, TSNode def, const char *name)
{
	call_site cs = { .def = def };
	if (!each_identifier(unit, name, NAME_CALLED, is_call_in_loop, &cs))
		return (TSNode){ 0 };
	return cs.loop;
}

/*
 * The search for variable creation under a scope, following the functions
 * it calls into the job's Python files: f(...), self.f(...) and m.f(...)
 * reach every `def f` of the file, then of the other files.
 */
typedef struct {
	const jf_rule_ctx *ctx;
	int depth;  /* levels of calls still followed */
	int budget; /* lookups and function bodies still allowed */
} creation_search;

/* The function a call may reach: `f` of f(...), self.f(...) or m.f(...), or a null node. */
static TSNode followed_callee(TSNode call)
{
	TSNode fn = jf_node_field(call, JF_F_function);
	if (jf_node_type_is(fn, JF_T_attribute) && jf_node_type_is(jf_node_field(fn, JF_F_object), JF_T_identifier))
		fn = jf_node_field(fn, JF_F_attribute);
	return jf_node_type_is(fn, JF_T_identifier) ? fn : (TSNode){ 0 };
}

/* Variable creation under a scope; with `data`, collects the functions called into it. */
static walk_step visit_creation(const jf_file *unit, TSNode n, void *data)
{
	name_array *called = data;
	if (is_definition(n))
		return WALK_SKIP;
	/* Inner scopes with reuse or their own name do not clash. */
	if (jf_node_type_is(n, JF_T_with_statement) && with_scope_kind(unit, n) >= SCOPE_VARYING)
		return WALK_SKIP;
	if (!jf_node_type_is(n, JF_T_call))
		return WALK_ENTER;
	/* A layer given `reuse=` shares its variables. */
	if (is_creation_call(unit, n, false))
		return has_keyword(unit, n, "reuse") ? WALK_ENTER : WALK_STOP;
	TSNode fn = followed_callee(n);
	if (called && !ts_node_is_null(fn) && !in_names(unit, fn, called))
		jf_array_push(called, jf_node_text(unit, fn));
	return WALK_ENTER;
}

static bool body_creates(creation_search *cs, const jf_file *unit, TSNode body);

/* Whether `id` names a function definition whose body creates variables. */
static bool is_creating_function(const jf_file *unit, TSNode id, void *data)
{
	creation_search *cs = data;
	TSNode def = ts_node_parent(id);
	return jf_node_type_is(def, JF_T_function_definition) && ts_node_eq(jf_node_field(def, JF_F_name), id) &&
	       cs->budget-- > 0 && body_creates(cs, unit, jf_node_field(def, JF_F_body));
}

static bool body_creates(creation_search *cs, const jf_file *unit, TSNode body)
{
	name_array called = { 0 };
	bool found = walk(unit, body, visit_creation, cs->depth > 0 ? &called : NULL);
	cs->depth--;
	for (size_t i = 0; i < called.size && !found && cs->budget-- > 0; i++) {
		const char *f = called.items[i];
		found = each_identifier(unit, f, NAME_DEFINED, is_creating_function, cs);
		for (size_t k = 0; k < cs->ctx->facts->ws->files.size && !found; k++) {
			const jf_file *u = cs->ctx->facts->ws->files.items[k];
			if (u != unit && jf_python_mentions(u, f) && jf_facts_tree(cs->ctx->facts, u))
				found = each_identifier(u, f, NAME_DEFINED, is_creating_function, cs);
		}
	}
	cs->depth++;
	names_release(&called);
	return found;
}

/* Whether `body` creates variables, itself or through the job's functions it calls. */
static bool creates_variables(const jf_rule_ctx *ctx, const jf_file *unit, TSNode body)
{
	creation_search cs = { ctx, 3, 128 };
	return body_creates(&cs, unit, body);
}

/* The head of a loop, for a note: `for i in range(n)`, `while cond`, `for x in xs`. */
static jf_span loop_head(TSNode loop)
{
	jf_span span = jf_node_span(loop);
	TSNode end = jf_node_field(loop, jf_node_type_is(loop, JF_T_while_statement) ? JF_F_condition : JF_F_right);
	if (!ts_node_is_null(end)) {
		span.end = ts_node_end_byte(end);
		return span;
	}
	for (uint32_t i = 0; i < ts_node_named_child_count(loop); i++) {
		TSNode clause = ts_node_named_child(loop, i);
		if (jf_node_type_is(clause, JF_T_for_in_clause))
			return jf_node_span(clause);
	}
	return span;
}

void jf_hook_tf_variable_scope(jf_rule_ctx *ctx, const jf_rule *rule, const jf_file *unit,
                               const jf_match *m)
{
	TSNode call = jf_match_get(m, "scope");
	if (unit->src->len > TF_MAX_BYTES || ts_node_is_null(call) || !is_constant_scope_name(unit, jf_match_get(m, "name")) ||
	    classify_scope(unit, call) != SCOPE_SAME)
		return;
	TSNode with = with_of_call(call);
	TSNode body = jf_node_field(with, JF_F_body);
	if (ts_node_is_null(body))
		return;
	TSNode loop, def;
	char *fn = NULL;
	if (!climb_to_loop(unit, with, &loop, &def))
		return;
	if (ts_node_is_null(loop)) {
		/* The function holding the `with`, called in a loop. */
		TSNode name = jf_node_field(def, JF_F_name);
		if (ts_node_is_null(name) || calls_reuse_variables(unit, jf_node_field(def, JF_F_body)))
			return;
		fn = jf_node_text(unit, name);
		loop = loop_calling(unit, def, fn);
	}
	if (!ts_node_is_null(loop) && creates_variables(ctx, unit, body) &&
	    !calls_reuse_variables(unit, body)) {
		char *msg = jf_rule_message(rule, m, unit);
		jf_diag *d = jf_sink_add(ctx->out, rule->info.id, unit->src, jf_node_span(call), "%s", msg);
		free(msg);
		if (fn)
			jf_diag_relate(d, unit->src, loop_head(loop),
			               "this loop calls '%s', which enters the scope again on "
			               "every iteration",
			               fn);
		else
			jf_diag_relate(d, unit->src, loop_head(loop),
			               "this loop enters the scope again on every iteration");
	}
	free(fn);
}

/* JF202: sessions run before their variables are initialised */

/* Calls that initialise or restore the graph's variables (tables_initializer does not). */
static const char *const initialisers[] = {
	"global_variables_initializer", "initialize_all_variables", "variables_initializer",
	"initialize_variables", "local_variables_initializer", "initialize_local_variables",
	"restore", "init_from_checkpoint", NULL
};

/* Whether `s` holds one of `parts`, ignoring case. */
static bool holds_part(const char *s, const char *const *parts)
{
	char *low = jf_xstrdup(s);
	for (char *p = low; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	bool found = false;
	for (; *parts && !found; parts++)
		found = strstr(low, *parts) != NULL;
	free(low);
	return found;
}

/*
 * The scan back from a run to the latest binding of the session's name.
 * Earlier code is read one subtree at a time, each one forward: a binding
 * resets `spoiled`; what may initialise the variables or runs the session
 * sets it. Nested functions and classes bind nothing here, but what they
 * hold still spoils (they may be called before the run).
 */
typedef struct {
	const char *name;
	TSNode run;
	uint32_t def_end; /* nodes starting before this are in a nested definition */
	bool bound;
	bool spoiled;
	TSNode session;   /* the tf.Session(...) call the name is bound to, or null */
} scan;

/* Records a binding of the name to `value` (a null node when it is not a plain value). */
static void bind(const jf_file *unit, scan *s, TSNode value)
{
	static const char *const sessions[] = { "Session", "InteractiveSession", NULL };
	s->bound = true;
	s->spoiled = false;
	s->session = callee_is_tf(unit, value, sessions) ? value : (TSNode){ 0 };
}

/* Whether `call` passes the identifier `name` as an argument. */
static bool passes(const jf_file *unit, TSNode call, const char *name)
{
	TSNode args = jf_node_field(call, JF_F_arguments);
	for (uint32_t i = 0; !ts_node_is_null(args) && i < ts_node_named_child_count(args); i++) {
		TSNode a = ts_node_named_child(args, i);
		if (jf_node_type_is(a, JF_T_keyword_argument))
			a = jf_node_field(a, JF_F_value);
		if (jf_node_type_is(a, JF_T_identifier) && text_is(unit, a, name))
			return true;
	}
	return false;
}

/*
 * A call that may initialise the variables or makes the run not the first:
 * an initialiser or restore, a run of the session or `init.run()`, or a
 * call the session is passed to (a helper may initialise it).
 */
static bool spoils(const jf_file *unit, TSNode call, const char *name)
{
	static const char *const init[] = { "init", NULL };
	/* Also what the list does not name but may set values: tf.assign,
	 * v.load, assign_from_checkpoint_fn, a helper's init_weights(). */
	static const char *const may_set[] = { "init", "assign", "restore", "load", NULL };
	if (callee_name_in(unit, call, initialisers) || passes(unit, call, name))
		return true;
	TSNode callee = callee_name(call);
	if (!ts_node_is_null(callee)) {
		char *text = jf_node_text(unit, callee);
		bool sets = holds_part(text, may_set) && strcmp(text, "tables_initializer");
		free(text);
		if (sets)
			return true;
	}
	TSNode fn = jf_node_field(call, JF_F_function);
	if (!jf_node_type_is(fn, JF_T_attribute) || !text_is(unit, jf_node_field(fn, JF_F_attribute), "run"))
		return false;
	TSNode obj = jf_node_field(fn, JF_F_object);
	if (ts_node_is_null(obj))
		return false;
	char *object = jf_node_text(unit, obj);
	bool found = !strcmp(object, name) || holds_part(object, init);
	free(object);
	return found;
}

static walk_step visit_scan(const jf_file *unit, TSNode n, void *data)
{
	scan *s = data;
	if (ts_node_start_byte(n) < s->def_end) {
		if (jf_node_type_is(n, JF_T_call) && spoils(unit, n, s->name))
			s->spoiled = true;
		return WALK_ENTER;
	}
	if (is_definition(n)) {
		s->def_end = ts_node_end_byte(n);
	} else if (jf_node_type_is(n, JF_T_call)) {
		if (spoils(unit, n, s->name))
			s->spoiled = true;
	} else if (jf_node_type_is(n, JF_T_assignment)) {
		TSNode left = jf_node_field(n, JF_F_left);
		if (jf_node_type_is(left, JF_T_identifier) && text_is(unit, left, s->name))
			bind(unit, s, jf_node_field(n, JF_F_right));
		else if (mentions(unit, left, s->name))
			bind(unit, s, (TSNode){ 0 });
	} else if (jf_node_type_is(n, JF_T_with_item)) {
		TSNode v = jf_node_field(n, JF_F_value);
		if (jf_node_type_is(v, JF_T_as_pattern) && mentions(unit, jf_node_field(v, JF_F_alias), s->name)) {
			/* After its `with`, the session is closed: another error. */
			TSNode with = ts_node_parent(ts_node_parent(n));
			bool inside = contains(jf_node_field(with, JF_F_body), s->run);
			bind(unit, s, inside ? ts_node_named_child(v, 0) : (TSNode){ 0 });
		}
	} else if (jf_node_type_is(n, JF_T_for_statement) || jf_node_type_is(n, JF_T_for_in_clause)) {
		if (mentions(unit, jf_node_field(n, JF_F_left), s->name))
			bind(unit, s, (TSNode){ 0 });
	} else if (jf_node_type_is(n, JF_T_named_expression)) {
		if (text_is(unit, jf_node_field(n, JF_F_name), s->name))
			bind(unit, s, (TSNode){ 0 });
	} else if (jf_node_type_is(n, JF_T_parameters) || jf_node_type_is(n, JF_T_global_statement) ||
	           jf_node_type_is(n, JF_T_nonlocal_statement) || jf_node_type_is(n, JF_T_import_statement) ||
	           jf_node_type_is(n, JF_T_import_from_statement)) {
		if (mentions(unit, n, s->name))
			bind(unit, s, (TSNode){ 0 });
		return WALK_SKIP;
	}
	return WALK_ENTER;
}

/* Scans the named children of `p` before `child`, nearest first, until one decides. */
static void scan_before(const jf_file *unit, TSNode p, TSNode child, scan *s)
{
	JF_ARRAY(TSNode) before = { 0 };
	TSTreeCursor c = ts_tree_cursor_new(p);
	for (bool more = ts_tree_cursor_goto_first_child(&c); more;
	     more = ts_tree_cursor_goto_next_sibling(&c)) {
		TSNode n = ts_tree_cursor_current_node(&c);
		if (ts_node_start_byte(n) >= ts_node_start_byte(child))
			break;
		if (ts_node_is_named(n))
			jf_array_push(&before, n);
	}
	ts_tree_cursor_delete(&c);
	for (size_t i = before.size; i-- > 0 && !s->bound && !s->spoiled;)
		walk(unit, before.items[i], visit_scan, s);
	jf_array_release(&before);
}

/* The function, class or module whose code runs the node; null inside a lambda. */
static TSNode scope_of(TSNode n)
{
	for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p)) {
		if (jf_node_type_is(p, JF_T_lambda))
			return (TSNode){ 0 };
		if (is_definition(p) || jf_node_type_is(p, JF_T_module))
			return p;
	}
	return (TSNode){ 0 };
}

/* The session's binding before `run` in `scope`; null when it is no plain tf.Session. */
static TSNode session_of(const jf_file *unit, TSNode scope, TSNode run, const char *name)
{
	scan s = { .name = name, .run = run };
	TSNode child = run;
	for (TSNode p = ts_node_parent(run); !ts_node_is_null(p) && !s.bound && !s.spoiled;
	     child = p, p = ts_node_parent(p)) {
		scan_before(unit, p, child, &s);
		if (ts_node_eq(p, scope))
			break;
	}
	return s.bound && !s.spoiled ? s.session : (TSNode){ 0 };
}

/* The identifiers of a run's fetches and feeds, keyword names left out. */
static walk_step visit_fetch(const jf_file *unit, TSNode n, void *data)
{
	if (jf_node_type_is(n, JF_T_string))
		return WALK_SKIP;
	if (jf_node_type_is(n, JF_T_identifier)) {
		TSNode parent = ts_node_parent(n);
		if (!jf_node_type_is(parent, JF_T_keyword_argument) || !ts_node_eq(jf_node_field(parent, JF_F_name), n))
			jf_array_push((name_array *)data, jf_node_text(unit, n));
	}
	return WALK_ENTER;
}

static walk_step visit_initialiser_call(const jf_file *unit, TSNode n, void *data)
{
	(void)data;
	return jf_node_type_is(n, JF_T_call) && callee_name_in(unit, n, initialisers) ? WALK_STOP : WALK_ENTER;
}

/* Assignments of a name in `names` from an initialiser before `before`: init = tf.group(...). */
typedef struct {
	TSNode scope;
	const name_array *names;
	uint32_t before;
} init_assignment;

static walk_step visit_init_assignment(const jf_file *unit, TSNode n, void *data)
{
	const init_assignment *ia = data;
	if (ts_node_start_byte(n) >= ia->before || (is_definition(n) && !ts_node_eq(n, ia->scope)))
		return WALK_SKIP;
	if (jf_node_type_is(n, JF_T_assignment)) {
		TSNode left = jf_node_field(n, JF_F_left);
		return jf_node_type_is(left, JF_T_identifier) && in_names(unit, left, ia->names) &&
		               walk(unit, jf_node_field(n, JF_F_right), visit_initialiser_call, NULL)
		               ? WALK_STOP
		               : WALK_SKIP;
	}
	/* Assignments are statements: only statements and blocks hold them. */
	const char *type = ts_node_type(n);
	bool holds = ts_node_eq(n, ia->scope) || jf_str_ends(type, "_statement") ||
	             jf_str_ends(type, "_clause") || !strcmp(type, "block");
	return holds ? WALK_ENTER : WALK_SKIP;
}

/* Whether the run initialises: fetches named *init* or *assign*, or set from an initialiser. */
static bool run_initialises(const jf_file *unit, TSNode scope, TSNode run)
{
	static const char *const initialising[] = { "init", "assign", NULL };
	name_array names = { 0 };
	walk(unit, jf_node_field(run, JF_F_arguments), visit_fetch, &names);
	bool init = false;
	for (size_t i = 0; i < names.size && !init; i++)
		init = holds_part(names.items[i], initialising);
	/* Only a file that spells an initialiser before the run can assign one. */
	const char *data = unit->src->data;
	const char *spelled = strstr(data + ts_node_start_byte(scope), "initiali");
	if (!init && names.size && spelled && spelled < data + ts_node_start_byte(run)) {
		init_assignment ia = { scope, &names, ts_node_start_byte(run) };
		init = walk(unit, scope, visit_init_assignment, &ia);
	}
	names_release(&names);
	return init;
}

/* Whether the call around `at` (`len` bytes of its callee's name) creates variables. */
static bool creation_at(const jf_file *unit, TSNode root, uint32_t at, uint32_t len)
{
	TSNode n = ts_node_named_descendant_for_byte_range(root, at, at + len);
	for (TSNode p = n; !ts_node_is_null(p); p = ts_node_parent(p)) {
		if (jf_node_type_is(p, JF_T_call))
			return is_creation_call(unit, p, true);
		if (!jf_node_type_is(p, JF_T_attribute) && !jf_node_type_is(p, JF_T_identifier))
			return false;
	}
	return false;
}

/* Whether any Python file of the job (or the file linted alone) creates
 * variables. Every creating callee spells one of `names`, so the calls
 * around them are all there is to look at: no walk. */
static bool job_creates_variables(jf_rule_ctx *ctx)
{
	/* Files that spell none of these create nothing. */
	static const char *const hints[] = { "Variable", "get_variable", "layers.", "slim.", NULL };
	static const char *const names[] = { "Variable", "get_variable", "layers.", "slim.",
		                             "framework.", NULL };
	for (size_t i = 0; i < ctx->facts->ws->files.size; i++) {
		const jf_file *u = ctx->facts->ws->files.items[i];
		if (u->lang != JF_LANG_PYTHON || u->src->status != JF_SOURCE_OK)
			continue;
		bool hinted = false;
		for (const char *const *h = hints; *h && !hinted; h++)
			hinted = strstr(u->src->data, *h) != NULL;
		TSTree *tree = hinted ? jf_facts_tree(ctx->facts, u) : NULL;
		if (!tree)
			continue;
		TSNode root = ts_tree_root_node(tree);
		for (const char *const *h = names; *h && hinted; h++) {
			uint32_t len = (uint32_t)strlen(*h);
			for (const char *p = strstr(u->src->data, *h); p; p = strstr(p + 1, *h))
				if (creation_at(u, root, (uint32_t)(p - u->src->data), len))
					return true;
		}
	}
	return false;
}

/* The value last assigned to identifier `name` in `scope` before byte `before`. */
typedef struct {
	const char *name;
	uint32_t before;
	TSNode value;
} last_binding;

static walk_step visit_binding(const jf_file *unit, TSNode n, void *data)
{
	last_binding *b = data;
	if (ts_node_start_byte(n) >= b->before)
		return WALK_STOP;
	if (jf_node_type_is(n, JF_T_assignment) &&
	    jf_node_type_is(jf_node_field(n, JF_F_left), JF_T_identifier) &&
	    text_is(unit, jf_node_field(n, JF_F_left), b->name))
		b->value = jf_node_field(n, JF_F_right);
	return is_definition(n) ? WALK_SKIP : WALK_ENTER;
}

/*
 * Whether `e` is built from constants only: literals, tf.constant/zeros/ones
 * and other TensorFlow calls that create no variable, arithmetic, lists, and
 * names assigned such values earlier in `scope` (a few levels deep). A run
 * that fetches only those needs no initialised variable.
 */
static bool constant_expr(const jf_file *unit, TSNode scope, TSNode e, uint32_t before, int depth)
{
	if (ts_node_is_null(e) || depth > 4)
		return false;
	jf_type t = jf_node_type(e);
	if (t == JF_T_integer || t == JF_T_float || t == JF_T_string ||
	    t == JF_T_true || t == JF_T_false || t == JF_T_none)
		return true;
	if (t == JF_T_identifier) {
		char *name = jf_node_text(unit, e);
		last_binding b = { .name = name, .before = before };
		walk(unit, scope, visit_binding, &b);
		free(name);
		return !ts_node_is_null(b.value) &&
		       constant_expr(unit, scope, b.value, ts_node_start_byte(b.value), depth + 1);
	}
	if (t == JF_T_call) {
		char *fn = callee(unit, e);
		bool tf_op = fn && tf_member(fn) && !is_creation(fn, true);
		free(fn);
		if (!tf_op)
			return false;
		e = jf_node_field(e, JF_F_arguments);
		t = jf_node_type(e);
	} else if (t != JF_T_binary_operator && t != JF_T_unary_operator &&
	           t != JF_T_parenthesized_expression && t != JF_T_list &&
	           t != JF_T_tuple && t != JF_T_argument_list && t != JF_T_keyword_argument) {
		return false;
	}
	for (uint32_t i = 0; i < ts_node_named_child_count(e); i++) {
		TSNode c = ts_node_named_child(e, i);
		if (jf_node_type_is(ts_node_parent(c), JF_T_keyword_argument) &&
		    ts_node_eq(jf_node_field(ts_node_parent(c), JF_F_name), c))
			continue;
		if (!constant_expr(unit, scope, c, before, depth + 1))
			return false;
	}
	return true;
}

/* Whether the function `scope` is never named again in the job's Python
 * (so never called); decorated ones and dunders may be called for it. */
static bool never_called(jf_rule_ctx *ctx, const jf_file *unit, TSNode scope)
{
	if (!jf_node_type_is(scope, JF_T_function_definition) ||
	    jf_node_type_is(ts_node_parent(scope), JF_T_decorated_definition))
		return false;
	char *name = jf_node_text(unit, jf_node_field(scope, JF_F_name));
	bool never = !jf_str_starts(name, "__") && jf_name_mentions(ctx->facts, name, 2) == 1;
	free(name);
	return never;
}

void jf_hook_tf_session_run(jf_rule_ctx *ctx, const jf_rule *rule, const jf_file *unit,
                            const jf_match *m)
{
	TSNode run = jf_match_get(m, "run"), sess = jf_match_get(m, "sess");
	if (unit->src->len > TF_MAX_BYTES)
		return;
	TSNode scope = ts_node_is_null(run) ? run : scope_of(run);
	if (ts_node_is_null(scope) || ts_node_is_null(sess))
		return;
	char *name = jf_node_text(unit, sess);
	TSNode session = session_of(unit, scope, run, name);
	TSNode fetches = ts_node_named_child(jf_node_field(run, JF_F_arguments), 0);
	if (!ts_node_is_null(session) && !run_initialises(unit, scope, run) &&
	    !constant_expr(unit, scope, fetches, ts_node_start_byte(run), 0) &&
	    !never_called(ctx, unit, scope) && job_creates_variables(ctx)) {
		char *msg = jf_rule_message(rule, m, unit);
		jf_diag *d = jf_sink_add(ctx->out, rule->info.id, unit->src, jf_node_span(run), "%s", msg);
		free(msg);
		jf_diag_relate(d, unit->src, jf_node_span(session),
		               "session '%s' is created here; nothing initialises or restores its "
		               "variables before this first run",
		               name);
	}
	free(name);
}
