/* shell.h - the job's command followed as bash runs it: the facts it leaves
 *
 * jf_shell_run() walks the job's command and every launch script it runs, in
 * order, statement by statement, as a linter can know them: the working
 * folder (`cd`), variables with literal values (assignments, `export`,
 * `${X:-default}`, the job's env), positional parameters, if/else when the
 * condition is known, files the job produces itself, active virtual
 * environments. Whatever is not known stays unknown, and no fact is built on
 * an unknown. Scripts are read through the workspace. The walk reports
 * nothing itself: it leaves facts (jf_shell_facts) for the rules.
 */
#ifndef JF_SHELL_H
#define JF_SHELL_H

#include "job/job.h"
#include "job/project.h"
#include "sources/workspace.h"

/* A shell word as the command line gives it: where it stands (in the job
 * file for words the command passes through "$@") and its value. */
typedef struct {
	const jf_source *src;
	jf_span span;
	char *value; /* NULL when not known before run time */
} jf_word;

typedef JF_ARRAY(jf_word) jf_words;

void jf_words_release(jf_words *w);
/** Whether shell word `word` passes option `opt`: `--opt`, `--opt=v` or an abbreviation. */
bool jf_word_passes(const char *word, const char *opt);

/* A Python entry script run by the command or a launch script. */
typedef struct {
	jf_file *entry;        /* the script */
	jf_word script;        /* the word that names it */
	jf_word launcher_at;   /* the word that names the launcher (torchrun, python), value NULL when none */
	const char *launcher;  /* "python", "torchrun", "torch.distributed.launch", "deepspeed",
	                          "accelerate", "script" (run by its path), or the path of a
	                          local launcher script */
	const char *wrapper;   /* "mpirun", "horovodrun", or NULL */
	jf_words launcher_args; /* the launcher's own words before the script */
	jf_words wrapper_args;  /* mpirun's or horovodrun's options */
	/* A word of launcher_args (wrapper_args) known only at run time stands
	 * where an option does (`torchrun $DISTRIBUTED_ARGS train.py`): it may be
	 * any of the launcher's options, whatever the others say. */
	bool launcher_open, wrapper_open;
	jf_words args;         /* the script's arguments */
	jf_words env;          /* "NAME=value" set for it: the command's prefix assignments,
	                          `env NAME=value`, and CUDA_VISIBLE_DEVICES as exported
	                          before; just "NAME" when the value is not known */
	const jf_file *unit;   /* the command or launch script that runs it */
	char *cwd;             /* the container folder it runs in, or NULL when unknown */
} jf_invocation;

/* A program the command or a launch script runs. */
typedef struct {
	jf_word name; /* the word that names it, as written ("python3", "/usr/bin/python", "sudo") */
	char *arg;    /* its first argument ("install" of apt-get), or NULL */
} jf_exec_fact;

/* A shell variable used where nothing the job says sets it: under `set -u`,
 * or at the start of a path ("$DATA/train.csv"). */
typedef struct {
	const jf_source *src;
	jf_span span; /* the expansion */
	char *name;
	bool nounset; /* under `set -u` */
	bool path;    /* followed by '/' */
} jf_var_use;

/* A script the command names that is not in the code folder. */
typedef struct {
	jf_word word;     /* the word naming it (value known) */
	bool python;      /* an entry script, not a launch script */
	bool is_dir;      /* a folder of that name is there */
	bool module_file; /* `python -m x.py`: a file name given as a module name */
	char *display;    /* its path under the code folder, as shown */
	char *cpath;      /* its path in the container */
} jf_missing_script;

/* A path the shell writes: a redirection, mkdir, touch, the target of cp. */
typedef struct {
	jf_word at;       /* the word (value known) */
	char *cpath;      /* in the container, or NULL when the folder is unknown */
} jf_shell_write;

/* A distribution the job installs, with the version it asks for. */
typedef struct {
	char *name;
	char *version;    /* its exact pin ("2.1.0"), or NULL */
	char *spec;       /* its specifier ("==2.1.0", ">=1.20"), or NULL: any version */
	jf_loc at;        /* the word of the command that installs it (`-r FILE` for a file's) */
	char *file;       /* the requirements or conda file that lists it, or NULL */
} jf_shell_pin;

typedef struct {
	/* `pip install` into the system site-packages: no --user, --target,
	 * --prefix or --root, no active virtualenv, no PIP_USER. The place of the command. */
	JF_ARRAY(jf_loc) pip_installs;
	JF_ARRAY(jf_invocation) invocations;
	JF_ARRAY(jf_exec_fact) execs;
	/* Distributions the job installs itself (pip, conda, requirements files);
	 * `installs_unknown` when it installs something jobfix cannot name
	 * (`pip install .`, `-r $FILE`), which may bring any package. */
	jf_strings installed;
	JF_ARRAY(jf_shell_pin) pins; /* the same, in order, with versions and places */
	bool installs_unknown;
	char *installs_why; /* why installs_unknown, for --verbose */
	/* The local projects the image's build or the command installs (`pip
	 * install .`, `-e path`): the folders of this machine they make
	 * importable, and their console scripts (commands on PATH). */
	jf_strings import_roots;
	JF_ARRAY(jf_console_script) console_scripts;
	/* Variables the command and launch scripts export to the programs they
	 * run (also `X=v cmd`); the launchers and wrappers of the invocations
	 * tell which more are set (data/platforms.yaml). */
	jf_strings exported;
	JF_ARRAY(jf_var_use) var_uses;
	/* Container paths the command and launch scripts create (git clone,
	 * downloads, redirections, mkdir, cp targets); `produced_unknown` when
	 * they create something jobfix cannot name. */
	jf_strings produced;
	bool produced_unknown;
	JF_ARRAY(jf_missing_script) missing_scripts;
	/* What of the command is not followed, and why, in the order the walk
	 * met it ("launch.sh:3: what Python runs is not followed: ..."): the
	 * scripts it would run are not checked (JF102 says it for --verbose). */
	jf_strings not_followed;
	/* What the walk took for values it cannot know, in the order it met
	 * them ("train.sbatch:8: $SLURM_SUBMIT_DIR taken as ..."): said by JF102
	 * for --verbose, as the scripts it then follows rest on them. */
	jf_strings assumed;
	JF_ARRAY(jf_shell_write) writes;
	/* Statements walked, against JF_SHELL_MAX_STEPS: a script sourced again
	 * and again in a chain would otherwise take exponential time. */
	size_t steps;
} jf_shell_facts;

/* The statements one job's command is followed through at most. */
#define JF_SHELL_MAX_STEPS 200000u

/*
 * What the shell asks of the stages after it: whether Python entry script
 * `entry` is a launcher of another script (a positional naming a script and
 * an argparse.REMAINDER for its arguments, as torch.distributed.launch has)
 * and if so, the index in `args` of the word that names the script it runs;
 * else -1.
 */
typedef struct {
	long (*wrapped_script)(void *data, const jf_file *entry, const jf_words *args);
	void *data;
} jf_shell_host;

/**
 * Follows the job's command into its launch and entry scripts, loading them
 * into `ws`. Does nothing when the job has no command or no code folder.
 */
void jf_shell_run(jf_shell_facts *out, const jf_job *job, jf_workspace *ws,
                  const jf_shell_host *host);
void jf_shell_facts_release(jf_shell_facts *self);
/** Whether the job installs distribution `dist` itself. */
bool jf_shell_installs(const jf_shell_facts *self, const char *dist);

#endif
