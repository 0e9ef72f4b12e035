/* internal.h - the shell's state while it walks the command, shared by lib/shell/ only
 *
 * interp.c walks statements (variables, if/else, redirections, functions,
 * scripts run in the same or a child shell); words.c turns word nodes into
 * values; programs.c knows what the programs a command runs do (cd, source,
 * git clone, downloads); launchers.c finds the Python entry scripts behind
 * python, torchrun, deepspeed, accelerate, mpirun and horovodrun;
 * installs.c reads pip and conda installs.
 */
#ifndef JF_SHELL_INTERNAL_H
#define JF_SHELL_INTERNAL_H

#include "shell/shell.h"
#include "sources/tree.h"

/* Launch scripts run inside launch scripts this deep at most. */
#define MAX_SCRIPT_DEPTH 8

typedef jf_word word;
typedef jf_words words;

/* A shell variable. */
typedef struct {
	char *name;
	char *value; /* NULL: set, but to something unknown */
	bool exported;
	const jf_source *src; /* where it was set; NULL when not known */
	jf_span span;
	bool is_array;   /* X=(a b c): the words are in `items` */
	/* X=$@, X=${@:5}: the value joins the caller's words, which `items`
	 * keeps, each at its place, for an unquoted $X to stand for them. */
	bool of_args;
	jf_words items;
} var;

typedef JF_ARRAY(var) var_list;

/* A function the script defines: its body, in the file that defines it. */
typedef struct {
	char *name;
	jf_file *unit;
	TSNode body;
} shell_fn;

/* A call of a function being walked: the variables its `local`s hide,
 * given back when it returns. */
typedef struct {
	var_list saved;   /* their values before the call */
	jf_strings unset; /* those that were not set */
} fn_frame;

typedef struct shell {
	const jf_job *job;
	jf_workspace *ws;
	jf_shell_facts *out;
	const jf_shell_host *host;
	jf_file *unit;             /* the file being walked; NULL for an argv unit */
	char *cwd;                 /* container path; NULL when unknown */
	char *start_cwd;           /* the folder the script was started (submitted) in; NULL: unknown */
	var_list vars;
	jf_strings produced;       /* container paths the job creates itself */
	bool produced_unknown;     /* something was produced where jobfix cannot tell */
	bool venv;                 /* a virtualenv or conda env is active */
	jf_words args;             /* $1, $2, ... as the caller passed them */
	bool args_known;           /* false: "$@" holds what jobfix cannot see */
	jf_words env;              /* the running command's prefix assignments (jf_invocation.env) */
	bool nounset;              /* `set -u` */
	bool vars_uncertain;       /* functions, eval, read: variables may be set unseen */
	JF_ARRAY(shell_fn) fns;    /* the functions defined so far (a child shell has none) */
	/* The variables the job's shell texts assign anywhere (shared by every
	 * shell of the job): its own names, which no image or platform sets. */
	jf_strings *own;
	jf_strings *inherits; /* ...and those an assignment reads first (X=$X:..., X+=...) */
	fn_frame *frame;           /* the function call being walked, or NULL */
	int depth;
	jf_loc argv_at;            /* the argv unit being run: its words have no tree */
} shell;

/* How a Python script is launched: the launcher and its options w[from, i). */
typedef struct {
	const char *launcher;
	size_t from;
	const char *wrapper; /* mpirun, horovodrun */
	size_t wrapper_from, wrapper_to;
	/* A word known only at run time stands among the launcher's (the
	 * wrapper's) options: it may be any of them. */
	bool open, wrapper_open;
} launch;

/* SCRIPT_EXEC: a shell script run by its path (`./run.sh`), by its #! line */
typedef enum { SCRIPT_SHELL, SCRIPT_PYTHON, SCRIPT_EXEC } script_kind;

/* interp.c */

var *jf_shell__find_var(shell *sh, const char *name);
/** Sets $name; the caller records where, when it knows. */
var *jf_shell__set_var(shell *sh, const char *name, const char *value, bool exported);
/** The value of $name: NULL when unknown; *unset tells a variable nothing sets. */
const char *jf_shell__lookup(shell *sh, const char *name, bool *unset);
/** Whether $name, unset here, is surely unset when the job runs (bash expands it to ""). */
bool jf_shell__surely_unset(shell *sh, const char *name);
/** Container path `p` from the current folder; NULL when the folder is unknown. Caller frees. */
char *jf_shell__container_path(shell *sh, const char *p);
/** The job creates `p` (NULL: something jobfix cannot name). */
void jf_shell__produce(shell *sh, const char *p);
bool jf_shell__is_produced(const shell *sh, const char *cpath);
/** The command writes `p` (a write into an input mount is JF106). */
void jf_shell__write_at(shell *sh, const char *p, const word *at);
/** Walks launch script `u` in this shell (`source`) or a child shell; w[first..] are its $1... */
void jf_shell__run_launch_script(shell *sh, jf_file *u, bool same_shell, const words *w,
                                 size_t first);

