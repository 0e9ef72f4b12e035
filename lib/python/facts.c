/* facts.c - one walk over a Python file's tree, keeping what the checks ask about
 *
 * Node types and fields are compared as the integer ids of the grammar,
 * looked up once per walk. The walk is a tree cursor in pre-order with a
 * stack of the definitions it is in.
 */
#define _GNU_SOURCE /* memmem */
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
	TSFieldId left, right, name, alias, object, value, module_name, function, arguments,
		attribute_field;
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
	FIELD(arguments);
#undef FIELD
	g->attribute_field = field(l, "attribute");
}

/* A node on the cursor's path from the root: what the walk knows of it while
 * it visits the node's children. */
typedef struct {
	TSSymbol symbol;
	uint32_t fact;    /* its index in `nodes`, or JF_PY_NONE */
	bool fields;      /* visit_field() looks at its children's fields */
	bool bound_left;  /* an assignment whose left side bound a plain name */
} level;

typedef struct {
	jf_pyfacts *f;
	const grammar *g;
	const char *text;
	uint32_t def, scope; /* the innermost definition, and scope, of the node being visited */
} walker;

static uint32_t add(walker *w, TSNode n, jf_py_kind kind)
{
	jf_py_node pn = { n, { { 0 }, 0, 0 }, { { 0 }, 0, 0 }, w->def, w->scope, kind };
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
	if (type_of(id) != w->g->identifier)
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
	const grammar *g = w->g;
	jf_pyfacts *f = w->f;
	if (!from) {
		uint32_t count = ts_node_named_child_count(n);
		for (uint32_t i = 0; i < count; i++) {
			TSNode c = ts_node_named_child(n, i);
			if (type_of(c) == g->aliased_import)
				c = child(c, g->name);
			if (type_of(c) != g->dotted_name)
				continue;
			jf_py_import im = { .module = c };
			jf_array_push(&f->imports, im);
			jf_array_push(&f->absolute_imports, c);
		}
		return;
	}
	TSNode module = child(n, g->module_name);
	if (type_of(module) != g->dotted_name && type_of(module) != g->relative_import)
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
		if (!wildcard && type_of(name) != g->dotted_name)
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

/* What node `n` is to its parent (`up`, in field `field`): a field the
 * parent's fact keeps, or a name the parent binds. */
static void visit_field(walker *w, level *up, TSFieldId field, TSNode n)
{
	const grammar *g = w->g;
	TSSymbol p = up->symbol;
	if (up->fact != JF_PY_NONE) {
		jf_py_node *pn = &w->f->nodes.items[up->fact];
		if ((p == g->call && field == g->function) ||
		    ((p == g->assignment || p == g->augmented_assignment || p == g->for_statement) &&
		     field == g->left) ||
		    (p == g->attribute && field == g->object))
			pn->a = n;
		else if ((p == g->call && field == g->arguments) ||
		         ((p == g->assignment || p == g->augmented_assignment) && field == g->right) ||
		         (p == g->attribute && field == g->attribute_field))
			pn->b = n;
	}
	if (field == g->left && (p == g->assignment || p == g->augmented_assignment ||
	                         p == g->for_statement || p == g->for_in_clause)) {
		up->bound_left = bind(w, n) && p == g->assignment;
	} else if (field == g->right && up->bound_left) {
		/* NAME = <...>.parse_args(...) */
		TSNode fn = type_of(n) == g->call ? child(n, g->function) : (TSNode){ 0 };
		if (type_of(fn) == g->attribute && text_is(w, child(fn, g->attribute_field), "parse_args"))
			jf_array_last(&w->f->bindings)->parsed = true;
	} else if (field == g->name &&
	           (p == g->named_expression || p == g->default_parameter ||
	            p == g->typed_default_parameter || p == g->function_definition ||
	            p == g->class_definition)) {
		bind(w, n);
	} else if (field == g->alias && p == g->aliased_import) {
		bind(w, n);
	}
}

/* Whether visit_field() looks at the fields of the children of a node of type `s`. */
static bool has_fields(const grammar *g, TSSymbol s)
{
	return s == g->call || s == g->assignment || s == g->augmented_assignment ||
	       s == g->attribute || s == g->for_statement || s == g->for_in_clause ||
	       s == g->named_expression || s == g->default_parameter ||
	       s == g->typed_default_parameter || s == g->function_definition ||
	       s == g->class_definition || s == g->aliased_import;
}

/* Records node `n` of type `s`; returns the index of its fact, or JF_PY_NONE.
 * Sets *descend to false when nothing under it matters. */
static uint32_t visit(walker *w, TSNode n, TSSymbol s, bool *descend)
{
	const grammar *g = w->g;
	if (s == g->identifier) {
		return JF_PY_NONE; /* the commonest node: nothing of its own */
	} else if (s == g->call) {
		return add(w, n, JF_PY_CALL);
	} else if (s == g->attribute) {
		return add(w, n, JF_PY_ATTRIBUTE);
	} else if (s == g->assignment || s == g->augmented_assignment) {
		return add(w, n, s == g->assignment ? JF_PY_ASSIGNMENT : JF_PY_AUGMENTED_ASSIGNMENT);
	} else if (s == g->string) {
		if (is_fstring(w, n))
			return add(w, n, JF_PY_SYNTAX);
		*descend = false; /* no interpolation: only its text under it */
	} else if (s == g->subscript) {
		if ((starts_with(w, n, "os.environ") || starts_with(w, n, "environ")) &&
		    (text_is(w, child(n, g->value), "os.environ") ||
		     text_is(w, child(n, g->value), "environ")))
			return add(w, n, JF_PY_ENVIRON_SUBSCRIPT);
	} else if (s == g->function_definition || s == g->class_definition) {
		return add(w, n, s == g->function_definition ? JF_PY_FUNCTION : JF_PY_CLASS);
	} else if (s == g->lambda) {
		return add(w, n, JF_PY_LAMBDA);
	} else if (s == g->decorated_definition) {
		return add(w, n, JF_PY_DECORATED);
	} else if (s == g->for_statement) {
		return add(w, n, JF_PY_FOR);
	} else if (s == g->import_statement || s == g->import_from_statement) {
		uint32_t index = add(w, n, JF_PY_IMPORT);
		read_import(w, n, s == g->import_from_statement);
		return index;
	} else if (s == g->named_expression || s == g->typed_default_parameter) {
		return add(w, n, JF_PY_SYNTAX);
	} else if (s == g->typed_parameter) {
		bind_children(w, n);
		return add(w, n, JF_PY_SYNTAX);
	} else if (s == g->pattern_list || s == g->tuple_pattern || s == g->list_pattern ||
	           s == g->as_pattern_target || s == g->parameters || s == g->lambda_parameters ||
	           s == g->list_splat_pattern || s == g->dictionary_splat_pattern ||
	           s == g->global_statement || s == g->nonlocal_statement || s == g->dotted_name) {
		bind_children(w, n);
		*descend = s != g->dotted_name; /* a dotted name holds names only */
	} else if (s == g->positional_separator || s == g->with_clause || s == g->match_statement ||
	           s == g->except_clause || s == g->type_parameter || s == g->type_alias_statement ||
	           s == g->print_statement || s == g->exec_statement) {
		return add(w, n, JF_PY_SYNTAX);
	} else if (s == g->keyword_argument) {
		if ((starts_with(w, n, "async") || starts_with(w, n, "await")) &&
		    (text_is(w, child(n, g->name), "async") || text_is(w, child(n, g->name), "await")))
			return add(w, n, JF_PY_SYNTAX);
	}
	return JF_PY_NONE;
}

/* A definition the walk is in, and the cursor depth of its node. */
typedef struct {
	uint32_t index, depth;
	bool lambda;
} open_def;

const jf_pyfacts *jf_pyfacts_read(jf_file *file)
{
	jf_pyfacts *f = jf_arena_alloc(&file->arena, sizeof(*f));
	f->file = file;
	f->mentions_main = memmem(file->src->data, file->src->len, "__main__", 8) != NULL;
	grammar g;
	grammar_init(&g, ts_tree_language(file->tree));
	walker w = { f, &g, file->src->data, JF_PY_NONE, JF_PY_NONE };
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
		TSSymbol symbol = named ? ts_node_symbol(n) : 0;
		level here = { symbol, JF_PY_NONE, named && has_fields(&g, symbol), false };
		/* A leaf has no child to go to: spare the cursor the try. */
		bool descend = ts_node_child_count(n) > 0;
		if (named) {
			level *up = depth ? &path.items[depth - 1] : NULL;
			TSFieldId field = up && up->fields ? ts_tree_cursor_current_field_id(&c) : 0;
			if (field)
				visit_field(&w, up, field, n);
			here.fact = visit(&w, n, symbol, &descend);
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
	jf_arena_adopt_array(&file->arena, &f->nodes);
	for (int k = 0; k < JF_PY_KIND_COUNT; k++)
		jf_arena_adopt_array(&file->arena, &f->of_kind[k]);
	jf_arena_adopt_array(&file->arena, &f->imports);
	jf_arena_adopt_array(&file->arena, &f->absolute_imports);
	jf_arena_adopt_array(&file->arena, &f->bindings);
	return f;
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
	if (!py->mentions_main) /* most modules: no walk up the tree */
		return false;
	const jf_file *unit = py->file;
	for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p)) {
		if (!jf_node_type_is(p, "if_statement"))
			continue;
		TSNode cond = jf_node_field(p, "condition");
		char *text = jf_node_text(unit, cond);
		bool main = strstr(text, "__name__") && strstr(text, "__main__");
		free(text);
		if (main && ts_node_start_byte(n) >= ts_node_end_byte(cond))
			return true;
	}
	return false;
}

