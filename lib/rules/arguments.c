/* arguments.c - JF302-JF304, JF306-JF308: what the launch passes against what the entry script accepts
 *
 * For each Python entry script the command runs, the argparse definitions of
 * the script and of the local modules it imports are collected into one
 * picture of its command line: option strings, actions, types, choices,
 * nargs, required arguments, positionals. Every invocation (its words as the
 * shell gives them, "$@" from the job spec included) is then read the way
 * argparse reads it.
 *
 * Precision first. A parser that something else extends or that parses
 * another list (subparsers, parse_args(list), library helpers such as
 * deepspeed.add_config_arguments or HfArgumentParser, Hydra, fire, click,
 * absl, exec-style configurators, hand-read sys.argv, option strings or
 * keywords computed at run time) makes the picture open: no finding about
 * flags jobfix cannot see. parse_known_args() tolerates unknown flags. A word
 * whose value is known only at run time makes the rest of the invocation
 * partial: required arguments and positionals are then not checked.
 */
#include <ctype.h>
#include <stdlib.h>

#include "rules/checks.h"
#include "python/cmdline.h"

/* Source markers of a command line jobfix cannot see whole. */
static const char *const open_markers[] = {
	"add_config_arguments", "add_argparse_args", "add_model_specific_args",
	"HfArgumentParser", "hydra",               "fire.Fire",         "config_flags",
	"jsonargparse",    "LightningCLI",         "simple_parsing",    "OmegaConf.from_cli",
	"exec(",           "prefix_chars",         "fromfile_prefix_chars", "parse_intermixed_args",
	"typer",           "conflict_handler",       "from click import",
	"flags_core",      "append_flag_values",   NULL,
};

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

static void cmdline_release(jf_cmdline *c)
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
	for (size_t i = 0; i < c->owner_vars.size; i++)
		free(c->owner_vars.items[i]);
	jf_array_release(&c->owner_vars);
	for (size_t i = 0; i < c->handed_to.size; i++)
		free(c->handed_to.items[i]);
	jf_array_release(&c->handed_to);
	jf_array_release(&c->owners);
	for (size_t i = 0; i < c->required.size; i++)
		free(c->required.items[i]);
	jf_array_release(&c->required);
	free(c->click_fn);
}

/* The value of a plain string literal (no f-string, no concatenation), or NULL; caller frees. */
char *jf_cmdline__string(const jf_file *unit, TSNode n)
{
	if (!jf_node_type_is(n, "string") || ts_node_named_child_count(n) > 3)
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
	if (jf_node_type_is(n, "integer") || jf_node_type_is(n, "float"))
		return jf_node_text(unit, n);
	return jf_cmdline__string(unit, n);
}

static jf_argtype type_of(const jf_file *unit, TSNode n)
{
	static const char *const names[] = { "str", "int", "float", "bool", NULL };
	for (int i = 0; names[i]; i++)
		if (jf_node_type_is(n, "identifier") && jf_node_is(unit, n, names[i]))
			return (jf_argtype)i;
	return TYPE_OTHER;
}

static bool read_action(const jf_file *unit, TSNode v, jf_argdef *d)
{
	static const char *const flags[] = { "store_true", "store_false", "store_const", "count",
		                             "append_const", "help", "version", NULL };
	char *a = jf_cmdline__string(unit, v);
	if (!a)
		return false; /* a custom Action class: unknown arity */
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
	if (jf_node_type_is(v, "integer")) {
		char *t = jf_node_text(unit, v);
		d->nargs = NARGS_COUNT;
		d->count = strtol(t, NULL, 10);
		free(t);
		return true;
	}
	if (jf_node_type_is(v, "attribute") &&
	    jf_node_is(unit, jf_node_field(v, "attribute"), "REMAINDER")) {
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
	if (!jf_node_type_is(v, "list") && !jf_node_type_is(v, "tuple"))
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
	TSNode args = jf_node_field(call, "arguments");
	uint32_t n = ts_node_named_child_count(args);
	d->unit = unit;
	d->span = jf_node_span(call);
	d->untyped = true;
	for (uint32_t i = 0; i < n; i++) {
		TSNode a = ts_node_named_child(args, i);
		if (jf_node_type_is(a, "comment"))
			continue;
		if (!jf_node_type_is(a, "keyword_argument")) {
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
		TSNode k = jf_node_field(a, "name"), v = jf_node_field(a, "value");
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
			d->required = jf_node_type_is(v, "true");
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
	if (!d->options.size) /* a positional is required unless nargs allows none */
		d->required = d->nargs != NARGS_OPTIONAL && d->nargs != NARGS_ANY &&
		              d->nargs != NARGS_REMAINDER;
	return true;
}

/* Whether `call` calls a method named `name`: x.name(...). */
static bool calls_method(const jf_file *unit, TSNode call, const char *name)
{
	TSNode fn = jf_node_field(call, "function");
	return jf_node_type_is(fn, "attribute") && jf_node_is(unit, jf_node_field(fn, "attribute"), name);
}

static bool callee_ends(const jf_file *unit, TSNode call, const char *name)
{
	TSNode fn = jf_node_field(call, "function");
	if (jf_node_type_is(fn, "attribute"))
		fn = jf_node_field(fn, "attribute");
	return jf_node_type_is(fn, "identifier") && jf_node_is(unit, fn, name);
}

/* Subcommands: which parser each variable holds */

#define OWNER_NONE (-3)
#define OWNER_SUBPARSERS (-2)
#define OWNER_MAIN (-1)

static int owner_of(const jf_cmdline *c, const jf_file *unit, TSNode var)
{
	if (!jf_node_type_is(var, "identifier"))
		return OWNER_NONE;
	for (size_t i = c->owner_vars.size; i-- > 0;)
		if (jf_node_is(unit, var, c->owner_vars.items[i]))
			return c->owners.items[i];
	return OWNER_NONE;
}

static void set_owner(jf_cmdline *c, const jf_file *unit, TSNode var, int owner)
{
	jf_array_push(&c->owner_vars, jf_node_text(unit, var));
	jf_array_push(&c->owners, owner);
}

/* `p = sub.add_parser("train", aliases=["t"])`: a new command, its names. */
static int add_command(jf_cmdline *c, const jf_file *unit, TSNode call)
{
	TSNode args = jf_node_field(call, "arguments");
	int index = -1;
	for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
		TSNode a = ts_node_named_child(args, i);
		bool alias = jf_node_type_is(a, "keyword_argument") &&
		             jf_node_is(unit, jf_node_field(a, "name"), "aliases");
		if (i == 0 || alias) {
			jf_argdef names = { 0 };
			if (i == 0) {
				char *s = jf_cmdline__string(unit, a);
				if (!s)
					return OWNER_NONE; /* a computed name */
				jf_array_push(&names.choices, s);
			} else {
				jf_cmdline__read_choices(unit, jf_node_field(a, "value"), &names);
			}
			if (index < 0)
				index = (int)c->commands.size; /* the index of its first name */
			for (size_t k = 0; k < names.choices.size; k++) {
				jf_array_push(&c->commands, names.choices.items[k]);
				jf_array_push(&c->command_of, index);
			}
			jf_array_release(&names.choices);
		}
	}
	return index < 0 ? OWNER_NONE : index;
}

/* Records what `var = call` holds when it is a parser, a group or subparsers. */
static void track_assignment(jf_cmdline *c, const jf_file *unit, TSNode assignment)
{
	TSNode var = jf_node_field(assignment, "left"), call = jf_node_field(assignment, "right");
	if (!jf_node_type_is(var, "identifier") || !jf_node_type_is(call, "call"))
		return;
	TSNode fn = jf_node_field(call, "function");
	TSNode recv = jf_node_field(fn, "object");
	if (callee_ends(unit, call, "ArgumentParser")) {
		set_owner(c, unit, var, OWNER_MAIN);
	} else if (calls_method(unit, call, "add_subparsers")) {
		c->subparsers = true;
		set_owner(c, unit, var, OWNER_SUBPARSERS);
	} else if (calls_method(unit, call, "add_parser") &&
	           owner_of(c, unit, recv) == OWNER_SUBPARSERS) {
		set_owner(c, unit, var, add_command(c, unit, call));
	} else if (calls_method(unit, call, "add_argument_group") ||
	           calls_method(unit, call, "add_mutually_exclusive_group")) {
		set_owner(c, unit, var, owner_of(c, unit, recv));
	}
}

static bool has_keyword(const jf_file *unit, TSNode call, const char *name)
{
	TSNode args = jf_node_field(call, "arguments");
	for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
		TSNode a = ts_node_named_child(args, i);
		if (jf_node_type_is(a, "keyword_argument") &&
		    jf_node_is(unit, jf_node_field(a, "name"), name))
			return true;
	}
	return false;
}

/* `add_args(parser)`: a function that may add arguments. Its name is kept;
 * build_cmdline() looks for its definition among the job's files. */
static void note_handed_over(jf_cmdline *c, const jf_file *unit, TSNode call)
{
	TSNode fn = jf_node_field(call, "function");
	TSNode args = jf_node_field(call, "arguments");
	for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
		TSNode a = ts_node_named_child(args, i);
		if (jf_node_type_is(a, "keyword_argument"))
			a = jf_node_field(a, "value");
		if (owner_of(c, unit, a) == OWNER_NONE)
			continue;
		TSNode name = jf_node_type_is(fn, "attribute") ? jf_node_field(fn, "attribute") : fn;
		if (jf_node_type_is(name, "identifier"))
			jf_array_push(&c->handed_to, jf_node_text(unit, name));
		else
			c->open = true;
		return;
	}
}