/* words.c */

/** Notes in the facts' `not_followed` that what word `at` starts is not
 * followed: "FILE:LINE: " and then the message. */
void jf_shell__not_followed(shell *sh, const word *at, const char *fmt, ...) JF_PRINTF(3, 4);
/** Notes in the facts' `assumed` what the walk took for a value it cannot
 * know at word `at`: "FILE:LINE: " and then the message. */
void jf_shell__assume(shell *sh, const word *at, const char *fmt, ...) JF_PRINTF(3, 4);
/** Container path `cpath` as shown: under the code folder as the code is shown. Caller frees. */
char *jf_shell__shown(const shell *sh, const char *cpath);

/** Where findings about node `n` of the file belong, as a word without a value. */
word jf_shell__place(shell *sh, TSNode n);
/** A word of the file at node `n`, placed where findings about it belong. */
word jf_shell__make_word(shell *sh, TSNode n);
/** The value of word node `n` as a new string, or NULL when unknown. */
char *jf_shell__word_value(shell *sh, TSNode n);
word jf_shell__copy_word(const word *w);
/** Copies w[from, to) onto the end of `out`. */
void jf_shell__copy_words(words *out, const words *w, size_t from, size_t to);
bool jf_shell__word_is(const words *w, size_t i, const char *s);
bool jf_shell__word_starts(const words *w, size_t i, const char *s);
/** Whether node `n` is "$@" or $@ (also $*): all positional parameters. */
bool jf_shell__all_args(shell *sh, TSNode n);
/** Whether node `n` is "${@:N}" or "${@:N:L}" (N >= 1), with its first index
 * into the positional parameters and its length (SIZE_MAX: to the end). */
bool jf_shell__args_slice(shell *sh, TSNode n, size_t *from, size_t *len);
/** The last path component of word i, or "" when unknown. */
const char *jf_shell__word_base(const words *w, size_t i);

/* programs.c */

/** Runs the command whose name is word i; `outer` is the mpirun or horovodrun
 * that runs it, or NULL. */
void jf_shell__run_words(shell *sh, words *w, size_t i, TSNode cmd, const launch *outer);

/* launchers.c */

/** The launch by `launcher` with options from w[from], inside `outer`'s wrapper. */
launch jf_shell__launch_of(const char *launcher, size_t from, const launch *outer);
/** A script named by word i: loaded, walked (a launch script) or recorded (an entry script). */
void jf_shell__script(shell *sh, const words *w, size_t i, script_kind kind, bool same_shell,
                      const launch *how);
/** Whether `name` runs a Python interpreter: python, python3, python3.10, a path to one. */
bool jf_shell__is_python(const char *name);
/** A python invocation from word i (the interpreter). */
void jf_shell__python(shell *sh, const words *w, size_t i, TSNode cmd, const launch *outer);
/** When word i names a launcher (torchrun, deepspeed, accelerate launch, mpirun,
 * horovodrun), runs it and returns true. */
bool jf_shell__launcher(shell *sh, words *w, size_t i, TSNode cmd, const launch *outer);
/** When `name` is a console script of a local project the job installed, loads its module as an entry script and returns true. */
bool jf_shell__run_console_script(shell *sh, const char *name);

/* installs.c */

/** `python setup.py develop|install` with the script at w[script]: the project in its folder. */
void jf_shell__setup_py(shell *sh, const words *w, size_t script);
/** The job installs something that may bring any package; `why` (taken) says what, for --verbose. */
void jf_shell__installs_unknown(shell *sh, char *why);
/** `pip install ...` or `conda install ...` from word i (just after "install"). */
void jf_shell__install_words(shell *sh, const words *w, size_t i, bool pip);
/** JF104's fact: `pip install ...` from word i, into the system site-packages. */
void jf_shell__pip_install(shell *sh, const words *w, size_t i, TSNode cmd, bool explicit_path);
/** The import folders and console scripts of the local projects the image's build installs. */
void jf_shell__image_projects(shell *sh);
/** The console script `name` of a local project installed so far, or NULL. */
const jf_console_script *jf_shell__console_script(shell *sh, const char *name);

#endif
