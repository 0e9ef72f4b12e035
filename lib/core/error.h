/* error.h - why an operation failed: a code and a message, owned by whoever asked
 *
 * Functions that can fail return an int: 0 on success, a negative JF_E* code
 * (jobfix.h) on failure, with the message in a jf_error the caller passes
 * in. jf_error_set() returns the code, so a failure reads
 *
 *	return jf_error_set(err, JF_EIO, "cannot read '%s': %s", path, strerror(errno));
 *
 * There is no global error state: a linter, a config and a test each hold
 * their own jf_error.
 */
#ifndef JF_ERROR_H
#define JF_ERROR_H

#include "core/util.h"

typedef struct {
	int code;      /* 0, or the JF_E* code of the last failure */
	char *message; /* NULL, or the last failure's message */
} jf_error;

#define JF_ERROR_INIT { 0, NULL }

/** Records a failure (replacing an earlier one); returns `code`. */
int jf_error_set(jf_error *self, int code, const char *fmt, ...) JF_PRINTF(3, 4);
/** The message of the last failure, or "" when there was none. Owned by `self`. */
const char *jf_error_message(const jf_error *self);
/** Forgets the last failure. */
void jf_error_clear(jf_error *self);

#endif