/* Whether some Python file of the job defines function `name`. */
static bool defines_function(const jf_facts *facts, const char *name)
{
	char *def = jf_xasprintf("def %s(", name);
	bool found = false;
	for (size_t i = 0; i < facts->ws->files.size && !found; i++) {
		const jf_file *u = facts->ws->files.items[i];
		found = u->lang == JF_LANG_PYTHON && strstr(u->src->data, def);
	}
	free(def);
	return found;
}

/* Collects the argparse definitions of one file into `c`. */
static void collect(jf_cmdline *c, const jf_file *unit)
{
	for (size_t i = 0; open_markers[i]; i++)
		if (strstr(unit->src->data, open_markers[i]))
			c->open = true;
	if (strstr(unit->src->data, "parse_known_args"))
		c->tolerant = true;
	for (const char *p = strstr(unit->src->data, "sys.argv"); p; p = strstr(p + 1, "sys.argv"))
		c->argv_reads++; /* hand-read, unless FLAGS(sys.argv) parses it */
	jf_iter it;
	TSNode n = jf_iter_start(&it, ts_tree_root_node(unit->tree));
	while (!ts_node_is_null(n)) {
		if (jf_node_type_is(n, "assignment"))
			track_assignment(c, unit, n);
		if (jf_node_type_is(n, "call"))
			note_handed_over(c, unit, n);
		if (jf_node_type_is(n, "call")) {
			/* parents=[...] of a parser, not of Path.mkdir() and the like */
			if ((callee_ends(unit, n, "ArgumentParser") || calls_method(unit, n, "add_parser")) &&
			    has_keyword(unit, n, "parents"))
				c->has_parents = true;
			if (calls_method(unit, n, "add_argument")) {
				jf_argdef d = { 0 };
				int owner = owner_of(c, unit, jf_node_field(jf_node_field(n, "function"), "object"));
				d.command = owner >= 0 ? owner : OWNER_MAIN;
				if (owner == OWNER_NONE || owner == OWNER_SUBPARSERS)
					c->unowned = true;
				if (read_argument(unit, n, &d))
					jf_array_push(&c->args, d);
				else {
					jf_cmdline__def_release(&d);
					c->open = true;
				}
			} else if (callee_ends(unit, n, "ArgumentParser")) {
				if (!c->parsers++) {
					c->unit = unit;
					c->span = jf_node_span(n);
				}
				TSNode args = jf_node_field(n, "arguments");
				for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
					TSNode a = ts_node_named_child(args, i);
					if (jf_node_type_is(a, "keyword_argument") &&
					    jf_node_is(unit, jf_node_field(a, "name"), "allow_abbrev") &&
					    jf_node_type_is(jf_node_field(a, "value"), "false"))
						c->allow_abbrev = false;

					if (jf_node_type_is(a, "dictionary_splat") || jf_node_type_is(a, "list_splat"))
						c->open = true;
				}
			} else if (calls_method(unit, n, "set_defaults")) {
				TSNode args = jf_node_field(n, "arguments");
				for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
					TSNode a = ts_node_named_child(args, i);
					if (jf_node_type_is(a, "keyword_argument"))
						jf_array_push(&c->defaults, jf_node_text(unit, jf_node_field(a, "name")));
					else
						c->open = true; /* set_defaults(**d) */
				}
			} else if (calls_method(unit, n, "parse_args") &&
			           ts_node_named_child_count(jf_node_field(n, "arguments")) > 0) {
				c->open = true; /* parses a list of its own, not the command line */
			}
		}
		jf_flags__visit(c, unit, n);
		n = jf_iter_next(&it, true);
	}
	jf_iter_release(&it);
}

/* The command line of entry `entry`: its own definitions and its local modules'. */
static void build_cmdline(const jf_facts *facts, const jf_file *entry, jf_cmdline *c)
{
	memset(c, 0, sizeof(*c));
	c->allow_abbrev = true;
	collect(c, entry);
	for (size_t i = 0; i < facts->ws->files.size; i++) {
		const jf_file *u = facts->ws->files.items[i];
		if (u->role == JF_ROLE_MODULE && u->lang == JF_LANG_PYTHON)
			collect(c, u);
	}
	jf_flags__finish(c, entry);
	if (c->argv_reads > c->argv_parses)
		c->open = true;
	/* A parser handed to a function jobfix cannot read (an unfollowed module,
	 * a library) may get any argument there. */
	static const char *const harmless[] = { "print", "vars", "len", "str", "repr", "id",
		                                "isinstance", "type", NULL };
	for (size_t i = 0; i < c->handed_to.size && !c->open; i++)
		if (!jf_str_in(c->handed_to.items[i], harmless) &&
		    !defines_function(facts, c->handed_to.items[i]))
			c->open = true;
	/* parents=[base]: base's options are in the picture only when base is
	 * made here too (a second ArgumentParser); one from a library is not. */
	if (c->has_parents && c->parsers < 2)
		c->open = true;
	/* With subcommands, every option must be placed in its parser. */
	if (c->subparsers && (c->unowned || !c->commands.size))
		c->open = true;
}

/* Reading an invocation */

static const jf_argdef *find_option(const jf_cmdline *c, const char *name)
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

/* Whether argparse takes word `s` for an option (not a negative number). */
static bool looks_like_option(const char *s)
{
	return s[0] == '-' && s[1] && !is_number(s);
}

