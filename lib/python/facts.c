/* facts.c - one walk over a Python file's tree, keeping what the checks ask about
 *
 * Node types and fields are compared as the integer ids of the grammar,
 * looked up once per walk. The walk is a tree cursor in pre-order with a
 * stack of the definitions it is in.
 */
#include "python/facts.h"

#include "sources/tree.h"

/* The grammar's ids of the node types and fields the walk looks at. */
typedef struct {
	TSSymbol call, assignment, augmented_assignment, attribute, subscript, identifier,
		function_definition, class_definition, lambda, decorated_definition, for_statement,
		for_in_clause, import_statement, import_from_statement, dotted_name, aliased_import,
		relative_import, wildcard_import, named_expression, default_parameter,
		typed_default_parameter, typed_parameter, pattern_list, tuple_pattern, list_pattern,
		as_pattern_target, parameters, lambda_parameters, list_splat_pattern,
		dictionary_splat_pattern, global_statement, nonlocal_statement, positional_separator,
		with_clause, match_statement, except_clause, type_parameter, type_alias_statement,
		string, keyword_argument, print_statement, exec_statement;
	TSFieldId left, right, name, alias, object, value, module_name, function;
} grammar;

static TSSymbol symbol(const TSLanguage *lang, const char *name)
{
	TSSymbol s = ts_language_symbol_for_name(lang, name, (uint32_t)strlen(name), true);
	if (!s)
		JF_BUG("the Python grammar has no node type '%s'", name);
	return s;
}

static TSFieldId field(const TSLanguage *lang, const char *name)
{
	TSFieldId f = ts_language_field_id_for_name(lang, name, (uint32_t)strlen(name));
	if (!f)
		JF_BUG("the Python grammar has no field '%s'", name);
	return f;
}

static void grammar_init(grammar *g, const TSLanguage *l)
{
#define SYM(x) g->x = symbol(l, #x)
	SYM(call);
	SYM(assignment);
	SYM(augmented_assignment);
	SYM(attribute);
	SYM(subscript);
	SYM(identifier);
	SYM(function_definition);
	SYM(class_definition);
	SYM(lambda);
	SYM(decorated_definition);
	SYM(for_statement);
	SYM(for_in_clause);
	SYM(import_statement);
	SYM(import_from_statement);
	SYM(dotted_name);
	SYM(aliased_import);
	SYM(relative_import);
	SYM(wildcard_import);
	SYM(named_expression);
	SYM(default_parameter);
	SYM(typed_default_parameter);
	SYM(typed_parameter);
	SYM(pattern_list);
	SYM(tuple_pattern);
	SYM(list_pattern);
	SYM(as_pattern_target);
	SYM(parameters);
	SYM(lambda_parameters);
	SYM(list_splat_pattern);
	SYM(dictionary_splat_pattern);
	SYM(global_statement);
	SYM(nonlocal_statement);
	SYM(positional_separator);
	SYM(with_clause);
	SYM(match_statement);
	SYM(except_clause);
	SYM(type_parameter);
	SYM(type_alias_statement);
	SYM(string);
	SYM(keyword_argument);
	SYM(print_statement);
	SYM(exec_statement);
#undef SYM
#define FIELD(x) g->x = field(l, #x)
	FIELD(left);
	FIELD(right);
	FIELD(name);
	FIELD(alias);
	FIELD(object);
	FIELD(value);
	FIELD(module_name);
	FIELD(function);
#undef FIELD
}

typedef struct {
	jf_pyfacts *f;
	const grammar *g;
	const char *text;
	uint32_t def, scope; /* the innermost definition, and scope, of the node being visited */
} walker;

static uint32_t add(walker *w, TSNode n, jf_py_kind kind)
{
	jf_py_node pn = { n, w->def, w->scope, kind };
	uint32_t index = (uint32_t)w->f->nodes.size;
	jf_array_push(&w->f->nodes, pn);
	jf_array_push(&w->f->of_kind[kind], index);
	return index;
}

