/* typer.c - the command line of typer: typer.run(fn), or a typer.Typer() app and its commands
 *
 * typer makes a click command of a function's signature: a parameter with a
 * default is an option `--name-with-dashes` (a bool one `--name/--no-name`),
 * one without is a required positional argument; typer.Option(...) and
 * typer.Argument(...), as the default or inside Annotated[...], name them
 * otherwise. An app with one command runs it directly; with several, the
 * first word names the command (its function's name with dashes). click
 * reads the words: no abbreviations, an unknown option stops the script.
 *
 * Precision first: an app with a callback, context settings or commands
 * added from elsewhere, a parameter jobfix cannot read, or an app never
 * called where jobfix can see makes the command line open.
 */
#include <stdlib.h>

#include "python/cmdline.h"

enum {
	RUN = JF_STEP_OWN, /* typer.run(text) at span */
	APP,               /* text = typer.Typer(...) */
	COMMAND,           /* @object.command(): function text, command names[0] */
	CALLBACK,          /* @object.callback() */
	APP_CALL,          /* text() */
	PARAM,             /* a parameter of the last RUN or COMMAND: def */
	KINDS_END
};

typedef struct {
	const char *name; /* the command's */
	JF_ARRAY(const jf_argdef *) params;
} command;

typedef struct {
	int runs;                    /* typer.run() calls */
	JF_ARRAY(const char *) apps; /* the variables holding an app */
	JF_ARRAY(command) commands;
	bool callback, called;
	const jf_file *unit;
	jf_span span;
} state;

static void release(void *data)
{
	state *st = data;
	for (size_t i = 0; i < st->commands.size; i++)
		jf_array_release(&st->commands.items[i].params);
	jf_array_release(&st->commands);
	jf_array_release(&st->apps);
}

static bool mentions(const jf_file *unit)
{
	return jf_python_mentions(unit, "typer");
}

/* Recording */

/* The last dotted part of `n` (a callee or an annotation head) is `name`. */
static bool names(const jf_file *unit, TSNode n, const char *name)
{
	return jf_cmdline__callee_ends(unit, n, name);
}

/* typer.Option(...) or typer.Argument(...) in parameter `p`: in its default or
 * in Annotated[T, ...] of its annotation; a null node when neither. */
static TSNode typer_call(const jf_file *unit, const jf_cmdline_param *p, bool *in_annotation)
{
	*in_annotation = false;
	TSNode v = p->value;
	if (jf_node_type_is(v, JF_T_call) && (names(unit, jf_node_field(v, JF_F_function), "Option") ||
	                                      names(unit, jf_node_field(v, JF_F_function), "Argument")))
		return v;
	TSNode t = jf_node_type_is(p->type, JF_T_type) ? ts_node_named_child(p->type, 0) : p->type;
	if (!jf_node_type_is(t, JF_T_generic_type) && !jf_node_type_is(t, JF_T_subscript))
		return (TSNode){ 0 };
	/* Annotated[int, typer.Option(...)]: its calls */
	for (uint32_t i = 0; i < ts_node_named_child_count(t); i++) {
		TSNode c = ts_node_named_child(t, i);
		if (jf_node_type_is(c, JF_T_type_parameter))
			for (uint32_t k = 0; k < ts_node_named_child_count(c); k++) {
				TSNode a = ts_node_named_child(ts_node_named_child(c, k), 0);
				if (jf_node_type_is(a, JF_T_call)) {
					*in_annotation = true;
					return a;
				}
			}
		if (jf_node_type_is(c, JF_T_call)) {
			*in_annotation = true;
			return c;
		}
	}
	return (TSNode){ 0 };
}

