/* pyfacts.c - one walk over a Python file's tree, keeping what the checks ask about
 *
 * Node types and fields are compared as the integer ids of the grammar,
 * looked up once per walk. The walk is a tree cursor in pre-order with a
 * stack of the definitions it is in.
 */
#define _GNU_SOURCE /* memmem */
#include <ctype.h>

#include "python/pyfacts.h"

#include "python/cmdline.h"

#include "sources/tree.h"

/* A node on the cursor's path from the root: what the walk knows of it while
 * it visits the node's children. */
typedef struct {
	jf_type type;
	uint32_t fact;    /* its index in `nodes`, or JF_PY_NONE */
	bool fields;      /* visit_field() looks at its children's fields */
	bool bound_left;  /* an assignment whose left side bound a plain name */
} level;

typedef struct {
	jf_pyfacts *f;
	const char *text;
	uint32_t def, scope; /* the innermost definition, and scope, of the node being visited */
	bool mentions_main;  /* the text has "__main__": only then can it have a __main__ block */
} walker;

static uint32_t add(walker *w, TSNode n, jf_py_kind kind)
{
	jf_py_node pn = { n, { { 0 }, 0, 0 }, { { 0 }, 0, 0 }, w->def, w->scope, kind };
	uint32_t index = (uint32_t)w->f->nodes.size;
	jf_array_push(&w->f->nodes, pn);
	jf_array_push(&w->f->of_kind[kind], index);
	return index;
}

static bool text_is(const walker *w, TSNode n, const char *s)
{
	if (ts_node_is_null(n))
		return false;
	uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
	size_t len = strlen(s);
	return b - a == len && !memcmp(w->text + a, s, len);
}

/* Whether the text of `n` starts with `s`: a cheap test before a field lookup. */
static bool starts_with(const walker *w, TSNode n, const char *s)
{
	uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
	size_t len = strlen(s);
	return b - a >= len && !memcmp(w->text + a, s, len);
}

/* Binds `id` when it is a plain name; returns whether it did. */
static bool bind(walker *w, TSNode id)
{
	if (jf_node_type(id) != JF_T_identifier)
		return false;
	jf_py_binding b = { id, false };
	jf_array_push(&w->f->bindings, b);
	return true;
}

/* The identifiers among the named children of `n` (a pattern list, parameters, ...). */
static void bind_children(walker *w, TSNode n)
{
	uint32_t count = ts_node_named_child_count(n);
	for (uint32_t i = 0; i < count; i++)
		bind(w, ts_node_named_child(n, i));
}

/* `import a.b, c as d` and `from m import x, y as z` (and `*`). */
static void read_import(walker *w, TSNode n, bool from)
{
	jf_pyfacts *f = w->f;
	if (!from) {
		uint32_t count = ts_node_named_child_count(n);
		for (uint32_t i = 0; i < count; i++) {
			TSNode c = ts_node_named_child(n, i);
			if (jf_node_type(c) == JF_T_aliased_import)
				c = jf_node_field(c, JF_F_name);
			if (jf_node_type(c) != JF_T_dotted_name)
				continue;
			jf_py_import im = { .module = c };
			jf_array_push(&f->imports, im);
			jf_array_push(&f->absolute_imports, c);
		}
		return;
	}
	TSNode module = jf_node_field(n, JF_F_module_name);
	if (jf_node_type(module) != JF_T_dotted_name && jf_node_type(module) != JF_T_relative_import)
		return;
	bool any = false;
	uint32_t count = ts_node_named_child_count(n);
	for (uint32_t i = 0; i < count; i++) {
		TSNode c = ts_node_named_child(n, i);
		if (ts_node_eq(c, module))
			continue;
		TSNode name = c;
		if (jf_node_type(c) == JF_T_aliased_import)
			name = jf_node_field(c, JF_F_name);
		bool wildcard = jf_node_type(c) == JF_T_wildcard_import;
		if (!wildcard && jf_node_type(name) != JF_T_dotted_name)
			continue;
		jf_py_import im = { .from = module };
		if (!wildcard)
			im.name = name;
		jf_array_push(&f->imports, im);
		any = true;
	}
	if (any && jf_node_type(module) == JF_T_dotted_name)
		jf_array_push(&f->absolute_imports, module);
}

/* Whether a string literal is an f-string: an f among its prefix letters. */
static bool is_fstring(const walker *w, TSNode n)
{
	const char *p = w->text + ts_node_start_byte(n), *end = w->text + ts_node_end_byte(n);
	for (; p < end && *p != '"' && *p != '\''; p++)
		if (*p == 'f' || *p == 'F')
			return true;
	return false;
}

