/* cmdline.h - the command line an entry script accepts, as read from its code
 *
 * One model for every library a script declares its command line with: its
 * arguments (jf_argdef: option strings, dest, action, type, choices, nargs,
 * required, default, where defined), its subcommands, how the library reads
 * the words (jf_cmdline_dialect) and what becomes of a flag nobody defines.
 * rules/arguments.c checks every invocation of the script against it, word
 * by word through jf_cmdline_next_token(), and the script's uses of the
 * parsed values; python/eval.c reads an argument's default and the value the
 * invocations pass.
 *
 * Each library is read by one parser reader (python/parsers/<library>.c,
 * listed in python/parsers/parsers.def): while a file's tree is held, it
 * records what each statement does as steps (jf_cmdline_record_of(), kept in
 * the file's jf_py_names and the fact cache); for an entry script the steps
 * of the files that run for it are replayed in source order, and each reader
 * finishes what needs every file. A library no reader models, or a
 * definition a reader cannot read whole, makes the command line open
 * (jf_cmdline.open says why): the rules then say nothing about its flags.
 * Strings are owned by the structure.
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

typedef enum {
	TYPE_STR,
	TYPE_INT,
	TYPE_FLOAT,
	TYPE_BOOL,      /* argparse's type=bool: bool() of the word, so any word but "" is True */
	TYPE_BOOL_WORD, /* a word for true or false: yes/no, true/false, t/f, y/n, 1/0 */
	TYPE_OTHER,
} jf_argtype;

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
	/* The name the value is stored under: given, or derived from the option
	 * strings as the library does (jf_argdef_dest()); NULL only when the
	 * definition is not read (`unread`). */
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
	/* The definition could not be read whole (computed option strings or
	 * settings): only `dest` may be known, and the command line is open. */
	bool unread;
	/* A parameter of a function the library calls (fire): it may also be
	 * given as a positional word, in the order of the parameters. */
	bool also_positional;
	/* An option string ending in '.' stands for every option it begins
	 * (ml_collections' --config.<field>). */
	bool prefixed;
	uint8_t parser;   /* the reader that read it: its index in parsers.def */
	/* Its default value's expression in `unit`, or a null reference. */
	jf_node_ref default_at;
	/* Where the script itself rejects values outside `choices` right after
	 * the parse (`if args.x not in (...): raise`), when it is not the
	 * parser; NULL unit: nowhere. Not recorded: set by the check. */
	const jf_file *choices_unit;
	jf_span choices_at;
	const jf_file *unit;
	jf_span span; /* the definition */
} jf_argdef;

/* How the words of an invocation are read. */
typedef enum {
	/* argparse and the libraries built like it (click): options start with
	 * '-' (not a negative number), `--x=v` or `--x v`, `--` ends them; the
	 * other words are positionals. */
	JF_DIALECT_ARGPARSE,
	/* absl: `-x` is `--x`, a boolean is turned off with `--nox` and may take
	 * `=true`/`=false`; a value always takes the next word; words that are
	 * no flag go to main(argv). */
	JF_DIALECT_ABSL,
	/* python-fire: `--name value`, `--name=value` or `--name` alone (True),
	 * `--noname` (False), `_` and `-` alike in names; a value takes the next
	 * word unless it is a flag; other words fill the parameters in order;
	 * `--` ends what the function reads. */
	JF_DIALECT_FIRE,
} jf_cmdline_dialect;

/* What the script does with a flag no argument defines. */
typedef enum {
	JF_UNKNOWN_FAILS,     /* it stops with an error */
	JF_UNKNOWN_DROPPED,   /* it drops the flag and runs on (TF 1.x tf.app.run) */
} jf_unknown_flag;

/* Where the parsed values are read. */
typedef enum {
	JF_RESULT_NONE,
	JF_RESULT_NAMESPACE, /* `args = parser.parse_args()`: args.<dest> */
	JF_RESULT_FLAGS,     /* a global FLAGS object: FLAGS.<dest> */
	JF_RESULT_PARAMS,    /* the parameters of the function the library calls */
	JF_RESULT_DATACLASSES, /* instances of the dataclasses the options are read into */
} jf_cmdline_result;

typedef struct jf_cmdline_parser jf_cmdline_parser;

