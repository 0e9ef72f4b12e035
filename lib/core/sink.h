/* sink.h - where the stages of a lint put their findings
 *
 * Every stage (the job reader, the workspace, the shell, the rules) reports
 * by rule id into a jf_sink; the linter behind it resolves the id to the rule
 * as the lint's config sees it, so no stage needs to know the rule table.
 * An id is written as the name the generated rule_ids.h gives it (JF102,
 * tools/rule_ids.cmake), not as a string: a misspelt one does not compile.
 * A finding in a copy of a value (jf_source_from_value) is reported at the
 * value. A check that cannot run for want of facts says so with
 * jf_sink_skip() (shown by --verbose).
 */
#ifndef JF_SINK_H
#define JF_SINK_H

#include "core/cover.h"
#include "core/diag.h"
#include "rule_ids.h"

typedef struct jf_sink {
	jf_report *report;
	/* The rule with id `id`, as `data` (the lint's config) sees it. */
	const jf_rule *(*rule)(const void *data, const char *id);
	const void *data;
	/* Messages of the checks skipped so far, each once (owned by the linter). */
	jf_strings *skipped;
	const char *job; /* the job file linted, named in those messages; NULL: a file alone */
	/* What the checks covered (core/cover.h), owned by the linter; NULL: not kept. */
	jf_strings *covered;
} jf_sink;

/**
 * Reports a finding of rule `rule_id` at `span` of `src`, with the rule's
 * severity. Returns it; valid until the next finding is added. An unknown
 * rule id is a bug.
 */
jf_diag *jf_sink_add(jf_sink *self, const char *rule_id, const jf_source *src, jf_span span,
                     const char *fmt, ...) JF_PRINTF(5, 6);
/** JF005 at the top of `src`, a file that was not read: why (jf_source_why), with the help. */
void jf_sink_not_linted(jf_sink *self, const jf_source *src);
/** Notes that `rule_id`'s check was skipped, and how to enable it; once per message. */
void jf_sink_skip(jf_sink *self, const char *rule_id, const char *fmt, ...) JF_PRINTF(3, 4);
/**
 * Says what the arguments check covered of entry script `script` (as shown):
 * `state`, and why when it is not JF_COVER_CHECKED (NULL: no reason). A
 * script said twice keeps the first.
 */
void jf_sink_cover_entry(jf_sink *self, const char *script, jf_cover state, const char *why);
/** Says what the imports check covered of the job: `modules` asked, `open` of them given up. */
void jf_sink_cover_imports(jf_sink *self, jf_cover state, size_t modules, size_t open,
                           const char *why);
/** Moves the messages of `from` after those skipped so far, each once; empties `from`. */
void jf_sink_skips_move(jf_sink *self, jf_strings *from);
/** The finding of `rule_id` already reported at `span` of `src`, or NULL. */
jf_diag *jf_sink_find(jf_sink *self, const char *rule_id, const jf_source *src, jf_span span);

#endif