/* What node `n` is to its parent (`up`, in field `field`): a field the
 * parent's fact keeps, or a name the parent binds. */
static void visit_field(walker *w, level *up, jf_field_id field, TSNode n)
{
	jf_type p = up->type;
	if (up->fact != JF_PY_NONE) {
		jf_py_node *pn = &w->f->nodes.items[up->fact];
		if ((p == JF_T_call && field == JF_F_function) ||
		    ((p == JF_T_assignment || p == JF_T_augmented_assignment || p == JF_T_for_statement) &&
		     field == JF_F_left) ||
		    (p == JF_T_attribute && field == JF_F_object))
			pn->a = n;
		else if ((p == JF_T_call && field == JF_F_arguments) ||
		         ((p == JF_T_assignment || p == JF_T_augmented_assignment) && field == JF_F_right) ||
		         (p == JF_T_attribute && field == JF_F_attribute))
			pn->b = n;
	}
	if (field == JF_F_left && (p == JF_T_assignment || p == JF_T_augmented_assignment ||
	                         p == JF_T_for_statement || p == JF_T_for_in_clause)) {
		up->bound_left = bind(w, n) && p == JF_T_assignment;
	} else if (field == JF_F_right && up->bound_left) {
		/* NAME = <...>.parse_args(...) */
		TSNode fn = jf_node_type(n) == JF_T_call ? jf_node_field(n, JF_F_function) : (TSNode){ 0 };
		if (jf_node_type(fn) == JF_T_attribute && text_is(w, jf_node_field(fn, JF_F_attribute), "parse_args"))
			jf_array_last(&w->f->bindings)->parsed = true;
	} else if (field == JF_F_name &&
	           (p == JF_T_named_expression || p == JF_T_default_parameter ||
	            p == JF_T_typed_default_parameter || p == JF_T_function_definition ||
	            p == JF_T_class_definition)) {
		bind(w, n);
	} else if (field == JF_F_alias && p == JF_T_aliased_import) {
		bind(w, n);
	}
}

/* Whether visit_field() looks at the fields of the children of a node of type `s`. */
static bool has_fields(jf_type s)
{
	return s == JF_T_call || s == JF_T_assignment || s == JF_T_augmented_assignment ||
	       s == JF_T_attribute || s == JF_T_for_statement || s == JF_T_for_in_clause ||
	       s == JF_T_named_expression || s == JF_T_default_parameter ||
	       s == JF_T_typed_default_parameter || s == JF_T_function_definition ||
	       s == JF_T_class_definition || s == JF_T_aliased_import;
}

/* Whether the text of `n` (in `text`, its file's) holds `s`. */
static bool node_holds(const char *text, TSNode n, const char *s)
{
	uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
	return memmem(text + a, b - a, s, strlen(s)) != NULL;
}

/* Records the body of if-statement `n` when its condition names __name__ and
 * __main__ (as `if __name__ == "__main__":` does). */
static void note_main_block(walker *w, TSNode n)
{
	TSNode cond = jf_node_field(n, JF_F_condition);
	if (ts_node_is_null(cond) || !node_holds(w->text, cond, "__name__") ||
	    !node_holds(w->text, cond, "__main__"))
		return;
	jf_span body = { ts_node_end_byte(cond), ts_node_end_byte(n) };
	jf_array_push(&w->f->main_blocks, body);
}

/* Records node `n` of type `s`; returns the index of its fact, or JF_PY_NONE.
 * Sets *descend to false when nothing under it matters. */