/* The child of `n` in field `f`; a null node when `n` is null or has none. */
static TSNode child(TSNode n, TSFieldId f)
{
	return ts_node_is_null(n) ? n : ts_node_child_by_field_id(n, f);
}

/* The type of `n`; 0 (no type) for a null node. */
static TSSymbol type_of(TSNode n)
{
	return ts_node_is_null(n) ? 0 : ts_node_symbol(n);
}

static bool text_is(const walker *w, TSNode n, const char *s)
{
	if (ts_node_is_null(n))
		return false;
	uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
	size_t len = strlen(s);
	return b - a == len && !memcmp(w->text + a, s, len);
}

static void bind(walker *w, TSNode id)
{
	if (type_of(id) == w->g->identifier) {
		jf_py_binding b = { id, false };
		jf_array_push(&w->f->bindings, b);
	}
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
	const grammar *g = w->g;
	jf_pyfacts *f = w->f;
	if (!from) {
		uint32_t count = ts_node_named_child_count(n);
		for (uint32_t i = 0; i < count; i++) {
			TSNode c = ts_node_named_child(n, i);
			if (type_of(c) == g->aliased_import)
				c = child(c, g->name);
			if (ts_node_is_null(c) || type_of(c) != g->dotted_name)
				continue;
			jf_py_import im = { .module = c };
			jf_array_push(&f->imports, im);
			jf_array_push(&f->absolute_imports, c);
		}
		return;
	}
	TSNode module = child(n, g->module_name);
	if (ts_node_is_null(module) ||
	    (type_of(module) != g->dotted_name && type_of(module) != g->relative_import))
		return;
	bool any = false;
	uint32_t count = ts_node_named_child_count(n);
	for (uint32_t i = 0; i < count; i++) {
		TSNode c = ts_node_named_child(n, i);
		if (ts_node_eq(c, module))
			continue;
		TSNode name = c;
		if (type_of(c) == g->aliased_import)
			name = child(c, g->name);
		bool wildcard = type_of(c) == g->wildcard_import;
		if (!wildcard && (ts_node_is_null(name) || type_of(name) != g->dotted_name))
			continue;
		jf_py_import im = { .from = module };
		if (!wildcard)
			im.name = name;
		jf_array_push(&f->imports, im);
		any = true;
	}
	if (any && type_of(module) == g->dotted_name)
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

/* Records node `n`; returns the index of a definition it opens, or JF_PY_NONE. */
static uint32_t visit(walker *w, TSNode n)
{
	const grammar *g = w->g;
	TSSymbol s = ts_node_symbol(n);
	if (s == g->call) {
		add(w, n, JF_PY_CALL);
	} else if (s == g->attribute) {
		TSNode object = child(n, g->object);
		if (!ts_node_is_null(object) && type_of(object) == g->identifier)
			add(w, n, JF_PY_ATTRIBUTE);
	} else if (s == g->identifier || s == g->string) {
		if (s == g->string && is_fstring(w, n))
			add(w, n, JF_PY_SYNTAX);
	} else if (s == g->assignment || s == g->augmented_assignment) {
		add(w, n, s == g->assignment ? JF_PY_ASSIGNMENT : JF_PY_AUGMENTED_ASSIGNMENT);
		TSNode left = child(n, g->left);
		size_t before = w->f->bindings.size;
		bind(w, left);
		TSNode right = child(n, g->right);
		TSNode fn = child(right, g->function);
		if (s == g->assignment && w->f->bindings.size > before &&
		    type_of(right) == g->call && type_of(fn) == g->attribute &&
		    text_is(w, child(fn, g->name), "parse_args"))
			jf_array_last(&w->f->bindings)->parsed = true;
	} else if (s == g->subscript) {
		TSNode v = child(n, g->value);
		if (text_is(w, v, "os.environ") || text_is(w, v, "environ"))
			add(w, n, JF_PY_ENVIRON_SUBSCRIPT);
	} else if (s == g->function_definition || s == g->class_definition) {
		bind(w, child(n, g->name));
		return add(w, n, s == g->function_definition ? JF_PY_FUNCTION : JF_PY_CLASS);
	} else if (s == g->lambda) {
		return add(w, n, JF_PY_LAMBDA);
	} else if (s == g->decorated_definition) {
		add(w, n, JF_PY_DECORATED);
	} else if (s == g->for_statement || s == g->for_in_clause) {
		if (s == g->for_statement)
			add(w, n, JF_PY_FOR);
		bind(w, child(n, g->left));
	} else if (s == g->import_statement || s == g->import_from_statement) {
		add(w, n, JF_PY_IMPORT);
		read_import(w, n, s == g->import_from_statement);
	} else if (s == g->named_expression || s == g->default_parameter ||
	           s == g->typed_default_parameter) {
		bind(w, child(n, g->name));
		if (s != g->default_parameter)
			add(w, n, JF_PY_SYNTAX);
	} else if (s == g->aliased_import) {
		bind(w, child(n, g->alias));
	} else if (s == g->typed_parameter) {
		bind_children(w, n);
		add(w, n, JF_PY_SYNTAX);
	} else if (s == g->pattern_list || s == g->tuple_pattern || s == g->list_pattern ||
	           s == g->as_pattern_target || s == g->parameters || s == g->lambda_parameters ||
	           s == g->list_splat_pattern || s == g->dictionary_splat_pattern ||
	           s == g->global_statement || s == g->nonlocal_statement || s == g->dotted_name) {
		bind_children(w, n);
	} else if (s == g->positional_separator || s == g->with_clause || s == g->match_statement ||
	           s == g->except_clause || s == g->type_parameter || s == g->type_alias_statement ||
	           s == g->print_statement || s == g->exec_statement) {
		add(w, n, JF_PY_SYNTAX);
	} else if (s == g->keyword_argument) {
		TSNode name = child(n, g->name);
		if (text_is(w, name, "async") || text_is(w, name, "await"))
			add(w, n, JF_PY_SYNTAX);
	}
	return JF_PY_NONE;
}

/* A definition the walk is in, and the cursor depth of its node. */
typedef struct {
	uint32_t index, depth;
	bool lambda;
} open_def;

jf_pyfacts *jf_pyfacts_read(jf_file *file)
{
	jf_pyfacts *f = jf_xcalloc(1, sizeof(*f));
	f->file = file;
	grammar g;
	grammar_init(&g, ts_tree_language(file->tree));
	walker w = { f, &g, file->src->data, JF_PY_NONE, JF_PY_NONE };
	JF_ARRAY(open_def) open = { 0 };
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
		if (ts_node_is_named(n)) {
			uint32_t opened = visit(&w, n);
			if (opened != JF_PY_NONE) {
				bool lambda = f->nodes.items[opened].kind == JF_PY_LAMBDA;
				open_def d = { opened, depth, lambda };
				jf_array_push(&open, d);
				w.scope = opened;
				if (!lambda)
					w.def = opened;
			}
		}
		if (ts_tree_cursor_goto_first_child(&c)) {
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
	file->walks++;
	return f;
}

void jf_pyfacts_free(jf_pyfacts *self)
{
	if (!self)
		return;
	jf_array_release(&self->nodes);
	for (int k = 0; k < JF_PY_KIND_COUNT; k++)
		jf_array_release(&self->of_kind[k]);
	jf_array_release(&self->imports);
	jf_array_release(&self->absolute_imports);
	jf_array_release(&self->bindings);
	free(self);
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

uint32_t jf_pyfacts_scope_of(const jf_pyfacts *self, TSNode body)
{
	TSNode owner = ts_node_parent(body);
	return ts_node_is_null(owner) ? JF_PY_NONE : jf_pyfacts_find(self, owner);
}
