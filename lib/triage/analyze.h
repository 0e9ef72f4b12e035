/* analyze.h - one failed job's log read line by line into what ended it
 *
 * Every line is cleaned (log.h) and matched against the patterns (patterns.h). The line of
 * the highest rank wins; of equal ranks the first (the first rank to fail). A line that
 * `explains` the winner's category, at most EXPLAINS_LINES before it, is reported in its
 * place. Python
 * tracebacks are followed per rank label, so interleaved ranks keep their own frames: the
 * winner gets the frames of the traceback it ends (or that ended just before it), and its
 * user frame is the innermost one outside the libraries. When no pattern matches (or only a
 * launcher's wrapper does), the last line that reads as a failure is reported as Unknown:
 * the exception line a traceback ends with, else an exception line of its own, else a line
 * with an error word (`jf_triage_basis`).
 *
 * Memory is bounded: one line, the frames of one traceback per rank label (at most
 * FRAMES_MAX each, for at most RANKS_MAX labels), the winner and a few explaining lines.
 */
#ifndef JF_TRIAGE_ANALYZE_H
#define JF_TRIAGE_ANALYZE_H

#include <stdbool.h>
#include <stdint.h>

#include "triage/patterns.h"

typedef struct {
	char *file;
	unsigned line;
	char *function;
} jf_triage_frame;

/* Why the failure line was chosen. */
typedef enum {
	JF_BASIS_NONE,
	JF_BASIS_ERROR_WORD,   /* no pattern: the last line with an error word */
	JF_BASIS_EXCEPTION,    /* no pattern: the last exception line, with no traceback */
	JF_BASIS_TRACEBACK_END, /* no pattern: the last exception line a traceback ends with */
	JF_BASIS_PATTERN,      /* a pattern of data/triage.yaml matches it */
} jf_triage_basis;

typedef struct {
	char *log;                            /* as named: a path, or "-" */
	char *error;                          /* why the log could not be read; then only `log` */
	uint64_t lines;                       /* read */
	bool found;                           /* a failure message was found */
	uint64_t line;                        /* its line in the log, from 1 */
	char *message;                        /* that line, cleaned, valid UTF-8, at most 400 bytes */
	const jf_triage_pattern *pattern;     /* NULL: not a known message */
	jf_triage_basis basis;                /* why `line` was chosen */
	const jf_triage_category *category;   /* never NULL once read: Unknown at worst */
	jf_retry retry;
	const char *why;                      /* the retry's reason, static */
	const char *stage;                    /* "setup", "initialisation", "training", "evaluation",
	                                         "checkpointing", or NULL: not told */
	char *progress;                       /* "epoch 3, step 1200", or NULL */
	int64_t elapsed;                      /* seconds from the log's first time to the failure, -1 */
	bool has_frame;
	jf_triage_frame frame; /* the user frame */
} jf_triage_result;

/** Reads the log at `path` ("-": standard input) into *out (zeroed first). */
void jf_triage_analyze(const char *path, jf_triage_result *out);
void jf_triage_result_release(jf_triage_result *r);

/** Whether a traceback's file is a library's (site-packages, the standard library, ...). */
bool jf_triage_library_file(const char *path);

#endif