typedef struct {
	JF_ARRAY(jf_argdef) args;
	/* What reads the command line: the reader, or NULL when none does; and
	 * how many readers do (more than one: which wins is not known). */
	const jf_cmdline_parser *by;
	int ways;
	const char *open;  /* why the line is extended where jobfix cannot see; NULL: it is not */
	jf_cmdline_dialect dialect;
	jf_unknown_flag unknown;
	jf_cmdline_result result;
	bool abbrev;       /* a long option may be abbreviated to a unique prefix */
	/* How unknown flags are left to the script ("parse_known_args"); NULL: they are not. */
	const char *tolerant;
	bool duplicates_fail; /* an option string defined twice stops the script (argparse) */
	/* An invocation whose first word names a .json or .yaml file is read as
	 * a config file, not as flags (HfArgumentParser's parse_json_file). */
	bool config_first_word;
	/* Dataclasses of a library whose fields are options too
	 * (transformers' TrainingArguments): their fields depend on the
	 * library's version, which the check knows (env/hf_arguments.h). */
	jf_strings library;
	/* JF_RESULT_DATACLASSES: the dataclasses, in the order the parse returns
	 * their instances, each with the attributes an instance has (fields,
	 * methods, class attributes); `whole` when every base is known. */
	JF_ARRAY(struct jf_cmdline_dataclass {
		char *name;
		jf_strings attrs;
		bool whole;
	}) dataclasses;
	const char *library_version; /* the release their fields are of; NULL: of every release */
	int parsers;       /* parser objects made (ArgumentParser(...) calls seen) */
	/* Names the script stores besides the arguments' dests (set_defaults()),
	 * or any name (`extra_open`). */
	JF_ARRAY(char *) extra_dests;
	bool extra_open;
	/* Subcommands: their names, aliases included, by index, and the command
	 * each names; `subparsers` when the script has some. */
	bool subparsers;
	JF_ARRAY(char *) commands;
	JF_ARRAY(int) command_of;
	/* Where the line is made or parsed, for notes. */
	const jf_file *unit;
	jf_span span;
	/* While the files are replayed. */
	bool takes_part;   /* the file being replayed takes part in the command line */
	int argv_reads;    /* "sys.argv" read in the code ... */
	int argv_parses;   /* ... of which handed to a parser (absl's FLAGS(sys.argv)) */
	void **state;      /* each reader's own, by index (jf_cmdline__state()) */
} jf_cmdline;

/* What jf_cmdline_read() takes of one Python file, read while its tree is
 * held (the facts keep it in the file's jf_py_names): its command-line
 * statements, each with the place that decides whether it runs when the file
 * is imported. */
typedef struct jf_cmdline_record jf_cmdline_record;

/** The record of the file of `py`, in `arena`; NULL when the file spells
 * nothing a command line is made of. */
const jf_cmdline_record *jf_cmdline_record_of(jf_arena *arena, const jf_pyfacts *py);
/** Writes `rec` (NULL too) to `b`. */
void jf_cmdline_record_write(jf_buf *b, const jf_cmdline_record *rec);
/** A record written by jf_cmdline_record_write(), of file `unit`, in `arena`
 * (`w` is bad when it is not whole). */
const jf_cmdline_record *jf_cmdline_record_load(jf_wire *w, jf_arena *arena, const jf_file *unit);
/** The arguments `rec` defines (readable or not), in source order, wherever
 * they stand; with `parser` (an index of parsers.def) only that reader's. */
void jf_cmdline_record_args(const jf_cmdline_record *rec, int parser,
                            void (*each)(void *data, const jf_argdef *d), void *data);
/**
 * Reads the command line of entry script `entry`: its own definitions and
 * those of the job's local modules (`files`), from their records: no tree
 * but the entry's is read. Release with jf_cmdline_release().
 */
void jf_cmdline_read(jf_cmdline *c, const jf_pyfiles *files, const jf_pyfacts *entry);
void jf_cmdline_release(jf_cmdline *c);
/** The arguments of one parser of `c`: the main one (JF_CMDLINE_MAIN) or a
 * command's. The view borrows the definitions: release it with
 * jf_cmdline_view_release(). */