/* The option `name` (a long option, maybe abbreviated); NULL and *ambiguous when several match. */
static const jf_argdef *resolve_option(const jf_cmdline *c, const char *name, const char **full,
                                     bool *ambiguous)
{
	*ambiguous = false;
	const jf_argdef *d = find_option(c, name);
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

static const char *nearest_option(const jf_cmdline *c, const char *name)
{
	const char *best = NULL;
	size_t best_d = strlen(name) / 3 + 2;
	for (size_t i = 0; i < c->args.size; i++)
		for (size_t k = 0; k < c->args.items[i].options.size; k++) {
			const char *opt = c->args.items[i].options.items[k];
			size_t d = jf_edit_distance(name, opt, best_d);
			/* --lr-rate for --lr_rate: separators count as the same */
			char *a = jf_xstrdup(name), *b = jf_xstrdup(opt);
			for (char *p = a; *p; p++)
				*p = *p == '-' && p > a + 1 ? '_' : *p;
			for (char *p = b; *p; p++)
				*p = *p == '-' && p > b + 1 ? '_' : *p;
			if (!strcmp(a, b))
				d = 0;
			free(a);
			free(b);
			if (d < best_d) {
				best = opt;
				best_d = d;
			}
		}
	return best;
}

static bool valid_int(const char *s)
{
	const char *p = s + (*s == '-' || *s == '+');
	if (!isdigit((unsigned char)*p))
		return false;
	for (; *p; p++)
		if (!isdigit((unsigned char)*p) && !(*p == '_' && isdigit((unsigned char)p[1])))
			return false;
	return true;
}

static bool valid_float(const char *s)
{
	static const char *const words[] = { "inf", "-inf", "+inf", "nan", "infinity", "-infinity",
		                             NULL };
	char low[32];
	size_t n = strlen(s);
	if (n < sizeof low) {
		for (size_t i = 0; i <= n; i++)
			low[i] = (char)tolower((unsigned char)s[i]);
		if (jf_str_in(low, words))
			return true;
	}
	char *end;
	if (!*s || isspace((unsigned char)*s) || strchr(s, 'x') || strchr(s, 'X'))
		return false;
	strtod(s, &end);
	return *end == '\0';
}

/* Checks one value given to `d`; reports JF304 when argparse would reject it. */
static void check_value(jf_rule_ctx *ctx, const jf_argdef *d, const char *opt, const jf_word *w,
                        const char *value)
{
	static const char *const falsy[] = { "False", "false", "0", "no", "No", "off", "FALSE", NULL };
	const char *entry = d->unit->src->path;
	jf_diag *diag = NULL;
	if (d->type == TYPE_INT && !valid_int(value))
		diag = jf_sink_add(ctx->out, "JF304", w->src, w->span,
		                        "'%s' is not an int: %s in %s takes int values", value, opt, entry);
	else if (d->type == TYPE_FLOAT && !valid_float(value))
		diag = jf_sink_add(ctx->out, "JF304", w->src, w->span,
		                        "'%s' is not a float: %s in %s takes float values", value, opt,
		                        entry);
	else if (d->type == TYPE_BOOL && jf_str_in(value, falsy)) {
		diag = jf_sink_add(ctx->out, "JF304", w->src, w->span,
		                        "'%s' turns %s on: it is declared with type=bool, and bool('%s') "
		                        "is True",
		                        value, opt, value);
		jf_diag_set_help(diag, "declare %s with action='store_true' and leave it out to turn "
		                       "it off",
		                 opt);
	}
	else if (d->choices_known && (d->type == TYPE_STR || d->type == TYPE_INT)) {
		bool ok = false;
		for (size_t i = 0; i < d->choices.size && !ok; i++)
			ok = d->type == TYPE_INT && valid_int(value) && valid_int(d->choices.items[i])
			             ? strtol(value, NULL, 10) == strtol(d->choices.items[i], NULL, 10)
			             : !strcmp(value, d->choices.items[i]);
		if (!ok) {
			jf_buf list = JF_BUF_INIT;
			for (size_t i = 0; i < d->choices.size; i++)
				jf_buf_addf(&list, "%s'%s'", i ? ", " : "", d->choices.items[i]);
			diag = jf_sink_add(ctx->out, "JF304", w->src, w->span,
			                        "invalid choice '%s' for %s (choose from %s)", value, opt,
			                        list.buf);
			jf_buf_release(&list);
		}
	}
	if (diag)
		jf_diag_relate(diag, d->unit->src, d->span, "%s is defined here", opt);
}

/* Per definition of a command line: whether an invocation passed it. */
typedef struct {
	bool seen;
} seen_def;

/* Reads an invocation's words like argparse; reports what it would reject. */
static void check_invocation(jf_rule_ctx *ctx, const jf_cmdline *c, const jf_invocation *inv)
{
	const jf_words *w = &inv->args;
	const char *entry = inv->entry->src->path;
	bool partial = false, positional_only = false;
	JF_ARRAY(const jf_word *) positionals = { 0 };
	seen_def *seen = jf_xcalloc(c->args.size + 1, sizeof(*seen));
	/* Once the positionals before an argparse.REMAINDER one are filled, it
	 * takes every word that follows, options included. */
	size_t remainder_after = SIZE_MAX, npos = 0;
	for (size_t k = 0; k < c->args.size && remainder_after == SIZE_MAX; k++) {
		const jf_argdef *d = &c->args.items[k];
		if (d->options.size)
			continue;
		if (d->nargs == NARGS_REMAINDER)
			remainder_after = npos;
		else if (d->nargs == NARGS_ONE || d->nargs == NARGS_COUNT)
			npos += d->nargs == NARGS_COUNT ? (size_t)d->count : 1;
		else
			npos = SIZE_MAX - 1; /* ?, *, +: where it starts is not fixed */
	}
	for (size_t i = 0; i < w->size; i++) {
		const jf_word *word = &w->items[i];
		const char *s = word->value;
		if (!s) {
			partial = true;
			continue;
		}
		if (positional_only || !looks_like_option(s) || positionals.size >= remainder_after) {
			jf_array_push(&positionals, word);
			continue;
		}
		if (!strcmp(s, "--")) {
			positional_only = true;
			continue;
		}
		const char *eq = strchr(s, '=');
		char *name = eq ? jf_xstrndup(s, (size_t)(eq - s)) : jf_xstrdup(s);
		const char *full = name;
		bool ambiguous;
		const jf_argdef *d = resolve_option(c, name, &full, &ambiguous);
		if (!d && s[1] != '-' && strlen(s) > 2) {
			char shortopt[3] = { '-', s[1], 0 };
			d = find_option(c, shortopt); /* -j5, -vv */
			if (d) {
				seen[d - c->args.items].seen = true;
				free(name);
				continue;
			}
		}
		if (!d) {
			if (!c->tolerant) {
				jf_diag *diag;
				if (ambiguous) {
					diag = jf_sink_add(ctx->out, "JF302", word->src, word->span,
					                        "ambiguous flag '%s' for %s: it abbreviates more "
					                        "than one of its options",
					                        name, entry);
				} else {
					diag = jf_sink_add(ctx->out, "JF302", word->src, word->span,
					                        "%s does not accept the flag '%s'", entry, name);
					const char *near = nearest_option(c, name);
					if (near)
						jf_diag_set_help(diag, "did you mean '%s'?", near);
				}
				jf_diag_relate(diag, c->unit->src, c->span, "the argument parser of %s",
				               entry);
			}
			/* The word after an unknown flag is most likely its value, not a positional. */
			if (!eq && i + 1 < w->size && w->items[i + 1].value &&
			    !looks_like_option(w->items[i + 1].value))
				i++;
			free(name);
			continue;
		}
		seen[d - c->args.items].seen = true;
		if (d->act == ACT_FLAG && (!strcmp(full, "--help") || !strcmp(full, "--version")))
			partial = true; /* help and version exit before anything is required */
		if (d->act == ACT_FLAG) {
			if (eq)
				jf_diag_relate(jf_sink_add(ctx->out, "JF304", word->src, word->span,
				                                "%s takes no value, but is given '%s'", full,
				                                eq + 1),
				               d->unit->src, d->span, "%s is defined here", full);
		} else if (d->nargs == NARGS_REMAINDER) {
			free(name);
			break;
		} else if (eq) {
			check_value(ctx, d, full, word, eq + 1);
		} else {
			/* The value(s) follow as separate words. */
			size_t want = d->nargs == NARGS_COUNT ? (size_t)d->count : 1;
			bool many = d->nargs == NARGS_ANY || d->nargs == NARGS_SOME;
			size_t got = 0;
			while (i + 1 < w->size && (many || got < want)) {
				const jf_word *v = &w->items[i + 1];
				if (v->value && looks_like_option(v->value))
					break;
				i++;
				got++;
				if (v->value)
					check_value(ctx, d, full, v, v->value);
				else
					partial = true;
			}
			bool needs = d->nargs == NARGS_ONE || d->nargs == NARGS_COUNT ||
			             d->nargs == NARGS_SOME;
			if (needs && got < (d->nargs == NARGS_SOME ? 1 : want) && !partial)
				jf_diag_relate(jf_sink_add(ctx->out, "JF304", word->src, word->span,
				                                "%s expects %s, but none follows", full,
				                                want > 1 ? "several values" : "a value"),
				               d->unit->src, d->span, "%s is defined here", full);
		}
		free(name);
	}

	/* Positionals, then what the invocation never passes: only when every word is known. */
	size_t p = 0;
	bool rest = false;
	for (size_t k = 0; k < c->args.size && !partial; k++) {
		const jf_argdef *d = &c->args.items[k];
		if (d->options.size)
			continue;
		if (d->nargs == NARGS_ANY || d->nargs == NARGS_SOME || d->nargs == NARGS_REMAINDER) {
			seen[k].seen = p < positionals.size || d->nargs != NARGS_SOME;
			rest = true;
			p = positionals.size;
		} else {
			size_t n = d->nargs == NARGS_COUNT ? (size_t)d->count : 1;
			seen[k].seen = p + n <= positionals.size || d->nargs == NARGS_OPTIONAL;
			p += p < positionals.size ? (n < positionals.size - p ? n : positionals.size - p) : 0;
		}
	}
	if (!partial && !c->tolerant && !rest)
		for (; p < positionals.size; p++) {
			const jf_word *word = positionals.items[p];
			jf_diag_relate(jf_sink_add(ctx->out, "JF302", word->src, word->span,
			                                "%s takes no positional argument '%s' here", entry,
			                                word->value),
			               c->unit->src, c->span, "the argument parser of %s", entry);
		}
	for (size_t k = 0; k < c->args.size && !partial; k++) {
		const jf_argdef *d = &c->args.items[k];
		if (!d->required || seen[k].seen)
			continue;
		const char *what = d->options.size ? d->options.items[d->options.size - 1] : d->dest;
		for (size_t m = 0; m < d->options.size; m++) /* the long name: --lr for '--lr', '-l' */
			if (jf_str_starts(d->options.items[m], "--"))
				what = d->options.items[m];
		jf_diag *diag = jf_sink_add(ctx->out, "JF303", inv->script.src, inv->script.span,
		                                 "%s requires '%s', which this invocation does not pass",
		                                 entry, what);
		jf_diag_relate(diag, d->unit->src, d->span, "'%s' is defined here as required", what);
	}
	free(seen);
	jf_array_release(&positionals);
}

/* Reading an invocation the way absl does */

/* absl reads an int with int(s, base): base 16 after "0x", 8 after "0o". */
static bool absl_radix_int(const char *s)
{
	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'o') || !s[2])
		return false;
	const char *digits = s[1] == 'x' ? "0123456789abcdefABCDEF_" : "01234567_";
	return strspn(s + 2, digits) == strlen(s + 2);
}

