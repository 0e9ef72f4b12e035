/* cmdline_flags.c - absl flags (tf.app.flags too) and click commands, read into a jf_cmdline
 *
 * cmdline.c reads argparse; this file reads the two other common ways a
 * training script declares its command line, and how the script parses it:
 * absl's app.run and FLAGS(sys.argv) stop at an unknown flag, TF 1.x's
 * tf.app.run drops it, click's standalone call stops at it. jf_flags__record
 * sees every call and decorated definition of every file cmdline.c records; jf_flags__finish
 * resolves what needs them all.
 *
 * Precision first, as in cmdline.c: a definition jobfix cannot read whole
 * (a computed name, another FlagValues, flags defined by helpers such as
 * ml_collections' config_flags, click groups, custom decorators, context
 * settings) makes the command line open.
 */
#include <stdlib.h>

#include "python/cmdline.h"

/* The absl flags module as scripts spell it. */
static const char *const flags_modules[] = {
	"flags", "absl.flags", "tf.app.flags", "tf.compat.v1.flags", "tf.flags",
	"tensorflow.compat.v1.flags", "tensorflow.app.flags", "tf.compat.v1.app.flags", NULL,
};

/* TF 1.x's run: it parses with known_only=True. */
static const char *const tf_runs[] = {
	"tf.app.run", "tf.compat.v1.app.run", "tensorflow.app.run", "tensorflow.compat.v1.app.run",
	NULL,
};

static const struct {
	const char *name;
	jf_action act;
	jf_argtype type;
	bool enum_values; /* its third positional argument lists the choices */
} absl_kinds[] = {
	{ "DEFINE_string", ACT_STORE, TYPE_STR, false },
	{ "DEFINE_integer", ACT_STORE, TYPE_INT, false },
	{ "DEFINE_float", ACT_STORE, TYPE_FLOAT, false },
	{ "DEFINE_bool", ACT_FLAG, TYPE_BOOL, false },
	{ "DEFINE_boolean", ACT_FLAG, TYPE_BOOL, false },
	{ "DEFINE_enum", ACT_STORE, TYPE_STR, true },
	{ "DEFINE_enum_class", ACT_STORE, TYPE_OTHER, false },
	{ "DEFINE_list", ACT_STORE, TYPE_STR, false },
	{ "DEFINE_spaceseplist", ACT_STORE, TYPE_STR, false },
	{ "DEFINE_multi_string", ACT_APPEND, TYPE_STR, false },
	{ "DEFINE_multi_integer", ACT_APPEND, TYPE_INT, false },
	{ "DEFINE_multi_float", ACT_APPEND, TYPE_FLOAT, false },
	{ "DEFINE_multi_enum", ACT_APPEND, TYPE_STR, true },
	{ "DEFINE_multi_enum_class", ACT_APPEND, TYPE_OTHER, false },
};

/* The flags absl.app and absl.logging define; those after the NULL take a value. */
static const char *const builtin_switches[] = {
	"help", "helpshort", "helpfull", "helpxml", "?", "only_check_args", "pdb_post_mortem",
	"pdb", "run_with_pdb", "run_with_profiling", "use_cprofile_for_profiling", "logtostderr",
	"alsologtostderr", "showprefixforinfo", NULL,
};
static const char *const builtin_valued[] = {
	"flagfile", "undefok", "profile_file", "log_dir", "v", "verbosity", "stderrthreshold",
	"logger_levels", NULL,
};

bool jf_flags__builtin(const char *name, bool *takes_value)
{
	*takes_value = jf_str_in(name, builtin_valued);
	return *takes_value || jf_str_in(name, builtin_switches);
}

/* The callee `fn` of a call as written ("tf.app.flags.DEFINE_string"); caller frees. */
static char *callee_text(const jf_file *unit, TSNode fn)
{
	if (!jf_node_type_is(fn, JF_T_attribute) && !jf_node_type_is(fn, JF_T_identifier))
		return NULL;
	return jf_node_text(unit, fn);
}

/* Whether `unit` has `from <module> import ... name ...` on one line. */
static bool imports_from(const jf_file *unit, const char *module, const char *name)
{
	char pat[64];
	snprintf(pat, sizeof pat, "from %s import ", module);
	for (const char *p = strstr(unit->src->data, pat); p; p = strstr(p + 1, pat)) {
		const char *q = p + strlen(pat), *eol = strchr(q, '\n');
		size_t n = strlen(name);
		for (; *q && (!eol || q < eol); q++)
			if (!strncmp(q, name, n) && (q[n] == ',' || q[n] == ' ' || q[n] == '\n' ||
			                             q[n] == '\r' || q[n] == ')' || !q[n]) &&
			    (q[-1] == ' ' || q[-1] == ',' || q[-1] == '('))
				return true;
	}
	return false;
}

