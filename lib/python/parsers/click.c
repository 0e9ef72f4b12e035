/* click.c - the command line of a click command: @click.command(), its options and arguments
 *
 * A function under @click.command() with @click.option and @click.argument
 * decorators, called as the program: click reads options much as argparse
 * does, without abbreviations, and stops at one it does not know.
 * Precision first: groups, custom decorators, context settings and a
 * command called with settings of its own make the command line open.
 */
#include <stdlib.h>

#include "python/cmdline.h"

enum {
	COMMAND = JF_STEP_OWN, /* @click.command() on the function named text, at span */
	GROUP,                 /* @click.group() on the function named text, at span */
	SUB,                   /* @object.command(): a command (names[0]) of group `object` */
	SUB_ARG,               /* an option or argument of the last SUB: def */
	KINDS_END
};

#define OWNER_NONE (-3)

typedef struct {
	int commands;        /* @click.command() and @click.group() functions */
	char *fn;            /* the (first) one's name */
	bool group;          /* it is a group */
	int current;         /* the command of the group whose options come next */
	const jf_file *unit; /* and where it stands */
	jf_span span;
} state;

static void release(void *data)
{
	free(((state *)data)->fn);
}

static bool mentions(const jf_file *unit)
{
	return jf_python_mentions(unit, "click");
}

static jf_argtype click_type(const jf_file *unit, TSNode v, jf_argdef *d)
{
	if (jf_node_type_is(v, JF_T_identifier)) {
		if (jf_node_is(unit, v, "int"))
			return TYPE_INT;
		if (jf_node_is(unit, v, "float"))
			return TYPE_FLOAT;
		if (jf_node_is(unit, v, "str"))
			return TYPE_STR;
		return TYPE_OTHER; /* bool: click reads yes/no/on/off/..., not Python's bool() */
	}
	if (jf_node_is(unit, v, "click.INT"))
		return TYPE_INT;
	if (jf_node_is(unit, v, "click.FLOAT"))
		return TYPE_FLOAT;
	if (!jf_node_type_is(v, JF_T_call))
		return TYPE_OTHER;
	TSNode fn = jf_node_field(v, JF_F_function), args = jf_node_field(v, JF_F_arguments);
	if (jf_node_is(unit, fn, "click.IntRange"))
		return TYPE_INT;
	if (jf_node_is(unit, fn, "click.FloatRange"))
		return TYPE_FLOAT;
	if (!jf_node_is(unit, fn, "click.Choice"))
		return TYPE_OTHER;
	for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
		TSNode a = ts_node_named_child(args, i);
		if (jf_node_type_is(a, JF_T_keyword_argument) &&
		    jf_node_is(unit, jf_node_field(a, JF_F_name), "case_sensitive") &&
		    !jf_node_type_is(jf_node_field(a, JF_F_value), JF_T_true))
			return TYPE_OTHER;
	}
	jf_cmdline__read_choices(unit, ts_node_named_child(args, 0), d);
	return TYPE_STR;
}

/* Adds the option names of one declaration string: "--lr", "--amp/--no-amp", " /-S". */
static void click_names(jf_argdef *d, char *s)
{
	bool pair = strchr(s, '/') != NULL;
	char *save = NULL;
	for (char *part = strtok_r(s, "/", &save); part; part = strtok_r(NULL, "/", &save)) {
		part += strspn(part, " ");
		size_t n = strcspn(part, " ");
		if (part[0] == '-' && n > 1)
			jf_array_push(&d->options, jf_xstrndup(part, n));
	}
	if (pair)
		d->act = ACT_FLAG;
}

