/* cmdline.c - the command line an entry script accepts: argparse, and how it is read
 *
 * The argparse definitions of the entry script and of the local modules it
 * imports are collected into one picture of its command line: option
 * strings, actions, types, choices, nargs, required arguments, positionals,
 * subcommands; cmdline_flags.c adds absl flags and click. Each file is read
 * once, from its facts (python/facts.h), into steps that a later lint of any
 * entry replays: the command line needs no module's tree again.
 *
 * Precision first. A parser that something else extends or that parses
 * another list (subparsers, parse_args(list), library helpers such as
 * deepspeed.add_config_arguments or HfArgumentParser, Hydra, fire, click
 * groups, exec-style configurators, hand-read sys.argv, option strings or
 * keywords computed at run time) makes the picture open: the rules then say
 * nothing about flags jobfix cannot see.
 */
#include <ctype.h>
#include <stdlib.h>

#include "python/cmdline.h"

/* Source markers of a command line jobfix cannot see whole. */
/* Calls that extend or replace a parser where jobfix cannot see: the parser
 * is open when one of them runs for the script. */
static const struct {
	const char *call;
	const char *why; /* jf_cmdline.open */
} open_calls[] = {
	{ "add_config_arguments", "add_config_arguments() adds options jobfix cannot see" },
	{ "add_argparse_args", "add_argparse_args() adds options jobfix cannot see" },
	{ "add_model_specific_args", "add_model_specific_args() adds options jobfix cannot see" },
	{ "HfArgumentParser", "HfArgumentParser reads its options from dataclasses" },
	{ "fire.Fire", "fire.Fire() makes its command line" },
	{ "LightningCLI", "LightningCLI makes its command line" },
	{ "OmegaConf.from_cli", "OmegaConf.from_cli() reads its command line" },
	{ "exec", "exec() may define anything" },
	{ "parse_intermixed_args", "parse_intermixed_args() reads options and positionals apart" },
	{ "append_flag_values", "append_flag_values() adds flags jobfix cannot see" },
};

/* Libraries and parser settings that change what a command line means: the
 * parser is open when the entry script, or a module that takes part in its
 * parser, has one. */
static const char *const open_markers[] = {
	"hydra",         "jsonargparse",          "simple_parsing",   "typer",
	"from click import", "flags_core",        "config_flags",     "prefix_chars",
	"fromfile_prefix_chars", "conflict_handler", NULL,
};

/*
 * Whether collect() may find anything in `unit`: every call, assignment and
 * decorator it looks at spells one of these (argparse's parsers, groups and
 * parse calls, open_calls, absl's DEFINE_* and app.run, click), as do its
 * text scans. A module that spells none is not read for its definitions.
 */
static bool may_define_arguments(const jf_file *unit)
{
	static const char *const spelled[] = {
		"argv", "parse_", "ArgumentParser", "add_argument", "add_subparsers", "add_parser",
		"add_mutually_exclusive_group", "set_defaults", "add_config_arguments",
		"add_argparse_args", "add_model_specific_args", "Fire", "LightningCLI", "from_cli",
		"append_flag_values", "DEFINE", "mark_flag", "adopt_module_key_flags",
		"declare_key_flag", "app.run", "FLAGS", "click", NULL,
	};
	for (size_t i = 0; spelled[i]; i++)
		if (jf_python_mentions(unit, spelled[i]))
			return true;
	/* exec() as a word: "executor" and "execute" are common */
	const char *text = unit->src->data;
	if (jf_python_mentions(unit, "exec"))
		for (const char *p = strstr(text, "exec"); p; p = strstr(p + 4, "exec"))
			if (jf_is_word_at(text, p, 4))
				return true;
	return false;
}

void jf_cmdline__def_release(jf_argdef *d)
{
	for (size_t i = 0; i < d->options.size; i++)
		free(d->options.items[i]);
	jf_array_release(&d->options);
	for (size_t i = 0; i < d->choices.size; i++)
		free(d->choices.items[i]);
	jf_array_release(&d->choices);
	free(d->dest);
}

void jf_cmdline_release(jf_cmdline *c)
{
	for (size_t i = 0; i < c->args.size; i++)
		jf_cmdline__def_release(&c->args.items[i]);
	jf_array_release(&c->args);
	for (size_t i = 0; i < c->defaults.size; i++)
		free(c->defaults.items[i]);
	jf_array_release(&c->defaults);
	for (size_t i = 0; i < c->commands.size; i++)
		free(c->commands.items[i]);
	jf_array_release(&c->commands);
	jf_array_release(&c->command_of);
	jf_strmap_release(&c->owners);
	for (size_t i = 0; i < c->handed_to.size; i++)
		free(c->handed_to.items[i]);
	jf_array_release(&c->handed_to);
	jf_strings_release(&c->rest_names);
	for (size_t i = 0; i < c->required.size; i++)
		free(c->required.items[i]);
	jf_array_release(&c->required);
	free(c->click_fn);
}

