/* run.h - running the rules over the facts of one lint */
#ifndef JF_RULES_RUN_H
#define JF_RULES_RUN_H

#include "core/error.h"
#include "rules/checks.h"
#include "rules/matcher.h"

/**
 * Runs every rule the config enables (jf_config__rules()): the matches of
 * the rule queries in each file of the workspace, from `matcher` (begun for
 * this lint; a file not added yet is added), file by file, then the C
 * checks, each once, with the records the gather took for them (`records`).
 * Findings go into `out`. Returns 0, or JF_EQUERY (with the message in
 * `err`) when a rule's query does not compile.
 */
int jf_rules_run(const jf_facts *facts, const jf_records *records, const jf_config *config,
                 jf_matcher *matcher, jf_sink *out, jf_error *err);

#endif