/* One @click.option(...) or @click.argument(...); false when it is not literal enough. */
static bool read_click_param(const jf_file *unit, TSNode call, bool option, jf_argdef *d)
{
	TSNode args = jf_node_field(call, JF_F_arguments);
	bool required = !option, has_default = false, explicit_required = false;
	d->unit = unit;
	d->span = jf_node_span(call);
	for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
		TSNode a = ts_node_named_child(args, i);
		if (jf_node_type_is(a, JF_T_comment))
			continue;
		if (!jf_node_type_is(a, JF_T_keyword_argument)) {
			char *s = jf_cmdline__string(unit, a);
			if (!s)
				return false;
			if (option && s[0] == '-')
				click_names(d, s);
			else if (!d->dest)
				d->dest = jf_xstrdup(s);
			free(s);
			continue;
		}
		TSNode k = jf_node_field(a, JF_F_name), v = jf_node_field(a, JF_F_value);
		if (jf_node_is(unit, k, "type")) {
			d->type = click_type(unit, v, d);
		} else if (jf_node_is(unit, k, "is_flag") || jf_node_is(unit, k, "count") ||
		           jf_node_is(unit, k, "flag_value")) {
			if (!jf_node_type_is(v, JF_T_false))
				d->act = ACT_FLAG;
		} else if (jf_node_is(unit, k, "multiple")) {
			if (jf_node_type_is(v, JF_T_true))
				d->act = ACT_APPEND;
		} else if (jf_node_is(unit, k, "required")) {
			required = jf_node_type_is(v, JF_T_true);
			explicit_required = true;
		} else if (jf_node_is(unit, k, "default")) {
			d->default_at = jf_node_ref_of(v);
			has_default = true;
		} else if (jf_node_is(unit, k, "envvar") ||
		           jf_node_is(unit, k, "prompt")) {
			has_default = true;
		} else if (jf_node_is(unit, k, "nargs")) {
			if (!jf_node_type_is(v, JF_T_integer) && !jf_node_type_is(v, JF_T_unary_operator))
				return false;
			char *t = jf_node_text(unit, v);
			d->count = strtol(t, NULL, 10);
			free(t);
			d->nargs = d->count < 0 ? NARGS_ANY : d->count == 1 ? NARGS_ONE : NARGS_COUNT;
		} else if (jf_node_is(unit, k, "cls")) {
			return false;
		}
	}
	if (!option && !explicit_required && d->nargs == NARGS_ANY)
		required = false; /* nargs=-1 takes none unless required=True */
	d->required = required && !has_default;
	if (option && d->options.size && !d->dest)
		d->dest = jf_argdef_dest(d);
	if (option)
		return d->options.size > 0;
	if (d->nargs == NARGS_ANY && d->required)
		d->nargs = NARGS_SOME;
	else if (d->nargs == NARGS_ONE && !d->required)
		d->nargs = NARGS_OPTIONAL;
	return d->dest != NULL;
}

/* @click.version_option(...), @click.help_option(...): a switch named by its
 * dash strings, or `name` when it has none; a step of `kind`. */
static void add_click_switch(jf_cmdline_recorder *r, TSNode call, const char *name, uint8_t kind)
{
	const jf_file *unit = r->unit;
	jf_argdef d = { .command = -1 };
	TSNode args = jf_node_field(call, JF_F_arguments);
	d.act = ACT_FLAG;
	d.unit = unit;
	d.span = jf_node_span(call);
	for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
		char *s = jf_cmdline__string(unit, ts_node_named_child(args, i));
		if (s && s[0] == '-')
			jf_array_push(&d.options, s);
		else
			free(s);
	}
	if (!d.options.size)
		jf_array_push(&d.options, jf_xstrdup(name));
	d.dest = jf_argdef_dest(&d);
	jf_cmdline__step_argument(r, kind, &d, NULL);
}

/* Whether decorator call `e` sets what changes how a command reads its words
 * (context_settings, cls, invoke_without_command, chain, ...); `name=` and
 * `help=` do not. */
static bool has_settings(const jf_cmdline_recorder *r, TSNode e)
{
	TSNode args = jf_node_type_is(e, JF_T_call) ? jf_node_field(e, JF_F_arguments) : (TSNode){ 0 };
	for (uint32_t k = 0; !ts_node_is_null(args) && k < ts_node_named_child_count(args); k++) {
		TSNode a = ts_node_named_child(args, k);
		TSNode key = jf_node_field(a, JF_F_name);
		if (jf_node_type_is(a, JF_T_keyword_argument) && !jf_node_is(r->unit, key, "name") &&
		    !jf_node_is(r->unit, key, "help") && !jf_node_is(r->unit, key, "short_help"))
			return true;
	}
	return false;
}

