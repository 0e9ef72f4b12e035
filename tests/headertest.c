/* headertest.c - the public header compiles alone under -std=c11 -pedantic -Werror */
#include "jobfix/jobfix.h"

int jf_headertest(void);
int jf_headertest(void)
{
	jf_options o = JF_OPTIONS_INIT;
	return (int)o.version;
}
