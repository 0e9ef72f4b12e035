/* argparse.c - the command line of argparse: parsers, groups, subcommands, add_argument()
 *
 * Records each statement that makes a parser, a group or subparsers (kept by
 * variable: a module's variables are its own), adds an argument, sets
 * defaults or parses; replays them into the model. Precision first: a
 * parser handed to a function no file of the job defines, parents=[...]
 * from elsewhere, parse_args() of a list of its own, or subcommands whose
 * options cannot all be placed make the command line open.
 */
#include <stdlib.h>

#include "python/cmdline.h"

enum {
	REST_NAME = JF_STEP_OWN, /* `_, text = p.parse_known_args()` */
	PARSER_VAR,              /* `text = ArgumentParser(...)` */
	SUBPARSERS_VAR,          /* `text = object.add_subparsers(...)` */
	COMMAND_VAR,             /* `text = object.add_parser(...)`: the command's names (none: computed) */
	GROUP_VAR,               /* `text = object.add_argument_group(...)` */
	HANDED,                  /* `text(names...)`: parsers handed to a function (text NULL: not named) */
	ARGV_PARSED,             /* parse_args() or parse_known_args() of the command line itself */
	PARENTS,                 /* a parser made with parents=[...] */
	ADD_ARGUMENT,            /* object.add_argument(...): def (unread when it cannot be read) */
	PARSER,                  /* ArgumentParser(...) at span; flag: allow_abbrev=False */
	DEFAULTS,                /* set_defaults(names=...); flag: and **d */
	PARSE_LIST,              /* parse_args(text): text NULL when it is not one variable */
	TOLERANT,                /* parse_known_args(): unknown flags are the script's */
	KINDS_END
};

#define OWNER_NONE (-3)
#define OWNER_SUBPARSERS (-2)
#define OWNER_MAIN JF_CMDLINE_MAIN

/* What the replay keeps besides the model. */
typedef struct {
	const jf_file *unit; /* the file whose variables `owners` holds */
	/* The variables holding a parser, a group or subparsers, by name: the
	 * owner (-1 main, -2 subparsers, else a command) as (intptr_t)(owner + 4). */
	jf_strmap owners;
	JF_ARRAY(char *) handed_to; /* functions a parser is passed to: add_args(parser) */
	jf_strings rest_names;      /* `_, rest = p.parse_known_args()`: the names of the rest */
	bool rest_parsed;  /* parse_args(rest) follows: the command line is parsed strictly */
	bool argv_parsed;  /* parse_args() or parse_known_args() of the command line itself */
	bool own_list;     /* parse_args([...]) of a list of its own */
	bool has_parents;  /* ArgumentParser(parents=[...]) */
	bool unowned;      /* an add_argument on something not followed */
	bool no_abbrev;    /* allow_abbrev=False */
	const jf_file *parser_unit; /* where the first parser is made */
	jf_span parser_span;
} state;

static void release(void *data)
{
	state *st = data;
	jf_strmap_release(&st->owners);
	for (size_t i = 0; i < st->handed_to.size; i++)
		free(st->handed_to.items[i]);
	jf_array_release(&st->handed_to);
	jf_strings_release(&st->rest_names);
}

static bool mentions(const jf_file *unit)
{
	static const char *const spelled[] = {
		"argv", "parse_", "ArgumentParser", "add_argument", "add_subparsers", "add_parser",
		"add_mutually_exclusive_group", "set_defaults", "add_config_arguments", NULL,
	};
	for (size_t i = 0; spelled[i]; i++)
		if (jf_python_mentions(unit, spelled[i]))
			return true;
	return false;
}

/* Reading one add_argument(...) call */

static jf_argtype type_of(const jf_file *unit, TSNode n)
{
	static const char *const names[] = { "str", "int", "float", "bool", NULL };
	for (int i = 0; names[i]; i++)
		if (jf_node_type_is(n, JF_T_identifier) && jf_node_is(unit, n, names[i]))
			return (jf_argtype)i;
	return TYPE_OTHER;
}