/* The annotation of `p` as one of the plain types: str, int, float, bool; else TYPE_OTHER. */
static jf_argtype plain_type(const jf_file *unit, const jf_cmdline_param *p, bool *list)
{
	static const char *const plain[] = { "str", "int", "float", "bool", NULL };
	TSNode t = jf_node_type_is(p->type, JF_T_type) ? ts_node_named_child(p->type, 0) : p->type;
	*list = false;
	for (int depth = 0; depth < 4 && !ts_node_is_null(t); depth++) {
		for (int i = 0; plain[i]; i++)
			if (jf_node_type_is(t, JF_T_identifier) && jf_node_is(unit, t, plain[i]))
				return (jf_argtype)i;
		if (!jf_node_type_is(t, JF_T_generic_type))
			break;
		TSNode head = ts_node_named_child(t, 0), params = ts_node_named_child(t, 1);
		if (jf_node_is(unit, head, "List") || jf_node_is(unit, head, "list"))
			*list = true;
		else if (!jf_node_is(unit, head, "Optional") && !jf_node_is(unit, head, "Annotated"))
			break;
		t = ts_node_named_child(ts_node_named_child(params, 0), 0);
	}
	return TYPE_OTHER;
}

/* One parameter of a command's function as an option or an argument; false
 * when it cannot be read. */
static bool read_param(const jf_file *unit, const jf_cmdline_param *p, TSNode def, jf_argdef *d)
{
	bool in_annotation, list;
	TSNode call = typer_call(unit, p, &in_annotation);
	char *name = jf_node_text(unit, p->name);
	d->command = JF_CMDLINE_MAIN;
	d->unit = unit;
	d->span = jf_node_span(def);
	d->dest = name;
	d->type = plain_type(unit, p, &list);
	bool argument = ts_node_is_null(call) ? ts_node_is_null(p->value)
	                                      : names(unit, jf_node_field(call, JF_F_function),
	                                              "Argument");
	bool has_default = !ts_node_is_null(p->value) && !jf_node_type_is(p->value, JF_T_call);
	TSNode args = ts_node_is_null(call) ? (TSNode){ 0 } : jf_node_field(call, JF_F_arguments);
	for (uint32_t i = 0; !ts_node_is_null(args) && i < ts_node_named_child_count(args); i++) {
		TSNode a = ts_node_named_child(args, i);
		if (jf_node_type_is(a, JF_T_keyword_argument)) {
			TSNode k = jf_node_field(a, JF_F_name);
			if (jf_node_is(unit, k, "default") || jf_node_is(unit, k, "default_factory"))
				has_default = !jf_node_is(unit, jf_node_field(a, JF_F_value), "...");
			else if (jf_node_is(unit, k, "callback") || jf_node_is(unit, k, "parser") ||
			         jf_node_is(unit, k, "click_type"))
				return false; /* values read by the code's own function */
			continue;
		}
		char *s = jf_cmdline__string(unit, a);
		if (s && s[0] == '-') { /* "--lr", "-l", "--amp/--no-amp" */
			char *save = NULL;
			for (char *part = strtok_r(s, "/", &save); part; part = strtok_r(NULL, "/", &save)) {
				part += strspn(part, " ");
				size_t n = strcspn(part, " ");
				if (part[0] == '-' && n > 1)
					jf_array_push(&d->options, jf_xstrndup(part, n));
			}
		} else if (i == 0 && !in_annotation) {
			has_default = !jf_node_is(unit, a, "...");
		}
		free(s);
	}
	if (argument) {
		d->required = !has_default;
		d->nargs = list ? (d->required ? NARGS_SOME : NARGS_ANY)
		                : d->required ? NARGS_ONE : NARGS_OPTIONAL;
		for (size_t i = 0; i < d->options.size; i++)
			free(d->options.items[i]); /* an argument's strings are its metavar */
		d->options.size = 0;
		return true;
	}
	if (!d->options.size) {
		char *dashed = jf_xasprintf("--%s", name);
		for (char *c = dashed + 2; *c; c++)
			*c = *c == '_' ? '-' : *c;
		jf_array_push(&d->options, dashed);
		if (d->type == TYPE_BOOL)
			jf_array_push(&d->options, jf_xasprintf("--no-%s", dashed + 2));
	}
	d->required = !has_default;
	if (d->type == TYPE_BOOL) {
		d->act = ACT_FLAG;
		d->required = false;
	} else if (list) {
		d->act = ACT_APPEND;
	}
	if (d->type == TYPE_BOOL)
		d->type = TYPE_OTHER;
	return true;
}