/* One flags.DEFINE_<kind>(...) call; false when it is not literal enough to read. */
static bool read_absl_flag(const jf_file *unit, TSNode call, size_t kind, jf_argdef *d)
{
	TSNode args = jf_node_field(call, JF_F_arguments);
	uint32_t n = ts_node_named_child_count(args), pos = 0;
	d->act = absl_kinds[kind].act;
	d->type = absl_kinds[kind].type;
	d->unit = unit;
	d->span = jf_node_span(call);
	for (uint32_t i = 0; i < n; i++) {
		TSNode a = ts_node_named_child(args, i);
		if (jf_node_type_is(a, JF_T_comment))
			continue;
		if (jf_node_type_is(a, JF_T_list_splat) || jf_node_type_is(a, JF_T_dictionary_splat))
			return false;
		TSNode k = jf_node_field(a, JF_F_name), v = jf_node_field(a, JF_F_value);
		bool kw = jf_node_type_is(a, JF_T_keyword_argument);
		if (!kw)
			v = a;
		if (kw ? jf_node_is(unit, k, "name") : pos == 0) {
			if (!(d->dest = jf_cmdline__string(unit, v)))
				return false;
			jf_array_push(&d->options, jf_xasprintf("--%s", d->dest));
		} else if (absl_kinds[kind].enum_values &&
		           (kw ? jf_node_is(unit, k, "enum_values") : pos == 2)) {
			jf_cmdline__read_choices(unit, v, d);
		} else if (kw && jf_node_is(unit, k, "short_name")) {
			char *s = jf_cmdline__string(unit, v);
			if (!s)
				return false;
			jf_array_push(&d->options, jf_xasprintf("--%s", s));
			free(s);
		} else if (kw && jf_node_is(unit, k, "required")) {
			d->required = jf_node_type_is(v, JF_T_true);
		} else if (kw && jf_node_is(unit, k, "case_sensitive") && !jf_node_type_is(v, JF_T_true)) {
			d->choices_known = false;
			d->type = TYPE_OTHER;
		} else if (kw && (jf_node_is(unit, k, "flag_values") || jf_node_is(unit, k, "parser") ||
		                  jf_node_is(unit, k, "serializer"))) {
			return false; /* another FlagValues, or parsing jobfix does not know */
		}
		if (!kw)
			pos++;
	}
	return d->dest != NULL;
}

/* flags.mark_flag_as_required('x'), flags.mark_flags_as_required(['x', 'y']). */
static void read_required(jf_cmdline_recorder *r, TSNode call, bool list)
{
	const jf_file *unit = r->unit;
	TSNode v = ts_node_named_child(jf_node_field(call, JF_F_arguments), 0);
	if (list && (jf_node_type_is(v, JF_T_list) || jf_node_type_is(v, JF_T_tuple))) {
		for (uint32_t i = 0; i < ts_node_named_child_count(v); i++) {
			char *s = jf_cmdline__string(unit, ts_node_named_child(v, i));
			if (!s) {
				jf_cmdline__step_open(r, "a required flag is named at run time");
				return;
			}
			jf_cmdline__step(r, JF_STEP_REQUIRED)->text = jf_arena_strdup(r->arena, s);
			free(s);
		}
		return;
	}
	char *s = list ? NULL : jf_cmdline__string(unit, v);
	if (s)
		jf_cmdline__step(r, JF_STEP_REQUIRED)->text = jf_arena_strdup(r->arena, s);
	else
		jf_cmdline__step_open(r, "a required flag is named at run time");
	free(s);
}

/* Where the flags are parsed: app.run(main), tf.app.run(), FLAGS(sys.argv). */
static void read_parse(jf_cmdline_recorder *r, TSNode call, jf_flags_parse how)
{
	const jf_file *unit = r->unit;
	TSNode args = jf_node_field(call, JF_F_arguments);
	for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
		TSNode a = ts_node_named_child(args, i);
		TSNode k = jf_node_field(a, JF_F_name);
		if ((jf_node_type_is(a, JF_T_keyword_argument) && !jf_node_is(unit, k, "main")) ||
		    (!jf_node_type_is(a, JF_T_keyword_argument) && i > 0))
			jf_cmdline__step_open(r, "app.run parses another argv or with another parser");
	}
	jf_cmdline_step *s = jf_cmdline__step(r, JF_STEP_FLAGS_PARSE);
	s->how = how;
	s->span = jf_node_span(call);
	s->flag = true; /* parsed another way too: open */
}

