/* eval.c - evaluating Python string expressions to constants (see eval.h) */
#include "python/eval.h"

#include "core/path.h"
#include "core/strmap.h"
#include "python/cmdline.h"

#define MAX_DEPTH 24

/* A name's bindings in one file: how many, and the value of a module-level
 * `NAME = <expr>`; `parsed` when one is `NAME = <...>.parse_args(...)`.
 * What a session keeps across files are node references: the facts may
 * release a tree between two evaluations. */
#define MAX_TOP_VALUES 4

typedef struct {
	int count;
	jf_node_ref value;
	bool parsed;
	/* Its module-level `NAME = <expr>` statements in source order, the
	 * first MAX_TOP_VALUES: a name bound only there has, in module-level
	 * code, the value of the last one before the use. */
	int tops;
	jf_node_ref top[MAX_TOP_VALUES];
} binding;

typedef struct {
	const jf_file *unit;
	JF_ARRAY(binding) names;
	jf_strmap by_name; /* the name as written -> 1 + its index in `names` */
} unit_index;

/* An argparse argument of the job (python/cmdline.h), by the dest it stores. */
typedef struct {
	const char *dest;
	const jf_argdef *def; /* in its file's names: they outlive the session */
} argdef;

struct jf_pyeval {
	const jf_job *job; /* NULL when a file is linted alone */
	const jf_workspace *ws;
	jf_pyfiles files;
	const jf_shell_facts *shell;
	JF_ARRAY(unit_index) units;
	JF_ARRAY(argdef) args;
	bool args_read;
	bool needs_runs; /* no `shell`: the last evaluation read an argparse value */
};

typedef struct {
	jf_pyeval *s;
	const jf_file *unit;
	int depth;
} evaluator;

static jf_pyvalue eval(evaluator *e, TSNode n);

void jf_pyvalue_release(jf_pyvalue *v)
{
	free(v->value);
	v->value = NULL;
}

static jf_pyvalue unknown(void)
{
	jf_pyvalue v = { 0 };
	return v;
}

static jf_pyvalue known(char *s, TSNode origin, const jf_file *unit)
{
	jf_pyvalue v = { s, origin, unit, false };
	return v;
}

/* a + b, keeping a's origin (or b's when a is empty). */
static jf_pyvalue concat(jf_pyvalue a, jf_pyvalue b)
{
	if (!a.value || !b.value) {
		jf_pyvalue_release(&a);
		jf_pyvalue_release(&b);
		return unknown();
	}
	jf_pyvalue r = *a.value || ts_node_is_null(b.origin) ? a : b;
	r.value = jf_xasprintf("%s%s", a.value, b.value);
	r.through_names = a.through_names || b.through_names;
	free(a.value);
	free(b.value);
	return r;
}

/* os.path.join / pathlib: an absolute part starts over. */
static jf_pyvalue join(jf_pyvalue a, jf_pyvalue b)
{
	if (!a.value || !b.value || b.value[0] == '/' || !*a.value) {
		if (a.value && b.value) {
			jf_pyvalue_release(&a);
			return b;
		}
		jf_pyvalue_release(&a);
		jf_pyvalue_release(&b);
		return unknown();
	}
	size_t n = strlen(a.value);
	bool slash = a.value[n - 1] == '/';
	jf_pyvalue s = concat(a, known(jf_xstrdup(slash ? "" : "/"), (TSNode){ 0 }, NULL));
	return concat(s, b);
}

/* os.path.normpath and the like: `a/x/..` is `a`. */
static jf_pyvalue normalized(jf_pyvalue v)
{
	if (v.value) {
		char *n = jf_path_normalize(v.value);
		free(v.value);
		v.value = n;
	}
	return v;
}

/* os.path.dirname, pathlib's `.parent` and `.parents[n - 1]`: `n` folders up,
 * as text (`a/x/..` has the parent `a/x`, as in Python). */
