/* absl.c - the command line of absl flags (tf.app.flags too): DEFINE_*, app.run, FLAGS(sys.argv)
 *
 * absl's app.run and FLAGS(sys.argv) stop at a flag nobody defines; TF 1.x's
 * tf.app.run drops it and runs on. Flags may be defined in any module the
 * script imports. Precision first: a definition jobfix cannot read whole (a
 * computed name, another FlagValues, flags defined by helpers such as
 * ml_collections' config_flags, adopted key flags) makes the command line
 * open.
 */
#include <stdlib.h>

#include "python/cmdline.h"

enum {
	ABSL = JF_STEP_OWN, /* absl flags are defined or parsed */
	REQUIRED,           /* mark_flag_as_required(text) */
	FLAGS_PARSE,        /* flags parsed at span, `how`; flag: a second way opens the line */
	KINDS_END
};

/* How the flags reach the script (a step's `how`). */
enum {
	UNPARSED,   /* no parse seen: jobfix cannot tell */
	STRICT,     /* absl app.run, FLAGS(sys.argv): unknown flags stop the script */
	KNOWN_ONLY, /* TF 1.x tf.app.run: unknown flags are dropped */
};

typedef struct {
	bool absl;                 /* absl flags are defined or parsed */
	uint8_t parse;             /* UNPARSED, STRICT or KNOWN_ONLY */
	JF_ARRAY(char *) required; /* names given to mark_flag(s)_as_required() */
	const jf_file *unit;       /* where the flags are first parsed */
	jf_span span;
} state;

static void release(void *data)
{
	state *st = data;
	for (size_t i = 0; i < st->required.size; i++)
		free(st->required.items[i]);
	jf_array_release(&st->required);
}

static bool mentions(const jf_file *unit)
{
	static const char *const spelled[] = { "DEFINE", "mark_flag", "adopt_module_key_flags",
		                               "declare_key_flag", "app.run", "FLAGS", NULL };
	for (size_t i = 0; spelled[i]; i++)
		if (jf_python_mentions(unit, spelled[i]))
			return true;
	return false;
}

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

static bool builtin(const char *name, bool *takes_value)
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

/* Whether `name` is bound to the absl flags module in `unit` under a name of
 * its own: `from absl import flags as absl_flags`, `flags_lib = tf.flags`. */
static bool flags_alias(const jf_file *unit, const char *name)
{
	char pat[96];
	snprintf(pat, sizeof pat, "import flags as %s", name);
	if (jf_python_mentions(unit, pat))
		return true;
	for (size_t i = 0; flags_modules[i]; i++) {
		snprintf(pat, sizeof pat, "%s = %s\n", name, flags_modules[i]);
		if (strstr(unit->src->data, pat))
			return true;
	}
	return false;
}

/* config_flags.DEFINE_config_file("config", ...): the flag --config and its
 * fields --config.<field>; false when its name is not a literal. */
static bool read_config_flag(const jf_file *unit, TSNode call, jf_argdef *d)
{
	TSNode args = jf_node_field(call, JF_F_arguments);
	TSNode first = ts_node_named_child(args, 0);
	if (jf_node_type_is(first, JF_T_keyword_argument))
		first = jf_node_field(first, JF_F_value);
	d->dest = jf_cmdline__string(unit, first);
	if (!d->dest)
		return false;
	d->act = ACT_STORE;
	d->type = TYPE_OTHER;
	d->unit = unit;
	d->span = jf_node_span(call);
	jf_array_push(&d->options, jf_xasprintf("--%s", d->dest));
	jf_array_push(&d->options, jf_xasprintf("--%s.", d->dest));
	d->prefixed = true;
	return true;
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
		} else if (kw ? jf_node_is(unit, k, "default") : pos == 1) {
			d->default_at = jf_node_ref_of(v);
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
			jf_cmdline__step(r, REQUIRED)->text = jf_arena_strdup(r->arena, s);
			free(s);
		}
		return;
	}
	char *s = list ? NULL : jf_cmdline__string(unit, v);
	if (s)
		jf_cmdline__step(r, REQUIRED)->text = jf_arena_strdup(r->arena, s);
	else
		jf_cmdline__step_open(r, "a required flag is named at run time");
	free(s);
}

/* Where the flags are parsed: app.run(main), tf.app.run(), FLAGS(sys.argv). */
static void read_parse(jf_cmdline_recorder *r, TSNode call, uint8_t how)
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
	jf_cmdline_step *s = jf_cmdline__step(r, FLAGS_PARSE);
	s->how = how;
	s->span = jf_node_span(call);
	s->flag = true; /* parsed another way too: open */
}