static bool read_action(const jf_file *unit, TSNode v, jf_argdef *d)
{
	static const char *const flags[] = { "store_true", "store_false", "store_const", "count",
		                             "append_const", "help", "version", NULL };
	/* argparse.BooleanOptionalAction: --x and --no-x, no value (options added by the caller) */
	if (jf_node_is(unit, v, "argparse.BooleanOptionalAction") ||
	    jf_node_is(unit, v, "BooleanOptionalAction")) {
		d->act = ACT_FLAG;
		d->negatable = true;
		return true;
	}
	char *a = jf_cmdline__string(unit, v);
	if (!a) {
		d->act = ACT_CUSTOM; /* DictAction, ParseKwargs, ... */
		return true;
	}
	bool ok = true;
	if (jf_str_in(a, flags))
		d->act = ACT_FLAG;
	else if (!strcmp(a, "append") || !strcmp(a, "extend"))
		d->act = ACT_APPEND;
	else if (strcmp(a, "store"))
		ok = false;
	free(a);
	return ok;
}

static bool read_nargs(const jf_file *unit, TSNode v, jf_argdef *d)
{
	if (jf_node_type_is(v, JF_T_integer)) {
		char *t = jf_node_text(unit, v);
		d->nargs = NARGS_COUNT;
		d->count = strtol(t, NULL, 10);
		free(t);
		return true;
	}
	if (jf_node_type_is(v, JF_T_attribute) &&
	    jf_node_is(unit, jf_node_field(v, JF_F_attribute), "REMAINDER")) {
		d->nargs = NARGS_REMAINDER;
		return true;
	}
	char *s = jf_cmdline__string(unit, v);
	bool ok = s != NULL;
	if (s && !strcmp(s, "?"))
		d->nargs = NARGS_OPTIONAL;
	else if (s && !strcmp(s, "*"))
		d->nargs = NARGS_ANY;
	else if (s && !strcmp(s, "+"))
		d->nargs = NARGS_SOME;
	else if (s && !strcmp(s, "..."))
		d->nargs = NARGS_REMAINDER;
	else
		ok = false;
	free(s);
	return ok;
}

/* One add_argument(...) call; false when it is not literal enough to read. */
static bool read_argument(const jf_file *unit, TSNode call, jf_argdef *d)
{
	TSNode args = jf_node_field(call, JF_F_arguments);
	uint32_t n = ts_node_named_child_count(args);
	d->unit = unit;
	d->span = jf_node_span(call);
	d->untyped = true;
	for (uint32_t i = 0; i < n; i++) {
		TSNode a = ts_node_named_child(args, i);
		if (jf_node_type_is(a, JF_T_comment))
			continue;
		if (!jf_node_type_is(a, JF_T_keyword_argument)) {
			char *s = jf_cmdline__string(unit, a);
			if (!s)
				return false; /* *names, **kwargs or a computed name */
			if (s[0] == '-')
				jf_array_push(&d->options, s);
			else if (!d->dest)
				d->dest = s;
			else
				free(s);
			continue;
		}
		TSNode k = jf_node_field(a, JF_F_name), v = jf_node_field(a, JF_F_value);
		if (jf_node_is(unit, k, "action")) {
			if (!read_action(unit, v, d))
				return false;
		} else if (jf_node_is(unit, k, "type")) {
			d->type = type_of(unit, v);
			d->untyped = false;
		} else if (jf_node_is(unit, k, "nargs")) {
			if (!read_nargs(unit, v, d))
				return false;
		} else if (jf_node_is(unit, k, "required")) {
			d->required = jf_node_type_is(v, JF_T_true);
		} else if (jf_node_is(unit, k, "choices")) {
			jf_cmdline__read_choices(unit, v, d);
		} else if (jf_node_is(unit, k, "dest")) {
			char *s = jf_cmdline__string(unit, v);
			free(d->dest);
			d->dest = s;
		} else if (jf_node_is(unit, k, "default")) {
			d->default_at = jf_node_ref_of(v);
		}
	}
	if (!d->options.size && !d->dest)
		return false;
	if (!d->dest)
		d->dest = jf_argdef_dest(d);
	for (size_t i = 0, given = d->options.size; d->negatable && i < given; i++)
		if (jf_str_starts(d->options.items[i], "--"))
			jf_array_push(&d->options, jf_xasprintf("--no-%s", d->options.items[i] + 2));
	if (!d->options.size) /* a positional is required unless nargs allows none */
		d->required = d->nargs != NARGS_OPTIONAL && d->nargs != NARGS_ANY &&
		              d->nargs != NARGS_REMAINDER;
	return true;
}

