/* cmdline.c - the command line an entry script accepts: recorded per file, replayed per entry
 *
 * What every library shares: the steps each file's statements leave
 * (recorded by the readers of python/parsers/ while the file's tree is held,
 * written to and read from the fact cache), their replay for an entry
 * script with what the job runs of each module, the model's lookups, and the
 * reading of an invocation's words as the library reads them.
 *
 * Precision first. A call that extends or replaces a parser where jobfix
 * cannot see (a library helper, exec), a library no reader models, a
 * definition computed at run time, or sys.argv read by hand makes the
 * command line open: the rules then say nothing about flags jobfix cannot
 * see.
 */
#include <ctype.h>
#include <stdlib.h>

#include "python/cmdline.h"

static const jf_cmdline_parser *const parsers[] = {
#define JF_CMDLINE_PARSER(lib) &jf_parser_##lib,
#include "python/parsers/parsers.def"
#undef JF_CMDLINE_PARSER
};

/* Calls that extend or replace a parser where jobfix cannot see: the command
 * line is open when one of them runs for the script. */
static const struct {
	const char *call;
	const char *why; /* jf_cmdline.open */
} open_calls[] = {
	{ "add_argparse_args", "add_argparse_args() adds options jobfix cannot see" },
	{ "add_model_specific_args", "add_model_specific_args() adds options jobfix cannot see" },
	{ "LightningCLI", "LightningCLI makes its command line" },
	{ "OmegaConf.from_cli", "OmegaConf.from_cli() reads its command line" },
	{ "exec", "exec() may define anything" },
	{ "parse_intermixed_args", "parse_intermixed_args() reads options and positionals apart" },
	{ "append_flag_values", "append_flag_values() adds flags jobfix cannot see" },
	{ "add_class_arguments", "add_class_arguments() adds a class's options" },
	{ "add_function_arguments", "add_function_arguments() adds a function's options" },
	{ "add_method_arguments", "add_method_arguments() adds a method's options" },
	{ "add_subclass_arguments", "add_subclass_arguments() adds a class's options" },
};

/* Libraries and parser settings that change what a command line means: the
 * line is open when a file that takes part in it spells one. */
static const char *const open_markers[] = {
	"hydra",         "jsonargparse import ArgumentParser", "jsonargparse.ArgumentParser",
	"simple_parsing",
	"from click import", "flags_core",        "prefix_chars",
	"fromfile_prefix_chars", "conflict_handler", NULL,
};

/* Whether `unit` may spell one of open_calls. */
static bool mentions_open_calls(const jf_file *unit)
{
	static const char *const spelled[] = { "add_config_arguments", "add_argparse_args",
		                               "add_model_specific_args", "LightningCLI", "from_cli",
		                               "append_flag_values", "parse_", "arguments", NULL };
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
	for (size_t i = 0; i < c->extra_dests.size; i++)
		free(c->extra_dests.items[i]);
	jf_array_release(&c->extra_dests);
	for (size_t i = 0; i < c->commands.size; i++)
		free(c->commands.items[i]);
	jf_array_release(&c->commands);
	jf_array_release(&c->command_of);
	jf_strings_release(&c->library);
	for (size_t i = 0; i < c->dataclasses.size; i++) {
		free(c->dataclasses.items[i].name);
		jf_strings_release(&c->dataclasses.items[i].attrs);
	}
	jf_array_release(&c->dataclasses);
	for (size_t p = 0; c->state && p < JF_CMDLINE_PARSER_COUNT; p++) {
		if (c->state[p] && parsers[p]->release)
			parsers[p]->release(c->state[p]);
		free(c->state[p]);
	}
	free(c->state);
}