/* FLAGS(sys.argv): strict; FLAGS(argv, known_only=True) or another list: open. */
static void read_flags_call(jf_cmdline_recorder *r, TSNode call)
{
	TSNode args = jf_node_field(call, JF_F_arguments);
	TSNode a = ts_node_named_child(args, 0);
	jf_cmdline__step(r, JF_STEP_ABSL);
	if (ts_node_named_child_count(args) != 1 || !jf_node_type_is(a, JF_T_attribute) ||
	    !jf_node_is(r->unit, a, "sys.argv")) {
		jf_cmdline__step_open(r, "FLAGS(...) parses a list of its own");
		return;
	}
	jf_cmdline__step(r, JF_STEP_ARGV_PARSES);
	jf_cmdline_step *s = jf_cmdline__step(r, JF_STEP_FLAGS_PARSE);
	s->how = JF_FLAGS_STRICT;
	s->span = jf_node_span(call);
}

/* Whether the text of callee `fn` after its last '.' could be one of absl's
 * functions, FLAGS, or a run: a test that spares the callee's copy. */
static bool may_be_absl(const jf_file *unit, TSNode fn)
{
	static const char *const names[] = { "mark_flag_as_required", "mark_flags_as_required",
		                             "adopt_module_key_flags", "declare_key_flag", "run",
		                             "FLAGS", NULL };
	const char *a = unit->src->data + ts_node_start_byte(fn);
	const char *b = unit->src->data + ts_node_end_byte(fn);
	const char *last = b;
	while (last > a && last[-1] != '.')
		last--;
	return (b - last >= 6 && !memcmp(last, "DEFINE", 6)) ||
	       jf_strn_in(last, (size_t)(b - last), names);
}

static void record_absl_call(jf_cmdline_recorder *r, TSNode call, TSNode callee_node)
{
	const jf_file *unit = r->unit;
	if (ts_node_is_null(callee_node) || !may_be_absl(unit, callee_node))
		return;
	char *callee = callee_text(unit, callee_node);
	if (!callee)
		return;
	char *dot = strrchr(callee, '.');
	const char *fn = dot ? dot + 1 : callee;
	if (dot)
		*dot = '\0';
	/* Only absl's own functions need the (file-wide) import lookup. */
	static const char *const absl_fns[] = { "mark_flag_as_required", "mark_flags_as_required",
		                                "adopt_module_key_flags", "declare_key_flag", NULL };
	bool absl_fn = jf_str_starts(fn, "DEFINE") || jf_str_in(fn, absl_fns);
	bool flags_obj = absl_fn && (dot ? jf_str_in(callee, flags_modules)
	                                 : imports_from(unit, "absl.flags", fn));
	if (jf_str_starts(fn, "DEFINE")) {
		size_t kind = 0, nkinds = sizeof absl_kinds / sizeof *absl_kinds;
		while (kind < nkinds && strcmp(absl_kinds[kind].name, fn))
			kind++;
		jf_argdef d = { .command = -1 };
		jf_cmdline__step(r, JF_STEP_ABSL);
		if (flags_obj && kind < nkinds && read_absl_flag(unit, call, kind, &d)) {
			jf_cmdline__step_argument(r, JF_STEP_ARGUMENT, &d, NULL);
		} else {
			jf_cmdline__def_release(&d);
			jf_cmdline__step_open(r, "a flag is defined in a way jobfix cannot read (an alias, "
			                         "a config file, another module)");
		}
	} else if (flags_obj && !strcmp(fn, "mark_flag_as_required")) {
		read_required(r, call, false);
	} else if (flags_obj && !strcmp(fn, "mark_flags_as_required")) {
		read_required(r, call, true);
	} else if (flags_obj && (!strcmp(fn, "adopt_module_key_flags") ||
	                         !strcmp(fn, "declare_key_flag"))) {
		jf_cmdline__step_open(r, "it adopts the flags of another module");
	} else if (!strcmp(fn, "run") && dot) {
		*dot = '.';
		if (jf_str_in(callee, tf_runs))
			read_parse(r, call, JF_FLAGS_KNOWN_ONLY);
		else if (!strcmp(callee, "absl.app.run") ||
		         (!strcmp(callee, "app.run") && imports_from(unit, "absl", "app")))
			read_parse(r, call, JF_FLAGS_STRICT);
	} else if (!strcmp(fn, "FLAGS") && (!dot || flags_obj)) {
		read_flags_call(r, call);
	}
	free(callee);
}

/* click */

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
		} else if (jf_node_is(unit, k, "default") || jf_node_is(unit, k, "envvar") ||
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
	if (option)
		return d->options.size > 0;
	if (d->nargs == NARGS_ANY && d->required)
		d->nargs = NARGS_SOME;
	else if (d->nargs == NARGS_ONE && !d->required)
		d->nargs = NARGS_OPTIONAL;
	return d->dest != NULL;
}

