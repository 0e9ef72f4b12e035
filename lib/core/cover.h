/* cover.h - what the checks of one job's lint covered: `jobfix lint --coverage`
 *
 * While a job is linted, the checks say what they covered through the sink
 * (jf_sink_cover_entry(), jf_sink_cover_imports()) and the linter adds the
 * files the lint read: each a line of text, kept with the lint's skipped
 * checks in a jf_cover_job, so that the fact cache and the threads of a
 * batch carry them as they carry the skipped checks. report/coverage.c
 * reads the lines back and renders them. A file linted alone has none.
 */
#ifndef JF_COVER_H
#define JF_COVER_H

#include "core/util.h"

/* How far a check went on one thing (an entry script, a job's imports). */
typedef enum {
	JF_COVER_CHECKED,     /* in full */
	JF_COVER_PARTIAL,     /* with some questions given up, each said by a skip */
	JF_COVER_NOT_CHECKED, /* given up as a whole, for a reason */
	JF_COVER_NOTHING,     /* nothing to check: a script that reads no command line and
	                         is given no arguments */
} jf_cover;

/* What one job's lint covered. */
typedef struct {
	char *job;          /* the job file, as the lint was given it */
	jf_strings covered; /* the lines jf_cover_*() made, in the order said */
	jf_strings skipped; /* the lint's skipped checks, as jf_linter_skipped() words them */
} jf_cover_job;

typedef JF_ARRAY(jf_cover_job) jf_cover_jobs;

/** The line saying that the arguments of entry script `script` were covered as `state`; `why` may be NULL. Caller frees. */
char *jf_cover_entry_line(const char *script, jf_cover state, const char *why);
/** The line saying that the job's imports were covered as `state`: `modules` asked, `open` of them given up. Caller frees. */
char *jf_cover_imports_line(jf_cover state, size_t modules, size_t open, const char *why);
/** The line saying how many Python files and shell scripts the lint read. Caller frees. */
char *jf_cover_files_line(size_t python, size_t shell);

/* A line read back (report/coverage.c): its kind and fields, borrowed from
 * `fields`, which the caller releases. */
typedef enum { JF_COVER_LINE_ENTRY, JF_COVER_LINE_IMPORTS, JF_COVER_LINE_FILES } jf_cover_kind;

typedef struct {
	jf_cover_kind kind;
	jf_cover state;
	const char *script, *why; /* why: NULL when none */
	size_t a, b;              /* imports: modules, open; files: Python, shell */
	jf_strings fields;
} jf_cover_line;

/** Reads `line` into *out; false (and nothing to release) when it is no line of jf_cover_*(). */
bool jf_cover_line_read(const char *line, jf_cover_line *out);
void jf_cover_line_release(jf_cover_line *self);

/** The state's name in the coverage output: "checked", "partial", "not_checked", "nothing". Static. */
const char *jf_cover_name(jf_cover state);

void jf_cover_job_release(jf_cover_job *self);
/** Releases every job of `jobs` and the list. */
void jf_cover_jobs_release(jf_cover_jobs *jobs);

#endif