jf_cmdline jf_cmdline_view(const jf_cmdline *c, int command);
void jf_cmdline_view_release(jf_cmdline *view);
/** The argument with option string `name` ("--lr"), or NULL. */
const jf_argdef *jf_cmdline_find_option(const jf_cmdline *c, const char *name);
/** The argument that stores `dest`, or NULL. */
const jf_argdef *jf_cmdline_find_dest(const jf_cmdline *c, const char *dest);
/** Whether `name` is stored by the script: an argument's dest or an extra one. */
bool jf_cmdline_stores(const jf_cmdline *c, const char *name);
/**
 * Whether `call`, an `x.add_argument(...)` of `unit`, adds to something
 * that is no argparse parser: `x` is assigned in the body around the call
 * from a class that makes none (`validator = ConfigValidator(...)`; a
 * function's result, `parser = eval_parser()`, may be a parser), or the
 * file defines an add_argument method of its own and `x` is not assigned a
 * parser there. Reads around the call only; `own` (NULL: none) keeps, for
 * the file, whether it defines add_argument (-1: not asked yet).
 */
bool jf_cmdline_foreign_add_argument(const jf_file *unit, TSNode call, int8_t *own);
/** Whether `name` is written in Python source `text` once at most, as a
 * whole word outside comments: a function nothing calls or hands on (its
 * definition is the one), whose statements do not run. */
bool jf_cmdline_unreferenced(const char *text, const char *name);
/** Whether argparse takes word `s` for an option (not a negative number). */
bool jf_cmdline_looks_like_option(const char *s);
/** The option `name` (a long option, maybe abbreviated); NULL and *ambiguous when several
 * match. *full is the option string it stands for. */
const jf_argdef *jf_cmdline_resolve_option(const jf_cmdline *c, const char *name,
                                           const char **full, bool *ambiguous);
/** The long option of `d` that names it best in messages ("--lr" of "-l", "--lr"), or
 * its dest for a positional. */
const char *jf_argdef_name(const jf_argdef *d);
/** The dest argparse derives from `d`'s option strings (its first long
 * option, else its first, less the leading dashes, '-' as '_'); caller frees. */
char *jf_argdef_dest(const jf_argdef *d);
/** Whether the option `d` is passed by `args`: JF_YES with the value in
 * *value (NULL when it is not in the words), JF_NO, or JF_UNKNOWN when a word
 * known only at run time may pass it. Exact option strings only. */
jf_tri jf_argdef_passed(const jf_argdef *d, const jf_words *args, const char **value);
/** Whether the positional argument of `c` that stores `dest` is given a word
 * by `args`, read as argparse reads them: JF_YES with the word in *value,
 * JF_NO, or JF_UNKNOWN when which word it takes is not certain (a word
 * known only at run time, an option the parser does not define or with an
 * action of its own, a positional before it that takes several words). */
jf_tri jf_cmdline_positional_passed(const jf_cmdline *c, const char *dest, const jf_words *args,
                                    const char **value);

/* Reading an invocation's words as the library does */

typedef enum {
	JF_TOKEN_POSITIONAL, /* a word that is no option (absl: one it hands to main) */
	JF_TOKEN_RUNTIME,    /* a word known only at run time */
	JF_TOKEN_OPTION,     /* an option an argument defines */
	JF_TOKEN_UNKNOWN,    /* an option no argument defines */
	JF_TOKEN_BUILTIN,    /* one the library defines itself (absl's --logtostderr) */
} jf_token_kind;

typedef struct {
	jf_token_kind kind;
	const jf_word *word;   /* the word it starts at */
	const jf_argdef *def;  /* JF_TOKEN_OPTION */
	/* The option as the definition spells it (an abbreviation resolved), or
	 * as written for JF_TOKEN_UNKNOWN and absl; owned by the reader until the next token. */
	const char *name;
	const char *bare;      /* absl: the name without dashes ("lr") */
	const char *value;     /* `--x=value`: the value; else NULL */
	const jf_word *values; /* the words that follow as its values */
	size_t nvalues;
	bool negated;          /* absl: `--nox` of boolean x */
	bool cluster;          /* argparse: `-j5`, `-vv`: a short option with what follows */
	bool ambiguous;        /* JF_TOKEN_UNKNOWN: it abbreviates several options */
	bool truncated;        /* the values stopped at the end of the words */
} jf_token;