/* The value of a plain string literal (no f-string, no concatenation), or NULL; caller frees. */
char *jf_cmdline__string(const jf_file *unit, TSNode n)
{
	if (!jf_node_type_is(n, JF_T_string) || ts_node_named_child_count(n) > 3)
		return NULL;
	char *text = jf_node_text(unit, n);
	size_t len = strlen(text);
	char *v = NULL;
	if (len >= 2 && (text[0] == '"' || text[0] == '\'') && text[len - 1] == text[0] &&
	    !strchr(text, '\\') && !strchr(text, '{'))
		v = jf_xstrndup(text + 1, len - 2);
	free(text);
	return v;
}

/* A literal as the text argparse would compare: strings unquoted, numbers as written. */
static char *literal_value(const jf_file *unit, TSNode n)
{
	if (jf_node_type_is(n, JF_T_integer) || jf_node_type_is(n, JF_T_float))
		return jf_node_text(unit, n);
	return jf_cmdline__string(unit, n);
}

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

void jf_cmdline__read_choices(const jf_file *unit, TSNode v, jf_argdef *d)
{
	if (!jf_node_type_is(v, JF_T_list) && !jf_node_type_is(v, JF_T_tuple))
		return;
	uint32_t n = ts_node_named_child_count(v);
	for (uint32_t i = 0; i < n; i++) {
		char *s = literal_value(unit, ts_node_named_child(v, i));
		if (!s)
			return; /* computed choices: unknown (the ones read so far are freed later) */
		jf_array_push(&d->choices, s);
	}
	d->choices_known = true;
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
		}
	}
	if (!d->options.size && !d->dest)
		return false;
	for (size_t i = 0, given = d->options.size; d->negatable && i < given; i++)
		if (jf_str_starts(d->options.items[i], "--"))
			jf_array_push(&d->options, jf_xasprintf("--no-%s", d->options.items[i] + 2));
	if (!d->options.size) /* a positional is required unless nargs allows none */
		d->required = d->nargs != NARGS_OPTIONAL && d->nargs != NARGS_ANY &&
		              d->nargs != NARGS_REMAINDER;
	return true;
}

/* Whether the text of `n` ends with the word `name`: a test that spares the
 * field lookups below for almost every call. */
static bool ends_with_word(const jf_file *unit, TSNode n, const char *name)
{
	if (ts_node_is_null(n))
		return false;
	uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
	size_t len = strlen(name);
	if (b - a < len || memcmp(unit->src->data + b - len, name, len))
		return false;
	char before = b - a > len ? unit->src->data[b - len - 1] : ' ';
	return !(isalnum((unsigned char)before) || before == '_');
}

/* Whether callee `fn` of a call is a method named `name`: x.name(...). */
static bool calls_method(const jf_file *unit, TSNode fn, const char *name)
{
	return ends_with_word(unit, fn, name) && jf_node_type_is(fn, JF_T_attribute) &&
	       jf_node_is(unit, jf_node_field(fn, JF_F_attribute), name);
}

/* Whether callee `fn` of a call is `name` or `x.name`. */
static bool callee_ends(const jf_file *unit, TSNode fn, const char *name)
{
	if (!ends_with_word(unit, fn, name))
		return false;
	if (jf_node_type_is(fn, JF_T_attribute))
		fn = jf_node_field(fn, JF_F_attribute);
	return jf_node_type_is(fn, JF_T_identifier) && jf_node_is(unit, fn, name);
}

/* Recording: what each statement does to the command line, read while the
 * file's tree is held. The steps are replayed in source order by collect(),
 * which knows what the job runs of the file; a variable's parser is known
 * only then, so a step names variables, and collect() keeps which parser
 * each holds. */

#define OWNER_NONE (-3)
#define OWNER_SUBPARSERS (-2)
#define OWNER_MAIN JF_CMDLINE_MAIN

struct jf_cmdline_record {
	const jf_cmdline_step *steps;
	size_t count;
};

/* `here`, kept in `arena`; `last` when it is the same place (collect() asks
 * each place once). */
static const jf_py_place *keep_place(jf_arena *arena, const jf_py_place *last, jf_py_place here)
{
	if (last && last->main == here.main &&
	    (last->outer == here.outer ||
	     (last->outer && here.outer && !strcmp(last->outer, here.outer))))
		return last;
	jf_py_place *p = jf_arena_alloc(arena, sizeof *p);
	*p = here;
	return p;
}