static bool absl_bool_value(const char *s)
{
	static const char *const words[] = { "true", "t", "1", "false", "f", "0", NULL };
	char low[8];
	size_t n = strlen(s);
	if (n >= sizeof low)
		return false;
	for (size_t i = 0; i <= n; i++)
		low[i] = (char)tolower((unsigned char)s[i]);
	return jf_str_in(low, words);
}

static void relate_flags(jf_diag *diag, const jf_cmdline *c, const char *entry)
{
	jf_diag_relate(diag, c->unit->src, c->span, "%s parses its flags here", entry);
}

/* A flag absl does not know: an error under app.run, dropped by tf.app.run. */
static void report_unknown_flag(jf_rule_ctx *ctx, const jf_cmdline *c, const char *entry,
                                const jf_word *word, const char *written, const char *name)
{
	jf_diag *diag;
	if (c->flags_parse == JF_FLAGS_KNOWN_ONLY)
		diag = jf_sink_add(ctx->out, "JF308", word->src, word->span,
		                        "%s drops the unknown flag '%s' (tf.app.run ignores flags it "
		                        "does not define): the run uses the default",
		                        entry, written);
	else
		diag = jf_sink_add(ctx->out, "JF302", word->src, word->span,
		                        "%s does not accept the flag '%s'", entry, written);
	relate_flags(diag, c, entry);
	char *dashed = jf_xasprintf("--%s", name);
	const char *near = nearest_option(c, dashed);
	const jf_argdef *valued = NULL;
	if (jf_str_starts(name, "no") && name[2]) {
		dashed[2] = dashed[3] = '-';
		valued = find_option(c, dashed + 2);
	}
	if (valued) /* --nolr for a flag that is no boolean */
		jf_diag_set_help(diag, "only a boolean flag is turned off with '--no...': give %s a "
		                       "value instead",
		                 valued->options.items[0]);
	else if (near)
		jf_diag_set_help(diag, "did you mean '%s'?", near);
	free(dashed);
}

/* The name in a flag word: "lr" in "--lr=0.1" or "-lr"; caller frees. */
static char *absl_name(const char *s, const char **eq)
{
	const char *body = s + (s[1] == '-' ? 2 : 1);
	*eq = strchr(body, '=');
	return *eq ? jf_xstrndup(body, (size_t)(*eq - body)) : jf_xstrdup(body);
}

/* Reads an invocation's words like absl's FlagValues; reports what it rejects or drops. */
static void check_absl_invocation(jf_rule_ctx *ctx, const jf_cmdline *c, const jf_invocation *inv)
{
	const jf_words *w = &inv->args;
	const char *entry = inv->entry->src->path;
	bool partial = false, undefok = false;
	for (size_t i = 0; i < w->size; i++) {
		const char *s = w->items[i].value, *eq;
		if (!s) {
			partial = true;
			continue;
		}
		if (s[0] != '-' || !s[1])
			continue;
		char *name = absl_name(s, &eq);
		if (!strcmp(name, "flagfile"))
			partial = undefok = true; /* the file may pass anything */
		else if (!strcmp(name, "undefok"))
			undefok = true;
		free(name);
	}
	seen_def *seen = jf_xcalloc(c->args.size + 1, sizeof(*seen));
	for (size_t i = 0; i < w->size; i++) {
		const jf_word *word = &w->items[i];
		const char *s = word->value;
		if (!s || s[0] != '-')
			continue; /* a word absl passes on to main(argv) */
		if (!strcmp(s, "--"))
			break;
		const char *eq;
		char *name = absl_name(s, &eq);
		char *written = jf_xstrndup(s, (s[1] == '-' ? 2 : 1) + strlen(name));
		char *dashed = jf_xasprintf("--%s", name);
		const jf_argdef *d = find_option(c, dashed), *negated = NULL;
		bool builtin_value;
		if (!d && jf_str_starts(name, "no") && name[2]) { /* --noamp */
			dashed[2] = dashed[3] = '-';
			negated = find_option(c, dashed + 2);
			if (negated && negated->act != ACT_FLAG)
				negated = NULL;
		}
		if (d) {
			seen[d - c->args.items].seen = true;
			const char *value = eq ? eq + 1 : NULL;
			const jf_word *vw = word;
			if (d->act == ACT_FLAG) {
				if (value && !absl_bool_value(value))
					jf_diag_relate(jf_sink_add(ctx->out, "JF304", word->src, word->span,
					                                "'%s' is not a boolean: %s in %s takes "
					                                "true or false (or 1, 0)",
					                                value, written, entry),
					               d->unit->src, d->span, "%s is defined here", written);
			} else if (!value && i + 1 == w->size) {
				jf_diag_relate(jf_sink_add(ctx->out, "JF304", word->src, word->span,
				                                "%s expects a value, but none follows",
				                                written),
				               d->unit->src, d->span, "%s is defined here", written);
			} else {
				if (!value)
					vw = &w->items[++i];
				value = value ? value : vw->value;
				if (value && !(d->type == TYPE_INT && absl_radix_int(value)))
					check_value(ctx, d, written, vw, value);
			}
		} else if (negated) {
			seen[negated - c->args.items].seen = true;
			if (eq)
				jf_diag_relate(jf_sink_add(ctx->out, "JF304", word->src, word->span,
				                                "%s takes no value, but is given '%s'",
				                                written, eq + 1),
				               negated->unit->src, negated->span, "%s is defined here",
				               negated->options.items[0]);
		} else if (jf_flags__builtin(name, &builtin_value)) {
			if (builtin_value && !eq)
				i++;
		} else if (*name && !undefok) {
			report_unknown_flag(ctx, c, entry, word, written, name);
		}
		free(dashed);
		free(written);
		free(name);
	}
	for (size_t k = 0; k < c->args.size && !partial; k++) {
		const jf_argdef *d = &c->args.items[k];
		if (!d->required || seen[k].seen)
			continue;
		jf_diag *diag = jf_sink_add(ctx->out, "JF303", inv->script.src, inv->script.span,
		                                 "%s requires the flag '--%s', which this invocation "
		                                 "does not pass",
		                                 entry, d->dest);
		jf_diag_relate(diag, d->unit->src, d->span, "'--%s' is defined here", d->dest);
	}
	free(seen);
}