static uint32_t visit(walker *w, TSNode n, jf_type s, bool *descend)
{
	if (s == JF_T_identifier) {
		return JF_PY_NONE; /* the commonest node: nothing of its own */
	} else if (s == JF_T_call) {
		return add(w, n, JF_PY_CALL);
	} else if (s == JF_T_attribute) {
		return add(w, n, JF_PY_ATTRIBUTE);
	} else if (s == JF_T_assignment || s == JF_T_augmented_assignment) {
		return add(w, n, s == JF_T_assignment ? JF_PY_ASSIGNMENT : JF_PY_AUGMENTED_ASSIGNMENT);
	} else if (s == JF_T_string) {
		if (is_fstring(w, n))
			return add(w, n, JF_PY_SYNTAX);
		*descend = false; /* no interpolation: only its text under it */
	} else if (s == JF_T_subscript) {
		if ((starts_with(w, n, "os.environ") || starts_with(w, n, "environ")) &&
		    (text_is(w, jf_node_field(n, JF_F_value), "os.environ") ||
		     text_is(w, jf_node_field(n, JF_F_value), "environ")))
			return add(w, n, JF_PY_ENVIRON_SUBSCRIPT);
	} else if (s == JF_T_function_definition || s == JF_T_class_definition) {
		return add(w, n, s == JF_T_function_definition ? JF_PY_FUNCTION : JF_PY_CLASS);
	} else if (s == JF_T_lambda) {
		return add(w, n, JF_PY_LAMBDA);
	} else if (s == JF_T_decorated_definition) {
		return add(w, n, JF_PY_DECORATED);
	} else if (s == JF_T_for_statement) {
		return add(w, n, JF_PY_FOR);
	} else if (s == JF_T_import_statement || s == JF_T_import_from_statement) {
		uint32_t index = add(w, n, JF_PY_IMPORT);
		read_import(w, n, s == JF_T_import_from_statement);
		return index;
	} else if (s == JF_T_named_expression || s == JF_T_typed_default_parameter) {
		return add(w, n, JF_PY_SYNTAX);
	} else if (s == JF_T_typed_parameter) {
		bind_children(w, n);
		return add(w, n, JF_PY_SYNTAX);
	} else if (s == JF_T_pattern_list || s == JF_T_tuple_pattern || s == JF_T_list_pattern ||
	           s == JF_T_as_pattern_target || s == JF_T_parameters || s == JF_T_lambda_parameters ||
	           s == JF_T_list_splat_pattern || s == JF_T_dictionary_splat_pattern ||
	           s == JF_T_global_statement || s == JF_T_nonlocal_statement || s == JF_T_dotted_name) {
		bind_children(w, n);
		*descend = s != JF_T_dotted_name; /* a dotted name holds names only */
	} else if (s == JF_T_positional_separator || s == JF_T_with_clause || s == JF_T_match_statement ||
	           s == JF_T_except_clause || s == JF_T_type_parameter || s == JF_T_type_alias_statement ||
	           s == JF_T_print_statement || s == JF_T_exec_statement) {
		return add(w, n, JF_PY_SYNTAX);
	} else if (s == JF_T_if_statement) {
		if (w->mentions_main)
			note_main_block(w, n);
	} else if (s == JF_T_keyword_argument) {
		if ((starts_with(w, n, "async") || starts_with(w, n, "await")) &&
		    (text_is(w, jf_node_field(n, JF_F_name), "async") || text_is(w, jf_node_field(n, JF_F_name), "await")))
			return add(w, n, JF_PY_SYNTAX);
	}
	return JF_PY_NONE;
}

/* A definition the walk is in, and the cursor depth of its node. */
typedef struct {
	uint32_t index, depth;
	bool lambda;
} open_def;

static bool under_main_guard(const jf_pyfacts *py, TSNode n);
static uint32_t outermost_index(const jf_pyfacts *py, const jf_py_node *pn);
static TSNode outermost_definition(const jf_pyfacts *py, const jf_py_node *pn);

/* The string literal's plain value ("X" of os.environ["X"]), or NULL. */
static char *literal(const jf_file *unit, TSNode n)
{
	if (!jf_node_type_is(n, JF_T_string) || ts_node_named_child_count(n) != 3)
		return NULL; /* start, content, end: no f-string, no concatenation */
	TSNode content = ts_node_named_child(n, 1);
	if (!jf_node_type_is(content, JF_T_string_content))
		return NULL;
	const char *p = unit->src->data + ts_node_start_byte(n);
	if (*p != '"' && *p != '\'')
		return NULL; /* a prefix: f"...", b"..." */
	return jf_node_text(unit, content);
}

static bool is_environ(const jf_file *unit, TSNode n)
{
	return jf_node_is(unit, n, "os.environ") || jf_node_is(unit, n, "environ");
}

char *jf_py_environ_subscript(const jf_file *unit, TSNode n)
{
	if (!jf_node_type_is(n, JF_T_subscript) || !is_environ(unit, jf_node_field(n, JF_F_value)))
		return NULL;
	return literal(unit, jf_node_field(n, JF_F_subscript));
}

static void env_written(jf_py_names *names, char *var)
{
	if (var)
		jf_array_push(&names->env_written, jf_arena_strdup(&names->arena, var));
	else
		names->env_writes_unknown = true;
	free(var);
}

