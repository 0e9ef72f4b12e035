/* syntax.h - JF301: a Python or shell file that does not parse, found when it is parsed */
#ifndef JF_SYNTAX_H
#define JF_SYNTAX_H

#include "sources/workspace.h"

/** Reports JF301 for `file` when it is not valid UTF-8 Python or its tree has an error. */
void jf_syntax_check(jf_sink *sink, const jf_file *file);

#endif
