/* hf_argparser.c - the command line of transformers.HfArgumentParser: dataclass fields as options
 *
 * `HfArgumentParser((ModelArguments, DataArguments, TrainingArguments))`
 * makes one option per init field of each dataclass, as transformers'
 * hf_argparser.py does: `--name` (and `--name-with-dashes`, and the
 * field's `aliases`), the type from the annotation (Optional[X] is X,
 * List[X] takes one or more values, Literal[...] and metadata's "choices"
 * are choices), a bool field takes an optional true/false word (and
 * `--no_name` turns a True default off), a field with no default is
 * required. parse_args_into_dataclasses() stops at a flag no field defines
 * ("Some specified arguments are not used by the HfArgumentParser"), unless
 * it returns the remaining strings.
 *
 * The dataclasses may stand in any module the script imports; one that
 * extends a library's dataclass (transformers.TrainingArguments) whose
 * fields jobfix does not know, or a class chosen at run time, makes the
 * command line open. The common `if len(sys.argv) == 2 and
 * sys.argv[1].endswith(".json"): parser.parse_json_file(...)` reads a
 * config file instead of flags: an invocation whose first word is such a
 * file is not read as flags.
 */
#include <stdlib.h>

#include "python/cmdline.h"

enum {
	DATACLASS = JF_STEP_OWN, /* `@dataclass class text(names...)` */
	FIELD,                   /* a field of dataclass `text`: def */
	PARSER,                  /* HfArgumentParser(names...) at span; flag: names not literal */
	PARSE,                   /* parse_args_into_dataclasses(); flag: remaining strings returned */
	CONFIG_FILE,             /* a parse of the file named by sys.argv[1] (text: its suffix or NULL) */
	SUBCLASS,                /* `class text(HfArgumentParser)` */
	MEMBER,                  /* another name dataclass `object` binds: text (a method, ...) */
	KINDS_END
};

typedef struct {
	const char *name;
	const char *const *bases;
	size_t nbases;
	const jf_file *unit;
	JF_ARRAY(const jf_argdef *) fields;
	JF_ARRAY(const char *) members; /* its methods, properties, class attributes */
} dataclass;

typedef struct {
	JF_ARRAY(dataclass) classes;
	JF_ARRAY(const char *) subclasses; /* local subclasses of HfArgumentParser */
	const jf_cmdline_step *parser;     /* the HfArgumentParser(...) call */
	const jf_file *parser_unit;
	int parsers;
	bool parsed;                       /* parse_args_into_dataclasses() runs */
	bool remaining;                    /* ... and returns the strings it did not use */
	bool config_file;
} state;

static void release(void *data)
{
	state *st = data;
	for (size_t i = 0; i < st->classes.size; i++) {
		jf_array_release(&st->classes.items[i].fields);
		jf_array_release(&st->classes.items[i].members);
	}
	jf_array_release(&st->classes);
	jf_array_release(&st->subclasses);
}

static bool mentions(const jf_file *unit)
{
	return jf_python_mentions(unit, "dataclass") || jf_python_mentions(unit, "ArgumentParser") ||
	       jf_python_mentions(unit, "TrlParser");
}

/* Recording */

/* The last dotted part of callee or decorator `n` as text in the arena: "dataclass" of
 * "dataclasses.dataclass". */
static bool names_last(const jf_file *unit, TSNode n, const char *name)
{
	if (jf_node_type_is(n, JF_T_call))
		n = jf_node_field(n, JF_F_function);
	return jf_cmdline__callee_ends(unit, n, name);
}

/* What an annotation says of an option's values. */
typedef struct {
	jf_argtype type;
	bool optional; /* Optional[X], X | None */
	bool list;     /* List[X]: one or more values */
	bool boolean;  /* bool or Optional[bool] */
	TSNode literal; /* Literal[...]: its node, whose children are the choices */
} annotation;

