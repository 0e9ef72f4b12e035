/* jsonw.h - a small writer of indented JSON, one member a line, for the json, sarif and
 * statistics renderers
 *
 * A jf_jsonw writes into a jf_buf and remembers only how deep it is and
 * whether the innermost object or array has a member yet; it checks nothing.
 * Open and close brackets in pairs. A member's value may also be written
 * straight into `b` after jf_jsonw_member(), e.g. a short object kept on one
 * line: {"startLine": 3, "startColumn": 1}. Keys and strings are NUL-terminated
 * and escaped as jf_buf_add_json_str() does.
 */
#ifndef JF_JSONW_H
#define JF_JSONW_H

#include "core/util.h"

typedef struct {
	jf_buf *b;
	int depth;  /* of the innermost open object or array */
	bool first; /* nothing written yet in the innermost object or array */
} jf_jsonw;

/** Appends `s` as a JSON string literal, quotes included. */
void jf_jsonw_quote(jf_buf *b, const char *s);

/** Starts a document in `b`: its top object is open, its members follow. */
void jf_jsonw_start(jf_jsonw *self, jf_buf *b);
/** Closes the top object and ends the line. */
void jf_jsonw_finish(jf_jsonw *self);

/** Starts member `key` (NULL in an array) on a line of its own; its value follows. */
void jf_jsonw_member(jf_jsonw *self, const char *key);
/** Opens an object ('{') or array ('[') as member `key` (NULL in an array). */
void jf_jsonw_open(jf_jsonw *self, const char *key, char bracket);
/** Closes the innermost object ('}') or array (']'). */
void jf_jsonw_close(jf_jsonw *self, char bracket);
/** Member `key`: the string `value`. */
void jf_jsonw_str(jf_jsonw *self, const char *key, const char *value);
/** Member `key`: the number `value`. */
void jf_jsonw_uint(jf_jsonw *self, const char *key, uint64_t value);
/** Member `key`: an object of one string on one line, {"name": "value"}. */
void jf_jsonw_pair(jf_jsonw *self, const char *key, const char *name, const char *value);

#endif