/* names->env_written and env_writes_unknown from the assignments and calls of `f`. */
static void read_env_writes(jf_py_names *names, const jf_pyfacts *f)
{
	const jf_file *unit = f->file;
	if (!jf_py_mentions_environ(unit))
		return;
	for (size_t k = 0; k < f->nodes.size; k++) {
		const jf_py_node *pn = &f->nodes.items[k];
		if (pn->kind == JF_PY_ASSIGNMENT || pn->kind == JF_PY_AUGMENTED_ASSIGNMENT) {
			if (jf_node_type_is(pn->a, JF_T_subscript) &&
			    is_environ(unit, jf_node_field(pn->a, JF_F_value)))
				env_written(names, jf_py_environ_subscript(unit, pn->a));
		} else if (pn->kind == JF_PY_CALL && !ts_node_is_null(pn->a) &&
		           (node_holds(unit->src->data, pn->a, "environ") ||
		            node_holds(unit->src->data, pn->a, "putenv"))) {
			TSNode fn = pn->a;
			bool method = jf_node_type_is(fn, JF_T_attribute) &&
			              is_environ(unit, jf_node_field(fn, JF_F_object));
			TSNode attr = method ? jf_node_field(fn, JF_F_attribute) : (TSNode){ 0 };
			if ((method && jf_node_is(unit, attr, "setdefault")) ||
			    jf_node_is(unit, fn, "os.putenv") || jf_node_is(unit, fn, "putenv"))
				env_written(names, literal(unit, ts_node_named_child(pn->b, 0)));
			names->env_writes_unknown |= method && jf_node_is(unit, attr, "update");
		}
	}
	jf_arena_adopt_array(&names->arena, &names->env_written);
}

/* Whether the import at `at` may not run, or its failure is caught: in a
 * `try` (`try: from kernels import fused except ImportError: fused = None`),
 * or in a function that the file itself does not call from its top level
 * (its `__main__` block included). */
static bool import_may_not_run(const jf_file *file, const jf_pyfacts *py, TSNode at)
{
	TSNode outer = { 0 };
	for (TSNode p = ts_node_parent(at); !ts_node_is_null(p); p = ts_node_parent(p)) {
		if (jf_node_type_is(p, JF_T_function_definition))
			outer = p;
		if (jf_node_type_is(p, JF_T_try_statement))
			return true;
	}
	if (ts_node_is_null(outer))
		return false;
	char *name = jf_node_text(file, jf_node_field(outer, JF_F_name));
	bool called = false;
	for (size_t k = 0; k < py->of_kind[JF_PY_CALL].size && !called; k++) {
		const jf_py_node *pn = jf_pyfacts_at(py, JF_PY_CALL, k);
		called = pn->def == JF_PY_NONE && jf_node_type_is(pn->a, JF_T_identifier) &&
		         jf_node_is(file, pn->a, name);
	}
	free(name);
	return !called;
}

/* The text of node `n` in `names`' arena, or NULL for a null node. */
static const char *text_in(jf_py_names *names, const jf_file *file, TSNode n)
{
	return ts_node_is_null(n) ? NULL : jf_node_text_in(&names->arena, file, n);
}

/* The imports of `py` as text. */
static void read_imports(jf_py_names *names, const jf_pyfacts *py)
{
	const jf_file *file = py->file;
	for (size_t i = 0; i < py->imports.size; i++) {
		const jf_py_import *imp = &py->imports.items[i];
		TSNode at = ts_node_is_null(imp->module) ? imp->from : imp->module;
		jf_py_import_text t = { text_in(names, file, imp->module),
			                text_in(names, file, imp->from), NULL,
			                import_may_not_run(file, py, at) };
		jf_span name = ts_node_is_null(imp->name) ? (jf_span){ 0, 0 } : jf_node_span(imp->name);
		if (name.end > name.start &&
		    !memchr(file->src->data + name.start, '.', name.end - name.start))
			t.sub = text_in(names, file, imp->name);
		jf_array_push(&names->imports, t);
	}
	jf_arena_adopt_array(&names->arena, &names->imports);
}

/* `s` (`len` bytes) in `names`' arena, once: `kept` holds those kept so far. */
static const char *kept_in(jf_py_names *names, jf_strmap *kept, const char *s, size_t len)
{
	const char *k = jf_strmap_get(kept, s, len);
	if (!k) {
		k = jf_arena_strndup(&names->arena, s, len);
		jf_strmap_put(kept, k, len, (void *)k);
	}
	return k;
}