/* FLAGS(sys.argv): strict; FLAGS(argv, known_only=True) or another list: open. */
static void read_flags_call(jf_cmdline_recorder *r, TSNode call)
{
	TSNode args = jf_node_field(call, JF_F_arguments);
	TSNode a = ts_node_named_child(args, 0);
	jf_cmdline__step(r, ABSL);
	if (ts_node_named_child_count(args) != 1 || !jf_node_type_is(a, JF_T_attribute) ||
	    !jf_node_is(r->unit, a, "sys.argv")) {
		jf_cmdline__step_open(r, "FLAGS(...) parses a list of its own");
		return;
	}
	jf_cmdline__step(r, JF_STEP_ARGV_PARSES);
	jf_cmdline_step *s = jf_cmdline__step(r, FLAGS_PARSE);
	s->how = STRICT;
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
	bool flags_obj = absl_fn && (dot ? jf_str_in(callee, flags_modules) || flags_alias(unit, callee)
	                                 : imports_from(unit, "absl.flags", fn));
	if (dot && jf_str_starts(fn, "DEFINE_config_") && !strcmp(callee, "config_flags")) {
		/* ml_collections: --name (a file or a dict) and --name.<field>=value */
		jf_argdef d = { .command = -1 };
		jf_cmdline__step(r, ABSL);
		if (read_config_flag(unit, call, &d)) {
			jf_cmdline__step_argument(r, JF_STEP_ARGUMENT, &d, NULL);
		} else {
			jf_cmdline__def_release(&d);
			jf_cmdline__step_open(r, "a config flag is defined in a way jobfix cannot read");
		}
	} else if (jf_str_starts(fn, "DEFINE")) {
		size_t kind = 0, nkinds = sizeof absl_kinds / sizeof *absl_kinds;
		while (kind < nkinds && strcmp(absl_kinds[kind].name, fn))
			kind++;
		jf_argdef d = { .command = -1 };
		jf_cmdline__step(r, ABSL);
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
			read_parse(r, call, KNOWN_ONLY);
		else if (!strcmp(callee, "absl.app.run") ||
		         (!strcmp(callee, "app.run") && imports_from(unit, "absl", "app")))
			read_parse(r, call, STRICT);
	} else if (!strcmp(fn, "FLAGS") && (!dot || flags_obj)) {
		read_flags_call(r, call);
	}
	free(callee);
}

static void record(jf_cmdline_recorder *r, const jf_py_node *pn)
{
	if (pn->kind == JF_PY_CALL)
		record_absl_call(r, pn->node, pn->a);
}

static void replay(jf_cmdline *c, const jf_file *unit, const jf_cmdline_step *s)
{
	state *st = jf_cmdline__state(c, &jf_parser_absl, sizeof *st);
	switch (s->kind) {
	case ABSL:
		st->absl = true;
		break;
	case REQUIRED:
		jf_array_push(&st->required, jf_xstrdup(s->text));
		break;
	case FLAGS_PARSE:
		st->absl = true;
		if (st->parse == UNPARSED) {
			st->parse = s->how;
			st->unit = unit;
			st->span = s->span;
		} else if (s->flag && st->parse != s->how) {
			c->open = "its flags are parsed in more than one way";
		}
		break;
	}
}

static bool finish(jf_cmdline *c, const jf_pyfiles *files, const jf_pyfacts *entry)
{
	(void)files;
	(void)entry;
	state *st = c->state ? c->state[JF_PARSER_absl] : NULL;
	if (!st)
		return false;
	for (size_t i = 0; i < st->required.size; i++) {
		bool found = false;
		for (size_t k = 0; k < c->args.size; k++)
			if (c->args.items[k].dest && !strcmp(c->args.items[k].dest, st->required.items[i])) {
				c->args.items[k].required = true;
				found = true;
			}
		if (!found)
			c->open = "it requires a flag some library defines";
	}
	if (!st->absl)
		return false;
	if (st->parse == UNPARSED)
		c->open = "its absl flags are never parsed where jobfix can see";
	c->dialect = JF_DIALECT_ABSL;
	c->unknown = st->parse == KNOWN_ONLY ? JF_UNKNOWN_DROPPED : JF_UNKNOWN_FAILS;
	c->result = JF_RESULT_FLAGS;
	c->unit = st->unit;
	c->span = st->span;
	return true;
}

const jf_cmdline_parser jf_parser_absl = {
	.name = "absl",
	.mentions = mentions,
	.record = record,
	.replay = replay,
	.own_kinds = KINDS_END - JF_STEP_OWN,
	.finish = finish,
	.release = release,
	.builtin = builtin,
};