/* The simple name an annotation node spells, unquoted ("int" of "int" and 'int'). */
static bool spells(const jf_file *unit, TSNode n, const char *name)
{
	if (jf_node_type_is(n, JF_T_type))
		n = ts_node_named_child(n, 0);
	if (jf_node_type_is(n, JF_T_string)) {
		char *s = jf_cmdline__string(unit, n);
		bool same = s && !strcmp(s, name);
		free(s);
		return same;
	}
	if (jf_node_type_is(n, JF_T_attribute))
		n = jf_node_field(n, JF_F_attribute);
	return jf_node_type_is(n, JF_T_identifier) && jf_node_is(unit, n, name);
}

static void read_annotation(const jf_file *unit, TSNode n, annotation *a, int depth);

/* The type parameters of generic `n` (`Optional[X]`: X): in *params, up to `max`. */
static size_t type_params(TSNode n, TSNode *params, size_t max)
{
	size_t count = 0;
	if (jf_node_type_is(n, JF_T_generic_type)) {
		TSNode tp = ts_node_named_child(n, 1);
		for (uint32_t i = 0; !ts_node_is_null(tp) && i < ts_node_named_child_count(tp) && count < max;
		     i++)
			params[count++] = ts_node_named_child(tp, i);
	} else { /* subscript: typing.Optional[X] */
		for (uint32_t i = 0; i < ts_node_named_child_count(n) && count < max; i++) {
			TSNode c = ts_node_named_child(n, i);
			if (!ts_node_eq(c, jf_node_field(n, JF_F_value)))
				params[count++] = c;
		}
	}
	return count;
}

static bool is_none(const jf_file *unit, TSNode n)
{
	if (jf_node_type_is(n, JF_T_type))
		n = ts_node_named_child(n, 0);
	return jf_node_type_is(n, JF_T_none) || spells(unit, n, "None") || spells(unit, n, "NoneType");
}

static void read_annotation(const jf_file *unit, TSNode n, annotation *a, int depth)
{
	if (depth > 8)
		return;
	if (jf_node_type_is(n, JF_T_type))
		n = ts_node_named_child(n, 0);
	static const char *const plain[] = { "str", "int", "float", "bool", NULL };
	for (int i = 0; plain[i]; i++)
		if (spells(unit, n, plain[i])) {
			a->type = (jf_argtype)i;
			a->boolean = i == TYPE_BOOL;
			return;
		}
	if (jf_node_type_is(n, JF_T_binary_operator)) { /* X | None */
		TSNode l = jf_node_field(n, JF_F_left), r = jf_node_field(n, JF_F_right);
		if (is_none(unit, l) || is_none(unit, r)) {
			a->optional = true;
			read_annotation(unit, is_none(unit, l) ? r : l, a, depth + 1);
		}
		return;
	}
	TSNode head = jf_node_type_is(n, JF_T_generic_type) ? ts_node_named_child(n, 0)
	                                                    : jf_node_field(n, JF_F_value);
	if (!jf_node_type_is(n, JF_T_generic_type) && !jf_node_type_is(n, JF_T_subscript))
		return; /* a class, Path, Any, a string of something else: values unchecked */
	TSNode params[4];
	size_t count = type_params(n, params, 4);
	if (spells(unit, head, "Optional") && count == 1) {
		a->optional = true;
		read_annotation(unit, params[0], a, depth + 1);
	} else if (spells(unit, head, "Union") && count == 2 &&
	           (is_none(unit, params[0]) || is_none(unit, params[1]))) {
		a->optional = true;
		read_annotation(unit, is_none(unit, params[0]) ? params[1] : params[0], a, depth + 1);
	} else if ((spells(unit, head, "List") || spells(unit, head, "list")) && count == 1) {
		a->list = true;
		read_annotation(unit, params[0], a, depth + 1);
		a->boolean = false; /* List[bool]: string_to_bool is not used */
		if (a->type == TYPE_BOOL)
			a->type = TYPE_OTHER;
	} else if (spells(unit, head, "Literal")) {
		a->literal = jf_node_type_is(n, JF_T_generic_type) ? ts_node_named_child(n, 1) : n;
	}
}