/* The parameters of function `def` as steps of kind PARAM; false when one cannot be read. */
static bool record_params(jf_cmdline_recorder *r, TSNode def)
{
	jf_cmdline_param params[128];
	size_t n = jf_cmdline__params(def, params, 128);
	if (n > 128)
		return false;
	for (size_t i = 0; i < n; i++) {
		jf_argdef d = { 0 };
		if (params[i].splat || !read_param(r->unit, &params[i], def, &d)) {
			jf_cmdline__def_release(&d);
			return false;
		}
		jf_cmdline__step_argument(r, PARAM, &d, NULL);
	}
	/* --help, click's own */
	jf_argdef help = { .command = JF_CMDLINE_MAIN, .unit = r->unit, .span = jf_node_span(def),
		           .act = ACT_FLAG, .dest = jf_xstrdup("help") };
	jf_array_push(&help.options, jf_xstrdup("--help"));
	jf_cmdline__step_argument(r, PARAM, &help, NULL);
	return true;
}

static void record_decorated(jf_cmdline_recorder *r, TSNode decorated)
{
	TSNode def = jf_node_field(decorated, JF_F_definition);
	if (!jf_node_type_is(def, JF_T_function_definition))
		return;
	for (uint32_t i = 0; i < ts_node_named_child_count(decorated); i++) {
		TSNode dec = ts_node_named_child(decorated, i);
		TSNode e = ts_node_named_child(dec, 0);
		TSNode fn = jf_node_type_is(e, JF_T_call) ? jf_node_field(e, JF_F_function) : e;
		TSNode obj = jf_node_field(fn, JF_F_object);
		if (!jf_node_type_is(dec, JF_T_decorator) || !jf_node_type_is(obj, JF_T_identifier))
			continue;
		uint32_t a = ts_node_start_byte(obj);
		if (!jf_strmap_get(&r->holders, r->unit->src->data + a, ts_node_end_byte(obj) - a))
			continue; /* not an app of this file */
		const char *app = jf_node_text_in(r->arena, r->unit, obj);
		if (jf_cmdline__calls_method(r->unit, fn, "callback")) {
			jf_cmdline__step(r, CALLBACK)->object = app;
		} else if (jf_cmdline__calls_method(r->unit, fn, "command")) {
			const char *name = jf_cmdline__command_name(r, e, def);
			jf_cmdline_step *s = jf_cmdline__step(r, COMMAND);
			s->object = app;
			s->text = name;
			s->span = jf_node_span(dec);
			if (!name || !record_params(r, def))
				jf_cmdline__step_open(r, "a typer command is defined in a way jobfix cannot read");
		}
	}
}

static void record_call(jf_cmdline_recorder *r, const jf_py_node *pn)
{
	const jf_file *unit = r->unit;
	TSNode fn = pn->a;
	if (jf_cmdline__calls_method(unit, fn, "run") &&
	    jf_node_is(unit, jf_node_field(fn, JF_F_object), "typer")) {
		TSNode target = ts_node_named_child(pn->b, 0);
		jf_cmdline__step(r, RUN)->span = jf_node_span(pn->node);
		TSNode def = jf_node_type_is(target, JF_T_identifier)
		                     ? jf_cmdline__top_definition(r->py, target)
		                     : (TSNode){ 0 };
		if (!jf_node_type_is(def, JF_T_function_definition) || !record_params(r, def))
			jf_cmdline__step_open(r, "typer.run() calls a function jobfix cannot read");
		return;
	}
	if (jf_node_type_is(fn, JF_T_identifier)) { /* app() */
		uint32_t a = ts_node_start_byte(fn);
		if (jf_strmap_get(&r->holders, unit->src->data + a, ts_node_end_byte(fn) - a)) {
			jf_cmdline_step *s = jf_cmdline__step(r, APP_CALL);
			s->text = jf_node_text_in(r->arena, unit, fn);
			s->span = jf_node_span(pn->node);
		}
	}
}

