/* cmdline.h - the command line an entry script accepts, as read from its code
 *
 * cmdline.c reads argparse definitions into a jf_cmdline; cmdline_flags.c
 * reads absl flags (tf.app.flags included) and click into the same
 * structure; rules/arguments.c checks every invocation of the script
 * against it. Everything is read from the files' facts. Strings are owned
 * by the structure.
 */
#ifndef JF_CMDLINE_H
#define JF_CMDLINE_H

#include "core/strmap.h"
#include "python/facts.h"
#include "shell/shell.h"
#include "sources/tree.h"

/* jf_argdef.command of an argument of the main parser (not a subcommand's). */
#define JF_CMDLINE_MAIN (-1)

typedef enum {
	ACT_STORE,
	ACT_FLAG, /* store_true, store_false, store_const, count, append_const, help, version */
	ACT_APPEND,
	ACT_CUSTOM, /* an Action class: how many values it takes, and what they are, is its own */
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
	bool untyped;     /* argparse without type=: its values are str */
	int command;      /* the subcommand it belongs to (index in commands), or -1 */
	JF_ARRAY(char *) choices;
	bool choices_known;
	jf_nargs nargs;
	long count;
	bool required;
	bool negatable;   /* BooleanOptionalAction: --no-x too */
	bool conditional; /* added under an if or in a try: maybe not where the job runs */
	const jf_file *unit;
	jf_span span; /* the add_argument call */
} jf_argdef;

/* How absl flags reach the script. */
typedef enum {
	JF_FLAGS_UNPARSED,   /* no parse seen: jobfix cannot tell */
	JF_FLAGS_STRICT,     /* absl app.run, FLAGS(sys.argv): unknown flags stop the script */
	JF_FLAGS_KNOWN_ONLY, /* TF 1.x tf.app.run: unknown flags are dropped */
} jf_flags_parse;

typedef struct {
	JF_ARRAY(jf_argdef) args;
	JF_ARRAY(char *) defaults; /* names given to set_defaults() */
	bool defaults_open;        /* set_defaults(**d): any name may have a value */
	int parsers;       /* ArgumentParser(...) calls seen */
	const char *open;  /* why the parser is extended where jobfix cannot see; NULL: it is not */
	bool tolerant;     /* parse_known_args */
	jf_strings rest_names; /* `_, rest = p.parse_known_args()`: the names of the rest */
	bool rest_parsed;  /* parse_args(rest) follows: the command line is parsed strictly */
	bool argv_parsed;  /* parse_args() or parse_known_args() of the command line itself */
	bool own_list;     /* parse_args([...]) of a list of its own */
	bool has_parents;  /* ArgumentParser(parents=[...]) */
	/* argparse subcommands: add_subparsers() and its add_parser("name") */
	bool subparsers;
	JF_ARRAY(char *) commands;   /* names, aliases included, by index */
	JF_ARRAY(int) command_of;    /* per name in `commands`: the command it names */
	/* The variables holding a parser, a group or subparsers, by name: the
	 * owner (-1 main, -2 subparsers, else a command) as (intptr_t)(owner + 4). */
	jf_strmap owners;
	JF_ARRAY(char *) handed_to;  /* functions a parser is passed to: add_args(parser) */
	bool unowned;      /* an add_argument on something not followed */
	bool allow_abbrev;
	const jf_file *unit; /* where the (first) parser is made, or the flags parsed */
	jf_span span;
	int argv_reads;    /* "sys.argv" in the code ... */
	int argv_parses;   /* ... of which FLAGS(sys.argv) */
	/* absl */
	bool absl;         /* absl flags are defined or parsed */
	jf_flags_parse flags_parse;
	JF_ARRAY(char *) required; /* names given to mark_flag(s)_as_required() */
	/* click */
	int click_commands;        /* @click.command() functions */
	char *click_fn;            /* the (first) one's name */
	jf_span click_span;
	const jf_file *click_unit;
} jf_cmdline;

/**
 * Reads the command line of entry script `entry`: its own definitions and
 * those of the job's local modules (`files`). Release with jf_cmdline_release().
 */
void jf_cmdline_read(jf_cmdline *c, const jf_pyfiles *files, const jf_pyfacts *entry);
void jf_cmdline_release(jf_cmdline *c);
/** The argument with option string `name` ("--lr"), or NULL. */
const jf_argdef *jf_cmdline_find_option(const jf_cmdline *c, const char *name);
/** Whether argparse takes word `s` for an option (not a negative number). */
bool jf_cmdline_looks_like_option(const char *s);
/** The option `name` (a long option, maybe abbreviated); NULL and *ambiguous when several
 * match. *full is the option string it stands for. */
const jf_argdef *jf_cmdline_resolve_option(const jf_cmdline *c, const char *name,
                                           const char **full, bool *ambiguous);
/**
 * When `entry` is a local launcher (a positional naming a script and an
 * argparse.REMAINDER for its arguments, as torch.distributed.launch has),
 * the index in `args` of the word naming the script it runs; else -1.
 */
long jf_cmdline_wrapped_script(const jf_pyfiles *files, const jf_pyfacts *entry,
                               const jf_words *args);

/* cmdline.c, shared with cmdline_flags.c */

/** The value of a plain string literal, or NULL; caller frees. */
char *jf_cmdline__string(const jf_file *unit, TSNode n);
/** Reads a list or tuple of literals into d->choices; choices_known when all are literal. */
void jf_cmdline__read_choices(const jf_file *unit, TSNode v, jf_argdef *d);
void jf_cmdline__def_release(jf_argdef *d);

/* cmdline_flags.c */

/** Reads absl flag definitions (a call) and click decorators (a decorated definition) of `unit`. */
void jf_flags__visit(jf_cmdline *c, const jf_file *unit, const jf_py_node *pn);
/** After every file is read: required flags, click's own options and its call in `entry`. */
void jf_flags__finish(jf_cmdline *c, const jf_pyfacts *entry);
/** Whether `name` is a flag absl defines itself (--helpfull, --logtostderr, ...);
 * *takes_value tells whether it reads a value. */
bool jf_flags__builtin(const char *name, bool *takes_value);

#endif
