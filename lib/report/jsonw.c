/* jsonw.c - a small writer of indented JSON, one member a line */
#include "report/jsonw.h"

#include <inttypes.h>

void jf_jsonw_quote(jf_buf *b, const char *s)
{
	jf_buf_add_json_str(b, s, strlen(s));
}

void jf_jsonw_start(jf_jsonw *self, jf_buf *b)
{
	*self = (jf_jsonw){ b, 1, true };
	jf_buf_addc(b, '{');
}

void jf_jsonw_finish(jf_jsonw *self)
{
	jf_jsonw_close(self, '}');
	jf_buf_addc(self->b, '\n');
}

void jf_jsonw_member(jf_jsonw *self, const char *key)
{
	jf_buf_adds(self->b, self->first ? "\n" : ",\n");
	self->first = false;
	for (int i = 0; i < self->depth; i++)
		jf_buf_adds(self->b, "  ");
	if (key) {
		jf_jsonw_quote(self->b, key);
		jf_buf_adds(self->b, ": ");
	}
}

void jf_jsonw_open(jf_jsonw *self, const char *key, char bracket)
{
	jf_jsonw_member(self, key);
	jf_buf_addc(self->b, bracket);
	self->depth++;
	self->first = true;
}

void jf_jsonw_close(jf_jsonw *self, char bracket)
{
	self->depth--;
	if (!self->first) {
		jf_buf_addc(self->b, '\n');
		for (int i = 0; i < self->depth; i++)
			jf_buf_adds(self->b, "  ");
	}
	jf_buf_addc(self->b, bracket);
	self->first = false;
}

void jf_jsonw_str(jf_jsonw *self, const char *key, const char *value)
{
	jf_jsonw_member(self, key);
	jf_jsonw_quote(self->b, value);
}

void jf_jsonw_uint(jf_jsonw *self, const char *key, uint64_t value)
{
	jf_jsonw_member(self, key);
	jf_buf_addf(self->b, "%" PRIu64, value);
}

void jf_jsonw_pair(jf_jsonw *self, const char *key, const char *name, const char *value)
{
	jf_jsonw_member(self, key);
	jf_buf_addc(self->b, '{');
	jf_jsonw_quote(self->b, name);
	jf_buf_adds(self->b, ": ");
	jf_jsonw_quote(self->b, value);
	jf_buf_addc(self->b, '}');
}