static jf_pyvalue parent(jf_pyvalue v, long n)
{
	for (long i = 0; i < n && v.value; i++) {
		char *d = jf_path_dirname(v.value);
		free(v.value);
		v.value = d;
	}
	return v;
}

/* ---- string literals ---- */

static bool decode_escape(const char *s, size_t n, jf_buf *out)
{
	if (n != 2)
		return false;
	switch (s[1]) {
	case '\\': jf_buf_addc(out, '\\'); return true;
	case '\'': jf_buf_addc(out, '\''); return true;
	case '"': jf_buf_addc(out, '"'); return true;
	case 'n': jf_buf_addc(out, '\n'); return true;
	case 't': jf_buf_addc(out, '\t'); return true;
	default: return false;
	}
}

static jf_pyvalue eval_string(evaluator *e, TSNode n)
{
	const char *src = e->unit->src->data;
	const char *p = src + ts_node_start_byte(n), *end = src + ts_node_end_byte(n);
	bool raw = false, f = false;
	for (; p < end && *p != '"' && *p != '\''; p++) {
		if (*p == 'b' || *p == 'B')
			return unknown(); /* bytes are not paths here */
		raw |= *p == 'r' || *p == 'R';
		f |= *p == 'f' || *p == 'F';
	}
	jf_pyvalue r = known(jf_xstrdup(""), n, e->unit);
	jf_buf b = JF_BUF_INIT;
	for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
		TSNode c = ts_node_named_child(n, i);
		jf_type t = jf_node_type(c);
		uint32_t a = ts_node_start_byte(c), z = ts_node_end_byte(c);
		if (t == JF_T_string_content) {
			/* Escapes are children of the content in this grammar. */
			uint32_t at = a;
			for (uint32_t k = 0; k < ts_node_named_child_count(c); k++) {
				TSNode x = ts_node_named_child(c, k);
				uint32_t xa = ts_node_start_byte(x), xz = ts_node_end_byte(x);
				jf_buf_add(&b, src + at, xa - at);
				if (raw)
					jf_buf_add(&b, src + xa, xz - xa);
				else if (!jf_node_type_is(x, JF_T_escape_sequence) ||
				         !decode_escape(src + xa, xz - xa, &b))
					goto fail;
				at = xz;
			}
			jf_buf_add(&b, src + at, z - at);
		} else if (t == JF_T_interpolation && f) {
			if (!ts_node_is_null(jf_node_field(c, JF_F_format_specifier)) ||
			    !ts_node_is_null(jf_node_field(c, JF_F_type_conversion)))
				goto fail;
			jf_pyvalue v = eval(e, jf_node_field(c, JF_F_expression));
			if (!v.value)
				goto fail;
			if (!b.len && !ts_node_is_null(v.origin)) {
				r.origin = v.origin; /* f"{ROOT}/x": ROOT's literal begins it */
				r.origin_unit = v.origin_unit;
			}
			jf_buf_adds(&b, v.value);
			r.through_names |= v.through_names;
			jf_pyvalue_release(&v);
		} else if (t == JF_T_escape_sequence) {
			if (!decode_escape(src + a, z - a, &b))
				goto fail;
		} else if (t != JF_T_string_start && t != JF_T_string_end) {
			goto fail;
		}
	}
	free(r.value);
	r.value = jf_buf_detach(&b, NULL);
	return r;
fail:
	jf_buf_release(&b);
	jf_pyvalue_release(&r);
	return unknown();
}

/* ---- names ---- */

/* The binding of the name `n` of `unit` in `ix`, made on first sight. */
static binding *binding_of(unit_index *ix, const jf_file *unit, TSNode n)
{
	uint32_t a = ts_node_start_byte(n);
	const char *name = unit->src->data + a;
	size_t len = ts_node_end_byte(n) - a;
	void *at = jf_strmap_get(&ix->by_name, name, len);
	if (at)
		return &ix->names.items[(intptr_t)at - 1];
	jf_array_push(&ix->names, ((binding){ 0 }));
	jf_strmap_put(&ix->by_name, name, len, (void *)(intptr_t)ix->names.size);
	return jf_array_last(&ix->names);
}