/* The arguments of one parser of `c`: the main one (-1) or a command's. The
 * view borrows the definitions; free it with jf_array_release(&view->args). */
static jf_cmdline view_of(const jf_cmdline *c, int command)
{
	jf_cmdline v = *c;
	memset(&v.args, 0, sizeof v.args);
	for (size_t i = 0; i < c->args.size; i++)
		if (c->args.items[i].command == command)
			jf_array_push(&v.args, c->args.items[i]);
	return v;
}

/* An invocation of a script with subcommands: the main parser's options, the
 * command word, then that command's own arguments. */
static void check_command_invocation(jf_rule_ctx *ctx, const jf_cmdline *c, const jf_invocation *inv)
{
	const jf_words *w = &inv->args;
	jf_cmdline main = view_of(c, OWNER_MAIN);
	size_t at = 0;
	for (; at < w->size; at++) {
		const char *s = w->items[at].value;
		if (!s || !looks_like_option(s))
			break;
		const char *full;
		bool ambiguous;
		char *name = strchr(s, '=') ? jf_xstrndup(s, (size_t)(strchr(s, '=') - s)) : jf_xstrdup(s);
		const jf_argdef *d = resolve_option(&main, name, &full, &ambiguous);
		free(name);
		if (d && d->act != ACT_FLAG && !strchr(s, '='))
			at++; /* its value */
	}
	jf_invocation part = *inv;
	part.args = (jf_words){ w->items, at < w->size ? at : w->size, 0 };
	check_invocation(ctx, &main, &part);
	jf_array_release(&main.args);
	if (at >= w->size || !w->items[at].value)
		return; /* no command given, or one known only at run time */
	const jf_word *word = &w->items[at];
	int command = -1;
	for (size_t i = 0; i < c->commands.size && command < 0; i++)
		if (!strcmp(c->commands.items[i], word->value))
			command = c->command_of.items[i];
	if (command < 0) {
		jf_buf names = JF_BUF_INIT;
		for (size_t i = 0; i < c->commands.size; i++)
			jf_buf_addf(&names, "%s'%s'", i ? ", " : "", c->commands.items[i]);
		jf_diag *d = jf_sink_add(ctx->out, "JF302", word->src, word->span,
		                              "'%s' is not a command of %s (choose from %s)", word->value,
		                              inv->entry->src->path, names.buf);
		jf_diag_relate(d, c->unit->src, c->span, "the argument parser of %s",
		               inv->entry->src->path);
		const char *near = NULL;
		size_t best = strlen(word->value) / 3 + 2;
		for (size_t i = 0; i < c->commands.size; i++) {
			const char *name = c->commands.items[i];
			size_t dist = jf_edit_distance(word->value, name, best);
			if (dist < best || (!near && (jf_str_starts(name, word->value) ||
			                              jf_str_starts(word->value, name)))) {
				best = dist < best ? dist : best;
				near = name;
			}
		}
		if (near)
			jf_diag_set_help(d, "did you mean '%s'?", near);
		jf_buf_release(&names);
		return;
	}
	jf_cmdline cmd = view_of(c, command);
	part.args = (jf_words){ w->items + at + 1, w->size - at - 1, 0 };
	check_invocation(ctx, &cmd, &part);
	jf_array_release(&cmd.args);
}

/* The flag a launcher adds itself, when the script does not define it. */
static void check_launcher_flags(jf_rule_ctx *ctx, const jf_cmdline *c, const jf_invocation *inv)
{
	const char *entry = inv->entry->src->path;
	bool deepspeed = !strcmp(inv->launcher, "deepspeed");
	bool launch = !strcmp(inv->launcher, "torch.distributed.launch");
	if (!deepspeed && !launch)
		return;
	for (size_t i = 0; i < inv->launcher_args.size; i++) {
		const char *v = inv->launcher_args.items[i].value;
		if (!v || !strcmp(v, "--use_env") || !strcmp(v, "--use-env") ||
		    !strcmp(v, "--no_local_rank"))
			return;
	}
	/* torch.distributed.launch of torch 2.0 and later passes --local-rank,
	 * before --local_rank: with the image's torch known, only that one helps. */
	const jf_image *img = ctx->facts->image;
	const char *torch = NULL;
	if (launch && jf_image_has_package(img, "torch", &torch) == JF_YES && strcmp(torch, "*")) {
		long major = strtol(torch, NULL, 10);
		const char *passed = major >= 2 ? "--local-rank" : "--local_rank";
		if (!find_option(c, passed)) {
			jf_diag *d = jf_sink_add(ctx->out, "JF302", inv->script.src, inv->script.span,
			                              "torch.distributed.launch of torch %s passes '%s' to "
			                              "%s, which does not accept it",
			                              torch, passed, entry);
			jf_diag_relate(d, c->unit->src, c->span, "the argument parser of %s", entry);
			jf_image_relate(d, img, JF_FACT_PACKAGES, "torch %s", torch);
			jf_diag_set_help(d, "add '%s' to the option strings of the local rank argument, "
			                    "or use torchrun (it sets LOCAL_RANK instead)",
			                 passed);
		}
		return;
	}
	if (find_option(c, "--local_rank") || find_option(c, "--local-rank"))
		return;
	jf_diag *d = jf_sink_add(ctx->out, "JF302", inv->script.src, inv->script.span,
		deepspeed ? "deepspeed passes '--local_rank' to %s, which does not accept it"
		          : "torch.distributed.launch passes '--local_rank' ('--local-rank' since torch "
		            "2.0) to %s, which does not accept it",
		entry);
	jf_diag_relate(d, c->unit->src, c->span, "the argument parser of %s", entry);
	jf_diag_set_help(d, deepspeed ? "add parser.add_argument('--local_rank', type=int), or pass "
	                                "--no_local_rank to deepspeed"
	                              : "add parser.add_argument('--local_rank', '--local-rank', "
	                                "type=int), or use torchrun (it sets LOCAL_RANK instead)");
}

/* JF306: an option string defined twice (argparse refuses at start-up). */
static void check_duplicates(jf_rule_ctx *ctx, const jf_cmdline *c)
{
	if (c->parsers != 1 || c->open)
		return; /* several parsers: which one an option belongs to is not known */
	for (size_t i = 0; i < c->args.size; i++)
		for (size_t k = 0; k < c->args.items[i].options.size; k++)
			for (size_t j = 0; j < i; j++)
				for (size_t m = 0; m < c->args.items[j].options.size; m++) {
					const char *o = c->args.items[i].options.items[k];
					if (strcmp(o, c->args.items[j].options.items[m]) ||
					    c->args.items[i].command != c->args.items[j].command)
						continue;
					const jf_argdef *d = &c->args.items[i], *first = &c->args.items[j];
					jf_diag *diag = jf_sink_add(ctx->out, "JF306", d->unit->src, d->span,
						"option string '%s' is defined twice: argparse fails at start-up with "
						"\"conflicting option string: %s\"",
						o, o);
					jf_diag_relate(diag, first->unit->src, first->span,
					               "'%s' is first defined here", o);
				}
}