/* Where the node being read stands. */
static const jf_py_place *node_place(jf_cmdline_recorder *r)
{
	return r->last_place = keep_place(r->arena, r->last_place,
	                                  jf_py_place_of(r->arena, r->py, r->pn));
}

jf_cmdline_step *jf_cmdline__step(jf_cmdline_recorder *r, jf_step_kind kind)
{
	if (r->gated && !r->place)
		r->place = node_place(r);
	jf_cmdline_step s = { .kind = kind, .place = r->gated ? r->place : NULL };
	jf_array_push(&r->steps, s);
	return jf_array_last(&r->steps);
}

void jf_cmdline__step_open(jf_cmdline_recorder *r, const char *why)
{
	jf_cmdline__step(r, JF_STEP_OPEN)->text = why;
}

static const char **strings_in(jf_arena *arena, char *const *items, size_t n)
{
	const char **copy = jf_arena_calloc(arena, n ? n : 1, sizeof *copy);
	for (size_t i = 0; i < n; i++)
		copy[i] = jf_arena_strdup(arena, items[i]);
	return copy;
}

void jf_cmdline__step_argument(jf_cmdline_recorder *r, jf_step_kind kind, jf_argdef *d,
                               const char *object)
{
	jf_argdef *kept = jf_arena_alloc(r->arena, sizeof *kept);
	*kept = *d;
	kept->options.items = (char **)strings_in(r->arena, d->options.items, d->options.size);
	kept->options.cap = d->options.size;
	kept->choices.items = (char **)strings_in(r->arena, d->choices.items, d->choices.size);
	kept->choices.cap = d->choices.size;
	kept->dest = d->dest ? jf_arena_strdup(r->arena, d->dest) : NULL;
	jf_cmdline__def_release(d);
	jf_cmdline_step *s = jf_cmdline__step(r, kind);
	s->def = kept;
	s->object = object;
}

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
	s->names = strings_in(r->arena, names.choices.items, names.choices.size);
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
	    ts_node_named_child_count(var) == 2 && calls_method(unit, fn, "parse_known_args") &&
	    !ts_node_named_child_count(jf_node_field(call, JF_F_arguments)) &&
	    jf_node_type_is(ts_node_named_child(var, 1), JF_T_identifier)) {
		const char *rest = variable(r, ts_node_named_child(var, 1));
		jf_cmdline__step(r, JF_STEP_REST_NAME)->text = rest;
		return;
	}
	if (!jf_node_type_is(var, JF_T_identifier))
		return;
	jf_step_kind kind;
	if (callee_ends(unit, fn, "ArgumentParser"))
		kind = JF_STEP_PARSER_VAR;
	else if (calls_method(unit, fn, "add_subparsers"))
		kind = JF_STEP_SUBPARSERS_VAR;
	else if (calls_method(unit, fn, "add_parser"))
		kind = JF_STEP_COMMAND_VAR;
	else if (calls_method(unit, fn, "add_argument_group") ||
	         calls_method(unit, fn, "add_mutually_exclusive_group"))
		kind = JF_STEP_GROUP_VAR;
	else
		return;
	const char *name = variable(r, var);
	const char *object = variable(r, jf_node_field(fn, JF_F_object));
	jf_strmap_add(&r->holders, name);
	jf_cmdline_step *s = jf_cmdline__step(r, kind);
	s->text = name;
	s->object = object;
	if (kind == JF_STEP_COMMAND_VAR)
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
		jf_cmdline_step *s = jf_cmdline__step(r, JF_STEP_HANDED);
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