static void record(jf_cmdline_recorder *r, const jf_py_node *pn)
{
	const jf_file *unit = r->unit;
	if (pn->kind == JF_PY_ASSIGNMENT && jf_node_type_is(pn->b, JF_T_call) &&
	    jf_node_type_is(pn->a, JF_T_identifier) &&
	    names(unit, jf_node_field(pn->b, JF_F_function), "Typer")) {
		const char *var = jf_node_text_in(r->arena, unit, pn->a);
		jf_strmap_add(&r->holders, var);
		jf_cmdline__step(r, APP)->text = var;
		TSNode args = jf_node_field(pn->b, JF_F_arguments);
		for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
			TSNode a = ts_node_named_child(args, i);
			if (jf_node_type_is(a, JF_T_keyword_argument) &&
			    jf_node_is(unit, jf_node_field(a, JF_F_name), "context_settings"))
				jf_cmdline__step_open(r, "its typer app has context settings");
		}
	} else if (pn->kind == JF_PY_CALL) {
		record_call(r, pn);
	} else if (pn->kind == JF_PY_DECORATED) {
		record_decorated(r, pn->node);
	}
}

/* Replaying */

static void replay(jf_cmdline *c, const jf_file *unit, const jf_cmdline_step *s)
{
	state *st = jf_cmdline__state(c, &jf_parser_typer, sizeof *st);
	switch (s->kind) {
	case RUN:
		if (!st->runs++) {
			st->unit = unit;
			st->span = s->span;
		}
		st->called = true;
		jf_array_push(&st->commands, ((command){ NULL, { 0 } }));
		break;
	case APP:
		jf_array_push(&st->apps, s->text);
		break;
	case COMMAND:
		if (!st->unit) {
			st->unit = unit;
			st->span = s->span;
		}
		jf_array_push(&st->commands, ((command){ s->text, { 0 } }));
		break;
	case CALLBACK:
		st->callback = true;
		break;
	case APP_CALL:
		st->called = true;
		break;
	case PARAM:
		if (st->commands.size)
			jf_array_push(&jf_array_last(&st->commands)->params, s->def);
		break;
	}
}

static bool finish(jf_cmdline *c, const jf_pyfiles *files, const jf_pyfacts *entry)
{
	(void)files;
	(void)entry;
	state *st = c->state ? c->state[JF_PARSER_typer] : NULL;
	if (!st || !st->commands.size)
		return false;
	if (!st->called)
		c->open = "its typer app is not called where jobfix can see";
	else if (st->callback)
		c->open = "its typer app has a callback";
	else if (st->runs > 1 || (st->runs && st->commands.size > 1))
		c->open = "it runs more than one typer command";
	bool sub = st->commands.size > 1;
	for (size_t i = 0; i < st->commands.size && !c->open; i++) {
		const command *cmd = &st->commands.items[i];
		int index = JF_CMDLINE_MAIN;
		if (sub) {
			index = (int)c->commands.size;
			jf_array_push(&c->commands, jf_xstrdup(cmd->name));
			jf_array_push(&c->command_of, index);
		}
		for (size_t k = 0; k < cmd->params.size; k++)
			jf_cmdline__add(c, cmd->params.items[k])->command = index;
	}
	c->subparsers = sub;
	c->dialect = JF_DIALECT_ARGPARSE;
	c->result = JF_RESULT_PARAMS;
	c->abbrev = false;
	c->unit = st->unit;
	c->span = st->span;
	return true;
}

const jf_cmdline_parser jf_parser_typer = {
	.name = "typer",
	.mentions = mentions,
	.record = record,
	.replay = replay,
	.own_kinds = KINDS_END - JF_STEP_OWN,
	.finish = finish,
	.release = release,
};