/* The reader's place in the words. */
typedef struct {
	const jf_cmdline *c;
	const jf_words *words;
	size_t i;
	size_t positionals;      /* positionals so far */
	size_t remainder_after;  /* argparse: after this many positionals (one at least), every word is one */
	bool positional_only;    /* after `--` */
	bool undefok;            /* absl: --undefok or --flagfile: unknown flags are allowed */
	bool flagfile;           /* absl: --flagfile: the file may pass anything */
	char *name, *bare;       /* the current token's strings */
} jf_token_reader;

/** Starts reading `words` as `c`'s library does. Release with jf_token_reader_release(). */
void jf_token_reader_init(jf_token_reader *r, const jf_cmdline *c, const jf_words *words);
/** The next token into *t; false at the end (or at a REMAINDER option, argparse). */
bool jf_cmdline_next_token(jf_token_reader *r, jf_token *t);
void jf_token_reader_release(jf_token_reader *r);

/**
 * When `entry` is a local launcher (a positional naming a script and an
 * argparse.REMAINDER for its arguments, as torch.distributed.launch has),
 * the index in `args` of the word naming the script it runs; else -1.
 */
long jf_cmdline_wrapped_script(const jf_pyfiles *files, const jf_pyfacts *entry,
                               const jf_words *args);

/* ---- For the parser readers (python/parsers/) ---- */

/* What one statement does to a jf_cmdline. The kinds below JF_STEP_OWN mean
 * the same for every reader; a reader numbers its own from JF_STEP_OWN. */
enum {
	JF_STEP_OPEN,        /* the command line is open: text says why */
	JF_STEP_OPEN_FIRST,  /* the same, unless it is open already */
	JF_STEP_TAKES_PART,  /* the file takes part in the command line */
	JF_STEP_ARGUMENT,    /* an argument of the main parser: def */
	JF_STEP_ARGV_PARSES, /* sys.argv handed to a parser (`how` times; 0: once) */
	JF_STEP_OWN = 16,
};

typedef struct {
	uint8_t parser;           /* the reader that recorded it: its index */
	uint8_t kind;
	uint8_t how;              /* the reader's own small number */
	bool flag;
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
	uint8_t parser;        /* the reader reading it */
	bool gated;            /* whether its steps run only where it runs */
	const jf_py_place *place, *last_place;
	JF_ARRAY(jf_cmdline_step) steps;
	jf_strmap holders; /* the variables some statement so far gives a parser */
	int8_t own_add_argument; /* the file defines add_argument (-1: not asked yet) */
} jf_cmdline_recorder;

/* A library's reader. */
struct jf_cmdline_parser {
	const char *name;  /* "argparse" */
	/* Whether file `unit` may spell anything record() reads: a cheap test of
	 * its text, so that other files are not read for it. */
	bool (*mentions)(const jf_file *unit);
	/* Records what statement r->pn (an assignment, a call, a decorated
	 * definition or a class definition, decorated or not) does, as steps
	 * (jf_cmdline__step()). */
	void (*record)(jf_cmdline_recorder *r, const jf_py_node *pn);
	/* Replays one of its own steps (kind >= JF_STEP_OWN) of file `unit`. */
	void (*replay)(jf_cmdline *c, const jf_file *unit, const jf_cmdline_step *s);
	uint8_t own_kinds; /* how many kinds of its own it records */
	/* After every file (`files`): resolves what needs them all; true when
	 * the library reads the command line of `entry` (it then sets the
	 * dialect, the result and where it parses). */
	bool (*finish)(jf_cmdline *c, const jf_pyfiles *files, const jf_pyfacts *entry);
	void (*release)(void *state); /* its state on a jf_cmdline (NULL: nothing but free()) */
	/* Whether `name` (no dashes) is a flag the library defines itself
	 * (absl's --logtostderr); *takes_value tells whether it reads a value.
	 * NULL: none. */
	bool (*builtin)(const char *name, bool *takes_value);
};

/** A new step of the statement being read, zeroed but for its kind and place;
 * valid until the next step is made. */
jf_cmdline_step *jf_cmdline__step(jf_cmdline_recorder *r, uint8_t kind);
void jf_cmdline__step_open(jf_cmdline_recorder *r, const char *why);
/** A step with argument `d` (kept in the arena; `d` is released) added to `object`'s parser. */
void jf_cmdline__step_argument(jf_cmdline_recorder *r, uint8_t kind, jf_argdef *d,
                               const char *object);