void *jf_cmdline__state(jf_cmdline *c, const jf_cmdline_parser *p, size_t size)
{
	size_t i = 0;
	while (parsers[i] != p)
		i++;
	if (!c->state)
		c->state = jf_xcalloc(JF_CMDLINE_PARSER_COUNT, sizeof *c->state);
	if (!c->state[i])
		c->state[i] = jf_xcalloc(1, size);
	return c->state[i];
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

/* A literal as the text a parser would compare: strings unquoted, numbers as written. */
static char *literal_value(const jf_file *unit, TSNode n)
{
	if (jf_node_type_is(n, JF_T_integer) || jf_node_type_is(n, JF_T_float))
		return jf_node_text(unit, n);
	return jf_cmdline__string(unit, n);
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

bool jf_cmdline__ends_with_word(const jf_file *unit, TSNode n, const char *name)
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

bool jf_cmdline__calls_method(const jf_file *unit, TSNode fn, const char *name)
{
	return jf_cmdline__ends_with_word(unit, fn, name) && jf_node_type_is(fn, JF_T_attribute) &&
	       jf_node_is(unit, jf_node_field(fn, JF_F_attribute), name);
}

bool jf_cmdline__callee_ends(const jf_file *unit, TSNode fn, const char *name)
{
	if (!jf_cmdline__ends_with_word(unit, fn, name))
		return false;
	if (jf_node_type_is(fn, JF_T_attribute))
		fn = jf_node_field(fn, JF_F_attribute);
	return jf_node_type_is(fn, JF_T_identifier) && jf_node_is(unit, fn, name);
}

size_t jf_cmdline__params(TSNode def, jf_cmdline_param *out, size_t max)
{
	TSNode params = jf_node_field(def, JF_F_parameters);
	size_t n = 0;
	bool keyword_only = false;
	for (uint32_t i = 0; !ts_node_is_null(params) && i < ts_node_named_child_count(params); i++) {
		TSNode p = ts_node_named_child(params, i);
		jf_cmdline_param q = { .keyword_only = keyword_only };
		if (jf_node_type_is(p, JF_T_keyword_separator)) {
			keyword_only = true;
			continue;
		}
		if (jf_node_type_is(p, JF_T_positional_separator) || jf_node_type_is(p, JF_T_comment))
			continue;
		if (jf_node_type_is(p, JF_T_identifier)) {
			q.name = p;
		} else if (jf_node_type_is(p, JF_T_list_splat_pattern) ||
		           jf_node_type_is(p, JF_T_dictionary_splat_pattern)) {
			q.splat = jf_node_type_is(p, JF_T_list_splat_pattern) ? 1 : 2;
			q.name = ts_node_named_child(p, 0);
			keyword_only |= q.splat == 1;
		} else {
			/* typed_parameter, default_parameter, typed_default_parameter */
			q.name = jf_node_field(p, JF_F_name);
			q.type = jf_node_field(p, JF_F_type);
			q.value = jf_node_field(p, JF_F_value);
			if (ts_node_is_null(q.name)) { /* typed_parameter: its first child */
				TSNode c = ts_node_named_child(p, 0);
				q.splat = jf_node_type_is(c, JF_T_list_splat_pattern)         ? 1
				          : jf_node_type_is(c, JF_T_dictionary_splat_pattern) ? 2
				                                                              : 0;
				q.name = q.splat ? ts_node_named_child(c, 0) : c;
				keyword_only |= q.splat == 1;
			}
		}
		if (n < max)
			out[n] = q;
		n++;
	}
	return n;
}

/* Parameters a function may have for jobfix to read it whole. */
#define MAX_PARAMS 128

int jf_cmdline__record_params(jf_cmdline_recorder *r, TSNode def, uint8_t kind)
{
	jf_cmdline_param params[MAX_PARAMS];
	size_t n = jf_cmdline__params(def, params, MAX_PARAMS);
	if (n > MAX_PARAMS)
		return -1;
	int kwargs = 0;
	for (size_t i = 0; i < n; i++) {
		const jf_cmdline_param *p = &params[i];
		if (p->splat) {
			kwargs |= p->splat == 2;
			continue;
		}
		jf_argdef d = { .command = JF_CMDLINE_MAIN, .unit = r->unit, .span = jf_node_span(def),
			        .type = TYPE_OTHER, .nargs = NARGS_OPTIONAL,
			        .dest = jf_node_text(r->unit, p->name) };
		jf_array_push(&d.options, jf_xasprintf("--%s", d.dest));
		d.required = ts_node_is_null(p->value);
		d.also_positional = !p->keyword_only;
		d.default_at = jf_node_ref_of(p->value);
		jf_cmdline__step_argument(r, kind, &d, NULL);
	}
	return kwargs;
}

/* What a reader that calls one function keeps. */
typedef struct {
	int calls;           /* its calls that run */
	const jf_file *unit; /* the first one's */
	jf_span span;
	bool kwargs;         /* the function takes **kwargs */
} call_state;

void jf_cmdline__call_replay(jf_cmdline *c, const jf_cmdline_parser *p, const jf_file *unit,
                             const jf_cmdline_step *s, uint8_t call)
{
	call_state *st = jf_cmdline__state(c, p, sizeof *st);
	if (s->kind == call) {
		if (!st->calls++) {
			st->unit = unit;
			st->span = s->span;
		}
		st->kwargs |= s->flag;
	} else if (s->kind == call + 1 && st->calls == 1) {
		jf_cmdline__add(c, s->def);
	}
}

bool jf_cmdline__call_finish(jf_cmdline *c, int index, const char *twice)
{
	call_state *st = c->state ? c->state[index] : NULL;
	if (!st || !st->calls)
		return false;
	if (st->calls > 1)
		c->open = twice;
	c->dialect = JF_DIALECT_FIRE;
	c->result = JF_RESULT_PARAMS;
	c->abbrev = false;
	if (st->kwargs)
		c->tolerant = "a function taking **kwargs";
	c->unit = st->unit;
	c->span = st->span;
	return true;
}

const char *jf_cmdline__command_name(jf_cmdline_recorder *r, TSNode call, TSNode def)
{
	TSNode args = jf_node_type_is(call, JF_T_call) ? jf_node_field(call, JF_F_arguments) : (TSNode){ 0 };
	for (uint32_t i = 0; !ts_node_is_null(args) && i < ts_node_named_child_count(args); i++) {
		TSNode a = ts_node_named_child(args, i);
		bool kw = jf_node_type_is(a, JF_T_keyword_argument);
		if (kw && !jf_node_is(r->unit, jf_node_field(a, JF_F_name), "name"))
			continue;
		char *s = jf_cmdline__string(r->unit, kw ? jf_node_field(a, JF_F_value) : a);
		const char *kept = s ? jf_arena_strdup(r->arena, s) : NULL;
		free(s);
		return kept;
	}
	char *name = jf_node_text_in(r->arena, r->unit, jf_node_field(def, JF_F_name));
	for (char *p = name; *p; p++)
		*p = *p == '_' ? '-' : *p;
	return name;
}

TSNode jf_cmdline__top_definition(const jf_pyfacts *py, TSNode name)
{
	TSNode found = { 0 };
	const char *text = py->file->src->data;
	uint32_t len = ts_node_end_byte(name) - ts_node_start_byte(name);
	static const jf_py_kind kinds[] = { JF_PY_FUNCTION, JF_PY_CLASS };
	for (size_t k = 0; k < 2; k++)
		for (size_t i = 0; i < py->of_kind[kinds[k]].size; i++) {
			const jf_py_node *pn = jf_pyfacts_at(py, kinds[k], i);
			TSNode n = jf_node_field(pn->node, JF_F_name);
			if (pn->def == JF_PY_NONE && ts_node_end_byte(n) - ts_node_start_byte(n) == len &&
			    !memcmp(text + ts_node_start_byte(n), text + ts_node_start_byte(name), len) &&
			    (ts_node_is_null(found) || ts_node_start_byte(pn->node) > ts_node_start_byte(found)))
				found = pn->node;
		}
	return found;
}

/* Recording: what each statement does to the command line, read while the
 * file's tree is held. The steps are replayed in source order by collect(),
 * which knows what the job runs of the file. */

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

jf_cmdline_step *jf_cmdline__step(jf_cmdline_recorder *r, uint8_t kind)
{
	if (r->gated && !r->place)
		r->place = node_place(r);
	jf_cmdline_step s = { .parser = r->parser, .kind = kind, .place = r->gated ? r->place : NULL };
	jf_array_push(&r->steps, s);
	return jf_array_last(&r->steps);
}

void jf_cmdline__step_open(jf_cmdline_recorder *r, const char *why)
{
	jf_cmdline__step(r, JF_STEP_OPEN)->text = why;
}

const char **jf_cmdline__strings_in(jf_arena *arena, char *const *items, size_t n)
{
	const char **copy = jf_arena_calloc(arena, n ? n : 1, sizeof *copy);
	for (size_t i = 0; i < n; i++)
		copy[i] = jf_arena_strdup(arena, items[i]);
	return copy;
}

void jf_cmdline__step_argument(jf_cmdline_recorder *r, uint8_t kind, jf_argdef *d,
                               const char *object)
{
	jf_argdef *kept = jf_arena_alloc(r->arena, sizeof *kept);
	*kept = *d;
	kept->parser = r->parser;
	kept->options.items =
		(char **)jf_cmdline__strings_in(r->arena, d->options.items, d->options.size);
	kept->options.cap = d->options.size;
	kept->choices.items =
		(char **)jf_cmdline__strings_in(r->arena, d->choices.items, d->choices.size);
	kept->choices.cap = d->choices.size;
	kept->dest = d->dest ? jf_arena_strdup(r->arena, d->dest) : NULL;
	jf_cmdline__def_release(d);
	jf_cmdline_step *s = jf_cmdline__step(r, kind);
	s->def = kept;
	s->object = object;
}

void jf_cmdline__step_unread(jf_cmdline_recorder *r, uint8_t kind, char *dest,
                             const char *object)
{
	jf_argdef d = { .dest = dest, .unread = true, .command = JF_CMDLINE_MAIN,
		        .unit = r->unit, .span = jf_node_span(r->pn->node) };
	jf_cmdline__step_argument(r, kind, &d, object);
}

/* `name(...)` of open_calls: the command line is open where it runs. */
static void record_open_call(jf_cmdline_recorder *r, const jf_py_node *pn)
{
	for (size_t i = 0; i < sizeof open_calls / sizeof *open_calls; i++)
		if (strchr(open_calls[i].call, '.')
		            ? jf_cmdline__ends_with_word(r->unit, pn->a, open_calls[i].call)
		            : jf_cmdline__callee_ends(r->unit, pn->a, open_calls[i].call)) {
			jf_cmdline__step(r, JF_STEP_OPEN_FIRST)->text = open_calls[i].why;
			break;
		}
}

const jf_cmdline_record *jf_cmdline_record_of(jf_arena *arena, const jf_pyfacts *py)
{
	bool wanted[JF_CMDLINE_PARSER_COUNT], open_calls_too = mentions_open_calls(py->file);
	bool any = open_calls_too;
	for (size_t p = 0; p < JF_CMDLINE_PARSER_COUNT; p++)
		any |= wanted[p] = parsers[p]->mentions(py->file);
	if (!any)
		return NULL;
	jf_cmdline_recorder r = { .arena = arena, .unit = py->file, .py = py, .own_add_argument = -1 };
	/* Assignments, calls and decorated definitions, in source order. */
	for (size_t k = 0; k < py->nodes.size; k++) {
		const jf_py_node *pn = &py->nodes.items[k];
		if (pn->kind != JF_PY_ASSIGNMENT && pn->kind != JF_PY_CALL &&
		    pn->kind != JF_PY_DECORATED && pn->kind != JF_PY_CLASS)
			continue;
		r.pn = pn;
		r.place = NULL;
		/* a definition is read whether its function runs or not */
		r.gated = pn->kind != JF_PY_DECORATED && pn->kind != JF_PY_CLASS;
		if (pn->kind == JF_PY_CALL && open_calls_too)
			record_open_call(&r, pn);
		for (size_t p = 0; p < JF_CMDLINE_PARSER_COUNT; p++)
			if (wanted[p]) {
				r.parser = (uint8_t)p;
				parsers[p]->record(&r, pn);
			}
	}
	jf_strmap_release(&r.holders);
	jf_cmdline_record *rec = jf_arena_alloc(arena, sizeof *rec);
	jf_arena_adopt_array(arena, &r.steps);
	rec->steps = r.steps.items;
	rec->count = r.steps.size;
	return rec;
}

void jf_cmdline_record_args(const jf_cmdline_record *rec, int parser,
                            void (*each)(void *data, const jf_argdef *d), void *data)
{
	for (size_t i = 0; rec && i < rec->count; i++) {
		const jf_cmdline_step *s = &rec->steps[i];
		if (s->def && (parser < 0 || s->parser == parser))
			each(data, s->def);
	}
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
	jf_wire_put_u8(b, d->unread);
	jf_wire_put_u8(b, d->also_positional);
	jf_wire_put_u8(b, d->prefixed);
	jf_wire_put_u8(b, d->parser);
	jf_wire_put_u32(b, d->default_at.start);
	jf_wire_put_u32(b, d->default_at.end);
	jf_wire_put_u32(b, d->default_at.symbol);
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
	d->unread = jf_wire_get_bool(w);
	d->also_positional = jf_wire_get_bool(w);
	d->prefixed = jf_wire_get_bool(w);
	d->parser = jf_wire_get_u8(w);
	d->default_at.start = jf_wire_get_u32(w);
	d->default_at.end = jf_wire_get_u32(w);
	d->default_at.symbol = (TSSymbol)jf_wire_get_u32(w);
	d->unit = jf_wire_get_bool(w) ? unit : NULL;
	d->span = jf_wire_get_span_in(w, unit->src->len);
	if (d->act > ACT_CUSTOM || d->type > TYPE_OTHER || d->nargs > NARGS_COUNT ||
	    d->parser >= JF_CMDLINE_PARSER_COUNT || d->default_at.start > d->default_at.end ||
	    d->default_at.end > unit->src->len)
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
		jf_wire_put_u8(b, s->parser);
		jf_wire_put_u8(b, s->kind);
		jf_wire_put_u8(b, s->flag);
		jf_wire_put_u8(b, s->how);
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

/* Whether a step of `kind` recorded by reader `parser` can be. */
static bool step_kind_known(uint8_t parser, uint8_t kind)
{
	if (parser >= JF_CMDLINE_PARSER_COUNT)
		return false;
	return kind < JF_STEP_OWN ? kind <= JF_STEP_ARGV_PARSES
	                          : kind - JF_STEP_OWN < parsers[parser]->own_kinds;
}

const jf_cmdline_record *jf_cmdline_record_load(jf_wire *w, jf_arena *arena, const jf_file *unit)
{
	if (!jf_wire_get_bool(w))
		return NULL;
	size_t n;
	jf_cmdline_step *steps = jf_wire_get_items(w, arena, sizeof *steps, 16, &n);
	for (size_t i = 0; i < n && !w->bad; i++) {
		jf_cmdline_step *s = &steps[i];
		s->parser = jf_wire_get_u8(w);
		s->kind = jf_wire_get_u8(w);
		s->flag = jf_wire_get_bool(w);
		s->how = jf_wire_get_u8(w);
		if (!step_kind_known(s->parser, s->kind))
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

static char **strings_dup(char *const *items, size_t n)
{
	char **copy = n ? jf_xmalloc(n * sizeof *copy) : NULL;
	for (size_t i = 0; i < n; i++)
		copy[i] = jf_xstrdup(items[i]);
	return copy;
}

jf_argdef *jf_cmdline__add(jf_cmdline *c, const jf_argdef *d)
{
	jf_argdef copy = *d;
	copy.options.items = strings_dup(d->options.items, d->options.size);
	copy.options.cap = d->options.size;
	copy.choices.items = strings_dup(d->choices.items, d->choices.size);
	copy.choices.cap = d->choices.size;
	copy.dest = d->dest ? jf_xstrdup(d->dest) : NULL;
	jf_array_push(&c->args, copy);
	return jf_array_last(&c->args);
}

static void replay(jf_cmdline *c, const jf_file *unit, const jf_cmdline_step *s)
{
	switch (s->kind) {
	case JF_STEP_OPEN:
		c->open = s->text;
		break;
	case JF_STEP_OPEN_FIRST:
		if (!c->open)
			c->open = s->text;
		break;
	case JF_STEP_TAKES_PART:
		c->takes_part = true;
		break;
	case JF_STEP_ARGUMENT:
		jf_cmdline__add(c, s->def);
		break;
	case JF_STEP_ARGV_PARSES:
		c->argv_parses += s->how ? s->how : 1;
		break;
	default:
		parsers[s->parser]->replay(c, unit, s);
		break;
	}
}

/* Whether the `sys.argv` at `p` reads no argument: it is only shown
 * (`" ".join(sys.argv)`, `print(sys.argv)`, `str(...)`, `repr(...)`), or
 * only looked at (`sys.argv[0]`, the script; `len(sys.argv)`;
 * `sys.argv[1].endswith(".json")`, the test of a config-file form). */
static bool reads_no_argument(const char *text, const char *p)
{
	static const char *const shows[] = { "join(", "print(", "str(", "repr(", NULL };
	const char *after = p + sizeof "sys.argv" - 1;
	for (size_t i = 0; shows[i]; i++) {
		size_t n = strlen(shows[i]);
		if ((size_t)(p - text) >= n && !memcmp(p - n, shows[i], n) && *after == ')')
			return true;
	}
	if (!strncmp(after, "[0]", 3) || (p - text >= 4 && !memcmp(p - 4, "len(", 4)))
		return true;
	if (after[0] == '[' && after[1] >= '1' && after[1] <= '9' && after[2] == ']')
		return !strncmp(after + 3, ".endswith(", 10) || !strncmp(after + 3, ".startswith(", 12);
	return false;
}

/* Whether `p` in `text` stands in a comment: after a `#` of its line that
 * no quote before it opens. */
static bool in_comment(const char *text, const char *p)
{
	const char *line = p;
	while (line > text && line[-1] != '\n')
		line--;
	char quote = 0;
	for (const char *q = line; q < p; q++) {
		if (quote && *q == '\\' && q + 1 < p)
			q++;
		else if (quote && *q == quote)
			quote = 0;
		else if (!quote && (*q == '\'' || *q == '"'))
			quote = *q;
		else if (!quote && *q == '#')
			return true;
	}
	return false;
}

bool jf_cmdline_unreferenced(const char *text, const char *name)
{
	size_t n = strlen(name), seen = 0;
	for (const char *p = strstr(text, name); p && seen < 2; p = strstr(p + n, name)) {
		bool start = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
		bool end = !(isalnum((unsigned char)p[n]) || p[n] == '_');
		seen += start && end && !in_comment(text, p);
	}
	return seen < 2;
}

/* Adds what the statements of `unit` (its record `rec`) do to `c`: for the
 * entry script (`called` NULL) all of them but those of a function the file
 * never names again (`def main():` beside the `main_wo_bpe()` it calls),
 * those that run for it in an imported module (with `own`, its
 * jf_py_own_calls()). */
static void collect(jf_cmdline *c, const jf_file *unit, const jf_cmdline_record *rec,
                    const jf_strmap *called, const jf_strmap *own)
{
	size_t defined = c->args.size;
	int made = c->parsers;
	c->takes_part = !called; /* the entry script's own */
	/* hand-read, unless a parser is handed sys.argv; printing it reads nothing */
	for (const char *p = strstr(unit->src->data, "sys.argv"); p; p = strstr(p + 1, "sys.argv"))
		c->argv_reads += !reads_no_argument(unit->src->data, p);
	const jf_py_place *place = NULL;
	bool runs = true;
	for (size_t k = 0; rec && k < rec->count; k++) {
		const jf_cmdline_step *s = &rec->steps[k];
		if (s->place && s->place != place) {
			place = s->place;
			runs = called ? jf_py_place_runs(place, called, own)
			              : !place->outer || !jf_cmdline_unreferenced(unit->src->data, place->outer);
		}
		if (!s->place || runs)
			replay(c, unit, s);
	}
	bool takes_part = c->takes_part || c->args.size > defined || c->parsers > made;
	for (size_t i = 0; open_markers[i] && takes_part; i++)
		if (strstr(unit->src->data, open_markers[i]))
			c->open = "it reads its command line with a library jobfix does not model "
			          "(hydra, simple_parsing, jsonargparse's ArgumentParser, ...)";
}

/* An option string two arguments define, one of them only sometimes (in an
 * if and its else): which one the script has is not known, so neither's
 * values are read: each takes its words as its own Action would. */
static void settle_alternatives(jf_cmdline *c)
{
	for (size_t i = 0; i < c->args.size; i++)
		for (size_t j = i + 1; j < c->args.size; j++) {
			jf_argdef *a = &c->args.items[i], *b = &c->args.items[j];
			if ((!a->conditional && !b->conditional) || a->command != b->command)
				continue;
			for (size_t k = 0; k < a->options.size; k++)
				for (size_t m = 0; m < b->options.size; m++)
					if (!strcmp(a->options.items[k], b->options.items[m]) &&
					    (a->act != b->act || a->nargs != b->nargs || a->type != b->type)) {
						a->act = b->act = ACT_CUSTOM;
						a->required = b->required = false;
					}
		}
}

void jf_cmdline_read(jf_cmdline *c, const jf_pyfiles *files, const jf_pyfacts *entry)
{
	memset(c, 0, sizeof(*c));
	c->abbrev = true;
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
			continue; /* not read, or it spells nothing a reader records */
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
	for (size_t p = 0; p < JF_CMDLINE_PARSER_COUNT; p++)
		if (parsers[p]->finish(c, files, entry)) {
			c->by = parsers[p];
			c->ways++;
		}
	if (c->argv_reads > c->argv_parses)
		c->open = "it reads sys.argv by hand";
	settle_alternatives(c);
}

jf_cmdline jf_cmdline_view(const jf_cmdline *c, int command)
{
	jf_cmdline v = *c;
	memset(&v.args, 0, sizeof v.args);
	for (size_t i = 0; i < c->args.size; i++)
		if (c->args.items[i].command == command)
			jf_array_push(&v.args, c->args.items[i]);
	return v;
}

void jf_cmdline_view_release(jf_cmdline *view)
{
	jf_array_release(&view->args);
}

/* Whether callee `fn` makes a parser or a part of one. */
static bool makes_parser(const jf_file *unit, TSNode fn)
{
	static const char *const methods[] = { "add_argument_group", "add_mutually_exclusive_group",
		                                "add_parser", "add_subparsers", NULL };
	for (size_t i = 0; methods[i]; i++)
		if (jf_cmdline__calls_method(unit, fn, methods[i]))
			return true;
	TSNode name = jf_node_type_is(fn, JF_T_attribute) ? jf_node_field(fn, JF_F_attribute) : fn;
	if (!jf_node_type_is(name, JF_T_identifier))
		return false;
	size_t n = ts_node_end_byte(name) - ts_node_start_byte(name), k = sizeof "ArgumentParser" - 1;
	return n >= k && !memcmp(unit->src->data + ts_node_end_byte(name) - k, "ArgumentParser", k);
}

/* Whether callee `fn` names a class by Python's custom (`ConfigValidator`,
 * `cfg.Checker`), not a function (`eval_parser`, whose result may be a parser). */
static bool names_class(const jf_file *unit, TSNode fn)
{
	TSNode name = jf_node_type_is(fn, JF_T_attribute) ? jf_node_field(fn, JF_F_attribute) : fn;
	if (!jf_node_type_is(name, JF_T_identifier))
		return false;
	char c = unit->src->data[ts_node_start_byte(name)];
	return c >= 'A' && c <= 'Z';
}

bool jf_cmdline_foreign_add_argument(const jf_file *unit, TSNode call, int8_t *own)
{
	TSNode object = jf_node_field(jf_node_field(call, JF_F_function), JF_F_object);
	int8_t asked = -1;
	if (!own)
		own = &asked;
	if (*own < 0) /* once per file: a search of its whole text */
		*own = strstr(unit->src->data, "def add_argument(") != NULL;
	bool own_method = *own;
	if (!jf_node_type_is(object, JF_T_identifier))
		return own_method; /* self.add_argument(...) in a class that defines it */
	/* The body around the call: its function's, or the module. */
	TSNode body = call;
	while (!ts_node_is_null(body) && !jf_node_type_is(body, JF_T_module) &&
	       !(jf_node_type_is(body, JF_T_block) &&
	         jf_node_type_is(ts_node_parent(body), JF_T_function_definition)))
		body = ts_node_parent(body);
	for (uint32_t i = 0; !ts_node_is_null(body) && i < ts_node_named_child_count(body); i++) {
		TSNode as = ts_node_named_child(ts_node_named_child(body, i), 0);
		TSNode left = jf_node_field(as, JF_F_left), right = jf_node_field(as, JF_F_right);
		if (jf_node_type_is(as, JF_T_assignment) && jf_node_type_is(left, JF_T_identifier) &&
		    jf_node_type_is(right, JF_T_call) &&
		    ts_node_end_byte(left) - ts_node_start_byte(left) ==
		            ts_node_end_byte(object) - ts_node_start_byte(object) &&
		    !memcmp(unit->src->data + ts_node_start_byte(left),
		            unit->src->data + ts_node_start_byte(object),
		            ts_node_end_byte(left) - ts_node_start_byte(left)))
			return !makes_parser(unit, jf_node_field(right, JF_F_function)) &&
			       (own_method || names_class(unit, jf_node_field(right, JF_F_function)));
	}
	return own_method;
}

/* The model's lookups */

const jf_argdef *jf_cmdline_find_option(const jf_cmdline *c, const char *name)
{
	for (size_t i = 0; i < c->args.size; i++)
		for (size_t k = 0; k < c->args.items[i].options.size; k++) {
			const char *o = c->args.items[i].options.items[k];
			size_t n = strlen(o);
			if (!strcmp(o, name) ||
			    (c->args.items[i].prefixed && n && o[n - 1] == '.' && !strncmp(o, name, n) &&
			     name[n]))
				return &c->args.items[i];
		}
	return NULL;
}

const jf_argdef *jf_cmdline_find_dest(const jf_cmdline *c, const char *dest)
{
	for (size_t i = 0; i < c->args.size; i++)
		if (c->args.items[i].dest && !strcmp(c->args.items[i].dest, dest))
			return &c->args.items[i];
	return NULL;
}

bool jf_cmdline_stores(const jf_cmdline *c, const char *name)
{
	if (c->extra_open || jf_cmdline_find_dest(c, name))
		return true;
	for (size_t i = 0; i < c->extra_dests.size; i++)
		if (!strcmp(c->extra_dests.items[i], name))
			return true;
	return false;
}

char *jf_argdef_dest(const jf_argdef *d)
{
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

const char *jf_argdef_name(const jf_argdef *d)
{
	const char *name = d->options.size ? d->options.items[d->options.size - 1] : d->dest;
	for (size_t m = 0; m < d->options.size; m++) /* the long name: --lr for '--lr', '-l' */
		if (jf_str_starts(d->options.items[m], "--"))
			return d->options.items[m];
	return name;
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
	if (d || !c->abbrev || !jf_str_starts(name, "--")) {
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

jf_tri jf_argdef_passed(const jf_argdef *d, const jf_words *args, const char **value)
{
	*value = NULL;
	for (size_t k = 0; k < args->size; k++) {
		const char *w = args->items[k].value;
		if (!w)
			return JF_UNKNOWN; /* a word known only at run time may be the option */
		for (size_t o = 0; o < d->options.size; o++) {
			size_t n = strlen(d->options.items[o]);
			if (!strncmp(w, d->options.items[o], n) && w[n] == '=') {
				*value = w + n + 1;
				return JF_YES;
			}
			if (!strcmp(w, d->options.items[o])) {
				*value = k + 1 < args->size ? args->items[k + 1].value : NULL;
				return *value ? JF_YES : JF_UNKNOWN;
			}
		}
	}
	return JF_NO;
}

jf_tri jf_cmdline_positional_passed(const jf_cmdline *c, const char *dest, const jf_words *args,
                                    const char **value)
{
	*value = NULL;
	if (c->dialect != JF_DIALECT_ARGPARSE || c->open || c->subparsers)
		return JF_UNKNOWN;
	/* its place among the positionals, each before it one word */
	size_t index = 0;
	const jf_argdef *d = NULL;
	for (size_t k = 0; k < c->args.size && !d; k++) {
		const jf_argdef *a = &c->args.items[k];
		if (a->options.size || a->command != JF_CMDLINE_MAIN)
			continue;
		if (a->dest && !strcmp(a->dest, dest))
			d = a;
		else if (a->nargs == NARGS_ONE)
			index++;
		else
			return JF_UNKNOWN;
	}
	if (!d || d->nargs != NARGS_ONE || d->act != ACT_STORE)
		return JF_UNKNOWN;
	jf_token_reader r;
	jf_token t;
	jf_tri result = JF_NO;
	size_t seen = 0;
	jf_token_reader_init(&r, c, args);
	while (result == JF_NO && jf_cmdline_next_token(&r, &t)) {
		if (t.kind == JF_TOKEN_RUNTIME || t.kind == JF_TOKEN_UNKNOWN ||
		    (t.kind == JF_TOKEN_OPTION && t.def->act == ACT_CUSTOM))
			result = JF_UNKNOWN;
		else if (t.kind == JF_TOKEN_POSITIONAL && seen++ == index)
			*value = t.word->value, result = JF_YES;
	}
	jf_token_reader_release(&r);
	return result;
}

/* Reading an invocation's words */

void jf_token_reader_init(jf_token_reader *r, const jf_cmdline *c, const jf_words *words)
{
	*r = (jf_token_reader){ .c = c, .words = words, .remainder_after = SIZE_MAX };
	if (c->dialect == JF_DIALECT_ABSL) {
		for (size_t i = 0; i < words->size; i++) {
			const char *s = words->items[i].value;
			if (!s || s[0] != '-' || !s[1])
				continue;
			const char *body = s + (s[1] == '-' ? 2 : 1);
			size_t n = strcspn(body, "=");
			if (n == sizeof "flagfile" - 1 && !memcmp(body, "flagfile", n))
				r->flagfile = r->undefok = true; /* the file may pass anything */
			else if (n == sizeof "undefok" - 1 && !memcmp(body, "undefok", n))
				r->undefok = true;
		}
		return;
	}
	/* Once the positionals before an argparse.REMAINDER one are filled, it
	 * takes every word that follows, options included. */
	size_t npos = 0;
	for (size_t k = 0; k < c->args.size && r->remainder_after == SIZE_MAX; k++) {
		const jf_argdef *d = &c->args.items[k];
		if (d->options.size)
			continue;
		if (d->nargs == NARGS_REMAINDER)
			r->remainder_after = npos;
		else if (d->nargs == NARGS_ONE || d->nargs == NARGS_COUNT)
			npos += d->nargs == NARGS_COUNT ? (size_t)d->count : 1;
		else
			npos = SIZE_MAX - 1; /* ?, *, +: where it starts is not fixed */
	}
}

void jf_token_reader_release(jf_token_reader *r)
{
	free(r->name);
	free(r->bare);
	r->name = r->bare = NULL;
}

/* `s` up to its '=' (in *eq, or NULL), as the reader's current name. */
static const char *take_name(jf_token_reader *r, const char *s, const char **eq)
{
	*eq = strchr(s, '=');
	free(r->name);
	r->name = *eq ? jf_xstrndup(s, (size_t)(*eq - s)) : jf_xstrdup(s);
	return r->name;
}

static bool next_argparse(jf_token_reader *r, jf_token *t)
{
	const jf_words *w = r->words;
	const jf_cmdline *c = r->c;
	while (r->i < w->size) {
		const jf_word *word = &w->items[r->i++];
		const char *s = word->value;
		*t = (jf_token){ .word = word };
		if (!s) {
			t->kind = JF_TOKEN_RUNTIME;
			return true;
		}
		/* A REMAINDER positional starts at a positional word (right after the
		 * positionals before it): the options before the first one are options. */
		if (r->positional_only || !jf_cmdline_looks_like_option(s) ||
		    (r->positionals && r->positionals >= r->remainder_after)) {
			r->positionals++;
			t->kind = JF_TOKEN_POSITIONAL;
			return true;
		}
		if (!strcmp(s, "--")) {
			r->positional_only = true;
			continue;
		}
		const char *eq, *full;
		const char *name = take_name(r, s, &eq);
		bool ambiguous;
		const jf_argdef *d = jf_cmdline_resolve_option(c, name, &full, &ambiguous);
		if (!d && s[1] != '-' && strlen(s) > 2) {
			char shortopt[3] = { '-', s[1], 0 };
			d = jf_cmdline_find_option(c, shortopt); /* -j5, -vv */
			if (d) {
				t->kind = JF_TOKEN_OPTION;
				t->def = d;
				t->name = name;
				t->cluster = true;
				return true;
			}
		}
		t->name = d ? full : name;
		t->value = eq ? eq + 1 : NULL;
		if (!d) {
			t->kind = JF_TOKEN_UNKNOWN;
			t->ambiguous = ambiguous;
			/* The word after an unknown flag is most likely its value, not a positional. */
			if (!eq && r->i < w->size && w->items[r->i].value &&
			    !jf_cmdline_looks_like_option(w->items[r->i].value)) {
				t->values = &w->items[r->i++];
				t->nvalues = 1;
			}
			return true;
		}
		t->kind = JF_TOKEN_OPTION;
		t->def = d;
		size_t start = r->i;
		if (d->act == ACT_CUSTOM) {
			/* its own Action: any values, and the positionals after it
			 * cannot be told from them */
			while (r->i < w->size && !(w->items[r->i].value &&
			                           jf_cmdline_looks_like_option(w->items[r->i].value)))
				r->i++;
		} else if (d->act == ACT_FLAG || eq) {
			/* no value words */
		} else if (d->nargs == NARGS_REMAINDER) {
			start = r->i = w->size; /* it takes the rest, whatever it is */
		} else {
			size_t want = d->nargs == NARGS_COUNT ? (size_t)d->count : 1;
			bool many = d->nargs == NARGS_ANY || d->nargs == NARGS_SOME;
			while (r->i < w->size && (many || r->i - start < want) &&
			       !(w->items[r->i].value && jf_cmdline_looks_like_option(w->items[r->i].value)))
				r->i++;
		}
		t->values = &w->items[start];
		t->nvalues = r->i - start;
		return true;
	}
	return false;
}

static bool next_absl(jf_token_reader *r, jf_token *t)
{
	const jf_words *w = r->words;
	const jf_cmdline *c = r->c;
	while (r->i < w->size) {
		const jf_word *word = &w->items[r->i++];
		const char *s = word->value;
		*t = (jf_token){ .word = word };
		if (!s) {
			t->kind = JF_TOKEN_RUNTIME;
			return true;
		}
		if (s[0] != '-') {
			t->kind = JF_TOKEN_POSITIONAL; /* a word absl passes on to main(argv) */
			return true;
		}
		if (!strcmp(s, "--")) {
			r->i = w->size;
			return false;
		}
		/* "lr" in "--lr=0.1" or "-lr" */
		size_t dashes = s[1] == '-' ? 2 : 1;
		const char *eq;
		take_name(r, s + dashes, &eq);
		free(r->bare);
		r->bare = r->name;
		r->name = jf_xstrndup(s, dashes + strlen(r->bare));
		t->name = r->name;
		t->bare = r->bare;
		t->value = eq ? eq + 1 : NULL;
		char *dashed = jf_xasprintf("--%s", r->bare);
		const jf_argdef *d = jf_cmdline_find_option(c, dashed);
		bool takes_value;
		if (!d && jf_str_starts(r->bare, "no") && r->bare[2]) { /* --noamp */
			dashed[2] = dashed[3] = '-';
			d = jf_cmdline_find_option(c, dashed + 2);
			t->negated = d && d->act == ACT_FLAG;
			d = t->negated ? d : NULL;
		}
		free(dashed);
		if (d) {
			t->kind = JF_TOKEN_OPTION;
			t->def = d;
			if (d->act != ACT_FLAG && !t->negated && !eq) {
				if (r->i < w->size) {
					t->values = &w->items[r->i++];
					t->nvalues = 1;
				} else {
					t->truncated = true;
				}
			}
			return true;
		}
		if (c->by && c->by->builtin && c->by->builtin(r->bare, &takes_value)) {
			t->kind = JF_TOKEN_BUILTIN;
			if (takes_value && !eq && r->i < w->size) {
				t->values = &w->items[r->i++];
				t->nvalues = 1;
			}
			return true;
		}
		if (*r->bare && !r->undefok) {
			t->kind = JF_TOKEN_UNKNOWN;
			return true;
		}
	}
	return false;
}

/* python-fire: a flag's name with '-' as '_' ("--lr_rate" of "--lr-rate"). */
static const jf_argdef *fire_option(const jf_cmdline *c, const char *dashed)
{
	char *name = jf_xstrdup(dashed);
	for (char *p = name + 2; *p; p++)
		*p = *p == '-' ? '_' : *p;
	const jf_argdef *d = jf_cmdline_find_option(c, name);
	free(name);
	return d;
}

static bool next_fire(jf_token_reader *r, jf_token *t)
{
	const jf_words *w = r->words;
	while (r->i < w->size) {
		const jf_word *word = &w->items[r->i++];
		const char *s = word->value;
		*t = (jf_token){ .word = word };
		if (!s) {
			t->kind = JF_TOKEN_RUNTIME;
			return true;
		}
		if (!strcmp(s, "--")) {
			r->i = w->size; /* the rest are fire's own flags */
			return false;
		}
		if (!jf_cmdline_looks_like_option(s)) {
			t->kind = JF_TOKEN_POSITIONAL;
			return true;
		}
		const char *eq;
		t->name = take_name(r, s, &eq);
		t->value = eq ? eq + 1 : NULL;
		bool takes_value;
		if (s[1] != '-') {
			t->kind = JF_TOKEN_BUILTIN; /* a short flag: fire's abbreviations are not read */
		} else if ((t->def = fire_option(r->c, t->name))) {
			t->kind = JF_TOKEN_OPTION;
		} else if (jf_str_starts(t->name, "--no") && t->name[4]) {
			char *plain = jf_xasprintf("--%s", t->name + 4);
			t->def = fire_option(r->c, plain);
			free(plain);
			t->negated = t->def != NULL;
			t->kind = t->def ? JF_TOKEN_OPTION : JF_TOKEN_UNKNOWN;
		} else {
			t->kind = JF_TOKEN_UNKNOWN;
		}
		if (t->kind == JF_TOKEN_UNKNOWN && r->c->by && r->c->by->builtin &&
		    r->c->by->builtin(t->name + 2, &takes_value))
			t->kind = JF_TOKEN_BUILTIN; /* the library's own (jsonargparse's --config) */
		/* `--name value`: the next word, unless it is a flag */
		if (!eq && !t->negated && r->i < w->size &&
		    !(w->items[r->i].value && jf_cmdline_looks_like_option(w->items[r->i].value))) {
			t->values = &w->items[r->i++];
			t->nvalues = 1;
		}
		return true;
	}
	return false;
}

bool jf_cmdline_next_token(jf_token_reader *r, jf_token *t)
{
	switch (r->c->dialect) {
	case JF_DIALECT_ABSL:
		return next_absl(r, t);
	case JF_DIALECT_FIRE:
		return next_fire(r, t);
	default:
		return next_argparse(r, t);
	}
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
