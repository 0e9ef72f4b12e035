/* imports.h - following the imports of the job's Python files to local modules (private to facts/) */
#ifndef JF_FACTS_IMPORTS_H
#define JF_FACTS_IMPORTS_H

#include "facts/facts.h"

/** The facts of Python file `file`, made on first use. */
jf_pyfacts *jf_facts__python(jf_facts *self, const jf_file *file);
/** Loads the local modules the workspace's Python files import, and theirs in turn. */
void jf_imports_follow(const jf_job *job, jf_workspace *ws, jf_facts *facts);

#endif