/* The names of `unit`, indexed on first use: every place a name is bound (an
 * assignment target, a parameter, a loop variable, an import, a def), as the
 * file's facts list them. */
static const unit_index *index_of(jf_pyeval *s, const jf_file *unit)
{
	for (size_t i = 0; i < s->units.size; i++)
		if (s->units.items[i].unit == unit)
			return &s->units.items[i];
	unit_index ix = { unit, { 0 }, JF_STRMAP_INIT };
	const jf_pyfacts *py = jf_pyfiles_get(&s->files, unit);
	for (size_t i = 0; py && i < py->bindings.size; i++) {
		const jf_py_binding *pb = &py->bindings.items[i];
		binding *b = binding_of(&ix, unit, pb->name);
		b->count++;
		b->parsed |= pb->parsed;
	}
	/* Module-level `NAME = <expr>`: the value a single binding has. */
	jf_children kids;
	for (TSNode stmt = jf_children_start(&kids, ts_tree_root_node(unit->tree));
	     py && !ts_node_is_null(stmt); stmt = jf_children_next(&kids)) {
		if (!jf_node_type_is(stmt, JF_T_expression_statement))
			continue;
		uint32_t at = jf_pyfacts_find(py, ts_node_named_child(stmt, 0));
		const jf_py_node *a = at != JF_PY_NONE ? &py->nodes.items[at] : NULL;
		if (a && a->kind == JF_PY_ASSIGNMENT && jf_node_type_is(a->a, JF_T_identifier) &&
		    !ts_node_is_null(a->b)) {
			binding *b = binding_of(&ix, unit, a->a);
			b->value = jf_node_ref_of(a->b);
			if (b->tops < MAX_TOP_VALUES)
				b->top[b->tops] = b->value;
			b->tops++;
		}
	}
	jf_children_release(&kids);
	jf_array_push(&s->units, ix);
	return jf_array_last(&s->units);
}

static const binding *find_binding(jf_pyeval *s, const jf_file *unit, const char *name)
{
	const unit_index *ix = index_of(s, unit);
	void *at = jf_strmap_get(&ix->by_name, name, strlen(name));
	return at ? &ix->names.items[(intptr_t)at - 1] : NULL;
}

/* Whether `n` is in module-level code: in no function, class or lambda. */
static bool at_module_level(TSNode n)
{
	for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p))
		if (jf_node_type_is(p, JF_T_function_definition) || jf_node_type_is(p, JF_T_lambda) ||
		    jf_node_type_is(p, JF_T_class_definition))
			return false;
	return true;
}

/* A name with exactly one binding in its file, `NAME = <expr>` at module
 * level: its value. A name bound only by such statements, used in
 * module-level code: the value of the last one before the use
 * (`ROOT = FILE.parents[0]` ... `ROOT = Path(os.path.relpath(ROOT))`).
 * Anything else (parameters, loops, other reassignments) is unknown. */
static jf_pyvalue eval_name(evaluator *e, TSNode n)
{
	char *name = jf_node_text(e->unit, n);
	const binding *b = find_binding(e->s, e->unit, name);
	free(name);
	jf_node_ref ref = { 0 };
	if (b && b->count == 1) {
		ref = b->value;
	} else if (b && b->count > 1 && b->tops == b->count && b->tops <= MAX_TOP_VALUES &&
	           at_module_level(n)) {
		for (int i = 0; i < b->tops && b->top[i].end <= ts_node_start_byte(n); i++)
			ref = b->top[i];
	}
	/* `n` is of e->unit, whose tree is the one its facts were read from */
	TSNode value = ref.end ? jf_node_find(e->unit->tree, ref) : (TSNode){ 0 };
	if (ts_node_is_null(value))
		return unknown();
	jf_pyvalue v = eval(e, value);
	v.through_names = true;
	return v;
}