/* The dest of an add_argument(...) call that cannot be read whole: its
 * literal dest=, or its first literal long option; NULL when neither. */
static char *unread_dest(const jf_file *unit, TSNode call)
{
	TSNode args = jf_node_field(call, JF_F_arguments);
	jf_argdef d = { 0 };
	char *dest = NULL;
	for (uint32_t i = 0; i < ts_node_named_child_count(args) && !dest; i++) {
		TSNode a = ts_node_named_child(args, i);
		if (jf_node_type_is(a, JF_T_keyword_argument) &&
		    jf_node_is(unit, jf_node_field(a, JF_F_name), "dest"))
			dest = jf_cmdline__string(unit, jf_node_field(a, JF_F_value));
		char *s = jf_cmdline__string(unit, a);
		if (s && jf_str_starts(s, "--") && !d.options.size)
			jf_array_push(&d.options, s);
		else
			free(s);
	}
	if (!dest && d.options.size)
		dest = jf_argdef_dest(&d);
	jf_cmdline__def_release(&d);
	return dest;
}

/* Recording */

/* The name of variable `n`, in the arena; NULL when `n` is no variable. */
static const char *variable(jf_cmdline_recorder *r, TSNode n)
{
	return jf_node_type_is(n, JF_T_identifier) ? jf_node_text_in(r->arena, r->unit, n) : NULL;
}

/* `sub.add_parser("train", aliases=["t"])`: the names of a new command; none
 * when its name is computed. */
static void command_names(jf_cmdline_recorder *r, TSNode call, jf_cmdline_step *s)
{
	const jf_file *unit = r->unit;
	TSNode args = jf_node_field(call, JF_F_arguments);
	jf_argdef names = { 0 };
	for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
		TSNode a = ts_node_named_child(args, i);
		bool alias = jf_node_type_is(a, JF_T_keyword_argument) &&
		             jf_node_is(unit, jf_node_field(a, JF_F_name), "aliases");
		if (i == 0) {
			char *name = jf_cmdline__string(unit, a);
			if (!name)
				break; /* a computed name */
			jf_array_push(&names.choices, name);
		} else if (alias) {
			jf_cmdline__read_choices(unit, jf_node_field(a, JF_F_value), &names);
		}
	}
	s->names = jf_cmdline__strings_in(r->arena, names.choices.items, names.choices.size);
	s->count = names.choices.size;
	jf_cmdline__def_release(&names);
}

/* `var = call`: a parser, a group or subparsers that a variable holds, or
 * `known, rest = pre.parse_known_args()`, whose `rest` is parsed again when
 * it is handed to parse_args (timm's config parser). */