static void record_call(jf_cmdline_recorder *r, const jf_py_node *pn)
{
	const jf_file *unit = r->unit;
	TSNode n = pn->node, fn = pn->a;
	record_handed_over(r, fn, pn->b);
	for (size_t i = 0; i < sizeof open_calls / sizeof *open_calls; i++)
		if (strchr(open_calls[i].call, '.') ? ends_with_word(unit, fn, open_calls[i].call)
		                                    : callee_ends(unit, fn, open_calls[i].call)) {
			jf_cmdline__step(r, JF_STEP_OPEN_FIRST)->text = open_calls[i].why;
			break;
		}
	if (calls_method(unit, fn, "parse_args") || calls_method(unit, fn, "set_defaults"))
		jf_cmdline__step(r, JF_STEP_TAKES_PART);
	if ((calls_method(unit, fn, "parse_args") || calls_method(unit, fn, "parse_known_args")) &&
	    !ts_node_named_child_count(pn->b))
		jf_cmdline__step(r, JF_STEP_ARGV_PARSED);
	/* parents=[...] of a parser, not of Path.mkdir() and the like */
	if ((callee_ends(unit, fn, "ArgumentParser") || calls_method(unit, fn, "add_parser")) &&
	    has_keyword(unit, n, "parents"))
		jf_cmdline__step(r, JF_STEP_PARENTS);
	if (calls_method(unit, fn, "add_argument")) {
		const char *object = variable(r, jf_node_field(fn, JF_F_object));
		jf_argdef d = { .conditional = conditional(n) };
		if (read_argument(unit, n, &d)) {
			jf_cmdline__step_argument(r, JF_STEP_ADD_ARGUMENT, &d, object);
		} else {
			jf_cmdline__def_release(&d);
			jf_cmdline__step(r, JF_STEP_ADD_ARGUMENT)->object = object;
		}
	} else if (callee_ends(unit, fn, "ArgumentParser")) {
		bool abbrev = true, splat = false;
		TSNode args = jf_node_field(n, JF_F_arguments);
		for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
			TSNode a = ts_node_named_child(args, i);
			if (jf_node_type_is(a, JF_T_keyword_argument) &&
			    jf_node_is(unit, jf_node_field(a, JF_F_name), "allow_abbrev") &&
			    jf_node_type_is(jf_node_field(a, JF_F_value), JF_T_false))
				abbrev = false;
			splat |= jf_node_type_is(a, JF_T_dictionary_splat) ||
			         jf_node_type_is(a, JF_T_list_splat);
		}
		jf_cmdline_step *s = jf_cmdline__step(r, JF_STEP_PARSER);
		s->span = jf_node_span(n);
		s->flag = !abbrev;
		if (splat)
			jf_cmdline__step_open(r, "its ArgumentParser(...) gets * or ** arguments");
	} else if (calls_method(unit, fn, "set_defaults")) {
		JF_ARRAY(const char *) names = { 0 };
		bool open = false;
		TSNode args = jf_node_field(n, JF_F_arguments);
		for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
			TSNode a = ts_node_named_child(args, i);
			if (jf_node_type_is(a, JF_T_keyword_argument))
				jf_array_push(&names, jf_node_text_in(r->arena, unit, jf_node_field(a, JF_F_name)));
			else
				open = true; /* set_defaults(**cfg) */
		}
		jf_cmdline_step *s = jf_cmdline__step(r, JF_STEP_DEFAULTS);
		s->names = names.items;
		s->count = names.size;
		s->flag = open;
		jf_arena_adopt(r->arena, names.items);
	} else if (calls_method(unit, fn, "parse_args") && ts_node_named_child_count(pn->b) > 0) {
		TSNode args = pn->b;
		const char *name = ts_node_named_child_count(args) == 1
		                       ? variable(r, ts_node_named_child(args, 0))
		                       : NULL;
		jf_cmdline__step(r, JF_STEP_PARSE_LIST)->text = name;
	}
}

const jf_cmdline_record *jf_cmdline_record_of(jf_arena *arena, const jf_pyfacts *py)
{
	if (!may_define_arguments(py->file))
		return NULL;
	jf_cmdline_recorder r = { .arena = arena, .unit = py->file, .py = py };
	/* Assignments, calls and decorated definitions, in source order. */
	for (size_t k = 0; k < py->nodes.size; k++) {
		const jf_py_node *pn = &py->nodes.items[k];
		if (pn->kind != JF_PY_ASSIGNMENT && pn->kind != JF_PY_CALL && pn->kind != JF_PY_DECORATED)
			continue;
		r.pn = pn;
		r.place = NULL;
		/* a decorated definition is read whether its function runs or not */
		r.gated = pn->kind != JF_PY_DECORATED;
		if (pn->kind == JF_PY_ASSIGNMENT)
			record_assignment(&r, pn->a, pn->b);
		if (pn->kind == JF_PY_CALL)
			record_call(&r, pn);
		if (pn->kind == JF_PY_CALL || pn->kind == JF_PY_DECORATED)
			jf_flags__record(&r, pn);
	}
	jf_strmap_release(&r.holders);
	jf_cmdline_record *rec = jf_arena_alloc(arena, sizeof *rec);
	jf_arena_adopt_array(arena, &r.steps);
	rec->steps = r.steps.items;
	rec->count = r.steps.size;
	return rec;
}

/* Records written and read back (the fact cache's entries of files) */