/* A `field(...)` or `HfArg(...)` default: its keyword `key`'s value, or a null node. */
static TSNode keyword(const jf_file *unit, TSNode call, const char *key)
{
	TSNode args = jf_node_field(call, JF_F_arguments);
	for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
		TSNode a = ts_node_named_child(args, i);
		if (jf_node_type_is(a, JF_T_keyword_argument) &&
		    jf_node_is(unit, jf_node_field(a, JF_F_name), key))
			return jf_node_field(a, JF_F_value);
	}
	return (TSNode){ 0 };
}

/* The value of key `key` of dictionary `dict`, or a null node. */
static TSNode dict_value(const jf_file *unit, TSNode dict, const char *key)
{
	for (uint32_t i = 0; jf_node_type_is(dict, JF_T_dictionary) &&
	                     i < ts_node_named_child_count(dict); i++) {
		TSNode pair = ts_node_named_child(dict, i);
		char *k = jf_cmdline__string(unit, jf_node_field(pair, JF_F_key));
		bool same = k && !strcmp(k, key);
		free(k);
		if (same)
			return jf_node_field(pair, JF_F_value);
	}
	return (TSNode){ 0 };
}

/* Adds the option strings of `aliases` (a string or a list of strings); false when one is
 * not a literal. */
static bool add_aliases(const jf_file *unit, TSNode v, jf_argdef *d)
{
	if (ts_node_is_null(v))
		return true;
	if (jf_node_type_is(v, JF_T_string)) {
		char *s = jf_cmdline__string(unit, v);
		if (s)
			jf_array_push(&d->options, s);
		return s != NULL;
	}
	if (!jf_node_type_is(v, JF_T_list) && !jf_node_type_is(v, JF_T_tuple))
		return false;
	for (uint32_t i = 0; i < ts_node_named_child_count(v); i++) {
		char *s = jf_cmdline__string(unit, ts_node_named_child(v, i));
		if (!s)
			return false;
		jf_array_push(&d->options, s);
	}
	return true;
}

