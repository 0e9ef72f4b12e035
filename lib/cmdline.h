/* cmdline.h - the command line an entry script accepts, as read from its code
 *
 * arguments.c reads argparse definitions into a jf_cmdline and checks every
 * invocation of the script against it. Other ways of defining flags (absl,
 * click) fill the same structure. Strings are owned by the structure.
 */
#ifndef JF_CMDLINE_H
#define JF_CMDLINE_H

#include "lint.h"

typedef enum {
	ACT_STORE,
	ACT_FLAG, /* store_true, store_false, store_const, count, append_const, help, version */
	ACT_APPEND,
} jf_action;

typedef enum { TYPE_STR, TYPE_INT, TYPE_FLOAT, TYPE_BOOL, TYPE_OTHER } jf_argtype;

typedef enum {
	NARGS_ONE,
	NARGS_OPTIONAL,  /* '?' */
	NARGS_ANY,       /* '*' */
	NARGS_SOME,      /* '+' */
	NARGS_REMAINDER, /* argparse.REMAINDER, '...' */
	NARGS_COUNT,     /* an integer */
} jf_nargs;

typedef struct {
	JF_ARRAY(char *) options; /* "-l", "--lr"; empty for a positional */
	char *dest;
	jf_action act;
	jf_argtype type;
	JF_ARRAY(char *) choices;
	bool choices_known;
	jf_nargs nargs;
	long count;
	bool required;
	const jf_unit *unit;
	jf_span span; /* the add_argument call */
} jf_argdef;

typedef struct {
	JF_ARRAY(jf_argdef) args;
	JF_ARRAY(char *) defaults; /* names given to set_defaults() */
	int parsers;       /* ArgumentParser(...) calls seen */
	bool open;         /* extended where jobfix cannot see */
	bool tolerant;     /* parse_known_args */
	bool allow_abbrev;
	const jf_unit *unit; /* where the (first) parser is made */
	jf_span span;
} jf_cmdline;

#endif