/* ---- the environment ---- */

static jf_pyvalue env_value(evaluator *e, TSNode name_node, TSNode fallback)
{
	jf_pyvalue name = eval(e, name_node);
	if (!name.value)
		return unknown();
	const jf_job_var *set = e->s->job ? jf_job_env(e->s->job, name.value) : NULL;
	jf_pyvalue_release(&name);
	jf_pyvalue v = unknown();
	if (set && set->value.value)
		v = known(jf_xstrdup(set->value.value), (TSNode){ 0 }, NULL);
	else if (!set && !ts_node_is_null(fallback))
		v = eval(e, fallback); /* set to what only run time knows: no default applies */
	v.through_names = true;
	return v;
}

/* ---- argparse ---- */

/* The literal value of keyword `key` of call arguments `args`, as a node. */
static TSNode keyword(const jf_file *unit, TSNode args, const char *key)
{
	for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
		TSNode a = ts_node_named_child(args, i);
		if (jf_node_type_is(a, JF_T_keyword_argument) &&
		    jf_node_is(unit, jf_node_field(a, JF_F_name), key))
			return jf_node_field(a, JF_F_value);
	}
	return (TSNode){ 0 };
}

static int argdef_cmp(const void *a, const void *b)
{
	return strcmp(((const argdef *)a)->dest, ((const argdef *)b)->dest);
}

static void add_argdef(void *data, const jf_argdef *d)
{
	jf_pyeval *s = data;
	if (d->dest) {
		argdef a = { d->dest, d };
		jf_array_push(&s->args, a);
	}
}

/* Every argparse argument of the job's Python, from the files' command-line
 * records, read on first use, sorted by dest. */
static void read_arguments(jf_pyeval *s)
{
	if (s->args_read)
		return;
	s->args_read = true;
	for (size_t i = 0; i < s->ws->files.size; i++) {
		const jf_py_names *names = jf_pyfiles_names(&s->files, s->ws->files.items[i]);
		if (names)
			jf_cmdline_record_args(names->cmdline, JF_PARSER_argparse, add_argdef, s);
	}
	if (s->args.size)
		qsort(s->args.items, s->args.size, sizeof(argdef), argdef_cmp);
}

/* Whether `a` and `b` are one option defined twice: the same file, option
 * strings, action and arity. */
static bool same_option(const jf_argdef *a, const jf_argdef *b)
{
	if (a->unit != b->unit || a->act != b->act || a->nargs != b->nargs ||
	    a->options.size != b->options.size || !a->options.size)
		return false;
	for (size_t i = 0; i < a->options.size; i++)
		if (strcmp(a->options.items[i], b->options.items[i]))
			return false;
	return true;
}