/* The last dotted part of a callee: `get_args` of `helper.get_args`. */
static char *callee_name(const jf_file *unit, TSNode fn)
{
	char *text = jf_node_text(unit, fn);
	char *dot = strrchr(text, '.');
	char *name = jf_xstrdup(dot ? dot + 1 : text);
	free(text);
	return name;
}

/* Whether `py` defines a function or class named `name`. */
static bool defines(const jf_pyfacts *py, const char *name)
{
	static const jf_py_kind kinds[] = { JF_PY_FUNCTION, JF_PY_CLASS };
	for (size_t k = 0; k < 2; k++)
		for (size_t i = 0; i < py->of_kind[kinds[k]].size; i++)
			if (jf_node_is(py->file, jf_node_field(jf_pyfacts_at(py, kinds[k], i)->node, "name"),
			               name))
				return true;
	return false;
}

void jf_py_called_names(const jf_pyfiles *files, const jf_pyfacts *entry, jf_strmap *out)
{
	for (size_t i = 0; i < files->ws->files.size; i++) {
		const jf_file *u = files->ws->files.items[i];
		const jf_pyfacts *py = jf_pyfiles_get(files, u);
		bool is_entry = py == entry || u->role == JF_ROLE_ENTRY;
		if (!py || (!is_entry && u->role != JF_ROLE_MODULE))
			continue;
		for (size_t k = 0; k < py->of_kind[JF_PY_CALL].size; k++) {
			const jf_py_node *pn = jf_pyfacts_at(py, JF_PY_CALL, k);
			if (!is_entry && under_main_guard(py, pn->node))
				continue;
			char *text = jf_node_text(u, pn->a);
			bool bare = !strchr(text, '.');
			free(text);
			char *name = callee_name(u, pn->a);
			if (!jf_strmap_has(out, name) && !(bare && defines(py, name)))
				jf_strmap_add(out, name);
			free(name);
		}
	}
}