typedef JF_ARRAY(jf_py_call) py_calls;

/* Adds `call` to `calls` unless one like it is there (the same kept name and
 * outer, bare or not, in __main__ or not: `seen` holds their identities). */
static void add_call(py_calls *calls, jf_strmap *seen, jf_py_call call)
{
	char key[2 * sizeof(char *) + 2];
	memcpy(key, &call.name, sizeof call.name);
	memcpy(key + sizeof call.name, &call.outer, sizeof call.outer);
	key[sizeof key - 2] = call.bare;
	key[sizeof key - 1] = call.main;
	if (jf_strmap_get(seen, key, sizeof key))
		return;
	jf_strmap_put(seen, key, sizeof key, (void *)1);
	jf_array_push(calls, call);
}

jf_py_names *jf_py_names_read(const jf_pyfacts *f)
{
	const jf_file *file = f->file;
	jf_py_names *names = jf_xcalloc(1, sizeof *names);
	/* Each name is kept once: a file calls the same few names again and
	 * again, and the calls of one definition follow each other. A call
	 * like one before it (the same name, bare or not, in the same outermost
	 * definition and the same block) is not kept again: the questions
	 * asked of the calls ask of each such kind of call once. */
	jf_strmap kept = JF_STRMAP_INIT, seen = JF_STRMAP_INIT;
	py_calls calls = { 0 };
	uint32_t outer_def = JF_PY_NONE;
	const char *outer = NULL;
	for (size_t k = 0; k < f->of_kind[JF_PY_CALL].size; k++) {
		const jf_py_node *pn = jf_pyfacts_at(f, JF_PY_CALL, k);
		jf_py_call call = { 0 };
		char *text = jf_node_text(file, pn->a);
		const char *dot = strrchr(text, '.'), *name = dot ? dot + 1 : text;
		call.bare = !dot;
		size_t len = strlen(name);
		call.name = kept_in(names, &kept, name, len);
		/* `Builder.build(...)`: a method called on its class runs the class's
		 * code, as a call of the class itself does */
		const char *cls = dot && strchr(text, '.') == dot && isupper((unsigned char)text[0])
		                          ? kept_in(names, &kept, text, (size_t)(dot - text))
		                          : NULL;
		free(text);
		uint32_t def = outermost_index(f, pn);
		if (def != outer_def) {
			outer_def = def;
			TSNode name_of = def == JF_PY_NONE ? (TSNode){ 0 }
			                                   : jf_node_field(f->nodes.items[def].node, JF_F_name);
			outer = ts_node_is_null(name_of) ? NULL
			                                 : jf_node_text_in(&names->arena, file, name_of);
		}
		call.outer = outer;
		call.main = under_main_guard(f, pn->node);
		add_call(&calls, &seen, call);
		if (cls) {
			call.name = cls;
			call.bare = true; /* the class is a name of this file, or another's */
			add_call(&calls, &seen, call);
		}
	}
	/* A class calls its bases: what runs of a base runs when its subclass is
	 * made (TrainOptions(BaseOptions): BaseOptions' methods). */
	for (size_t i = 0; i < f->of_kind[JF_PY_CLASS].size; i++) {
		const jf_py_node *pn = jf_pyfacts_at(f, JF_PY_CLASS, i);
		TSNode sup = jf_node_field(pn->node, JF_F_superclasses);
		uint32_t def = outermost_index(f, pn);
		TSNode owner = jf_node_field(def == JF_PY_NONE ? pn->node : f->nodes.items[def].node,
		                             JF_F_name);
		for (uint32_t k = 0; !ts_node_is_null(sup) && k < ts_node_named_child_count(sup); k++) {
			TSNode base = ts_node_named_child(sup, k);
			if (!jf_node_type_is(base, JF_T_identifier) && !jf_node_type_is(base, JF_T_attribute))
				continue;
			char *text = jf_node_text(file, base);
			const char *dot = strrchr(text, '.'), *name = dot ? dot + 1 : text;
			jf_py_call call = { kept_in(names, &kept, name, strlen(name)),
				            jf_node_text_in(&names->arena, file, owner), !dot,
				            under_main_guard(f, pn->node) };
			free(text);
			jf_array_push(&calls, call);
		}
	}
	jf_strmap_release(&kept);
	jf_strmap_release(&seen);
	names->calls.items = jf_arena_calloc(&names->arena, calls.size ? calls.size : 1,
	                                     sizeof *names->calls.items);
	if (calls.size)
		memcpy(names->calls.items, calls.items, calls.size * sizeof *calls.items);
	names->calls.size = names->calls.cap = calls.size;
	jf_array_release(&calls);
	static const jf_py_kind kinds[] = { JF_PY_FUNCTION, JF_PY_CLASS };
	for (size_t k = 0; k < 2; k++)
		for (size_t i = 0; i < f->of_kind[kinds[k]].size; i++) {
			TSNode name = jf_node_field(jf_pyfacts_at(f, kinds[k], i)->node, JF_F_name);
			if (ts_node_is_null(name))
				continue;
			char *text = jf_node_text(file, name);
			jf_array_push(&names->defined, jf_arena_strdup(&names->arena, text));
			free(text);
		}
	jf_arena_adopt_array(&names->arena, &names->defined);
	read_env_writes(names, f);
	read_imports(names, f);
	return names;
}