/* One annotated assignment of a dataclass's body: its option(s). */
static void record_field(jf_cmdline_recorder *r, const char *cls, TSNode as)
{
	const jf_file *unit = r->unit;
	TSNode left = jf_node_field(as, JF_F_left), type = jf_node_field(as, JF_F_type);
	TSNode right = jf_node_field(as, JF_F_right);
	if (!jf_node_type_is(left, JF_T_identifier) || ts_node_is_null(type))
		return; /* not a field */
	TSNode t = jf_node_type_is(type, JF_T_type) ? ts_node_named_child(type, 0) : type;
	TSNode head = jf_node_type_is(t, JF_T_generic_type) ? ts_node_named_child(t, 0)
	                                                    : jf_node_field(t, JF_F_value);
	if (spells(unit, t, "ClassVar") || spells(unit, head, "ClassVar") ||
	    spells(unit, head, "InitVar"))
		return;
	char *name = jf_node_text(unit, left);
	bool is_field = jf_node_type_is(right, JF_T_call) &&
	                (names_last(unit, right, "field") || names_last(unit, right, "HfArg"));
	TSNode deflt = is_field ? keyword(unit, right, "default") : right;
	TSNode factory = is_field ? keyword(unit, right, "default_factory") : (TSNode){ 0 };
	TSNode init = is_field ? keyword(unit, right, "init") : (TSNode){ 0 };
	TSNode metadata = is_field ? keyword(unit, right, "metadata") : (TSNode){ 0 };
	if (jf_node_type_is(init, JF_T_false)) {
		free(name);
		return; /* not an argument of __init__, so no option */
	}
	annotation a = { .type = TYPE_OTHER };
	read_annotation(unit, type, &a, 0);
	jf_argdef d = { .command = JF_CMDLINE_MAIN, .unit = unit, .span = jf_node_span(as),
		        .type = a.type, .dest = jf_xstrdup(name) };
	jf_array_push(&d.options, jf_xasprintf("--%s", name));
	if (strchr(name, '_')) { /* --learning-rate too (newer transformers) */
		char *dashed = jf_xasprintf("--%s", name);
		for (char *p = dashed + 2; *p; p++)
			*p = *p == '_' ? '-' : *p;
		jf_array_push(&d.options, dashed);
	}
	bool readable = add_aliases(unit, is_field ? keyword(unit, right, "aliases") : (TSNode){ 0 },
	                            &d) &&
	                add_aliases(unit, dict_value(unit, metadata, "aliases"), &d);
	bool has_default = !ts_node_is_null(deflt) || !ts_node_is_null(factory);
	if (!ts_node_is_null(deflt))
		d.default_at = jf_node_ref_of(deflt);
	TSNode choices = dict_value(unit, metadata, "choices");
	if (!ts_node_is_null(a.literal)) {
		jf_cmdline__read_choices(unit, a.literal, &d);
		d.type = d.choices_known ? TYPE_STR : TYPE_OTHER; /* compared as their str() */
	} else if (!ts_node_is_null(choices)) {
		jf_cmdline__read_choices(unit, choices, &d);
	}
	bool default_true = jf_node_type_is(deflt, JF_T_true);
	if (a.boolean) {
		/* string_to_bool: yes/no, true/false, t/f, y/n, 1/0; with a
		 * default (always for a plain bool) the word may be left out */
		d.type = TYPE_BOOL_WORD;
		bool given = !ts_node_is_null(deflt) && !jf_node_type_is(deflt, JF_T_none);
		d.nargs = !a.optional || given ? NARGS_OPTIONAL : NARGS_ONE;
	} else {
		d.nargs = a.list ? NARGS_SOME : NARGS_ONE;
		d.required = !has_default;
	}
	if (!readable) {
		jf_cmdline__def_release(&d);
		jf_cmdline__step_unread(r, FIELD, name, cls);
		return;
	}
	jf_cmdline__step_argument(r, FIELD, &d, cls);
	if (a.boolean && default_true) { /* --no_name, --no-name */
		jf_argdef no = { .command = JF_CMDLINE_MAIN, .unit = unit, .span = jf_node_span(as),
			         .act = ACT_FLAG, .type = TYPE_BOOL, .dest = jf_xstrdup(name) };
		jf_array_push(&no.options, jf_xasprintf("--no_%s", name));
		jf_array_push(&no.options, jf_xasprintf("--no-%s", name));
		jf_cmdline__step_argument(r, FIELD, &no, cls);
	}
	free(name);
}

/* Whether decorated definition `n` is a class under @dataclass. */
static bool is_dataclass(const jf_file *unit, TSNode n)
{
	for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
		TSNode dec = ts_node_named_child(n, i);
		if (jf_node_type_is(dec, JF_T_decorator) &&
		    names_last(unit, ts_node_named_child(dec, 0), "dataclass"))
			return true;
	}
	return false;
}

/* The texts of the superclasses of class definition `def`, in the arena. */
static const char **bases_of(jf_cmdline_recorder *r, TSNode def, size_t *n)
{
	TSNode sup = jf_node_field(def, JF_F_superclasses);
	JF_ARRAY(const char *) bases = { 0 };
	for (uint32_t i = 0; !ts_node_is_null(sup) && i < ts_node_named_child_count(sup); i++) {
		TSNode b = ts_node_named_child(sup, i);
		if (!jf_node_type_is(b, JF_T_keyword_argument)) /* metaclass=... */
			jf_array_push(&bases, jf_node_text_in(r->arena, r->unit, b));
	}
	*n = bases.size;
	jf_arena_adopt(r->arena, bases.items);
	return bases.items;
}