/* args.X: the value every run of the script gives X (passed, or the default). */
static jf_pyvalue eval_argument(evaluator *e, TSNode object, TSNode attr)
{
	/* The object holds parse_args()'s result: `NAME = parser.parse_args(...)`
	 * in this file, or the name argparse code gives it everywhere, passed on
	 * to functions (`def train(args)`). */
	static const char *const namespaces[] = { "args", "opt", "opts", "options", NULL };
	if (!jf_node_type_is(object, JF_T_identifier))
		return unknown();
	char *obj = jf_node_text(e->unit, object);
	const binding *b = find_binding(e->s, e->unit, obj);
	bool parsed = (b && b->parsed) || jf_str_in(obj, namespaces);
	free(obj);
	if (!parsed)
		return unknown();
	if (!e->s->shell) {
		e->s->needs_runs = true;
		return unknown();
	}
	char *dest = jf_node_text(e->unit, attr);
	read_arguments(e->s);
	argdef key = { .dest = dest };
	const argdef *hit = e->s->args.size ? bsearch(&key, e->s->args.items, e->s->args.size,
	                                              sizeof(argdef), argdef_cmp)
	                                    : NULL;
	free(dest);
	if (!hit)
		return unknown();
	/* Defined more than once (the sorted list's neighbours store the same
	 * dest): the same word is its value only when every definition is one
	 * option of the same file with the same option strings (two parsers of
	 * one script), and only when a run passes it. */
	const argdef *first = e->s->args.items, *last = first + e->s->args.size - 1;
	while (hit > first && !strcmp(hit[-1].dest, hit->dest))
		hit--;
	bool several = hit < last && !strcmp(hit[1].dest, hit->dest);
	for (const argdef *o = hit + 1; several && o <= last && !strcmp(o->dest, hit->dest); o++)
		if (!same_option(o->def, hit->def))
			return unknown();
	const jf_argdef *d = hit->def;
	if (d->unread || d->act != ACT_STORE || d->nargs != NARGS_ONE)
		return unknown(); /* flags, lists: not a single string */
	/* A positional's word depends on the other arguments: the entry's whole
	 * command line, read from its records. */
	const jf_pyfacts *entry = !d->options.size && d->unit->role == JF_ROLE_ENTRY
	                                  ? jf_pyfiles_get(&e->s->files, d->unit)
	                                  : NULL;
	if (!d->options.size && !entry)
		return unknown();
	jf_cmdline line;
	if (entry)
		jf_cmdline_read(&line, &e->s->files, entry);
	/* Every run that reaches this parser: of this entry, or any for a module. */
	const char *value = NULL;
	bool agree = true, any = false, defaulted = false;
	for (size_t i = 0; i < e->s->shell->invocations.size && agree; i++) {
		const jf_invocation *inv = &e->s->shell->invocations.items[i];
		if (d->unit->role == JF_ROLE_ENTRY && inv->entry != d->unit)
			continue;
		any = true;
		const char *passed;
		switch (entry ? jf_cmdline_positional_passed(&line, d->dest, &inv->args, &passed)
		              : jf_argdef_passed(d, &inv->args, &passed)) {
		case JF_UNKNOWN:
			agree = false;
			break;
		case JF_NO:
			defaulted = true;
			break;
		case JF_YES:
			agree = !value || !strcmp(value, passed);
			value = passed;
			break;
		}
	}
	if (entry)
		jf_cmdline_release(&line);
	jf_pyvalue result = unknown();
	if (agree && any && value && !defaulted) {
		result = known(jf_xstrdup(value), (TSNode){ 0 }, NULL);
	} else if (agree && any && !value && defaulted && !several && d->default_at.end &&
	           jf_pyfiles_get(&e->s->files, d->unit)) {
		/* the definition's file, read again if its tree was released */
		evaluator de = { e->s, d->unit, e->depth + 1 };
		result = eval(&de, jf_node_find(d->unit->tree, d->default_at));
	}
	result.through_names = true;
	return result;
}

/* ---- calls and operators ---- */

static bool callee_is(const jf_file *unit, TSNode fn, const char *const *names)
{
	for (size_t i = 0; names[i]; i++)
		if (jf_node_is(unit, fn, names[i]))
			return true;
	return false;
}

/* Joins every positional argument of `args` (os.path.join, Path(...)). */
static jf_pyvalue join_arguments(evaluator *e, TSNode args, jf_pyvalue start)
{
	jf_pyvalue r = start;
	for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
		TSNode a = ts_node_named_child(args, i);
		if (jf_node_type_is(a, JF_T_keyword_argument) || jf_node_type_is(a, JF_T_list_splat) ||
		    jf_node_type_is(a, JF_T_comment)) {
			jf_pyvalue_release(&r);
			return unknown();
		}
		r = r.value ? join(r, eval(e, a)) : eval(e, a);
		if (!r.value)
			return unknown();
	}
	return r;
}

