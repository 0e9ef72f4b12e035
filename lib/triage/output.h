/* output.h - triage results, linked to a job or not, written as text, json or sarif */
#ifndef JF_TRIAGE_OUTPUT_H
#define JF_TRIAGE_OUTPUT_H

#include "core/util.h"
#include "triage/analyze.h"

/* A finding of the job's lint that would have caught the failure before it ran. */
typedef struct {
	const char *rule;     /* JF302, static */
	const char *name;     /* "unknown-flag", static */
	const char *severity; /* static */
	char *file;           /* as the lint shows it */
	unsigned line, column;
	char *message;
} jf_triage_finding;

typedef struct {
	jf_triage_result r;
	char *code_file; /* the user frame's file in the job's code, as shown; NULL: not found */
	unsigned code_line;
	bool has_finding;
	jf_triage_finding finding;
} jf_triage_entry;

void jf_triage_entry_release(jf_triage_entry *e);

/** Appends `entries` to `b` in `format` ("text", "json", "sarif"); `linked`: --job was given. */
void jf_triage_render(const jf_triage_entry *entries, size_t n, bool linked, const char *format,
                      jf_buf *b);

/** What the study's root cause `code` ("CPE") means, or NULL. */
const char *jf_triage_cause_name(const char *code);

#endif