static void record_assignment(jf_cmdline_recorder *r, TSNode var, TSNode call)
{
	const jf_file *unit = r->unit;
	if (!jf_node_type_is(call, JF_T_call))
		return;
	TSNode fn = jf_node_field(call, JF_F_function);
	if ((jf_node_type_is(var, JF_T_pattern_list) || jf_node_type_is(var, JF_T_tuple_pattern)) &&
	    ts_node_named_child_count(var) == 2 &&
	    jf_cmdline__calls_method(unit, fn, "parse_known_args") &&
	    !ts_node_named_child_count(jf_node_field(call, JF_F_arguments)) &&
	    jf_node_type_is(ts_node_named_child(var, 1), JF_T_identifier)) {
		const char *rest = variable(r, ts_node_named_child(var, 1));
		jf_cmdline__step(r, REST_NAME)->text = rest;
		return;
	}
	if (!jf_node_type_is(var, JF_T_identifier))
		return;
	uint8_t kind;
	if (jf_cmdline__callee_ends(unit, fn, "ArgumentParser"))
		kind = PARSER_VAR;
	else if (jf_cmdline__calls_method(unit, fn, "add_subparsers"))
		kind = SUBPARSERS_VAR;
	else if (jf_cmdline__calls_method(unit, fn, "add_parser"))
		kind = COMMAND_VAR;
	else if (jf_cmdline__calls_method(unit, fn, "add_argument_group") ||
	         jf_cmdline__calls_method(unit, fn, "add_mutually_exclusive_group"))
		kind = GROUP_VAR;
	else
		return;
	const char *name = variable(r, var);
	const char *object = variable(r, jf_node_field(fn, JF_F_object));
	jf_strmap_add(&r->holders, name);
	jf_cmdline_step *s = jf_cmdline__step(r, kind);
	s->text = name;
	s->object = object;
	if (kind == COMMAND_VAR)
		command_names(r, call, s);
}

static bool has_keyword(const jf_file *unit, TSNode call, const char *name)
{
	TSNode args = jf_node_field(call, JF_F_arguments);
	for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
		TSNode a = ts_node_named_child(args, i);
		if (jf_node_type_is(a, JF_T_keyword_argument) &&
		    jf_node_is(unit, jf_node_field(a, JF_F_name), name))
			return true;
	}
	return false;
}

/* `add_args(parser)`: a function that may add arguments, when one of the
 * variables it is given holds a parser. Only variables that some earlier
 * statement of the file may have given a parser are kept. */
static void record_handed_over(jf_cmdline_recorder *r, TSNode fn, TSNode args)
{
	if (!r->holders.size)
		return;
	JF_ARRAY(const char *) given = { 0 };
	uint32_t count = ts_node_named_child_count(args);
	for (uint32_t i = 0; i < count; i++) {
		TSNode a = ts_node_named_child(args, i);
		if (jf_node_type_is(a, JF_T_keyword_argument))
			a = jf_node_field(a, JF_F_value);
		if (!jf_node_type_is(a, JF_T_identifier))
			continue;
		uint32_t start = ts_node_start_byte(a);
		if (jf_strmap_get(&r->holders, r->unit->src->data + start, ts_node_end_byte(a) - start))
			jf_array_push(&given, variable(r, a));
	}
	if (given.size) {
		TSNode name = jf_node_type_is(fn, JF_T_attribute) ? jf_node_field(fn, JF_F_attribute) : fn;
		const char *callee = variable(r, name);
		jf_cmdline_step *s = jf_cmdline__step(r, HANDED);
		s->text = callee;
		s->names = given.items;
		s->count = given.size;
		jf_arena_adopt(r->arena, given.items);
	}
}

/* Whether the add_argument call `n` is under an if, in a try or in a
 * conditional expression of its function (or of the module). */
static bool conditional(TSNode n)
{
	for (TSNode p = ts_node_parent(n);
	     !ts_node_is_null(p) && !jf_node_type_is(p, JF_T_function_definition); p = ts_node_parent(p))
		if (jf_node_type_is(p, JF_T_if_statement) || jf_node_type_is(p, JF_T_try_statement) ||
		    jf_node_type_is(p, JF_T_conditional_expression))
			return true;
	return false;
}

static void record_parser(jf_cmdline_recorder *r, TSNode call)
{
	bool abbrev = true, splat = false;
	TSNode args = jf_node_field(call, JF_F_arguments);
	for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
		TSNode a = ts_node_named_child(args, i);
		if (jf_node_type_is(a, JF_T_keyword_argument) &&
		    jf_node_is(r->unit, jf_node_field(a, JF_F_name), "allow_abbrev") &&
		    jf_node_type_is(jf_node_field(a, JF_F_value), JF_T_false))
			abbrev = false;
		splat |= jf_node_type_is(a, JF_T_dictionary_splat) || jf_node_type_is(a, JF_T_list_splat);
	}
	jf_cmdline_step *s = jf_cmdline__step(r, PARSER);
	s->span = jf_node_span(call);
	s->flag = !abbrev;
	if (splat)
		jf_cmdline__step_open(r, "its ArgumentParser(...) gets * or ** arguments");
}

