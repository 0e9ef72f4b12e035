/* eval.h - Python string expressions evaluated to the value they have when the job runs
 *
 * Literals, f-strings, `+`, `%`, `.format`, `os.path.join`, pathlib's `Path`,
 * `/` and `joinpath`, paths taken apart (`os.path.dirname`, `.parent`,
 * `.parents[n]`) and made normal (`abspath`, `realpath`, `normpath`,
 * `.resolve()`), `__file__` (the file's path in the container: an entry's
 * from where the shell found it, a module's from where it lies in the code
 * folder), module-level constants (a name bound by several module-level
 * statements, in module-level code: the last one before the use),
 * `os.environ[...]`, `os.environ.get` and `os.getenv` with the job's env and
 * the default, and `args.X` of argparse, with the value the job's
 * invocations pass or the default. Anything else is unknown: the evaluation
 * fails rather than guess.
 */
#ifndef JF_PYEVAL_H
#define JF_PYEVAL_H

#include "python/pyfacts.h"
#include "shell/shell.h"
#include "sources/tree.h"

typedef struct {
	char *value;          /* the string; NULL when unknown */
	TSNode origin;        /* the literal its beginning comes from, or a null node; valid
	                       * until the facts settle (facts/facts.h) */
	const jf_file *origin_unit;
	bool through_names;   /* it came through a variable, an argument or the environment */
} jf_pyvalue;

/*
 * A session evaluates any number of expressions of one lint: it indexes each
 * file's names and the job's argparse definitions once, on first use, so an
 * evaluation costs the expression, not the file. It keeps no node across
 * evaluations: the facts may settle between two.
 */
typedef struct jf_pyeval jf_pyeval;

/** A session over the job's Python files (`job` NULL for a file linted alone); all must
 * outlive it. */
jf_pyeval *jf_pyeval_new(const jf_job *job, const jf_pyfiles *files, const jf_shell_facts *shell);
/**
 * A session over the file of `py` alone, as the gather reads it, with the
 * job's environment but not its runs: an expression that reads an argparse
 * value (`args.X`, which needs every file and the runs' arguments) is
 * unknown there, and jf_pyeval_needs_runs() says so.
 */
jf_pyeval *jf_pyeval_new_file(const jf_job *job, const jf_pyfacts *py);
/** Whether the last jf_pyeval_expr() of a jf_pyeval_new_file() session read an argparse value. */
bool jf_pyeval_needs_runs(const jf_pyeval *self);
void jf_pyeval_free(jf_pyeval *self);
/** Evaluates `expr` of `unit`; release the result with jf_pyvalue_release(). */
jf_pyvalue jf_pyeval_expr(jf_pyeval *self, const jf_file *unit, TSNode expr);
void jf_pyvalue_release(jf_pyvalue *v);

#endif
