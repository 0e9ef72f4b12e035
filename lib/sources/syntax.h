/* syntax.h - JF301: a Python or shell file that does not parse, found when it is parsed */
#ifndef JF_SYNTAX_H
#define JF_SYNTAX_H

#include "sources/workspace.h"

/**
 * A copy of `src` (its text, same length and lines) in which the forms that
 * the `lang` grammar rejects and the language accepts are blanked, for a
 * second parse; NULL when the text has none. Caller frees.
 */
char *jf_syntax_gaps_blanked(const jf_source *src, jf_lang lang);
/**
 * For a shell text whose tree has no error: a copy in which the reserved
 * words that a line continuation joins to the command before them are plain
 * words, as bash reads them (tree-sitter-bash takes them as keywords), for a
 * second parse; NULL when it has none. Caller frees.
 */
char *jf_syntax_continued_keywords_blanked(const jf_source *src);

/**
 * Reports JF301 for `file` when it is not valid UTF-8 Python or its tree has
 * an error. `blanked` is the tree of the text with the grammar's gaps blanked
 * (jf_syntax_gaps_blanked), parsed when `file`'s tree has an error, or NULL:
 * only an error that tree keeps is reported. A shell script whose #! line
 * names another shell is not checked: file->syntax_unchecked says why.
 */
void jf_syntax_check(jf_sink *sink, jf_file *file, TSTree *blanked);

#endif