/** The same for a definition that cannot be read whole: only its dest, when known. */
void jf_cmdline__step_unread(jf_cmdline_recorder *r, uint8_t kind, char *dest,
                             const char *object);
/* A parameter of a Python function definition, for the libraries that make
 * a command line from a signature. */
typedef struct {
	TSNode name;       /* the identifier */
	TSNode type;       /* its annotation; a null node when none */
	TSNode value;      /* its default; a null node when none */
	bool keyword_only; /* after `*` or `*args` */
	int splat;         /* 1: *args, 2: **kwargs; 0: neither */
} jf_cmdline_param;

/** The parameters of function definition `def`, at most `max` into `out`;
 * their number (more than `max` when some did not fit). */
size_t jf_cmdline__params(TSNode def, jf_cmdline_param *out, size_t max);
/** The module-level function or class of `py` named `name`, or a null node (the last
 * when several). */
TSNode jf_cmdline__top_definition(const jf_pyfacts *py, TSNode name);
/** Records each parameter of function definition `def` (not *args, **kwargs)
 * as an argument, a step of `kind`: option `--name`, taking an optional
 * value, also given positionally unless keyword-only, required without a
 * default. Returns 1 when the function takes **kwargs, -1 when it has more
 * parameters than jobfix reads (nothing is recorded then), else 0. */
int jf_cmdline__record_params(jf_cmdline_recorder *r, TSNode def, uint8_t kind);
/* The libraries that call one function with the command line (fire,
 * jsonargparse): its call, a step of the reader's kind `call` (its flag: the
 * function takes **kwargs), then its parameters, steps of kind `call + 1`. */
/** Replays a step of such a reader `p`. */
void jf_cmdline__call_replay(jf_cmdline *c, const jf_cmdline_parser *p, const jf_file *unit,
                             const jf_cmdline_step *s, uint8_t call);
/** Finishes such a reader `p` (its `index` in parsers.def): the fire dialect,
 * the function's parameters; `twice` says why two calls open the line. */
bool jf_cmdline__call_finish(jf_cmdline *c, int index, const char *twice);
/** The name of the command function definition `def` makes under decorator
 * call `call` (`@group.command("name")`, `name=...`): given, or the
 * function's with '_' as '-' (click 7 and typer); in the arena, NULL when
 * computed. */
const char *jf_cmdline__command_name(jf_cmdline_recorder *r, TSNode call, TSNode def);
/** Strings `items` kept in the arena. */
const char **jf_cmdline__strings_in(jf_arena *arena, char *const *items, size_t n);
/** Reader `p`'s state on `c`: zeroed memory of `size` bytes on first use. */
void *jf_cmdline__state(jf_cmdline *c, const jf_cmdline_parser *p, size_t size);
/** A copy of recorded argument `d`, owned by the command line, added to it. */
jf_argdef *jf_cmdline__add(jf_cmdline *c, const jf_argdef *d);
/** The value of a plain string literal, or NULL; caller frees. */
char *jf_cmdline__string(const jf_file *unit, TSNode n);
/** Reads a list or tuple of literals into d->choices; choices_known when all are literal. */
void jf_cmdline__read_choices(const jf_file *unit, TSNode v, jf_argdef *d);
void jf_cmdline__def_release(jf_argdef *d);
/** Whether the text of `n` ends with the word `name`: a test that spares field lookups. */
bool jf_cmdline__ends_with_word(const jf_file *unit, TSNode n, const char *name);
/** Whether callee `fn` of a call is a method named `name`: x.name(...). */
bool jf_cmdline__calls_method(const jf_file *unit, TSNode fn, const char *name);
/** Whether callee `fn` of a call is `name` or `x.name`. */
bool jf_cmdline__callee_ends(const jf_file *unit, TSNode fn, const char *name);

/* The readers, one per library (parsers.def), and their indices. */
#define JF_CMDLINE_PARSER(lib) extern const jf_cmdline_parser jf_parser_##lib;
#include "python/parsers/parsers.def"
#undef JF_CMDLINE_PARSER
enum {
#define JF_CMDLINE_PARSER(lib) JF_PARSER_##lib,
#include "python/parsers/parsers.def"
#undef JF_CMDLINE_PARSER
	JF_CMDLINE_PARSER_COUNT
};

#endif