static void record_defaults(jf_cmdline_recorder *r, TSNode call)
{
	JF_ARRAY(const char *) names = { 0 };
	bool open = false;
	TSNode args = jf_node_field(call, JF_F_arguments);
	for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
		TSNode a = ts_node_named_child(args, i);
		if (jf_node_type_is(a, JF_T_keyword_argument))
			jf_array_push(&names, jf_node_text_in(r->arena, r->unit, jf_node_field(a, JF_F_name)));
		else
			open = true; /* set_defaults(**cfg) */
	}
	jf_cmdline_step *s = jf_cmdline__step(r, DEFAULTS);
	s->names = names.items;
	s->count = names.size;
	s->flag = open;
	jf_arena_adopt(r->arena, names.items);
}

static bool conditional(TSNode n);

/* deepspeed.add_config_arguments(parser): the options DeepSpeed adds (its
 * runtime's _add_core_arguments: --deepspeed, --deepspeed_config, and the
 * older --deepscale, --deepscale_config and --deepspeed_mpi). */
static void record_deepspeed_options(jf_cmdline_recorder *r, TSNode call)
{
	static const struct {
		const char *option;
		bool flag;
	} options[] = { { "--deepspeed", true },       { "--deepspeed_config", false },
		        { "--deepscale", true },       { "--deepscale_config", false },
		        { "--deepspeed_mpi", true } };
	TSNode parser = ts_node_named_child(jf_node_field(call, JF_F_arguments), 0);
	const char *object = variable(r, parser);
	if (!object) {
		jf_cmdline__step_open(r, "add_config_arguments() adds options to a parser jobfix cannot name");
		return;
	}
	for (size_t i = 0; i < sizeof options / sizeof *options; i++) {
		jf_argdef d = { .command = JF_CMDLINE_MAIN, .unit = r->unit, .span = jf_node_span(call),
			        .act = options[i].flag ? ACT_FLAG : ACT_STORE,
			        .type = options[i].flag ? TYPE_BOOL : TYPE_STR,
			        .conditional = conditional(call) };
		jf_array_push(&d.options, jf_xstrdup(options[i].option));
		d.dest = jf_argdef_dest(&d);
		jf_cmdline__step_argument(r, ADD_ARGUMENT, &d, object);
	}
}

static void record_call(jf_cmdline_recorder *r, const jf_py_node *pn)
{
	const jf_file *unit = r->unit;
	TSNode n = pn->node, fn = pn->a;
	if (!jf_cmdline__callee_ends(unit, fn, "add_config_arguments"))
		record_handed_over(r, fn, pn->b); /* whose options are read below */
	if (jf_cmdline__calls_method(unit, fn, "parse_known_args")) {
		bool gated = r->gated;
		r->gated = false; /* unknown flags may be left to the script wherever it stands */
		jf_cmdline__step(r, TOLERANT);
		r->gated = gated;
	}
	if (jf_cmdline__calls_method(unit, fn, "parse_args") ||
	    jf_cmdline__calls_method(unit, fn, "set_defaults"))
		jf_cmdline__step(r, JF_STEP_TAKES_PART);
	if ((jf_cmdline__calls_method(unit, fn, "parse_args") ||
	     jf_cmdline__calls_method(unit, fn, "parse_known_args")) &&
	    !ts_node_named_child_count(pn->b))
		jf_cmdline__step(r, ARGV_PARSED);
	/* parents=[...] of a parser, not of Path.mkdir() and the like */
	if ((jf_cmdline__callee_ends(unit, fn, "ArgumentParser") ||
	     jf_cmdline__calls_method(unit, fn, "add_parser")) &&
	    has_keyword(unit, n, "parents"))
		jf_cmdline__step(r, PARENTS);
	if (jf_cmdline__callee_ends(unit, fn, "add_config_arguments")) {
		record_deepspeed_options(r, n);
	} else if (jf_cmdline__calls_method(unit, fn, "add_argument") &&
	           jf_cmdline_foreign_add_argument(unit, n, &r->own_add_argument)) {
		/* a method of a class of the code's own (a config validator) */
	} else if (jf_cmdline__calls_method(unit, fn, "add_argument")) {
		const char *object = variable(r, jf_node_field(fn, JF_F_object));
		jf_argdef d = { .conditional = conditional(n) };
		if (read_argument(unit, n, &d)) {
			jf_cmdline__step_argument(r, ADD_ARGUMENT, &d, object);
		} else {
			jf_cmdline__def_release(&d);
			jf_cmdline__step_unread(r, ADD_ARGUMENT, unread_dest(unit, n), object);
		}
	} else if (jf_cmdline__callee_ends(unit, fn, "ArgumentParser")) {
		record_parser(r, n);
	} else if (jf_cmdline__calls_method(unit, fn, "set_defaults")) {
		record_defaults(r, n);
	} else if (jf_cmdline__calls_method(unit, fn, "parse_args") &&
	           ts_node_named_child_count(pn->b) > 0) {
		TSNode args = pn->b;
		const char *name = ts_node_named_child_count(args) == 1
		                           ? variable(r, ts_node_named_child(args, 0))
		                           : NULL;
		jf_cmdline__step(r, PARSE_LIST)->text = name;
	}
}

