/* syspath.h - the folders a Python file puts on sys.path, evaluated
 *
 * `sys.path.insert(i, x)`, `sys.path.append(x)`, `sys.path.extend([x, y])`,
 * `sys.path += [x]` and `site.addsitedir(x)`, with `x` evaluated by the
 * evaluator (python/eval.h) on the file alone with the job's environment:
 * `os.path.join(os.path.dirname(__file__), "..")`,
 * `str(Path(__file__).resolve().parents[1])`, "./SentEval". A value is a
 * folder of the container, or relative to the folder the process runs in
 * (as Python reads a relative entry of sys.path): the caller places it.
 * Any other change (`sys.path = ...`, `sys.path[:0] = ...`) is an edit
 * whose folders are not known.
 */
#ifndef JF_SYSPATH_H
#define JF_SYSPATH_H

#include "job/job.h"
#include "python/pyfacts.h"

typedef struct {
	jf_span at;     /* the call or statement */
	char *text;     /* the call as written, on one line and shortened */
	char *value;    /* the folder it adds; NULL when not known */
	bool first;     /* `sys.path.insert(0, x)`: before the script's folder */
} jf_syspath_edit;

typedef JF_ARRAY(jf_syspath_edit) jf_syspath_edits;

/**
 * Appends the changes to sys.path of `py` (a file of `job`), in source
 * order, each added folder its own edit, to `out`; release them with
 * jf_syspath_edits_release().
 */
void jf_py_syspath_edits(const jf_job *job, const jf_pyfacts *py, jf_syspath_edits *out);
void jf_syspath_edits_release(jf_syspath_edits *self);

#endif
