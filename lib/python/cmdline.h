/* cmdline.h - the command line an entry script accepts, as read from its code
 *
 * cmdline.c reads argparse definitions into a jf_cmdline; cmdline_flags.c
 * reads absl flags (tf.app.flags included) and click into the same
 * structure; rules/arguments.c checks every invocation of the script
 * against it. What each file's statements do is recorded from its facts
 * while its tree is held (jf_cmdline_record_of()), and replayed for an
 * entry script with what the job runs of each module. Strings are owned by
 * the structure.
 */
#ifndef JF_CMDLINE_H
#define JF_CMDLINE_H

#include "core/strmap.h"
#include "python/pyfacts.h"
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

/* What jf_cmdline_read() takes of one Python file, read while its tree is
 * held (the facts keep it in the file's jf_py_names): its argparse, absl and
 * click statements, each with the place that decides whether it runs when
 * the file is imported. */
typedef struct jf_cmdline_record jf_cmdline_record;

/** The record of the file of `py`, in `arena`; NULL when the file spells
 * nothing a command line is made of. */
const jf_cmdline_record *jf_cmdline_record_of(jf_arena *arena, const jf_pyfacts *py);
/** Writes `rec` (NULL too) to `b`. */
void jf_cmdline_record_write(jf_buf *b, const jf_cmdline_record *rec);
/** A record written by jf_cmdline_record_write(), of file `unit`, in `arena`
 * (`w` is bad when it is not whole). */
const jf_cmdline_record *jf_cmdline_record_load(jf_wire *w, jf_arena *arena, const jf_file *unit);
/**
 * Reads the command line of entry script `entry`: its own definitions and
 * those of the job's local modules (`files`), from their records: no tree
 * but the entry's is read. Release with jf_cmdline_release().
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

/* What one statement does to a jf_cmdline. */
typedef enum {
	JF_STEP_REST_NAME,      /* `_, text = p.parse_known_args()` */
	JF_STEP_PARSER_VAR,     /* `text = ArgumentParser(...)` */
	JF_STEP_SUBPARSERS_VAR, /* `text = object.add_subparsers(...)` */
	JF_STEP_COMMAND_VAR,    /* `text = object.add_parser(...)`: the command's names (none: computed) */
	JF_STEP_GROUP_VAR,      /* `text = object.add_argument_group(...)` */
	JF_STEP_HANDED,         /* `text(names...)`: variables handed to a function (text NULL: not named) */
	JF_STEP_OPEN,           /* the command line is open: text says why */
	JF_STEP_OPEN_FIRST,     /* the same, unless it is open already */
	JF_STEP_TAKES_PART,     /* parse_args or set_defaults: the file takes part in the parser */
	JF_STEP_ARGV_PARSED,    /* parse_args() or parse_known_args() of the command line itself */
	JF_STEP_PARENTS,        /* a parser made with parents=[...] */
	JF_STEP_ADD_ARGUMENT,   /* object.add_argument(...): def, NULL when it cannot be read */
	JF_STEP_PARSER,         /* ArgumentParser(...) at span; flag: allow_abbrev=False */
	JF_STEP_DEFAULTS,       /* set_defaults(names=...); flag: and **d */
	JF_STEP_PARSE_LIST,     /* parse_args(text): text NULL when it is not one variable */
	JF_STEP_ARGUMENT,       /* an absl flag or a click parameter: def */
	JF_STEP_ABSL,           /* absl flags are defined or parsed */
	JF_STEP_REQUIRED,       /* mark_flag_as_required(text) */
	JF_STEP_FLAGS_PARSE,    /* absl flags parsed at span, `how`; flag: a second way opens the line */
	JF_STEP_ARGV_PARSES,    /* FLAGS(sys.argv) */
	JF_STEP_CLICK_COMMAND,  /* @click.command() on the function named text, at span */
} jf_step_kind;

typedef struct {
	jf_step_kind kind;
	bool flag;
	jf_flags_parse how;
	const jf_py_place *place; /* where its statement stands; NULL: read wherever it is */
	const char *text;
	const char *object;       /* the variable a method is called on; NULL: none */
	const char *const *names;
	size_t count;
	const jf_argdef *def;
	jf_span span;
} jf_cmdline_step;

/* Reads the steps of one file. */
typedef struct {
	jf_arena *arena; /* where the steps' text goes */
	const jf_file *unit;
	const jf_pyfacts *py;
	const jf_py_node *pn;  /* the statement being read */
	bool gated;            /* whether its steps run only where it runs */
	const jf_py_place *place, *last_place;
	JF_ARRAY(jf_cmdline_step) steps;
	jf_strmap holders; /* the variables some statement so far gives a parser */
} jf_cmdline_recorder;

/** A new step of the statement being read, zeroed but for its kind and place. */
jf_cmdline_step *jf_cmdline__step(jf_cmdline_recorder *r, jf_step_kind kind);
void jf_cmdline__step_open(jf_cmdline_recorder *r, const char *why);
/** A step with argument `d` (kept in the arena; `d` is released) added to `object`'s parser. */
void jf_cmdline__step_argument(jf_cmdline_recorder *r, jf_step_kind kind, jf_argdef *d,
                               const char *object);
/** The value of a plain string literal, or NULL; caller frees. */
char *jf_cmdline__string(const jf_file *unit, TSNode n);
/** Reads a list or tuple of literals into d->choices; choices_known when all are literal. */
void jf_cmdline__read_choices(const jf_file *unit, TSNode v, jf_argdef *d);
void jf_cmdline__def_release(jf_argdef *d);

/* cmdline_flags.c */

/** Records absl flag definitions (a call) and click decorators (a decorated definition). */
void jf_flags__record(jf_cmdline_recorder *r, const jf_py_node *pn);
/** After every file is read: required flags, click's own options and its call in `entry`. */
void jf_flags__finish(jf_cmdline *c, const jf_pyfacts *entry);
/** Whether `name` is a flag absl defines itself (--helpfull, --logtostderr, ...);
 * *takes_value tells whether it reads a value. */
bool jf_flags__builtin(const char *name, bool *takes_value);

#endif