static void record(jf_cmdline_recorder *r, const jf_py_node *pn)
{
	if (pn->kind == JF_PY_ASSIGNMENT)
		record_assignment(r, pn->a, pn->b);
	else if (pn->kind == JF_PY_CALL)
		record_call(r, pn);
}

/* Replaying */

static int owner_of(const state *st, const char *var)
{
	void *v = var ? jf_strmap_get(&st->owners, var, strlen(var)) : NULL;
	return v ? (int)((intptr_t)v - 4) : OWNER_NONE;
}

static void set_owner(state *st, const char *var, int owner)
{
	jf_strmap_put(&st->owners, var, strlen(var), (void *)(intptr_t)(owner + 4));
}

/* A new command with the names of step `s`; OWNER_NONE when it has none. */
static int add_command(jf_cmdline *c, const jf_cmdline_step *s)
{
	if (!s->count)
		return OWNER_NONE;
	int index = (int)c->commands.size; /* the index of its first name */
	for (size_t k = 0; k < s->count; k++) {
		jf_array_push(&c->commands, jf_xstrdup(s->names[k]));
		jf_array_push(&c->command_of, index);
	}
	return index;
}

static void hand_over(jf_cmdline *c, state *st, const jf_cmdline_step *s)
{
	if (!st->owners.size)
		return; /* no parser yet: nothing to hand over */
	for (size_t i = 0; i < s->count; i++) {
		if (owner_of(st, s->names[i]) == OWNER_NONE)
			continue;
		if (s->text)
			jf_array_push(&st->handed_to, jf_xstrdup(s->text));
		else
			c->open = "its parser is handed to a call jobfix cannot name";
		return;
	}
}

static void add_argument(jf_cmdline *c, state *st, const jf_cmdline_step *s)
{
	int owner = owner_of(st, s->object);
	if (owner == OWNER_NONE || owner == OWNER_SUBPARSERS)
		st->unowned = true;
	if (s->def->unread) {
		c->open = "an add_argument call has computed option strings or settings";
		return;
	}
	jf_cmdline__add(c, s->def)->command = owner >= 0 ? owner : OWNER_MAIN;
}

