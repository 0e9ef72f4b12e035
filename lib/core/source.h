/* source.h - a file's bytes, its line map and position conversion
 *
 * Positions are byte offsets everywhere inside jobfix. They are turned into
 * 1-based line and column (columns count characters: UTF-8 code points, an
 * invalid byte counts as one) only when a diagnostic is rendered, by
 * jf_source_pos(). Tree-sitter nodes give byte offsets themselves; zero-based
 * libyaml marks (a line and a column in characters) enter through exactly
 * one function, jf_source_byte_from_yaml().
 */
#ifndef JF_SOURCE_H
#define JF_SOURCE_H

#include "core/util.h"

typedef enum { JF_LANG_NONE, JF_LANG_YAML, JF_LANG_PYTHON, JF_LANG_BASH, JF_LANG_COUNT } jf_lang;

typedef struct {
	uint32_t byte;
	uint32_t line, col; /* 1-based; col in characters */
} jf_pos;

typedef struct {
	uint32_t start, end; /* byte offsets, end exclusive */
} jf_span;

typedef enum {
	JF_SOURCE_OK,
	JF_SOURCE_MISSING,   /* does not exist */
	JF_SOURCE_DIR,       /* a directory where a file is expected */
	JF_SOURCE_UNREADABLE,
	JF_SOURCE_BINARY,    /* holds NUL bytes */
	JF_SOURCE_TOO_LARGE,
	JF_SOURCE_OUTSIDE,   /* its real path leaves the lint's roots (core/confine.h) */
} jf_source_status;

typedef struct jf_source {
	char *path;          /* as shown in diagnostics */
	char *fs_path;       /* as read on this machine; NULL for a copy made from a string */
	char *data;          /* NUL-terminated; empty unless status is OK */
	uint32_t len;
	uint32_t *lines;     /* byte offset of each line start */
	uint32_t nlines;
	jf_source_status status;
	int err;             /* errno for UNREADABLE; 0: not a regular file */
	bool from_file;      /* made by jf_source_load(): `data` are the bytes of fs_path */
	/* A copy of a value of another file (a YAML string whose escapes or
	 * folding make it differ from the file's bytes): positions in the copy
	 * have no place in that file, so findings are reported at the value.
	 * With `same_offsets`, a copy of the whole file rewritten in place, the
	 * same length and lines (Azure ML's ${{...}}, job/azureml.c): a place in
	 * the copy is the same place in the file, shown with the file's text. */
	const struct jf_source *origin;
	jf_span origin_span;
	bool same_offsets;
} jf_source;

typedef JF_ARRAY(jf_source *) jf_sources;

#define JF_SOURCE_MAX_BYTES (8u << 20)

/**
 * Reads `fs_path` into a new source shown as `display_path`. Never fails:
 * problems are recorded in `status`. Caller frees with jf_source_free().
 */
jf_source *jf_source_load(const char *fs_path, const char *display_path);
/** A source over a copy of `data`; caller frees with jf_source_free(). */
jf_source *jf_source_from_string(const char *display_path, const char *data, size_t len);
/**
 * A copy of `data`, the value at `at` of `origin`: findings anywhere in the
 * copy are reported at `at` (see jf_source.origin). Caller frees with
 * jf_source_free(); `origin` must outlive it.
 */
jf_source *jf_source_from_value(const jf_source *origin, jf_span at, const char *data, size_t len);
/**
 * A copy of `origin` with its bytes replaced by `data` (origin->len bytes, the
 * same line breaks): findings in the copy are shown at the same places in
 * `origin`. Caller frees with jf_source_free(); `origin` must outlive it.
 */
jf_source *jf_source_from_rewrite(const jf_source *origin, const char *data);
/** Where a place (`*src`, `*span`) is shown: in a copy, the place in the file it copies. */
void jf_source_shown(const jf_source **src, jf_span *span);
/** The length of the UTF-8 byte-order mark `self` starts with: 3, or 0 when none. */
uint32_t jf_source_bom(const jf_source *self);
/** Why `self` was not read, to follow "cannot read 'x': " (static text). */
const char *jf_source_why(const jf_source *self);
/** What to do about it, for a finding's help (static text), or NULL. */
const char *jf_source_help(const jf_source *self);
void jf_source_free(jf_source *self);
/** Frees every source of `list` and the list. */
void jf_sources_release(jf_sources *list);

/** The position of byte offset `byte` (clamped to the file). */
jf_pos jf_source_pos(const jf_source *self, uint32_t byte);
/** The position of `byte` in `len` bytes of `text` that have no jf_source (a query file). */
jf_pos jf_text_pos(const char *text, uint32_t len, uint32_t byte);
/** The 0-based line holding `byte`. */
uint32_t jf_source_line_of(const jf_source *self, uint32_t byte);
/** Start and end (without the newline) of 0-based line `line`. */
jf_span jf_source_line_span(const jf_source *self, uint32_t line);
/** Byte offset of a 0-based (row, column-in-characters) pair, as libyaml marks count. */
uint32_t jf_source_byte_from_yaml(const jf_source *self, size_t line, size_t column);
/** The first byte at or after `from` that is not valid UTF-8, or UINT32_MAX. */
uint32_t jf_source_invalid_utf8(const jf_source *self, uint32_t from);

#endif