/* The name of the outermost function or class around recorded node `pn`; a null node at module level. */
static TSNode outermost_definition(const jf_pyfacts *py, const jf_py_node *pn)
{
	uint32_t def = pn->def;
	while (def != JF_PY_NONE && py->nodes.items[def].def != JF_PY_NONE)
		def = py->nodes.items[def].def;
	return def == JF_PY_NONE ? (TSNode){ 0 } : jf_node_field(py->nodes.items[def].node, "name");
}

bool jf_py_runs_when_imported(const jf_pyfacts *py, const jf_py_node *pn, const jf_strmap *called,
                               const jf_strmap *own)
{
	if (under_main_guard(py, pn->node))
		return false;
	TSNode def = outermost_definition(py, pn);
	if (ts_node_is_null(def))
		return true;
	char *name = jf_node_text(py->file, def);
	bool called_ = jf_strmap_has(called, name) || jf_strmap_has(own, name);
	free(name);
	return called_;
}

void jf_py_own_calls(const jf_pyfacts *py, const jf_strmap *called, jf_strmap *out)
{
	/* Each call's callee and the definition it stands in, once; then the
	 * calls of the definitions reached so far, until no new name is added. */
	size_t n = py->of_kind[JF_PY_CALL].size;
	char **callee = jf_xcalloc(n ? n : 1, sizeof *callee);
	char **in = jf_xcalloc(n ? n : 1, sizeof *in);
	bool *done = jf_xcalloc(n ? n : 1, sizeof *done);
	for (size_t k = 0; k < n; k++) {
		const jf_py_node *pn = jf_pyfacts_at(py, JF_PY_CALL, k);
		done[k] = under_main_guard(py, pn->node);
		if (done[k])
			continue;
		callee[k] = callee_name(py->file, pn->a);
		TSNode def = outermost_definition(py, pn);
		in[k] = ts_node_is_null(def) ? NULL : jf_node_text(py->file, def);
	}
	for (bool grew = true; grew;) {
		grew = false;
		for (size_t k = 0; k < n; k++) {
			if (done[k] || (in[k] && !jf_strmap_has(called, in[k]) && !jf_strmap_has(out, in[k])))
				continue;
			done[k] = true;
			grew |= jf_strmap_add(out, callee[k]);
		}
	}
	for (size_t k = 0; k < n; k++) {
		free(callee[k]);
		free(in[k]);
	}
	free(callee);
	free(in);
	free(done);
}