static void put_def(jf_buf *b, const jf_argdef *d)
{
	jf_wire_put_strings(b, (const char *const *)d->options.items, d->options.size);
	jf_wire_put_str(b, d->dest);
	jf_wire_put_u8(b, (uint8_t)d->act);
	jf_wire_put_u8(b, (uint8_t)d->type);
	jf_wire_put_u8(b, d->untyped);
	jf_wire_put_u32(b, (uint32_t)d->command);
	jf_wire_put_strings(b, (const char *const *)d->choices.items, d->choices.size);
	jf_wire_put_u8(b, d->choices_known);
	jf_wire_put_u8(b, (uint8_t)d->nargs);
	jf_wire_put_u64(b, (uint64_t)d->count);
	jf_wire_put_u8(b, d->required);
	jf_wire_put_u8(b, d->negatable);
	jf_wire_put_u8(b, d->conditional);
	jf_wire_put_u8(b, d->unit != NULL);
	jf_wire_put_span(b, d->span);
}

static const jf_argdef *get_def(jf_wire *w, jf_arena *arena, const jf_file *unit)
{
	jf_argdef *d = jf_arena_alloc(arena, sizeof *d);
	d->options.items = (char **)jf_wire_get_strings_in(w, arena, &d->options.size);
	d->options.cap = d->options.size;
	d->dest = (char *)jf_wire_get_str_in(w, arena);
	d->act = (jf_action)jf_wire_get_u8(w);
	d->type = (jf_argtype)jf_wire_get_u8(w);
	d->untyped = jf_wire_get_bool(w);
	d->command = (int)jf_wire_get_u32(w);
	d->choices.items = (char **)jf_wire_get_strings_in(w, arena, &d->choices.size);
	d->choices.cap = d->choices.size;
	d->choices_known = jf_wire_get_bool(w);
	d->nargs = (jf_nargs)jf_wire_get_u8(w);
	d->count = (long)jf_wire_get_u64(w);
	d->required = jf_wire_get_bool(w);
	d->negatable = jf_wire_get_bool(w);
	d->conditional = jf_wire_get_bool(w);
	d->unit = jf_wire_get_bool(w) ? unit : NULL;
	d->span = jf_wire_get_span_in(w, unit->src->len);
	if (d->act > ACT_CUSTOM || d->type > TYPE_OTHER || d->nargs > NARGS_COUNT)
		w->bad = true;
	return d;
}

void jf_cmdline_record_write(jf_buf *b, const jf_cmdline_record *rec)
{
	jf_wire_put_u8(b, rec != NULL);
	if (!rec)
		return;
	jf_wire_put_u32(b, (uint32_t)rec->count);
	for (size_t i = 0; i < rec->count; i++) {
		const jf_cmdline_step *s = &rec->steps[i];
		jf_wire_put_u8(b, (uint8_t)s->kind);
		jf_wire_put_u8(b, s->flag);
		jf_wire_put_u8(b, (uint8_t)s->how);
		jf_wire_put_u8(b, s->place != NULL);
		if (s->place) {
			jf_wire_put_u8(b, s->place->main);
			jf_wire_put_str(b, s->place->outer);
		}
		jf_wire_put_str(b, s->text);
		jf_wire_put_str(b, s->object);
		jf_wire_put_strings(b, s->names, s->count);
		jf_wire_put_u8(b, s->def != NULL);
		if (s->def)
			put_def(b, s->def);
		jf_wire_put_span(b, s->span);
	}
}

const jf_cmdline_record *jf_cmdline_record_load(jf_wire *w, jf_arena *arena, const jf_file *unit)
{
	if (!jf_wire_get_bool(w))
		return NULL;
	size_t n;
	jf_cmdline_step *steps = jf_wire_get_items(w, arena, sizeof *steps, 16, &n);
	for (size_t i = 0; i < n && !w->bad; i++) {
		jf_cmdline_step *s = &steps[i];
		s->kind = (jf_step_kind)jf_wire_get_u8(w);
		s->flag = jf_wire_get_bool(w);
		s->how = (jf_flags_parse)jf_wire_get_u8(w);
		if (s->kind > JF_STEP_CLICK_COMMAND || s->how > JF_FLAGS_KNOWN_ONLY)
			w->bad = true;
		if (jf_wire_get_bool(w)) {
			jf_py_place here = { jf_wire_get_bool(w), jf_wire_get_str_in(w, arena) };
			s->place = keep_place(arena, i ? steps[i - 1].place : NULL, here);
		}
		s->text = jf_wire_get_str_in(w, arena);
		s->object = jf_wire_get_str_in(w, arena);
		s->names = jf_wire_get_strings_in(w, arena, &s->count);
		if (jf_wire_get_bool(w))
			s->def = get_def(w, arena, unit);
		s->span = jf_wire_get_span_in(w, unit->src->len);
	}
	jf_cmdline_record *rec = jf_arena_alloc(arena, sizeof *rec);
	rec->steps = steps;
	rec->count = n;
	return rec;
}

/* Replaying: the steps of the statements that run for the script */