jf_pyfacts *jf_pyfacts_read(jf_file *file)
{
	jf_pyfacts *f = jf_xcalloc(1, sizeof(*f));
	f->file = file;
	walker w = { f, file->src->data, JF_PY_NONE, JF_PY_NONE,
		     memmem(file->src->data, file->src->len, "__main__", 8) != NULL };
	JF_ARRAY(open_def) open = { 0 };
	JF_ARRAY(level) path = { 0 }; /* by depth */
	TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(file->tree));
	uint32_t depth = 0;
	for (;;) {
		/* Leave the definitions the cursor has come out of. */
		while (open.size && jf_array_last(&open)->depth >= depth) {
			open.size--;
			w.def = w.scope = JF_PY_NONE;
			for (size_t i = open.size; i-- > 0;) {
				if (w.scope == JF_PY_NONE)
					w.scope = open.items[i].index;
				if (w.def == JF_PY_NONE && !open.items[i].lambda)
					w.def = open.items[i].index;
			}
		}
		TSNode n = ts_tree_cursor_current_node(&c);
		bool named = ts_node_is_named(n);
		jf_type type = named ? jf_node_type(n) : JF_T_NONE;
		level here = { type, JF_PY_NONE, named && has_fields(type), false };
		/* A leaf has no child to go to: spare the cursor the try. */
		bool descend = ts_node_child_count(n) > 0;
		if (named) {
			level *up = depth ? &path.items[depth - 1] : NULL;
			jf_field_id field =
			    up && up->fields ? jf_field_of(n, ts_tree_cursor_current_field_id(&c)) : JF_F_NONE;
			if (field)
				visit_field(&w, up, field, n);
			here.fact = visit(&w, n, type, &descend);
			jf_py_kind kind = here.fact != JF_PY_NONE ? f->nodes.items[here.fact].kind
			                                          : JF_PY_KIND_COUNT;
			if (kind == JF_PY_FUNCTION || kind == JF_PY_CLASS || kind == JF_PY_LAMBDA) {
				open_def d = { here.fact, depth, kind == JF_PY_LAMBDA };
				jf_array_push(&open, d);
				w.scope = here.fact;
				if (kind != JF_PY_LAMBDA)
					w.def = here.fact;
			}
		}
		while (path.size <= depth)
			jf_array_push(&path, here);
		path.items[depth] = here;
		if (descend && ts_tree_cursor_goto_first_child(&c)) {
			depth++;
			continue;
		}
		while (!ts_tree_cursor_goto_next_sibling(&c)) {
			if (!ts_tree_cursor_goto_parent(&c))
				goto done;
			depth--;
		}
	}
done:
	ts_tree_cursor_delete(&c);
	jf_array_release(&open);
	jf_array_release(&path);
	file->walks++;
	/* Done growing: the lists belong to the file from here on. */
	jf_arena_adopt_array(&f->arena, &f->nodes);
	for (int k = 0; k < JF_PY_KIND_COUNT; k++)
		jf_arena_adopt_array(&f->arena, &f->of_kind[k]);
	jf_arena_adopt_array(&f->arena, &f->imports);
	jf_arena_adopt_array(&f->arena, &f->absolute_imports);
	jf_arena_adopt_array(&f->arena, &f->bindings);
	jf_arena_adopt_array(&f->arena, &f->main_blocks);
	return f;
}

void jf_pyfacts_free(jf_pyfacts *self)
{
	if (!self)
		return;
	jf_arena_release(&self->arena);
	free(self);
}

