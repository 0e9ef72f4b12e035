/* suppress.h - inline suppressions (`# jobfix: ignore[JF101]`) and the config's filter
 *
 * After the rules of one lint have run, jf_suppress_finish() reads the
 * suppression comments of every file the lint read (tree-sitter's comment
 * nodes in Python and shell, the YAML comments of the job spec), then drops
 * the lint's findings that the config excludes, switches off or that a
 * suppression covers, gives the rest their configured severity, and reports
 * JF006 (bare or broken suppressions) and JF007 (suppressions that suppressed
 * nothing).
 *
 * Syntax, in a comment: `# jobfix: ignore[ID-OR-NAME, ...]` covers its own
 * line and, when nothing but blanks comes before it on its line, the next
 * line too; `# jobfix: ignore-file[ID-OR-NAME, ...]` anywhere covers the
 * whole file. Text after the `]` is free (a reason).
 */
#ifndef JF_SUPPRESS_H
#define JF_SUPPRESS_H

#include "facts/facts.h"
#include "rules/config.h"

typedef enum {
	JF_DIRECTIVE_NONE,    /* no `jobfix:` directive in the comment */
	JF_DIRECTIVE_IGNORE,  /* ignore[...]: these lines */
	JF_DIRECTIVE_FILE,    /* ignore-file[...]: the whole file */
	JF_DIRECTIVE_BARE,    /* ignore or ignore-file without rules */
	JF_DIRECTIVE_UNCLOSED, /* ignore[... without the closing ']' */
	JF_DIRECTIVE_UNKNOWN, /* `jobfix: something-else` */
} jf_directive_kind;

/* A rule as a suppression names it: bytes [start, end) of the comment text. */
typedef struct {
	uint32_t start, end;
} jf_directive_code;

typedef struct {
	jf_directive_kind kind;
	uint32_t start, end;  /* the directive in the comment text: '#' up to ']' or its word */
	uint32_t word_start, word_end; /* the word after `jobfix:` */
	jf_directive_code codes[32];
	size_t ncodes;        /* rules past the 32nd are dropped */
} jf_directive;

/**
 * Reads the first `jobfix:` directive of comment text[0, len), which starts
 * at its '#': either at the start of the comment or after another '#' in it
 * (`# noqa  # jobfix: ignore[JF101]`). Offsets are relative to `text`.
 */
void jf_directive_parse(const char *text, size_t len, jf_directive *out);

/**
 * The end of a lint: reads the suppressions of the lint's files, filters the
 * findings added since index `first` of the sink's report, reports JF006 and
 * JF007. Call before the trees and the job are freed.
 */
void jf_suppress_finish(const jf_facts *facts, const jf_config *config, jf_sink *out,
                        size_t first);

#endif