static void record_class(jf_cmdline_recorder *r, TSNode def, bool dataclass_too)
{
	const jf_file *unit = r->unit;
	const char *name = jf_node_text_in(r->arena, unit, jf_node_field(def, JF_F_name));
	size_t nbases;
	const char **bases = bases_of(r, def, &nbases);
	for (size_t i = 0; i < nbases; i++)
		if (!strcmp(bases[i], "HfArgumentParser") ||
		    !strcmp(bases[i], "transformers.HfArgumentParser"))
			jf_cmdline__step(r, SUBCLASS)->text = name;
	if (!dataclass_too)
		return;
	jf_cmdline_step *s = jf_cmdline__step(r, DATACLASS);
	s->text = name;
	s->names = bases;
	s->count = nbases;
	s->span = jf_node_span(def);
	TSNode body = jf_node_field(def, JF_F_body);
	for (uint32_t i = 0; !ts_node_is_null(body) && i < ts_node_named_child_count(body); i++) {
		TSNode stmt = ts_node_named_child(body, i);
		TSNode as = ts_node_named_child(stmt, 0);
		if (jf_node_type_is(stmt, JF_T_expression_statement) &&
		    jf_node_type_is(as, JF_T_assignment) &&
		    !ts_node_is_null(jf_node_field(as, JF_F_type))) {
			record_field(r, name, as);
			continue;
		}
		/* its methods, properties and class attributes: attributes of an instance */
		TSNode inner = jf_node_type_is(stmt, JF_T_decorated_definition)
		                       ? jf_node_field(stmt, JF_F_definition)
		                       : stmt;
		TSNode member = jf_node_type_is(inner, JF_T_function_definition) ||
		                                jf_node_type_is(inner, JF_T_class_definition)
		                        ? jf_node_field(inner, JF_F_name)
		                : jf_node_type_is(as, JF_T_assignment) ? jf_node_field(as, JF_F_left)
		                                                       : (TSNode){ 0 };
		if (jf_node_type_is(member, JF_T_identifier)) {
			jf_cmdline_step *m = jf_cmdline__step(r, MEMBER);
			m->object = name;
			m->text = jf_node_text_in(r->arena, unit, member);
		}
	}
}

/* Whether callee `fn` makes an HfArgumentParser, or may (`XArgumentParser`, a
 * subclass the job's code or a library defines: TrlParser). */
static bool is_parser_class(const jf_file *unit, TSNode fn)
{
	TSNode name = jf_node_type_is(fn, JF_T_attribute) ? jf_node_field(fn, JF_F_attribute) : fn;
	if (!jf_node_type_is(name, JF_T_identifier))
		return false;
	uint32_t a = ts_node_start_byte(name), b = ts_node_end_byte(name);
	const char *text = unit->src->data + a;
	size_t n = b - a, suffix = sizeof "ArgumentParser" - 1;
	return (n > suffix && !memcmp(text + n - suffix, "ArgumentParser", suffix)) ||
	       jf_node_is(unit, name, "TrlParser");
}

/* The class names of HfArgumentParser's first argument: `(A, B)`, `[A, B]` or `A`;
 * the parser's class, when another, as text. */
static void record_parser(jf_cmdline_recorder *r, TSNode call, TSNode fn)
{
	TSNode args = jf_node_field(call, JF_F_arguments);
	TSNode first = ts_node_named_child(args, 0);
	jf_cmdline_step *s = jf_cmdline__step(r, PARSER);
	s->span = jf_node_span(call);
	TSNode cls = jf_node_type_is(fn, JF_T_attribute) ? jf_node_field(fn, JF_F_attribute) : fn;
	if (!jf_node_is(r->unit, cls, "HfArgumentParser"))
		s->text = jf_node_text_in(r->arena, r->unit, cls);
	JF_ARRAY(const char *) names = { 0 };
	if (jf_node_type_is(first, JF_T_keyword_argument) &&
	    jf_node_is(r->unit, jf_node_field(first, JF_F_name), "dataclass_types"))
		first = jf_node_field(first, JF_F_value);
	if (jf_node_type_is(first, JF_T_tuple) || jf_node_type_is(first, JF_T_list) ||
	    jf_node_type_is(first, JF_T_parenthesized_expression)) {
		for (uint32_t i = 0; i < ts_node_named_child_count(first); i++) {
			TSNode c = ts_node_named_child(first, i);
			if (jf_node_type_is(c, JF_T_comment))
				continue;
			if (!jf_node_type_is(c, JF_T_identifier) && !jf_node_type_is(c, JF_T_attribute))
				s->flag = true;
			jf_array_push(&names, jf_node_text_in(r->arena, r->unit, c));
		}
	} else if (jf_node_type_is(first, JF_T_identifier) || jf_node_type_is(first, JF_T_attribute)) {
		jf_array_push(&names, jf_node_text_in(r->arena, r->unit, first));
	} else {
		s->flag = true; /* computed */
	}
	s->names = names.items;
	s->count = names.size;
	jf_arena_adopt(r->arena, names.items);
}