void jf_py_names_free(jf_py_names *self)
{
	if (!self)
		return;
	jf_arena_release(&self->arena);
	free(self);
}

void jf_py_names_write(jf_buf *b, const jf_py_names *names)
{
	jf_wire_put_u32(b, (uint32_t)names->calls.size);
	for (size_t i = 0; i < names->calls.size; i++) {
		const jf_py_call *c = &names->calls.items[i];
		jf_wire_put_str(b, c->name);
		jf_wire_put_str(b, c->outer);
		jf_wire_put_u8(b, (uint8_t)(c->bare | c->main << 1));
	}
	jf_wire_put_strings(b, names->defined.items, names->defined.size);
	jf_wire_put_strings(b, names->env_written.items, names->env_written.size);
	jf_wire_put_u8(b, names->env_writes_unknown);
	jf_wire_put_u32(b, (uint32_t)names->imports.size);
	for (size_t i = 0; i < names->imports.size; i++) {
		const jf_py_import_text *t = &names->imports.items[i];
		jf_wire_put_str(b, t->module);
		jf_wire_put_str(b, t->from);
		jf_wire_put_str(b, t->sub);
		jf_wire_put_u8(b, t->may_not_run);
	}
	jf_cmdline_record_write(b, names->cmdline);
}

/* The next string, kept once in `names`' arena (kept_in()). */
static const char *get_kept(jf_wire *w, jf_py_names *names, jf_strmap *kept)
{
	uint32_t len;
	char *s = jf_wire_get_bytes(w, &len);
	const char *k = s ? kept_in(names, kept, s, len) : NULL;
	free(s);
	return k;
}

jf_py_names *jf_py_names_load(jf_wire *w, const jf_file *file)
{
	jf_py_names *names = jf_xcalloc(1, sizeof *names);
	jf_strmap kept = JF_STRMAP_INIT;
	jf_arena *arena = &names->arena;
	names->calls.items = jf_wire_get_items(w, arena, sizeof *names->calls.items, 9,
	                                       &names->calls.size);
	names->calls.cap = names->calls.size;
	for (size_t i = 0; i < names->calls.size && !w->bad; i++) {
		jf_py_call *c = &names->calls.items[i];
		c->name = get_kept(w, names, &kept);
		c->outer = get_kept(w, names, &kept);
		uint8_t flags = jf_wire_get_u8(w);
		c->bare = flags & 1;
		c->main = flags & 2;
		if (!c->name || flags > 3)
			w->bad = true;
	}
	jf_strmap_release(&kept);
	names->defined.items = jf_wire_get_strings_in(w, arena, &names->defined.size);
	names->defined.cap = names->defined.size;
	names->env_written.items = jf_wire_get_strings_in(w, arena, &names->env_written.size);
	names->env_written.cap = names->env_written.size;
	names->env_writes_unknown = jf_wire_get_bool(w);
	names->imports.items = jf_wire_get_items(w, arena, sizeof *names->imports.items, 13,
	                                         &names->imports.size);
	names->imports.cap = names->imports.size;
	for (size_t i = 0; i < names->imports.size && !w->bad; i++) {
		jf_py_import_text *t = &names->imports.items[i];
		t->module = jf_wire_get_str_in(w, arena);
		t->from = jf_wire_get_str_in(w, arena);
		t->sub = jf_wire_get_str_in(w, arena);
		t->may_not_run = jf_wire_get_bool(w);
	}
	names->cmdline = jf_cmdline_record_load(w, arena, file);
	if (w->bad) {
		jf_py_names_free(names);
		return NULL;
	}
	return names;
}

uint32_t jf_pyfacts_find(const jf_pyfacts *self, TSNode n)
{
	/* Nodes are in pre-order: starts never decrease. */
	uint32_t start = ts_node_start_byte(n);
	size_t lo = 0, hi = self->nodes.size;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ts_node_start_byte(self->nodes.items[mid].node) < start)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < self->nodes.size; i++) {
		TSNode m = self->nodes.items[i].node;
		if (ts_node_start_byte(m) != start)
			break;
		if (ts_node_eq(m, n))
			return (uint32_t)i;
	}
	return JF_PY_NONE;
}

size_t jf_pyfacts_first_at(const jf_pyfacts *self, jf_py_kind kind, uint32_t byte)
{
	/* Nodes are in pre-order: their starts never decrease. */
	size_t lo = 0, hi = self->of_kind[kind].size;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ts_node_start_byte(jf_pyfacts_at(self, kind, mid)->node) < byte)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

