/* fire.c - the command line of python-fire: fire.Fire(fn) makes fn's parameters its flags
 *
 * `fire.Fire(train)` calls `train` with the command line: each parameter is
 * `--name` (`--name-with-dashes` too), given a value with `--name v` or
 * `--name=v`, True by `--name` alone and False by `--noname`; words that
 * are no flag fill the parameters in order; a parameter without default
 * must be given. A flag no parameter names stops the run ("Could not
 * consume arg"), unless the function takes **kwargs. Values are Python
 * literals or strings: fire checks no type.
 *
 * Precision first: fire.Fire() of the whole module, of a class (its methods
 * are commands), of a dict, or of a function another module defines makes
 * the command line open.
 */
#include <stdlib.h>

#include "python/cmdline.h"

enum {
	FIRE = JF_STEP_OWN, /* fire.Fire(text) at span */
	PARAM,              /* a parameter of the function: def */
	KINDS_END
};

static bool mentions(const jf_file *unit)
{
	return jf_python_mentions(unit, "Fire");
}

static void record_fire(jf_cmdline_recorder *r, const jf_py_node *pn)
{
	TSNode args = pn->b, target = ts_node_named_child(args, 0);
	if (jf_node_type_is(target, JF_T_keyword_argument) &&
	    jf_node_is(r->unit, jf_node_field(target, JF_F_name), "component"))
		target = jf_node_field(target, JF_F_value);
	jf_cmdline_step *s = jf_cmdline__step(r, FIRE);
	s->span = jf_node_span(pn->node);
	if (!jf_node_type_is(target, JF_T_identifier) || jf_node_type_is(target, JF_T_keyword_argument)) {
		jf_cmdline__step_open(r, ts_node_is_null(target)
		                                 ? "fire.Fire() makes the whole module its command line"
		                                 : "fire.Fire() gets something other than a function");
		return;
	}
	s->text = jf_node_text_in(r->arena, r->unit, target);
	TSNode def = jf_cmdline__top_definition(r->py, target);
	if (jf_node_type_is(def, JF_T_class_definition)) {
		jf_cmdline__step_open(r, "fire.Fire() of a class makes its methods commands");
		return;
	}
	if (!jf_node_type_is(def, JF_T_function_definition)) {
		jf_cmdline__step_open(r, "fire.Fire() calls a function another module defines");
		return;
	}
	size_t at = r->steps.size - 1; /* the steps below move `s` */
	int kwargs = jf_cmdline__record_params(r, def, PARAM);
	if (kwargs < 0)
		jf_cmdline__step_open(r, "fire.Fire() calls a function of too many parameters");
	r->steps.items[at].flag = kwargs > 0; /* **kwargs: any flag */
}

static void record(jf_cmdline_recorder *r, const jf_py_node *pn)
{
	if (pn->kind == JF_PY_CALL && jf_cmdline__callee_ends(r->unit, pn->a, "Fire"))
		record_fire(r, pn);
}

static void replay(jf_cmdline *c, const jf_file *unit, const jf_cmdline_step *s)
{
	jf_cmdline__call_replay(c, &jf_parser_fire, unit, s, FIRE);
}

static bool finish(jf_cmdline *c, const jf_pyfiles *files, const jf_pyfacts *entry)
{
	(void)files;
	(void)entry;
	return jf_cmdline__call_finish(c, JF_PARSER_fire, "it calls fire.Fire() more than once");
}

const jf_cmdline_parser jf_parser_fire = {
	.name = "fire",
	.mentions = mentions,
	.record = record,
	.replay = replay,
	.own_kinds = KINDS_END - JF_STEP_OWN,
	.finish = finish,
};