/* Whether the text of `n` reads sys.argv[1]; how many times it reads sys.argv in *reads. */
static bool reads_first_word(const jf_file *unit, TSNode n, int *reads)
{
	const char *text = unit->src->data;
	uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
	bool first = false;
	*reads = 0;
	for (const char *p = text + a; p < text + b && (p = strstr(p, "sys.argv")) && p < text + b;
	     p += 8) {
		(*reads)++;
		first |= !strncmp(p + 8, "[1]", 3);
	}
	return first;
}

static void record_call(jf_cmdline_recorder *r, const jf_py_node *pn)
{
	const jf_file *unit = r->unit;
	TSNode fn = pn->a;
	if (is_parser_class(unit, fn)) {
		record_parser(r, pn->node, fn);
		return;
	}
	if (jf_cmdline__calls_method(unit, fn, "parse_args_into_dataclasses")) {
		TSNode remaining = keyword(unit, pn->node, "return_remaining_strings");
		TSNode args = keyword(unit, pn->node, "args");
		jf_cmdline_step *s = jf_cmdline__step(r, PARSE);
		s->flag = !ts_node_is_null(remaining) && !jf_node_type_is(remaining, JF_T_false);
		if (!ts_node_is_null(args) ||
		    (ts_node_named_child_count(pn->b) > 0 &&
		     !jf_node_type_is(ts_node_named_child(pn->b, 0), JF_T_keyword_argument)))
			jf_cmdline__step_open(r, "parse_args_into_dataclasses() parses a list of its own");
		return;
	}
	/* parser.parse_json_file(os.path.abspath(sys.argv[1])), parse_yaml_file, ... */
	int reads;
	if (jf_node_type_is(fn, JF_T_attribute) &&
	    jf_str_starts(jf_node_text_in(r->arena, unit, jf_node_field(fn, JF_F_attribute)), "parse_") &&
	    reads_first_word(unit, pn->b, &reads)) {
		jf_cmdline_step *s = jf_cmdline__step(r, CONFIG_FILE);
		s->text = jf_cmdline__calls_method(unit, fn, "parse_json_file") ? ".json" : NULL;
		jf_cmdline__step(r, JF_STEP_ARGV_PARSES)->how = (uint8_t)(reads < 255 ? reads : 255);
	}
}

static void record(jf_cmdline_recorder *r, const jf_py_node *pn)
{
	if (pn->kind == JF_PY_CALL) {
		record_call(r, pn);
	} else if (pn->kind == JF_PY_DECORATED) {
		TSNode def = jf_node_field(pn->node, JF_F_definition);
		if (jf_node_type_is(def, JF_T_class_definition))
			record_class(r, def, is_dataclass(r->unit, pn->node));
	} else if (pn->kind == JF_PY_CLASS &&
	           !jf_node_type_is(ts_node_parent(pn->node), JF_T_decorated_definition)) {
		record_class(r, pn->node, false); /* class X(HfArgumentParser): */
	}
}

/* Replaying */