/* A function under @click.command(), @click.group() or @<group>.command():
 * its options and arguments. */
static void record_click(jf_cmdline_recorder *r, TSNode decorated)
{
	const jf_file *unit = r->unit;
	static const char *const plain[] = { "click.pass_context", "click.pass_obj", NULL };
	TSNode def = jf_node_field(decorated, JF_F_definition);
	uint8_t what = 0; /* COMMAND, GROUP or SUB */
	bool other = false;
	const char *group = NULL, *cmd = NULL;
	TSNode at = { 0 };
	uint32_t n = ts_node_named_child_count(decorated);
	JF_ARRAY(TSNode) params = { 0 };
	for (uint32_t i = 0; i < n; i++) {
		TSNode dec = ts_node_named_child(decorated, i);
		if (!jf_node_type_is(dec, JF_T_decorator))
			continue;
		TSNode e = ts_node_named_child(dec, 0);
		TSNode fn = jf_node_type_is(e, JF_T_call) ? jf_node_field(e, JF_F_function) : e;
		TSNode obj = jf_node_field(fn, JF_F_object);
		char *name = jf_node_text(unit, fn);
		if (!strcmp(name, "click.command") || !strcmp(name, "click.group")) {
			what = !strcmp(name, "click.command") ? COMMAND : GROUP;
			other |= has_settings(r, e); /* context_settings, cls, add_help_option */
			at = dec;
		} else if (jf_node_type_is(obj, JF_T_identifier) && !jf_node_is(unit, obj, "click") &&
		           jf_cmdline__calls_method(unit, fn, "command")) {
			what = SUB;
			group = jf_node_text_in(r->arena, unit, obj);
			cmd = jf_cmdline__command_name(r, e, def);
			other |= has_settings(r, e);
			at = dec;
		} else if (jf_node_type_is(obj, JF_T_identifier) && !jf_node_is(unit, obj, "click") &&
		           jf_cmdline__calls_method(unit, fn, "group")) {
			jf_cmdline__step_open(r, "its click group has groups of its own");
		} else if (jf_node_type_is(e, JF_T_call) && (!strcmp(name, "click.option") ||
		                                          !strcmp(name, "click.argument") ||
		                                          !strcmp(name, "click.version_option") ||
		                                          !strcmp(name, "click.help_option"))) {
			jf_array_push(&params, e);
		} else if (!jf_str_in(name, plain)) {
			other = true; /* a decorator that may add parameters */
		}
		free(name);
	}
	if (!what) {
		jf_array_release(&params);
		return;
	}
	jf_cmdline_step *s = jf_cmdline__step(r, what);
	s->span = jf_node_span(at);
	s->text = jf_node_text_in(r->arena, unit, jf_node_field(def, JF_F_name));
	s->object = group;
	if (what == SUB) {
		s->names = jf_arena_calloc(r->arena, 1, sizeof *s->names);
		((const char **)s->names)[0] = cmd;
		s->count = cmd != NULL;
	}
	uint8_t kind = what == SUB ? SUB_ARG : JF_STEP_ARGUMENT;
	if (other)
		jf_cmdline__step_open(r, "its click command is not read whole");
	bool help = true;
	for (size_t i = 0; i < params.size; i++) {
		TSNode call = params.items[i];
		TSNode fn = jf_node_field(call, JF_F_function);
		if (jf_node_is(unit, fn, "click.version_option")) {
			add_click_switch(r, call, "--version", kind);
			continue;
		}
		if (jf_node_is(unit, fn, "click.help_option")) {
			add_click_switch(r, call, "--help", kind);
			help = false;
			continue;
		}
		jf_argdef d = { .command = -1 };
		if (read_click_param(unit, call, !jf_node_is(unit, fn, "click.argument"), &d)) {
			jf_cmdline__step_argument(r, kind, &d, NULL);
		} else {
			jf_cmdline__def_release(&d);
			jf_cmdline__step_open(r, "a click option is defined in a way jobfix cannot read");
		}
	}
	if (help) {
		jf_argdef d = { .command = -1 };
		d.act = ACT_FLAG;
		d.unit = unit;
		d.span = jf_node_span(def);
		jf_array_push(&d.options, jf_xstrdup("--help"));
		d.dest = jf_argdef_dest(&d);
		jf_cmdline__step_argument(r, kind, &d, NULL);
	}
	jf_array_release(&params);
}