uint32_t jf_pyfacts_scope_of(const jf_pyfacts *self, TSNode body)
{
	TSNode owner = ts_node_parent(body);
	return ts_node_is_null(owner) ? JF_PY_NONE : jf_pyfacts_find(self, owner);
}

/* What runs when a module is imported */

/* Whether node `n` lies in an `if __name__ == "__main__":` block, which a
 * module does not run when it is imported. */
static bool under_main_guard(const jf_pyfacts *py, TSNode n)
{
	uint32_t at = ts_node_start_byte(n);
	for (size_t i = 0; i < py->main_blocks.size; i++)
		if (py->main_blocks.items[i].start <= at && at < py->main_blocks.items[i].end)
			return true;
	return false;
}

/* Whether a file (its `names`) defines a function or class named `name`. */
static bool defines(const jf_py_names *names, const char *name)
{
	for (size_t i = 0; i < names->defined.size; i++)
		if (!strcmp(names->defined.items[i], name))
			return true;
	return false;
}

void jf_py_called_names(const jf_pyfiles *files, const jf_pyfacts *entry, jf_strmap *out)
{
	for (size_t i = 0; i < files->ws->files.size; i++) {
		const jf_file *u = files->ws->files.items[i];
		bool is_entry = (entry && entry->file == u) || u->role == JF_ROLE_ENTRY;
		const jf_py_names *names = entry && entry->file == u ? entry->names
		                                                     : jf_pyfiles_names(files, u);
		if (!names || (!is_entry && u->role != JF_ROLE_MODULE))
			continue;
		for (size_t k = 0; k < names->calls.size; k++) {
			const jf_py_call *call = &names->calls.items[k];
			if ((is_entry || !call->main) && !jf_strmap_has(out, call->name) &&
			    !(call->bare && defines(names, call->name)))
				jf_strmap_add(out, call->name);
		}
	}
}

/* The recorded function or class outermost around `pn`, or JF_PY_NONE. */
static uint32_t outermost_index(const jf_pyfacts *py, const jf_py_node *pn)
{
	uint32_t def = pn->def;
	while (def != JF_PY_NONE && py->nodes.items[def].def != JF_PY_NONE)
		def = py->nodes.items[def].def;
	return def;
}

/* The name of the function or class outermost around `pn`, or a null node. */
static TSNode outermost_definition(const jf_pyfacts *py, const jf_py_node *pn)
{
	uint32_t def = outermost_index(py, pn);
	return def == JF_PY_NONE ? (TSNode){ 0 } : jf_node_field(py->nodes.items[def].node, JF_F_name);
}

/* Whether a node outside `__main__` whose outermost definition is named
 * `name` (`len` bytes; NULL: none) runs for the job. */
static bool outer_runs(const char *name, size_t len, const jf_strmap *called,
                       const jf_strmap *own)
{
	return !name || jf_strmap_get(called, name, len) || jf_strmap_get(own, name, len);
}

jf_py_place jf_py_place_of(jf_arena *arena, const jf_pyfacts *py, const jf_py_node *pn)
{
	TSNode def = outermost_definition(py, pn);
	return (jf_py_place){ under_main_guard(py, pn->node),
		              ts_node_is_null(def) ? NULL : jf_node_text_in(arena, py->file, def) };
}

bool jf_py_place_runs(const jf_py_place *place, const jf_strmap *called, const jf_strmap *own)
{
	return !place->main && outer_runs(place->outer, place->outer ? strlen(place->outer) : 0,
	                                  called, own);
}

void jf_py_own_calls(const jf_py_names *names, const jf_strmap *called, jf_strmap *out)
{
	/* The calls of the definitions reached so far, until no new name is added. */
	size_t n = names->calls.size;
	bool *done = jf_xcalloc(n ? n : 1, sizeof *done);
	for (size_t k = 0; k < n; k++)
		done[k] = names->calls.items[k].main;
	for (bool grew = true; grew;) {
		grew = false;
		for (size_t k = 0; k < n; k++) {
			const jf_py_call *call = &names->calls.items[k];
			if (done[k] || (call->outer && !jf_strmap_has(called, call->outer) &&
			                !jf_strmap_has(out, call->outer)))
				continue;
			done[k] = true;
			grew |= jf_strmap_add(out, call->name);
		}
	}
	free(done);
}