static dataclass *find_class(state *st, const char *name, const jf_file *prefer, int *count)
{
	dataclass *found = NULL;
	*count = 0;
	for (size_t i = 0; i < st->classes.size; i++)
		if (!strcmp(st->classes.items[i].name, name)) {
			if (!found || st->classes.items[i].unit == prefer)
				found = &st->classes.items[i];
			(*count)++;
		}
	if (found && found->unit == prefer)
		*count = 1; /* the one of the file that uses it */
	return found;
}

static void replay(jf_cmdline *c, const jf_file *unit, const jf_cmdline_step *s)
{
	state *st = jf_cmdline__state(c, &jf_parser_hf_argparser, sizeof *st);
	switch (s->kind) {
	case DATACLASS: {
		dataclass d = { s->text, s->names, s->count, unit, { 0 }, { 0 } };
		jf_array_push(&st->classes, d);
		break;
	}
	case FIELD:
		for (size_t i = st->classes.size; i-- > 0;)
			if (st->classes.items[i].unit == unit && !strcmp(st->classes.items[i].name, s->object)) {
				jf_array_push(&st->classes.items[i].fields, s->def);
				break;
			}
		break;
	case PARSER:
		if (!st->parsers++) {
			st->parser = s;
			st->parser_unit = unit;
		}
		break;
	case PARSE:
		st->parsed = true;
		st->remaining |= s->flag;
		break;
	case CONFIG_FILE:
		st->config_file = true;
		break;
	case SUBCLASS:
		jf_array_push(&st->subclasses, s->text);
		break;
	case MEMBER:
		for (size_t i = st->classes.size; i-- > 0;)
			if (st->classes.items[i].unit == unit && !strcmp(st->classes.items[i].name, s->object)) {
				jf_array_push(&st->classes.items[i].members, s->text);
				break;
			}
		break;
	}
}

/* The last dotted part of `name`. */
static const char *last_part(const char *name)
{
	const char *dot = strrchr(name, '.');
	return dot ? dot + 1 : name;
}

/* Whether `name` is one of transformers' argument dataclasses. */
static bool library_class(const char *name)
{
	const char *last = last_part(name);
	return (!strchr(name, '.') || jf_str_starts(name, "transformers.")) &&
	       (!strcmp(last, "TrainingArguments") || !strcmp(last, "Seq2SeqTrainingArguments"));
}

/* Adds the fields of dataclass `name` (its bases' first) to `c`; false, with
 * c->open set, when one cannot be known. `self` is the class whose base it
 * is (a class of that name is the library's then), or NULL. */
static bool add_fields(jf_cmdline *c, state *st, const char *name, const jf_file *prefer,
                       const char *self, int depth)
{
	int count;
	bool dotted = strchr(name, '.') != NULL;
	dataclass *d = dotted && library_class(name) ? NULL
	               : self && !strcmp(last_part(name), self) ? NULL
	                                                        : find_class(st, last_part(name), prefer, &count);
	if (!d && library_class(name)) {
		if (!jf_strings_have(&c->library, last_part(name)))
			jf_array_push(&c->library, jf_xstrdup(last_part(name)));
		return true; /* the check adds the fields of the job's transformers */
	}
	if (!d || depth > 16) {
		c->open = "it reads its options from a dataclass that is not defined in the job's "
		          "code (a library's, or one chosen at run time)";
		return false;
	}
	if (count > 1) {
		c->open = "it reads its options from a dataclass that several files define";
		return false;
	}
	for (size_t i = 0; i < d->nbases; i++) {
		const char *base = last_part(d->bases[i]);
		if (!strcmp(base, "object") || !strcmp(base, "ABC") || !strcmp(base, "Generic"))
			continue;
		if (!add_fields(c, st, d->bases[i], d->unit, d->name, depth + 1))
			return false;
	}
	for (size_t i = 0; i < d->fields.size; i++) {
		const jf_argdef *f = d->fields.items[i];
		if (f->unread) {
			c->open = "a field of its dataclasses has option strings jobfix cannot read";
			return false;
		}
		/* a field a subclass defines again replaces the base's */
		for (size_t k = 0; k < c->args.size; k++)
			if (c->args.items[k].parser == f->parser && !strcmp(c->args.items[k].dest, f->dest) &&
			    c->args.items[k].act == f->act) {
				jf_cmdline__def_release(&c->args.items[k]);
				c->args.items[k] = c->args.items[--c->args.size];
				break;
			}
		jf_cmdline__add(c, f);
	}
	return true;
}