static void replay(jf_cmdline *c, const jf_file *unit, const jf_cmdline_step *s)
{
	state *st = jf_cmdline__state(c, &jf_parser_argparse, sizeof *st);
	if (st->unit != unit) { /* a module's variables are its own: a `group` there is no group */
		jf_strmap_release(&st->owners);
		memset(&st->owners, 0, sizeof st->owners);
		st->unit = unit;
	}
	switch (s->kind) {
	case REST_NAME:
		jf_array_push(&st->rest_names, jf_xstrdup(s->text));
		break;
	case PARSER_VAR:
		set_owner(st, s->text, OWNER_MAIN);
		break;
	case SUBPARSERS_VAR:
		c->subparsers = true;
		set_owner(st, s->text, OWNER_SUBPARSERS);
		break;
	case COMMAND_VAR:
		if (owner_of(st, s->object) == OWNER_SUBPARSERS)
			set_owner(st, s->text, add_command(c, s));
		break;
	case GROUP_VAR:
		set_owner(st, s->text, owner_of(st, s->object));
		break;
	case HANDED:
		hand_over(c, st, s);
		break;
	case ARGV_PARSED:
		st->argv_parsed = true;
		break;
	case PARENTS:
		st->has_parents = true;
		break;
	case ADD_ARGUMENT:
		add_argument(c, st, s);
		break;
	case PARSER:
		if (!c->parsers++) {
			st->parser_unit = unit;
			st->parser_span = s->span;
		}
		if (s->flag)
			st->no_abbrev = true;
		break;
	case DEFAULTS:
		for (size_t i = 0; i < s->count; i++)
			jf_array_push(&c->extra_dests, jf_xstrdup(s->names[i]));
		if (s->flag)
			c->extra_open = true;
		break;
	case PARSE_LIST:
		if (s->text && jf_strings_have(&st->rest_names, s->text))
			st->rest_parsed = true; /* the rest of the command line, strictly */
		else
			st->own_list = true;
		break;
	case TOLERANT:
		c->tolerant = "parse_known_args";
		break;
	}
}

/* Whether some Python file of the job defines function `name`. */
static bool defines_function(const jf_pyfiles *files, const char *name)
{
	char *def = jf_xasprintf("def %s(", name);
	bool found = false;
	for (size_t i = 0; i < files->ws->files.size && !found; i++) {
		const jf_file *u = files->ws->files.items[i];
		found = u->lang == JF_LANG_PYTHON && strstr(u->src->data, def);
	}
	free(def);
	return found;
}

static bool finish(jf_cmdline *c, const jf_pyfiles *files, const jf_pyfacts *entry)
{
	(void)entry;
	state *st = c->state ? c->state[JF_PARSER_argparse] : NULL;
	if (!st)
		return false; /* nothing of argparse runs for the script */
	/* parse_known_args, then parse_args of what it left: every flag must be known */
	if (st->rest_parsed)
		c->tolerant = NULL;
	/* parse_args([...]) of a list of its own (defaults for a helper) matters
	 * only when nothing parses the command line itself */
	if (st->own_list && !st->argv_parsed && !st->rest_parsed)
		c->open = "parse_args(...) parses a list of its own, not the command line";
	/* A parser handed to a function jobfix cannot read (an unfollowed module,
	 * a library) may get any argument there. */
	static const char *const harmless[] = { "print", "vars", "len", "str", "repr", "id",
		                                "isinstance", "type", NULL };
	for (size_t i = 0; i < st->handed_to.size && !c->open; i++)
		if (!jf_str_in(st->handed_to.items[i], harmless) &&
		    !defines_function(files, st->handed_to.items[i]))
			c->open = "its parser is handed to a function no file of the job defines";
	/* parents=[base]: base's options are in the picture only when base is
	 * made here too (a second ArgumentParser); one from a library is not. */
	if (st->has_parents && c->parsers < 2)
		c->open = "its parser takes parents=[...] from elsewhere";
	/* With subcommands, every option must be placed in its parser. */
	if (c->subparsers && (st->unowned || !c->commands.size))
		c->open = "the options of its subcommands cannot all be placed";
	if (!c->parsers)
		return false;
	c->dialect = JF_DIALECT_ARGPARSE;
	c->result = JF_RESULT_NAMESPACE;
	c->duplicates_fail = true;
	c->abbrev = !st->no_abbrev;
	c->unit = st->parser_unit;
	c->span = st->parser_span;
	return true;
}

const jf_cmdline_parser jf_parser_argparse = {
	.name = "argparse",
	.mentions = mentions,
	.record = record,
	.replay = replay,
	.own_kinds = KINDS_END - JF_STEP_OWN,
	.finish = finish,
	.release = release,
};