static void record(jf_cmdline_recorder *r, const jf_py_node *pn)
{
	if (pn->kind == JF_PY_DECORATED)
		record_click(r, pn->node);
}

static void replay(jf_cmdline *c, const jf_file *unit, const jf_cmdline_step *s)
{
	state *st = jf_cmdline__state(c, &jf_parser_click, sizeof *st);
	switch (s->kind) {
	case COMMAND:
	case GROUP:
		if (!st->commands++) {
			st->fn = s->text ? jf_xstrdup(s->text) : NULL;
			st->unit = unit;
			st->span = s->span;
			st->group = s->kind == GROUP;
		}
		break;
	case SUB:
		st->current = OWNER_NONE;
		if (!st->group || !st->fn || !s->object || strcmp(st->fn, s->object) || !s->count) {
			c->open = "a command of a click group jobfix cannot place";
			break;
		}
		st->current = (int)c->commands.size;
		jf_array_push(&c->commands, jf_xstrdup(s->names[0]));
		jf_array_push(&c->command_of, st->current);
		break;
	case SUB_ARG:
		if (st->current != OWNER_NONE)
			jf_cmdline__add(c, s->def)->command = st->current;
		break;
	}
}

/* Whether the entry script of `py` calls the click command `fn` as the program: fn() or
 * fn(keywords). */
static bool click_called(jf_cmdline *c, const char *fn, const jf_pyfacts *py)
{
	const jf_file *entry = py->file;
	bool called = false;
	for (size_t j = 0; fn && j < py->of_kind[JF_PY_CALL].size; j++) {
		TSNode n = jf_pyfacts_at(py, JF_PY_CALL, j)->node;
		TSNode callee = jf_node_field(n, JF_F_function);
		if (jf_node_type_is(callee, JF_T_identifier) && jf_node_is(entry, callee, fn)) {
			TSNode args = jf_node_field(n, JF_F_arguments);
			called = true;
			for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
				TSNode a = ts_node_named_child(args, i);
				TSNode k = jf_node_field(a, JF_F_name);
				if (!jf_node_type_is(a, JF_T_keyword_argument) ||
				    jf_node_is(entry, k, "auto_envvar_prefix") ||
				    jf_node_is(entry, k, "args") || jf_node_is(entry, k, "default_map"))
					c->open = "its click command is called with settings of its own";
			}
		}
	}
	return called;
}

static bool finish(jf_cmdline *c, const jf_pyfiles *files, const jf_pyfacts *entry)
{
	(void)files;
	state *st = c->state ? c->state[JF_PARSER_click] : NULL;
	if (!st || !st->commands)
		return false;
	if (st->commands > 1 || !click_called(c, st->fn, entry))
		c->open = "its click commands are not called where jobfix can see";
	else if (st->group && !c->commands.size)
		c->open = "its click group has no command jobfix can see";
	c->subparsers = st->group;
	c->dialect = JF_DIALECT_ARGPARSE;
	c->result = JF_RESULT_PARAMS;
	c->abbrev = false;
	c->unit = st->unit;
	c->span = st->span;
	return true;
}

const jf_cmdline_parser jf_parser_click = {
	.name = "click",
	.mentions = mentions,
	.record = record,
	.replay = replay,
	.own_kinds = KINDS_END - JF_STEP_OWN,
	.finish = finish,
	.release = release,
};