/* "{}/{name}".format(a, name=b): positional and keyword fields, no specs. */
static jf_pyvalue format_call(evaluator *e, jf_pyvalue fmt, TSNode args)
{
	jf_buf b = JF_BUF_INIT;
	uint32_t next = 0;
	bool through = fmt.through_names;
	for (const char *p = fmt.value; *p; p++) {
		if (*p != '{' && *p != '}') {
			jf_buf_addc(&b, *p);
			continue;
		}
		if (p[0] == p[1]) {
			jf_buf_addc(&b, *p++);
			continue;
		}
		const char *end = strchr(p, '}');
		if (*p == '}' || !end)
			goto fail;
		char *field = jf_xstrndup(p + 1, (size_t)(end - p - 1));
		TSNode arg = { 0 };
		if (!*field) {
			arg = ts_node_named_child(args, next++);
		} else if (field[0] >= '0' && field[0] <= '9') {
			arg = ts_node_named_child(args, (uint32_t)atoi(field));
		} else if (!strpbrk(field, ".[!:")) {
			arg = keyword(e->unit, args, field);
		}
		free(field);
		if (ts_node_is_null(arg) || jf_node_type_is(arg, JF_T_keyword_argument))
			goto fail;
		jf_pyvalue v = eval(e, arg);
		if (!v.value)
			goto fail;
		jf_buf_adds(&b, v.value);
		through |= v.through_names;
		jf_pyvalue_release(&v);
		p = end;
	}
	jf_pyvalue r = fmt;
	free(r.value);
	r.value = jf_buf_detach(&b, NULL);
	r.through_names = through;
	return r;
fail:
	jf_buf_release(&b);
	jf_pyvalue_release(&fmt);
	return unknown();
}

/* "%s/%s" % (a, b): %s only. */
static jf_pyvalue percent(evaluator *e, jf_pyvalue fmt, TSNode right)
{
	jf_buf b = JF_BUF_INIT;
	uint32_t next = 0;
	bool tuple = jf_node_type_is(right, JF_T_tuple);
	for (const char *p = fmt.value; *p; p++) {
		if (*p != '%') {
			jf_buf_addc(&b, *p);
			continue;
		}
		if (p[1] == '%') {
			jf_buf_addc(&b, '%');
			p++;
			continue;
		}
		if (p[1] != 's')
			goto fail;
		TSNode arg = tuple ? ts_node_named_child(right, next) : (next ? (TSNode){ 0 } : right);
		next++;
		jf_pyvalue v = ts_node_is_null(arg) ? unknown() : eval(e, arg);
		if (!v.value)
			goto fail;
		jf_buf_adds(&b, v.value);
		fmt.through_names |= v.through_names;
		jf_pyvalue_release(&v);
		p++;
	}
	free(fmt.value);
	fmt.value = jf_buf_detach(&b, NULL);
	return fmt;
fail:
	jf_buf_release(&b);
	jf_pyvalue_release(&fmt);
	return unknown();
}

