/* jsonargparse.c - the command line of jsonargparse.CLI(fn): a function's parameters as options
 *
 * `CLI(main)` (or `auto_cli(main)`) calls `main` with the command line: a
 * parameter with a default is `--name value` (or `--name=value`), one
 * without is required and may be given as a positional word, in order;
 * `--config FILE` and `--print_config` are jsonargparse's own. A flag no
 * parameter names stops the script with a usage error.
 *
 * Precision first: CLI() of the whole module, of a class, of several
 * functions (subcommands), or of a function another module defines makes
 * the command line open; values are not checked (jsonargparse validates
 * them against the annotations, which jobfix does not read here).
 * jsonargparse's ArgumentParser and its add_class_arguments() are not read:
 * a file that takes part in the command line and names jsonargparse
 * otherwise leaves it open (python/cmdline.c).
 */
#include <stdlib.h>

#include "python/cmdline.h"

enum {
	CALL = JF_STEP_OWN, /* CLI(text) at span */
	PARAM,              /* a parameter of the function: def */
	KINDS_END
};

static bool mentions(const jf_file *unit)
{
	return jf_python_mentions(unit, "jsonargparse");
}

/* Whether callee `fn` is jsonargparse's CLI or auto_cli. */
static bool is_cli(const jf_file *unit, TSNode fn)
{
	return jf_cmdline__callee_ends(unit, fn, "CLI") || jf_cmdline__callee_ends(unit, fn, "auto_cli");
}

static void record_cli(jf_cmdline_recorder *r, const jf_py_node *pn)
{
	TSNode target = ts_node_named_child(pn->b, 0);
	if (jf_node_type_is(target, JF_T_keyword_argument) &&
	    jf_node_is(r->unit, jf_node_field(target, JF_F_name), "components"))
		target = jf_node_field(target, JF_F_value);
	jf_cmdline__step(r, CALL)->span = jf_node_span(pn->node);
	size_t at = r->steps.size - 1; /* the steps below move it */
	if (!jf_node_type_is(target, JF_T_identifier)) {
		jf_cmdline__step_open(r, ts_node_is_null(target)
		                                 ? "jsonargparse's CLI() makes the module's functions commands"
		                                 : "jsonargparse's CLI() gets something other than a function");
		return;
	}
	TSNode def = jf_cmdline__top_definition(r->py, target);
	if (!jf_node_type_is(def, JF_T_function_definition)) {
		jf_cmdline__step_open(r, jf_node_type_is(def, JF_T_class_definition)
		                                 ? "jsonargparse's CLI() of a class reads its methods too"
		                                 : "jsonargparse's CLI() calls a function another module "
		                                   "defines");
		return;
	}
	int kwargs = jf_cmdline__record_params(r, def, PARAM);
	if (kwargs < 0)
		jf_cmdline__step_open(r, "jsonargparse's CLI() calls a function of too many parameters");
	r->steps.items[at].flag = kwargs > 0;
}

static void record(jf_cmdline_recorder *r, const jf_py_node *pn)
{
	if (pn->kind == JF_PY_CALL && is_cli(r->unit, pn->a))
		record_cli(r, pn);
}

static void replay(jf_cmdline *c, const jf_file *unit, const jf_cmdline_step *s)
{
	jf_cmdline__call_replay(c, &jf_parser_jsonargparse, unit, s, CALL);
}

/* jsonargparse's own options: --config and --print_config take a value (or
 * none, for --print_config), -h and --help none. */
static bool builtin(const char *name, bool *takes_value)
{
	*takes_value = !strcmp(name, "config");
	return *takes_value || !strcmp(name, "print_config") || !strcmp(name, "help") ||
	       !strcmp(name, "h");
}

static bool finish(jf_cmdline *c, const jf_pyfiles *files, const jf_pyfacts *entry)
{
	(void)files;
	(void)entry;
	return jf_cmdline__call_finish(c, JF_PARSER_jsonargparse, "it calls jsonargparse's CLI() more than once");
}

const jf_cmdline_parser jf_parser_jsonargparse = {
	.name = "jsonargparse",
	.mentions = mentions,
	.record = record,
	.replay = replay,
	.own_kinds = KINDS_END - JF_STEP_OWN,
	.finish = finish,
	.builtin = builtin,
};