/* JF307: args.X where no argument has dest X */

/* The attribute name argparse stores an argument under. Caller frees. */
static char *dest_of(const jf_argdef *d)
{
	if (d->dest)
		return jf_xstrdup(d->dest);
	const char *pick = d->options.items[0];
	for (size_t i = 0; i < d->options.size; i++)
		if (jf_str_starts(d->options.items[i], "--")) {
			pick = d->options.items[i];
			break;
		}
	char *s = jf_xstrdup(pick + strspn(pick, "-"));
	for (char *p = s; *p; p++)
		if (*p == '-')
			*p = '_';
	return s;
}

static bool has_dest(const jf_cmdline *c, const char *name)
{
	for (size_t i = 0; i < c->defaults.size; i++)
		if (!strcmp(c->defaults.items[i], name))
			return true;
	for (size_t i = 0; i < c->args.size; i++) {
		char *d = dest_of(&c->args.items[i]);
		bool same = !strcmp(d, name);
		free(d);
		if (same)
			return true;
	}
	return false;
}

/* Whether `body` (not counting nested functions and classes) changes the
 * namespace's attributes in ways jobfix does not follow. */
static bool namespace_escapes(const jf_file *unit, TSNode body, const char *name)
{
	const char *text = unit->src->data + ts_node_start_byte(body);
	size_t len = ts_node_end_byte(body) - ts_node_start_byte(body);
	char *copy = jf_xstrndup(text, len);
	char setattr_pat[96], dict_pat[96], vars_pat[96];
	snprintf(setattr_pat, sizeof setattr_pat, "setattr(%s", name);
	snprintf(dict_pat, sizeof dict_pat, "%s.__dict__", name);
	snprintf(vars_pat, sizeof vars_pat, "vars(%s)", name);
	bool escapes = strstr(copy, setattr_pat) || strstr(copy, dict_pat) || strstr(copy, vars_pat);
	free(copy);
	return escapes;
}

typedef struct {
	jf_rule_ctx *ctx;
	const jf_cmdline *c;
	const jf_file *unit;
	const char *name;
	JF_ARRAY(char *) assigned; /* attributes the code sets itself: args.x = ... */
	bool flags; /* absl's FLAGS: a global, with methods and absl's own flags */
} attr_walk;

/* Whether some run of `entry` may pass one of `d`'s option strings: true
 * unless every run is known word for word and none passes it. */
static bool may_be_passed(const jf_rule_ctx *ctx, const jf_file *entry, const jf_argdef *d)
{
	if (!d->options.size)
		return true; /* a positional */
	for (size_t i = 0; i < ctx->facts->shell.invocations.size; i++) {
		const jf_invocation *inv = &ctx->facts->shell.invocations.items[i];
		if (inv->entry != entry)
			continue;
		for (size_t k = 0; k < inv->args.size; k++) {
			const char *w = inv->args.items[k].value;
			if (!w)
				return true;
			for (size_t o = 0; o < d->options.size; o++)
				if (jf_word_passes(w, d->options.items[o]))
					return true;
		}
	}
	return false;
}

/* The argument that stores `dest`, or NULL. */
static const jf_argdef *def_of_dest(const jf_cmdline *c, const char *dest)
{
	for (size_t i = 0; i < c->args.size; i++) {
		char *d = dest_of(&c->args.items[i]);
		bool same = !strcmp(d, dest);
		free(d);
		if (same)
			return &c->args.items[i];
	}
	return NULL;
}

static bool is_number_literal(TSNode n)
{
	if (jf_node_type_is(n, "unary_operator"))
		n = jf_node_field(n, "argument");
	return jf_node_type_is(n, "integer") || jf_node_type_is(n, "float");
}

/*
 * JF309: `m` (args.X of an argument without type=, so a str when passed) where
 * a str fails: arithmetic or an ordering comparison with a number, a range()
 * bound. Returns what fails ("range()", "'/'"), or NULL.
 */
static const char *str_fails_in(const jf_file *unit, TSNode m)
{
	static const char *const arith[] = { "+", "-", "/", "//", "%", "**", NULL };
	static const char *const order[] = { "<", ">", "<=", ">=", NULL };
	TSNode p = ts_node_parent(m);
	if (jf_node_type_is(p, "binary_operator")) {
		TSNode left = jf_node_field(p, "left"), right = jf_node_field(p, "right");
		TSNode other = ts_node_eq(left, m) ? right : left;
		TSNode op = jf_node_field(p, "operator");
		const char *o = unit->src->data + ts_node_start_byte(op);
		size_t n = ts_node_end_byte(op) - ts_node_start_byte(op);
		if (!is_number_literal(other))
			return NULL;
		if (jf_strn_in(o, n, arith))
			return "arithmetic with a number";
		if (n == 1 && *o == '*' && jf_node_type_is(other, "float"))
			return "arithmetic with a number";
		return NULL;
	}
	if (jf_node_type_is(p, "comparison_operator") && ts_node_named_child_count(p) == 2) {
		TSNode other = ts_node_eq(ts_node_named_child(p, 0), m) ? ts_node_named_child(p, 1)
		                                                          : ts_node_named_child(p, 0);
		for (uint32_t i = 0; i < ts_node_child_count(p); i++) {
			TSNode op = ts_node_child(p, i);
			if (!ts_node_is_named(op) && is_number_literal(other)) {
				char *t = jf_node_text(unit, op);
				bool ordering = jf_str_in(t, order);
				free(t);
				if (ordering)
					return "an ordering comparison with a number";
			}
		}
		return NULL;
	}
	if (jf_node_type_is(p, "argument_list")) {
		TSNode call = ts_node_parent(p);
		TSNode fn = jf_node_field(call, "function");
		if (jf_node_type_is(fn, "identifier") && jf_node_is(unit, fn, "range"))
			return "range()";
	}
	return NULL;
}

/* Visits the attribute uses `name.attr` in `n`, skipping nested definitions
 * (except for FLAGS, which every function reads). */
