/* facts.c - the facts of one Python file */
#include "python/facts.h"

void jf_pyfacts_free(jf_pyfacts *self)
{
	if (!self)
		return;
	jf_array_release(&self->imports);
	free(self);
}