static jf_pyvalue eval_call(evaluator *e, TSNode n)
{
	static const char *const joins[] = { "os.path.join", "osp.join", "path.join", "posixpath.join",
		                             NULL };
	static const char *const paths[] = { "Path", "pathlib.Path", "PurePath", "PosixPath",
		                             "pathlib.PurePath", "pathlib.PosixPath", NULL };
	static const char *const same[] = { "str", "os.fspath", NULL };
	/* Python makes these paths normal: `a/x/..` is `a`. */
	static const char *const normal[] = { "os.path.abspath", "os.path.normpath",
		                              "os.path.realpath", "osp.abspath", "osp.normpath",
		                              "osp.realpath", "path.abspath", "path.normpath",
		                              "path.realpath", NULL };
	static const char *const dirnames[] = { "os.path.dirname", "osp.dirname", "path.dirname",
		                                NULL };
	static const char *const getenv[] = { "os.getenv", "os.environ.get", "environ.get", NULL };
	TSNode fn = jf_node_field(n, JF_F_function);
	TSNode args = jf_node_field(n, JF_F_arguments);
	if (!jf_node_type_is(args, JF_T_argument_list))
		return unknown();
	uint32_t nargs = ts_node_named_child_count(args);
	if (callee_is(e->unit, fn, joins) || callee_is(e->unit, fn, paths))
		return nargs ? join_arguments(e, args, unknown()) : unknown();
	if (callee_is(e->unit, fn, same) && nargs == 1)
		return eval(e, ts_node_named_child(args, 0));
	if (callee_is(e->unit, fn, normal) && nargs == 1)
		return normalized(eval(e, ts_node_named_child(args, 0)));
	if (callee_is(e->unit, fn, getenv) && nargs >= 1 && nargs <= 2)
		return env_value(e, ts_node_named_child(args, 0),
		                 nargs == 2 ? ts_node_named_child(args, 1) : (TSNode){ 0 });
	if (callee_is(e->unit, fn, dirnames) && nargs == 1)
		return parent(eval(e, ts_node_named_child(args, 0)), 1);
	if (!jf_node_type_is(fn, JF_T_attribute))
		return unknown();
	TSNode object = jf_node_field(fn, JF_F_object);
	TSNode method = jf_node_field(fn, JF_F_attribute);
	if (jf_node_is(e->unit, method, "format")) {
		jf_pyvalue fmt = eval(e, object);
		return fmt.value ? format_call(e, fmt, args) : unknown();
	}
	if (jf_node_is(e->unit, method, "joinpath")) {
		jf_pyvalue base = eval(e, object);
		return base.value ? join_arguments(e, args, base) : unknown();
	}
	if (jf_node_is(e->unit, method, "resolve") && !nargs)
		return normalized(eval(e, object));
	if ((jf_node_is(e->unit, method, "absolute") || jf_node_is(e->unit, method, "as_posix")) &&
	    !nargs)
		return eval(e, object);
	return unknown();
}

/* __file__: the file's own path in the container, from the folder the shell
 * found it in, or for a module, from where it lies in the code folder (the
 * workdir's copy). */
static jf_pyvalue this_file(evaluator *e)
{
	const jf_file *u = e->unit;
	const jf_job *j = e->s->job;
	const char *base = strrchr(u->src->path, '/');
	if (u->container_dir)
		return known(jf_path_join(u->container_dir, base ? base + 1 : u->src->path),
		             (TSNode){ 0 }, NULL);
	const char *rel = j && j->code_dir && u->fs_path ? jf_path_under(u->fs_path, j->code_dir)
	                                                 : NULL;
	if (!rel || !*rel)
		return unknown();
	return known(jf_path_join(jf_job_workdir(j), rel), (TSNode){ 0 }, NULL);
}

/* Whether attribute `n` is pathlib's `.parent` (and not an argparse value
 * of that name: `args.parent`). */
static bool is_parent(evaluator *e, TSNode n)
{
	static const char *const namespaces[] = { "args", "opt", "opts", "options", NULL };
	TSNode object = jf_node_field(n, JF_F_object);
	if (!jf_node_is(e->unit, jf_node_field(n, JF_F_attribute), "parent"))
		return false;
	if (!jf_node_type_is(object, JF_T_identifier))
		return true;
	char *name = jf_node_text(e->unit, object);
	const binding *b = find_binding(e->s, e->unit, name);
	bool parsed = (b && b->parsed) || jf_str_in(name, namespaces);
	free(name);
	return !parsed;
}

