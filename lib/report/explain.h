/* explain.h - the long text of each rule (rules/<id>.md, embedded) and its rendering
 *
 * The public side is in jobfix.h: jf_rule_doc(), jf_rule_explain(),
 * jf_rules_index_markdown(). A rule's file holds exactly the sections of
 * jf_doc_section, in order, each a `## Title` line and a non-empty body;
 * nothing comes before the first one, and `#` lines inside ``` fences are
 * code, not headings. The texts are read once per process, on first use.
 */
#ifndef JF_EXPLAIN_H
#define JF_EXPLAIN_H

#include "core/error.h"
#include "jobfix/jobfix.h"

/**
 * Why `rule`'s text is incomplete or malformed ("rules/JF101.md:12: ..."), or
 * NULL when it is complete. Static, valid for the process.
 */
const char *jf_rule_doc__error(const jf_rule_info *rule);

/**
 * The same check for any text `data` of `len` bytes named `path`, for the
 * tests: 0 when it is well formed, else JF_EPARSE with the message in `err`.
 */
int jf_rule_doc__check(const char *path, const char *data, size_t len, jf_error *err);

#endif