static void visit_attributes(attr_walk *aw, TSNode n, bool report)
{
	jf_iter it;
	TSNode m = jf_iter_start(&it, n);
	while (!ts_node_is_null(m)) {
		bool descend = true;
		if (!aw->flags && !ts_node_eq(m, n) && (jf_node_type_is(m, "function_definition") ||
		                          jf_node_type_is(m, "class_definition") ||
		                          jf_node_type_is(m, "lambda")))
			descend = false;
		else if (jf_node_type_is(m, "attribute") &&
		         jf_node_type_is(jf_node_field(m, "object"), "identifier") &&
		         jf_node_is(aw->unit, jf_node_field(m, "object"), aw->name)) {
			TSNode attr = jf_node_field(m, "attribute");
			char *a = jf_node_text(aw->unit, attr);
			TSNode parent = ts_node_parent(m);
			bool stored = jf_node_type_is(parent, "assignment") &&
			              ts_node_eq(jf_node_field(parent, "left"), m);
			bool known = has_dest(aw->c, a) || jf_str_starts(a, "_"), valued;
			if (aw->flags) /* FLAGS.is_parsed(), FLAGS.logtostderr */
				known = known || jf_flags__builtin(a, &valued) ||
				        (jf_node_type_is(parent, "call") &&
				         ts_node_eq(jf_node_field(parent, "function"), m));
			for (size_t i = 0; i < aw->assigned.size && !known; i++)
				known = !strcmp(aw->assigned.items[i], a);
			if (!report && stored) {
				jf_array_push(&aw->assigned, a);
				a = NULL;
			} else if (report && known && !stored && !aw->flags && !aw->c->click_commands) {
				const jf_argdef *d = def_of_dest(aw->c, a);
				const char *fails = d && d->untyped && d->act == ACT_STORE &&
				                            (d->nargs == NARGS_ONE || d->nargs == NARGS_OPTIONAL) &&
				                            may_be_passed(aw->ctx, aw->unit, d)
				                    ? str_fails_in(aw->unit, m)
				                    : NULL;
				if (fails) {
					const char *opt = d->options.size ? d->options.items[d->options.size - 1]
					                                  : d->dest;
					jf_diag *diag = jf_sink_add(aw->ctx->out, "JF309", aw->unit->src, jf_node_span(m),
						"'%s.%s' is a str when %s is passed (it has no type=): %s fails with "
						"TypeError",
						aw->name, a, opt, fails);
					jf_diag_relate(diag, d->unit->src, d->span, "'%s' is defined here", opt);
				}
			} else if (report && !known && !stored) {
				jf_diag *d = jf_sink_add(aw->ctx->out, "JF307", aw->unit->src, jf_node_span(attr),
				                              "'%s.%s' is no %s: the job fails here with "
				                              "AttributeError",
				                              aw->name, a,
				                              aw->flags ? "flag the script defines"
				                                        : "argument of the parser");
				jf_diag_relate(d, aw->c->unit->src, aw->c->span,
				               aw->flags ? "%s parses its flags here"
				                         : "the argument parser of %s",
				               aw->c->unit->src->path);
				const char *best = NULL;
				size_t best_d = strlen(a) / 3 + 2;
				for (size_t i = 0; i < aw->c->args.size; i++) {
					char *dest = dest_of(&aw->c->args.items[i]);
					size_t dist = jf_edit_distance(a, dest, best_d);
					if (dist < best_d || (!best && (jf_str_starts(dest, a) ||
					                                jf_str_starts(a, dest)))) {
						best_d = dist < best_d ? dist : best_d;
						free((char *)best);
						best = dest;
					} else {
						free(dest);
					}
				}
				if (best)
					jf_diag_set_help(d, "did you mean '%s.%s'?", aw->name, best);
				else if (aw->flags)
					jf_diag_set_help(d, "define the flag with flags.DEFINE_*, or correct "
					                    "the name");
				free((char *)best);
			}
			free(a);
		}
		m = jf_iter_next(&it, descend);
	}
	jf_iter_release(&it);
}

/* Functions a namespace is passed to are followed this deep. */
#define MAX_NAMESPACE_CALLS 2

static void check_uses_of(jf_rule_ctx *ctx, const jf_cmdline *c, const jf_file *unit, TSNode body,
                          const char *name, int depth);

/* The one top-level `def fn` among the job's Python files, or a null node. */
static TSNode find_function(const jf_rule_ctx *ctx, const char *fn, const jf_file **where)
{
	TSNode found = { 0 };
	int count = 0;
	for (size_t i = 0; i < ctx->facts->ws->files.size; i++) {
		const jf_file *u = ctx->facts->ws->files.items[i];
		if (u->lang != JF_LANG_PYTHON)
			continue;
		TSNode root = ts_tree_root_node(u->tree);
		for (uint32_t k = 0; k < ts_node_named_child_count(root); k++) {
			TSNode def = ts_node_named_child(root, k);
			if (jf_node_type_is(def, "decorated_definition"))
				def = jf_node_field(def, "definition");
			if (jf_node_type_is(def, "function_definition") &&
			    jf_node_is(u, jf_node_field(def, "name"), fn)) {
				found = def;
				*where = u;
				count++;
			}
		}
	}
	return count == 1 ? found : (TSNode){ 0 };
}

/* The name of parameter `index` (or the one called `keyword`) of `def`, or NULL. */
static char *parameter(const jf_file *unit, TSNode def, int index, const char *keyword)
{
	TSNode params = jf_node_field(def, "parameters");
	int pos = 0;
	for (uint32_t i = 0; i < ts_node_named_child_count(params); i++) {
		TSNode p = ts_node_named_child(params, i);
		TSNode id = jf_node_type_is(p, "identifier") ? p : jf_node_field(p, "name");
		if (!jf_node_type_is(id, "identifier"))
			return NULL; /* *args, **kwargs, a bare *: positions are no longer plain */
		if (keyword ? jf_node_is(unit, id, keyword) : pos == index)
			return jf_node_text(unit, id);
		pos++;
	}
	return NULL;
}

/* Where `name` stands among the arguments of `call`: its position, or its keyword. */
static bool argument_slot(const jf_file *unit, TSNode call, const char *name, int *index,
                          char **keyword)
{
	TSNode args = jf_node_field(call, "arguments");
	int pos = 0;
	for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
		TSNode a = ts_node_named_child(args, i);
		if (jf_node_type_is(a, "keyword_argument")) {
			if (jf_node_is(unit, jf_node_field(a, "value"), name)) {
				*keyword = jf_node_text(unit, jf_node_field(a, "name"));
				return true;
			}
			continue;
		}
		if (jf_node_type_is(a, "identifier") && jf_node_is(unit, a, name)) {
			*index = pos;
			*keyword = NULL;
			return true;
		}
		if (jf_node_type_is(a, "list_splat") || jf_node_type_is(a, "dictionary_splat"))
			return false;
		pos++;
	}
	return false;
}

/* Whether every call of `fn` in the job passes the same name at that slot:
 * then the parameter holds the namespace wherever the function runs. */
static bool always_passed(const jf_rule_ctx *ctx, const char *fn, const char *name)
{
	for (size_t i = 0; i < ctx->facts->ws->files.size; i++) {
		const jf_file *u = ctx->facts->ws->files.items[i];
		if (u->lang != JF_LANG_PYTHON)
			continue;
		bool ok = true;
		jf_iter it;
		for (TSNode n = jf_iter_start(&it, ts_tree_root_node(u->tree)); ok && !ts_node_is_null(n);
		     n = jf_iter_next(&it, true)) {
			if (!jf_node_type_is(n, "identifier") || !jf_node_is(u, n, fn))
				continue;
			TSNode p = ts_node_parent(n);
			bool is_def = jf_node_type_is(p, "function_definition");
			bool is_call = jf_node_type_is(p, "call") &&
			               ts_node_eq(jf_node_field(p, "function"), n);
			int index;
			char *kw = NULL;
			if (!is_def && !jf_node_type_is(p, "import_from_statement") &&
			    !jf_node_type_is(p, "dotted_name") &&
			    (!is_call || !argument_slot(u, p, name, &index, &kw)))
				ok = false; /* called with something else, or passed around */
			free(kw);
		}
		jf_iter_release(&it);
		if (!ok)
			return false;
	}
	return true;
}

/* Whether `body` assigns `name` again (then it may hold anything). */
static bool rebinds(const jf_file *unit, TSNode body, const char *name)
{
	bool found = false;
	jf_iter it;
	for (TSNode n = jf_iter_start(&it, body); !found && !ts_node_is_null(n);
	     n = jf_iter_next(&it, true))
		found = (jf_node_type_is(n, "assignment") || jf_node_type_is(n, "augmented_assignment") ||
		         jf_node_type_is(n, "for_statement")) &&
		        jf_node_is(unit, jf_node_field(n, "left"), name);
	jf_iter_release(&it);
	return found;
}

/* Follows the namespace `name` into the functions `body` passes it to. */
static void follow_calls(jf_rule_ctx *ctx, const jf_cmdline *c, const jf_file *unit, TSNode body,
                         const char *name, int depth)
{
	jf_iter it;
	TSNode n = jf_iter_start(&it, body);
	while (!ts_node_is_null(n)) {
		bool nested = !ts_node_eq(n, body) && (jf_node_type_is(n, "function_definition") ||
		                                        jf_node_type_is(n, "class_definition"));
		int index = 0;
		char *kw = NULL;
		TSNode fn = jf_node_field(n, "function");
		if (!nested && jf_node_type_is(n, "call") && jf_node_type_is(fn, "identifier") &&
		    argument_slot(unit, n, name, &index, &kw)) {
			char *fname = jf_node_text(unit, fn);
			const jf_file *where = NULL;
			TSNode def = find_function(ctx, fname, &where);
			char *param = ts_node_is_null(def) ? NULL : parameter(where, def, index, kw);
			TSNode fbody = jf_node_field(def, "body");
			if (param && always_passed(ctx, fname, name) && !rebinds(where, fbody, param))
				check_uses_of(ctx, c, where, fbody, param, depth + 1);
			free(param);
			free(fname);
		}
		free(kw);
		n = jf_iter_next(&it, !nested);
	}
	jf_iter_release(&it);
}