/* @click.version_option(...), @click.help_option(...): a switch named by its
 * dash strings, or `name` when it has none. */
static void add_click_switch(jf_cmdline_recorder *r, TSNode call, const char *name)
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
	jf_cmdline__step_argument(r, JF_STEP_ARGUMENT, &d, NULL);
}

/* A function under @click.command(): its options and arguments. */
static void record_click(jf_cmdline_recorder *r, TSNode decorated)
{
	const jf_file *unit = r->unit;
	static const char *const plain[] = { "click.pass_context", "click.pass_obj", NULL };
	TSNode def = jf_node_field(decorated, JF_F_definition);
	bool command = false, other = false;
	uint32_t n = ts_node_named_child_count(decorated);
	JF_ARRAY(TSNode) params = { 0 };
	for (uint32_t i = 0; i < n; i++) {
		TSNode dec = ts_node_named_child(decorated, i);
		if (!jf_node_type_is(dec, JF_T_decorator))
			continue;
		TSNode e = ts_node_named_child(dec, 0);
		TSNode fn = jf_node_type_is(e, JF_T_call) ? jf_node_field(e, JF_F_function) : e;
		char *name = jf_node_text(unit, fn);
		if (!strcmp(name, "click.command")) {
			command = true;
			TSNode args = jf_node_field(e, JF_F_arguments);
			for (uint32_t k = 0; k < ts_node_named_child_count(args); k++)
				if (jf_node_type_is(ts_node_named_child(args, k), JF_T_keyword_argument))
					other = true; /* context_settings, cls, add_help_option */
			jf_cmdline_step *s = jf_cmdline__step(r, JF_STEP_CLICK_COMMAND);
			s->span = jf_node_span(dec);
			s->text = jf_node_text_in(r->arena, unit, jf_node_field(def, JF_F_name));
		} else if (!strcmp(name, "click.group")) {
			jf_cmdline__step_open(r, "it is a click group");
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
	if (!command) {
		jf_array_release(&params);
		return;
	}
	if (other)
		jf_cmdline__step_open(r, "its click command is not read whole");
	bool help = true;
	for (size_t i = 0; i < params.size; i++) {
		TSNode call = params.items[i];
		TSNode fn = jf_node_field(call, JF_F_function);
		if (jf_node_is(unit, fn, "click.version_option")) {
			add_click_switch(r, call, "--version");
			continue;
		}
		if (jf_node_is(unit, fn, "click.help_option")) {
			add_click_switch(r, call, "--help");
			help = false;
			continue;
		}
		jf_argdef d = { .command = -1 };
		if (read_click_param(unit, call, !jf_node_is(unit, fn, "click.argument"), &d)) {
			jf_cmdline__step_argument(r, JF_STEP_ARGUMENT, &d, NULL);
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
		jf_cmdline__step_argument(r, JF_STEP_ARGUMENT, &d, NULL);
	}
	jf_array_release(&params);
}

void jf_flags__record(jf_cmdline_recorder *r, const jf_py_node *pn)
{
	if (pn->kind == JF_PY_CALL)
		record_absl_call(r, pn->node, pn->a);
	else if (pn->kind == JF_PY_DECORATED)
		record_click(r, pn->node);
}

/* Whether `entry` calls the click command `fn` as the program: fn() or fn(keywords). */
static bool click_called(jf_cmdline *c, const jf_pyfacts *py)
{
	const jf_file *entry = py->file;
	bool called = false;
	for (size_t j = 0; j < py->of_kind[JF_PY_CALL].size; j++) {
		TSNode n = jf_pyfacts_at(py, JF_PY_CALL, j)->node;
		TSNode fn = jf_node_field(n, JF_F_function);
		if (jf_node_type_is(fn, JF_T_identifier) && jf_node_is(entry, fn, c->click_fn)) {
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

void jf_flags__finish(jf_cmdline *c, const jf_pyfacts *entry)
{
	for (size_t i = 0; i < c->required.size; i++) {
		bool found = false;
		for (size_t k = 0; k < c->args.size; k++)
			if (c->args.items[k].dest && !strcmp(c->args.items[k].dest, c->required.items[i])) {
				c->args.items[k].required = true;
				found = true;
			}
		if (!found)
			c->open = "it requires a flag some library defines";
	}
	if (c->absl && c->flags_parse == JF_FLAGS_UNPARSED)
		c->open = "its absl flags are never parsed where jobfix can see";
	if (c->click_commands > 1 || (c->click_commands && !click_called(c, entry)))
		c->open = "its click commands are not called where jobfix can see";
	if (c->click_commands) {
		c->allow_abbrev = false;
		c->unit = c->click_unit;
		c->span = c->click_span;
	}
}
