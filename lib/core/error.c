/* error.c - the failure of an operation: a code and a message */
#include "core/error.h"

int jf_error_set(jf_error *self, int code, const char *fmt, ...)
{
	jf_buf b = JF_BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	jf_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	free(self->message);
	self->message = jf_buf_detach(&b, NULL);
	self->code = code;
	return code;
}

const char *jf_error_message(const jf_error *self)
{
	return self->message ? self->message : "";
}

void jf_error_clear(jf_error *self)
{
	free(self->message);
	self->message = NULL;
	self->code = 0;
}