static int owner_of(const jf_cmdline *c, const char *var)
{
	void *v = var ? jf_strmap_get(&c->owners, var, strlen(var)) : NULL;
	return v ? (int)((intptr_t)v - 4) : OWNER_NONE;
}

static void set_owner(jf_cmdline *c, const char *var, int owner)
{
	jf_strmap_put(&c->owners, var, strlen(var), (void *)(intptr_t)(owner + 4));
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

static void hand_over(jf_cmdline *c, const jf_cmdline_step *s)
{
	if (!c->owners.size)
		return; /* no parser yet: nothing to hand over */
	for (size_t i = 0; i < s->count; i++) {
		if (owner_of(c, s->names[i]) == OWNER_NONE)
			continue;
		if (s->text)
			jf_array_push(&c->handed_to, jf_xstrdup(s->text));
		else
			c->open = "its parser is handed to a call jobfix cannot name";
		return;
	}
}

static char **strings_dup(char *const *items, size_t n)
{
	char **copy = n ? jf_xmalloc(n * sizeof *copy) : NULL;
	for (size_t i = 0; i < n; i++)
		copy[i] = jf_xstrdup(items[i]);
	return copy;
}

/* A copy of recorded argument `d`, owned by the command line. */
static jf_argdef argument_copy(const jf_argdef *d)
{
	jf_argdef copy = *d;
	copy.options.items = strings_dup(d->options.items, d->options.size);
	copy.choices.items = strings_dup(d->choices.items, d->choices.size);
	copy.dest = d->dest ? jf_xstrdup(d->dest) : NULL;
	return copy;
}

static void add_argument(jf_cmdline *c, const jf_cmdline_step *s)
{
	int owner = owner_of(c, s->object);
	if (owner == OWNER_NONE || owner == OWNER_SUBPARSERS)
		c->unowned = true;
	if (!s->def) {
		c->open = "an add_argument call has computed option strings or settings";
		return;
	}
	jf_argdef d = argument_copy(s->def);
	d.command = owner >= 0 ? owner : OWNER_MAIN;
	jf_array_push(&c->args, d);
}

static void replay(jf_cmdline *c, const jf_file *unit, const jf_cmdline_step *s, bool *takes_part)
{
	switch (s->kind) {
	case JF_STEP_REST_NAME:
		jf_array_push(&c->rest_names, jf_xstrdup(s->text));
		break;
	case JF_STEP_PARSER_VAR:
		set_owner(c, s->text, OWNER_MAIN);
		break;
	case JF_STEP_SUBPARSERS_VAR:
		c->subparsers = true;
		set_owner(c, s->text, OWNER_SUBPARSERS);
		break;
	case JF_STEP_COMMAND_VAR:
		if (owner_of(c, s->object) == OWNER_SUBPARSERS)
			set_owner(c, s->text, add_command(c, s));
		break;
	case JF_STEP_GROUP_VAR:
		set_owner(c, s->text, owner_of(c, s->object));
		break;
	case JF_STEP_HANDED:
		hand_over(c, s);
		break;
	case JF_STEP_OPEN:
		c->open = s->text;
		break;
	case JF_STEP_OPEN_FIRST:
		if (!c->open)
			c->open = s->text;
		break;
	case JF_STEP_TAKES_PART:
		*takes_part = true;
		break;
	case JF_STEP_ARGV_PARSED:
		c->argv_parsed = true;
		break;
	case JF_STEP_PARENTS:
		c->has_parents = true;
		break;
	case JF_STEP_ADD_ARGUMENT:
		add_argument(c, s);
		break;
	case JF_STEP_PARSER:
		if (!c->parsers++) {
			c->unit = unit;
			c->span = s->span;
		}
		if (s->flag)
			c->allow_abbrev = false;
		break;
	case JF_STEP_DEFAULTS:
		for (size_t i = 0; i < s->count; i++)
			jf_array_push(&c->defaults, jf_xstrdup(s->names[i]));
		if (s->flag)
			c->defaults_open = true;
		break;
	case JF_STEP_PARSE_LIST:
		if (s->text && jf_strings_have(&c->rest_names, s->text))
			c->rest_parsed = true; /* the rest of the command line, strictly */
		else
			c->own_list = true;
		break;
	case JF_STEP_ARGUMENT:
		jf_array_push(&c->args, argument_copy(s->def));
		break;
	case JF_STEP_ABSL:
		c->absl = true;
		break;
	case JF_STEP_REQUIRED:
		jf_array_push(&c->required, jf_xstrdup(s->text));
		break;
	case JF_STEP_FLAGS_PARSE:
		c->absl = true;
		if (c->flags_parse == JF_FLAGS_UNPARSED) {
			c->flags_parse = s->how;
			c->unit = unit;
			c->span = s->span;
		} else if (s->flag && c->flags_parse != s->how) {
			c->open = "its flags are parsed in more than one way";
		}
		break;
	case JF_STEP_ARGV_PARSES:
		c->argv_parses++;
		break;
	case JF_STEP_CLICK_COMMAND:
		if (!c->click_commands++) {
			c->click_fn = s->text ? jf_xstrdup(s->text) : NULL;
			c->click_unit = unit;
			c->click_span = s->span;
		}
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

/* Whether the `sys.argv` at `p` is only shown: `" ".join(sys.argv)`,
 * `print(sys.argv)`, `str(sys.argv)`, `repr(sys.argv)`. */
static bool echoes_argv(const char *text, const char *p)
{
	static const char *const shows[] = { "join(", "print(", "str(", "repr(", NULL };
	for (size_t i = 0; shows[i]; i++) {
		size_t n = strlen(shows[i]);
		if ((size_t)(p - text) >= n && !memcmp(p - n, shows[i], n) &&
		    p[sizeof "sys.argv" - 1] == ')')
			return true;
	}
	return false;
}

/* Adds the argparse definitions, absl flags and click parameters of `unit`
 * (its record `rec`) to `c`: all of them for the entry script (`called`
 * NULL), those that run for it in an imported module (with `own`, its
 * jf_py_own_calls()). */
static void collect(jf_cmdline *c, const jf_file *unit, const jf_cmdline_record *rec,
                    const jf_strmap *called, const jf_strmap *own)
{
	/* A module's variables are its own: a `group` there is no parser group. */
	jf_strmap_release(&c->owners);
	memset(&c->owners, 0, sizeof c->owners);
	size_t defined = c->args.size;
	int parsers = c->parsers;
	bool takes_part = !called; /* the entry script's own */
	if (strstr(unit->src->data, "parse_known_args"))
		c->tolerant = true;
	/* hand-read, unless FLAGS(sys.argv) parses it; printing it reads nothing */
	for (const char *p = strstr(unit->src->data, "sys.argv"); p; p = strstr(p + 1, "sys.argv"))
		c->argv_reads += !echoes_argv(unit->src->data, p);
	const jf_py_place *place = NULL;
	bool runs = true;
	for (size_t k = 0; rec && k < rec->count; k++) {
		const jf_cmdline_step *s = &rec->steps[k];
		if (called && s->place && s->place != place) {
			place = s->place;
			runs = jf_py_place_runs(place, called, own);
		}
		if (!called || !s->place || runs)
			replay(c, unit, s, &takes_part);
	}
	takes_part |= c->args.size > defined || c->parsers > parsers;
	for (size_t i = 0; open_markers[i] && takes_part; i++)
		if (strstr(unit->src->data, open_markers[i]))
			c->open = "it reads its command line with a library jobfix does not model "
			          "(hydra, jsonargparse, click, typer, ...)";
}

void jf_cmdline_read(jf_cmdline *c, const jf_pyfiles *files, const jf_pyfacts *entry)
{
	memset(c, 0, sizeof(*c));
	c->allow_abbrev = true;
	collect(c, entry->file, entry->names->cmdline, NULL, NULL);
	/* The job's called names, once every module is read, are the entry's with
	 * it: an entry script is one. */
	bool job = files->called && entry->file->role == JF_ROLE_ENTRY;
	jf_strmap called = JF_STRMAP_INIT;
	if (!job)
		jf_py_called_names(files, entry, &called);
	for (size_t i = 0; i < files->ws->files.size; i++) {
		const jf_file *u = files->ws->files.items[i];
		const jf_py_names *names = u->role == JF_ROLE_MODULE ? jf_pyfiles_names(files, u) : NULL;
		if (!names || !names->cmdline)
			continue; /* not read, or it spells nothing collect() reads */
		if (job) {
			collect(c, u, names->cmdline, files->called, jf_pyfiles_own(files, u));
		} else {
			jf_strmap own = JF_STRMAP_INIT;
			jf_py_own_calls(names, &called, &own);
			collect(c, u, names->cmdline, &called, &own);
			jf_strmap_release(&own);
		}
	}
	jf_strmap_release(&called);
	/* parse_known_args, then parse_args of what it left: every flag must be known */
	if (c->rest_parsed)
		c->tolerant = false;
	/* parse_args([...]) of a list of its own (defaults for a helper) matters
	 * only when nothing parses the command line itself */
	if (c->own_list && !c->argv_parsed && !c->rest_parsed)
		c->open = "parse_args(...) parses a list of its own, not the command line";
	jf_flags__finish(c, entry);
	if (c->argv_reads > c->argv_parses)
		c->open = "it reads sys.argv by hand";
	/* A parser handed to a function jobfix cannot read (an unfollowed module,
	 * a library) may get any argument there. */
	static const char *const harmless[] = { "print", "vars", "len", "str", "repr", "id",
		                                "isinstance", "type", NULL };
	for (size_t i = 0; i < c->handed_to.size && !c->open; i++)
		if (!jf_str_in(c->handed_to.items[i], harmless) &&
		    !defines_function(files, c->handed_to.items[i]))
			c->open = "its parser is handed to a function no file of the job defines";
	/* parents=[base]: base's options are in the picture only when base is
	 * made here too (a second ArgumentParser); one from a library is not. */
	if (c->has_parents && c->parsers < 2)
		c->open = "its parser takes parents=[...] from elsewhere";
	/* With subcommands, every option must be placed in its parser. */
	if (c->subparsers && (c->unowned || !c->commands.size))
		c->open = "the options of its subcommands cannot all be placed";
}


/* Reading an invocation */

const jf_argdef *jf_cmdline_find_option(const jf_cmdline *c, const char *name)
{
	for (size_t i = 0; i < c->args.size; i++)
		for (size_t k = 0; k < c->args.items[i].options.size; k++)
			if (!strcmp(c->args.items[i].options.items[k], name))
				return &c->args.items[i];
	return NULL;
}

static bool is_number(const char *s)
{
	char *end;
	if (!*s)
		return false;
	strtod(s, &end);
	return *end == '\0';
}

bool jf_cmdline_looks_like_option(const char *s)
{
	return s[0] == '-' && s[1] && !is_number(s);
}

const jf_argdef *jf_cmdline_resolve_option(const jf_cmdline *c, const char *name,
                                           const char **full, bool *ambiguous)
{
	*ambiguous = false;
	const jf_argdef *d = jf_cmdline_find_option(c, name);
	if (d || !c->allow_abbrev || !jf_str_starts(name, "--")) {
		*full = name;
		return d;
	}
	const jf_argdef *found = NULL;
	for (size_t i = 0; i < c->args.size; i++)
		for (size_t k = 0; k < c->args.items[i].options.size; k++) {
			const char *opt = c->args.items[i].options.items[k];
			if (jf_str_starts(opt, name) && jf_str_starts(opt, "--")) {
				if (found && found != &c->args.items[i])
					*ambiguous = true;
				found = &c->args.items[i];
				*full = opt;
			}
		}
	return *ambiguous ? NULL : found;
}


/*
 * A local launcher script: its parser takes a positional naming a script
 * (`training_script`, `script`, `program`, ...) followed by an
 * argparse.REMAINDER positional, as torch.distributed.launch does. Returns
 * the index in `args` of the word naming the wrapped script, or -1.
 */
long jf_cmdline_wrapped_script(const jf_pyfiles *files, const jf_pyfacts *entry,
                               const jf_words *args)
{
	/* A launcher's parser has a REMAINDER: without one in the text, there is
	 * no parser to build (the run's arguments are checked later anyway). */
	const char *text = entry->file->src->data;
	if (!strstr(text, "REMAINDER") && !strstr(text, "'...'") && !strstr(text, "\"...\""))
		return -1;
	jf_cmdline c;
	long at = -1;
	jf_cmdline_read(&c, files, entry);
	bool wraps = false;
	for (size_t i = 0; i + 1 < c.args.size; i++) {
		const jf_argdef *d = &c.args.items[i], *next = &c.args.items[i + 1];
		if (!d->options.size && d->dest && d->nargs == NARGS_ONE &&
		    (strstr(d->dest, "script") || strstr(d->dest, "program")) &&
		    !next->options.size && next->nargs == NARGS_REMAINDER)
			wraps = true;
	}
	for (size_t i = 0; wraps && !c.open && c.parsers == 1 && i < args->size; i++) {
		const char *s = args->items[i].value;
		if (!s)
			break; /* an unknown word: which one is the script is not known */
		if (!jf_cmdline_looks_like_option(s)) {
			at = (long)i; /* the first positional: the script */
			break;
		}
		const char *full;
		bool ambiguous;
		char *name = strchr(s, '=') ? jf_xstrndup(s, (size_t)(strchr(s, '=') - s)) : jf_xstrdup(s);
		const jf_argdef *d = jf_cmdline_resolve_option(&c, name, &full, &ambiguous);
		free(name);
		if (!d || d->act == ACT_CUSTOM)
			break; /* how many values follow is not known */
		if (d->act != ACT_FLAG && !strchr(s, '='))
			i++; /* its value */
	}
	jf_cmdline_release(&c);
	return at;
}