/* Checks name.attr in `body`, and in the functions `body` passes `name` to. */
static void check_uses_of(jf_rule_ctx *ctx, const jf_cmdline *c, const jf_file *unit, TSNode body,
                          const char *name, int depth)
{
	if (namespace_escapes(unit, body, name))
		return;
	attr_walk aw = { ctx, c, unit, name, { 0 }, false };
	visit_attributes(&aw, body, false); /* what the code assigns itself */
	visit_attributes(&aw, body, true);
	for (size_t k = 0; k < aw.assigned.size; k++)
		free(aw.assigned.items[k]);
	jf_array_release(&aw.assigned);
	if (depth < MAX_NAMESPACE_CALLS)
		follow_calls(ctx, c, unit, body, name, depth);
}

/* Finds `NAME = x.parse_args()` at the top of a body and checks NAME.attr in that body. */
static void check_namespace_uses(jf_rule_ctx *ctx, const jf_cmdline *c, const jf_file *unit, TSNode body)
{
	uint32_t n = ts_node_named_child_count(body);
	for (uint32_t i = 0; i < n; i++) {
		TSNode stmt = ts_node_named_child(body, i);
		if (jf_node_type_is(stmt, "function_definition")) {
			check_namespace_uses(ctx, c, unit, jf_node_field(stmt, "body"));
			continue;
		}
		if (jf_node_type_is(stmt, "decorated_definition")) {
			TSNode def = jf_node_field(stmt, "definition");
			if (jf_node_type_is(def, "function_definition"))
				check_namespace_uses(ctx, c, unit, jf_node_field(def, "body"));
			continue;
		}
		if (!jf_node_type_is(stmt, "expression_statement"))
			continue;
		TSNode as = ts_node_named_child(stmt, 0);
		TSNode left = jf_node_field(as, "left"), right = jf_node_field(as, "right");
		if (!jf_node_type_is(as, "assignment") || !jf_node_type_is(left, "identifier") ||
		    !jf_node_type_is(right, "call") || !calls_method(unit, right, "parse_args") ||
		    ts_node_named_child_count(jf_node_field(right, "arguments")) > 0)
			continue;
		char *name = jf_node_text(unit, left);
		check_uses_of(ctx, c, unit, body, name, 0);
		free(name);
	}
}

/* The FLAGS variable of `unit`: `NAME = flags.FLAGS` at module level, or FLAGS
 * itself when imported (from absl.flags import FLAGS); NULL when neither. */
static char *flags_var(const jf_file *unit)
{
	TSNode root = ts_tree_root_node(unit->tree);
	for (uint32_t i = 0; i < ts_node_named_child_count(root); i++) {
		TSNode stmt = ts_node_named_child(root, i);
		TSNode as = ts_node_named_child(stmt, 0);
		TSNode left = jf_node_field(as, "left"), right = jf_node_field(as, "right");
		if (jf_node_type_is(stmt, "import_from_statement") &&
		    jf_node_is(unit, jf_node_field(stmt, "module_name"), "absl.flags")) {
			for (uint32_t k = 0; k < ts_node_named_child_count(stmt); k++)
				if (jf_node_is(unit, ts_node_named_child(stmt, k), "FLAGS"))
					return jf_xstrdup("FLAGS");
		}
		if (jf_node_type_is(stmt, "expression_statement") && jf_node_type_is(as, "assignment") &&
		    jf_node_type_is(left, "identifier") && jf_node_type_is(right, "attribute") &&
		    jf_node_is(unit, jf_node_field(right, "attribute"), "FLAGS"))
			return jf_node_text(unit, left);
	}
	return NULL;
}

/* JF307 for absl: FLAGS.x where no flag is named x. */
static void check_flags_uses(jf_rule_ctx *ctx, const jf_cmdline *c, const jf_file *entry)
{
	static const char *const tricks[] = { "flag_values_dict", "__getattr__", "__setattr__",
		                              "__dict__", "setattr(", NULL };
	for (size_t i = 0; tricks[i]; i++)
		if (strstr(entry->src->data, tricks[i]))
			return;
	char *name = flags_var(entry);
	if (!name)
		return;
	TSNode root = ts_tree_root_node(entry->tree);
	attr_walk aw = { ctx, c, entry, name, { 0 }, true };
	visit_attributes(&aw, root, false); /* what the code assigns itself */
	visit_attributes(&aw, root, true);
	for (size_t k = 0; k < aw.assigned.size; k++)
		free(aw.assigned.items[k]);
	jf_array_release(&aw.assigned);
	free(name);
}

void jf_check_arguments(jf_rule_ctx *ctx, const jf_rule *rule)
{
	(void)rule; /* one pass reports JF302-JF304, JF306-JF308 */
	for (size_t i = 0; i < ctx->facts->ws->files.size; i++) {
		const jf_file *entry = ctx->facts->ws->files.items[i];
		if (entry->role != JF_ROLE_ENTRY || entry->lang != JF_LANG_PYTHON)
			continue;
		jf_cmdline c;
		build_cmdline(ctx->facts, entry, &c);
		/* Two ways of reading the command line in one script: which wins is not known. */
		int ways = (c.parsers > 0) + c.absl + (c.click_commands > 0);
		if (c.parsers > 0 && ways == 1) {
			check_duplicates(ctx, &c);
			if (!c.open && c.parsers == 1)
				check_namespace_uses(ctx, &c, entry, ts_tree_root_node(entry->tree));
			for (size_t k = 0; k < ctx->facts->shell.invocations.size && !c.open; k++) {
				const jf_invocation *inv = &ctx->facts->shell.invocations.items[k];
				if (inv->entry != entry)
					continue;
				check_launcher_flags(ctx, &c, inv);
				if (c.subparsers)
					check_command_invocation(ctx, &c, inv);
				else
					check_invocation(ctx, &c, inv);
			}
		} else if (ways == 1 && !c.open) {
			if (c.absl)
				check_flags_uses(ctx, &c, entry);
			for (size_t k = 0; k < ctx->facts->shell.invocations.size; k++) {
				const jf_invocation *inv = &ctx->facts->shell.invocations.items[k];
				if (inv->entry != entry)
					continue;
				if (c.absl)
					check_absl_invocation(ctx, &c, inv);
				else
					check_invocation(ctx, &c, inv); /* click reads options much as argparse */
			}
		}
		cmdline_release(&c);
	}
}

/*
 * A local launcher script: its parser takes a positional naming a script
 * (`training_script`, `script`, `program`, ...) followed by an
 * argparse.REMAINDER positional, as torch.distributed.launch does. Returns
 * the index in `args` of the word naming the wrapped script, or -1.
 */
long jf_wrapped_script(const jf_facts *facts, const jf_file *entry, const jf_words *args)
{
	/* A launcher's parser has a REMAINDER: without one in the text, there is
	 * no parser to build (the run's arguments are checked later anyway). */
	const char *text = entry->src->data;
	if (!strstr(text, "REMAINDER") && !strstr(text, "'...'") && !strstr(text, "\"...\""))
		return -1;
	jf_cmdline c;
	long at = -1;
	build_cmdline(facts, entry, &c);
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
		if (!looks_like_option(s)) {
			at = (long)i; /* the first positional: the script */
			break;
		}
		const char *full;
		bool ambiguous;
		char *name = strchr(s, '=') ? jf_xstrndup(s, (size_t)(strchr(s, '=') - s)) : jf_xstrdup(s);
		const jf_argdef *d = resolve_option(&c, name, &full, &ambiguous);
		free(name);
		if (!d)
			break;
		if (d->act != ACT_FLAG && !strchr(s, '='))
			i++; /* its value */
	}
	cmdline_release(&c);
	return at;
}