/* Adds to `attrs` the attributes an instance of dataclass `name` has: its
 * fields, methods and class attributes, and its bases'. False when a base
 * is not a dataclass of the job's code, or one defines __getattr__. */
static bool instance_attrs(state *st, const char *name, const jf_file *prefer, const char *self,
                           jf_strings *attrs, int depth)
{
	int count;
	dataclass *d = self && !strcmp(last_part(name), self)
	                       ? NULL
	                       : find_class(st, last_part(name), prefer, &count);
	if (!d || depth > 16 || count > 1)
		return false;
	bool whole = true;
	for (size_t i = 0; i < d->nbases; i++) {
		const char *base = last_part(d->bases[i]);
		if (strcmp(base, "object") && strcmp(base, "ABC"))
			whole &= instance_attrs(st, d->bases[i], d->unit, d->name, attrs, depth + 1);
	}
	for (size_t i = 0; i < d->fields.size; i++)
		if (!jf_strings_have(attrs, d->fields.items[i]->dest))
			jf_array_push(attrs, jf_xstrdup(d->fields.items[i]->dest));
	for (size_t i = 0; i < d->members.size; i++) {
		whole &= strcmp(d->members.items[i], "__getattr__") != 0;
		if (!jf_strings_have(attrs, d->members.items[i]))
			jf_array_push(attrs, jf_xstrdup(d->members.items[i]));
	}
	return whole;
}

static bool finish(jf_cmdline *c, const jf_pyfiles *files, const jf_pyfacts *entry)
{
	(void)files;
	(void)entry;
	state *st = c->state ? c->state[JF_PARSER_hf_argparser] : NULL;
	if (!st || !st->parser)
		return false;
	if (!st->parsed) {
		if (!st->config_file)
			c->open = "its HfArgumentParser parses no command line where jobfix can see";
		return false;
	}
	bool subclass = !st->parser->text;
	for (size_t i = 0; i < st->subclasses.size && !subclass; i++)
		subclass = !strcmp(st->subclasses.items[i], st->parser->text);
	if (!subclass)
		c->open = "its parser is a subclass of HfArgumentParser that jobfix does not know";
	else if (st->parsers > 1)
		c->open = "it makes more than one HfArgumentParser";
	else if (st->parser->flag)
		c->open = "its HfArgumentParser takes dataclasses chosen at run time";
	for (size_t i = 0; i < st->parser->count && !c->open; i++)
		add_fields(c, st, st->parser->names[i], st->parser_unit, NULL, 0);
	for (size_t i = 0; i < st->parser->count && !c->open; i++) {
		struct jf_cmdline_dataclass dc = { jf_xstrdup(last_part(st->parser->names[i])), { 0 }, true };
		dc.whole = instance_attrs(st, st->parser->names[i], st->parser_unit, NULL, &dc.attrs, 0);
		jf_array_push(&c->dataclasses, dc);
	}
	c->parsers++;
	c->dialect = JF_DIALECT_ARGPARSE;
	c->result = JF_RESULT_DATACLASSES;
	c->duplicates_fail = true; /* it is an ArgumentParser */
	if (st->remaining)
		c->tolerant = "parse_args_into_dataclasses(return_remaining_strings=True)";
	c->config_first_word = st->config_file;
	c->unit = st->parser_unit;
	c->span = st->parser->span;
	return true;
}

const jf_cmdline_parser jf_parser_hf_argparser = {
	.name = "HfArgumentParser",
	.mentions = mentions,
	.record = record,
	.replay = replay,
	.own_kinds = KINDS_END - JF_STEP_OWN,
	.finish = finish,
	.release = release,
};