static jf_pyvalue eval(evaluator *e, TSNode n)
{
	if (ts_node_is_null(n) || e->depth >= MAX_DEPTH)
		return unknown();
	e->depth++;
	jf_pyvalue r = unknown();
	jf_type t = jf_node_type(n);
	if (t == JF_T_string) {
		r = eval_string(e, n);
	} else if (t == JF_T_concatenated_string) {
		r = known(jf_xstrdup(""), n, e->unit);
		for (uint32_t i = 0; i < ts_node_named_child_count(n) && r.value; i++)
			r = concat(r, eval(e, ts_node_named_child(n, i)));
	} else if (t == JF_T_parenthesized_expression) {
		r = eval(e, ts_node_named_child(n, 0));
	} else if (t == JF_T_identifier && jf_node_is(e->unit, n, "__file__")) {
		r = this_file(e);
	} else if (t == JF_T_identifier) {
		r = eval_name(e, n);
	} else if (t == JF_T_attribute && (jf_node_is(e->unit, n, "os.pardir") ||
	                                   jf_node_is(e->unit, n, "os.path.pardir"))) {
		r = known(jf_xstrdup(".."), (TSNode){ 0 }, NULL);
	} else if (t == JF_T_attribute && is_parent(e, n)) {
		r = parent(eval(e, jf_node_field(n, JF_F_object)), 1);
	} else if (t == JF_T_attribute) {
		r = eval_argument(e, jf_node_field(n, JF_F_object), jf_node_field(n, JF_F_attribute));
	} else if (t == JF_T_subscript) {
		TSNode v = jf_node_field(n, JF_F_value);
		TSNode sub = jf_node_field(n, JF_F_subscript);
		if (jf_node_is(e->unit, v, "os.environ") || jf_node_is(e->unit, v, "environ"))
			r = env_value(e, sub, (TSNode){ 0 });
		else if (jf_node_type_is(v, JF_T_attribute) &&
		         jf_node_is(e->unit, jf_node_field(v, JF_F_attribute), "parents") &&
		         jf_node_type_is(sub, JF_T_integer) && ts_node_end_byte(sub) - ts_node_start_byte(sub) < 3)
			/* Path(__file__).parents[1]: two folders up */
			r = parent(eval(e, jf_node_field(v, JF_F_object)),
			           strtol(e->unit->src->data + ts_node_start_byte(sub), NULL, 10) + 1);
	} else if (t == JF_T_call) {
		r = eval_call(e, n);
	} else if (t == JF_T_binary_operator) {
		TSNode op = jf_node_field(n, JF_F_operator);
		TSNode left = jf_node_field(n, JF_F_left), right = jf_node_field(n, JF_F_right);
		if (jf_node_is(e->unit, op, "+")) {
			r = concat(eval(e, left), eval(e, right));
		} else if (jf_node_is(e->unit, op, "/")) {
			/* Two strings divided: pathlib's join (str / str would not run). */
			r = join(eval(e, left), eval(e, right));
		} else if (jf_node_is(e->unit, op, "%")) {
			jf_pyvalue fmt = eval(e, left);
			r = fmt.value ? percent(e, fmt, right) : unknown();
		}
	}
	e->depth--;
	return r;
}

jf_pyeval *jf_pyeval_new(const jf_job *job, const jf_pyfiles *files, const jf_shell_facts *shell)
{
	jf_pyeval *s = jf_xcalloc(1, sizeof *s);
	s->job = job;
	s->ws = files->ws;
	s->files = *files;
	s->shell = shell;
	return s;
}

static const jf_pyfacts *only_file(const void *data, const jf_file *file)
{
	const jf_pyfacts *py = data;
	return py->file == file ? py : NULL;
}

jf_pyeval *jf_pyeval_new_file(const jf_job *job, const jf_pyfacts *py)
{
	jf_pyeval *s = jf_xcalloc(1, sizeof *s);
	s->job = job;
	s->files = (jf_pyfiles){ .get = only_file, .data = py };
	return s;
}

bool jf_pyeval_needs_runs(const jf_pyeval *self)
{
	return self->needs_runs;
}

void jf_pyeval_free(jf_pyeval *self)
{
	if (!self)
		return;
	for (size_t i = 0; i < self->units.size; i++) {
		unit_index *ix = &self->units.items[i];
		jf_array_release(&ix->names);
		jf_strmap_release(&ix->by_name);
	}
	jf_array_release(&self->units);
	jf_array_release(&self->args);
	free(self);
}

jf_pyvalue jf_pyeval_expr(jf_pyeval *self, const jf_file *unit, TSNode expr)
{
	evaluator e = { self, unit, 0 };
	self->needs_runs = false;
	return eval(&e, expr);
}
