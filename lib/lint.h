/* lint.h - the context of one lint: the job, its files and their trees
 *
 * A jf_ctx lives for one jf_linter_lint() call. It owns the sources and the
 * trees of every file it reads (each file read and parsed once) and the job
 * spec; diagnostics go into the linter's report, which borrows the sources,
 * so the linter keeps them until it is freed.
 */
#ifndef JF_LINT_H
#define JF_LINT_H

#include <sys/types.h>
#include <tree_sitter/api.h>

#include "core/diag.h"
#include "env/image.h"
#include "job/job.h"
#include "rules/registry.h"

typedef enum {
	JF_ROLE_FILE,    /* linted alone */
	JF_ROLE_COMMAND, /* the job spec's `command` */
	JF_ROLE_LAUNCH,  /* a shell script the command runs */
	JF_ROLE_ENTRY,   /* a Python script the command or a launch script runs */
	JF_ROLE_MODULE,  /* a local module an entry script imports */
} jf_role;

struct jf_unit {
	jf_source *src;      /* borrowed from the context */
	jf_lang lang;
	TSTree *tree;
	jf_role role;
	char *fs_path;       /* on this machine; NULL for the command */
	char *container_dir; /* its folder in the container, or NULL when unknown */
	/* The command in a YAML value jobfix could not map byte for byte (escapes,
	 * folding) is parsed from a copy; its findings point at the value. */
	const jf_source *origin_src;
	jf_span origin;
	int depth;           /* of launch scripts / imports */
	char *import_root;   /* sys.path[0] on this machine, for Python units */
	/* Its absolute imports: the module of each `import a.b` and `from a.b
	 * import ...` (one per statement), as imports.c found them. */
	JF_ARRAY(TSNode) imports;
};

/* A file by identity, whatever the path to it. */
typedef struct {
	dev_t dev;
	ino_t ino;
} jf_file_id;

typedef JF_ARRAY(jf_file_id) jf_file_ids;

struct jf_linter {
	jf_options opts;
	jf_report report;
	JF_ARRAY(jf_source *) sources; /* every source a diagnostic may point into */
	TSParser *parsers[JF_LANG_COUNT];
	char *error;
	/* jf_linter_restrict(): the files, by identity and by real path. */
	bool restricted;
	jf_file_ids changed;
	JF_ARRAY(char *) changed_real;
	jf_file_ids read; /* the files of every lint that was not left out */
	JF_ARRAY(char *) skipped; /* jf_linter_skipped() */
};

/* A shell word as the command line gives it: where it stands (in the job spec
 * for words the command passes through "$@") and its value. */
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
	jf_unit *entry;        /* the script's unit */
	jf_word script;        /* the word that names it */
	const char *launcher;  /* "python", "torchrun", "torch.distributed.launch", "deepspeed",
	                          "accelerate", with "mpirun"/"horovodrun" in `wrapper` */
	const char *wrapper;   /* "mpirun", "horovodrun", or NULL */
	jf_words launcher_args; /* the launcher's own words before the script */
	jf_words wrapper_args;  /* mpirun's or horovodrun's options */
	jf_words args;         /* the script's arguments */
	jf_words env;          /* "NAME=value" set for it: the command's prefix assignments,
	                          `env NAME=value`, and CUDA_VISIBLE_DEVICES as exported
	                          before; just "NAME" when the value is not known */
	const jf_unit *unit;   /* the command or launch script that runs it */
	char *cwd;             /* the container folder it runs in, or NULL when unknown */
} jf_invocation;

/* A `pip install` that writes into the system site-packages: no --user,
 * --target, --prefix or --root, no active virtualenv, no PIP_USER. */
typedef struct {
	const jf_source *src;
	jf_span span;
} jf_pip_fact;

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

struct jf_ctx {
	jf_linter *linter;
	jf_job *job; /* NULL when a file is linted alone */
	JF_ARRAY(jf_unit *) units;
	/* Facts found by the command analysis, for the C checks. */
	JF_ARRAY(jf_pip_fact) pip_installs;
	JF_ARRAY(jf_invocation) invocations;
	JF_ARRAY(jf_exec_fact) execs;
	/* Distributions the job installs itself (pip, conda, requirements files);
	 * `installs_unknown` when it installs something jobfix cannot name
	 * (`pip install .`, `-r $FILE`), which may bring any package. */
	JF_ARRAY(char *) installed;
	bool installs_unknown;
	/* Variables the command and launch scripts export to the programs they
	 * run (also `X=v cmd`); the launchers and wrappers of the invocations
	 * tell which more are set (data/platforms.yaml). */
	JF_ARRAY(char *) exported;
	JF_ARRAY(jf_var_use) var_uses;
	/* Container paths the command and launch scripts create (git clone,
	 * downloads, redirections, mkdir, cp targets); `produced_unknown` when
	 * they create something jobfix cannot name. */
	JF_ARRAY(char *) produced;
	bool produced_unknown;
	int tf_creates_variables; /* 0 not yet known, 1 yes, -1 no (tf.c) */
	jf_image *image;          /* resolved on first use: jf_ctx_image() */
};

/** What is known of the job's image (nothing for a file linted alone); never NULL. */
jf_image *jf_ctx_image(jf_ctx *ctx);

/** Reads a file once per lint; returns the unit, or NULL after reporting why not. */
jf_unit *jf_ctx_load(jf_ctx *ctx, const char *fs_path, const char *display_path, jf_lang lang,
                     jf_role role, const char *container_dir, int depth);
/**
 * A unit over `ranges` of an already loaded source (the job's command). With
 * `origin_src`, its findings are reported at `origin` of that source instead.
 */
jf_unit *jf_ctx_add_embedded(jf_ctx *ctx, jf_source *src, const TSRange *ranges, uint32_t n,
                             jf_lang lang, jf_role role, const jf_source *origin_src,
                             jf_span origin);
/** The unit already loaded from `fs_path`, or NULL. */
jf_unit *jf_ctx_find(const jf_ctx *ctx, const char *fs_path);
/** Keeps `src` alive for the linter's lifetime; returns it. */
jf_source *jf_ctx_keep(jf_ctx *ctx, jf_source *src);

/** Reports a finding of `rule_id` at `span` of `unit` (mapped through its origin). */
jf_diag *jf_ctx_report(jf_ctx *ctx, const char *rule_id, const jf_unit *unit, jf_span span,
                       const char *fmt, ...) JF_PRINTF(5, 6);
/** Notes that `rule_id`'s check was skipped, and how to enable it (--verbose); once per message. */
void jf_ctx_skip(jf_ctx *ctx, const char *rule_id, const char *fmt, ...) JF_PRINTF(3, 4);
/** Reports a finding at `span` of `src` directly. */
jf_diag *jf_ctx_report_at(jf_ctx *ctx, const char *rule_id, const jf_source *src, jf_span span,
                          const char *fmt, ...) JF_PRINTF(5, 6);

static inline jf_span jf_node_span(TSNode n)
{
	return (jf_span){ ts_node_start_byte(n), ts_node_end_byte(n) };
}

/** Whether `n` is not null and of type `type`. */
static inline bool jf_node_type_is(TSNode n, const char *type)
{
	return !ts_node_is_null(n) && !strcmp(ts_node_type(n), type);
}

/** The child of `n` in field `name`; a null node when `n` is null or has none. */
static inline TSNode jf_node_field(TSNode n, const char *name)
{
	if (ts_node_is_null(n))
		return n;
	return ts_node_child_by_field_name(n, name, (uint32_t)strlen(name));
}

/*
 * A walk over a node and every node under it, in source order:
 *
 *	jf_iter it;
 *	for (TSNode n = jf_iter_start(&it, root); !ts_node_is_null(n);
 *	     n = jf_iter_next(&it, descend))
 *		...
 *	jf_iter_release(&it);
 *
 * `descend` false skips the children of the node just visited.
 */
typedef struct {
	TSTreeCursor cur;
} jf_iter;

TSNode jf_iter_start(jf_iter *it, TSNode root);
/** The next node, or a null node at the end. */
TSNode jf_iter_next(jf_iter *it, bool descend);
void jf_iter_release(jf_iter *it);

/**
 * Whether Python `try_stmt` has a bare `except`, or one that names any of
 * `names` (NULL-terminated; in a tuple too, or as `except X as e`).
 */
bool jf_py_try_catches(const jf_unit *unit, TSNode try_stmt, const char *const *names);
/** Whether the job installs distribution `dist` itself (pip, conda, requirements files). */
bool jf_ctx_installs(const jf_ctx *ctx, const char *dist);

/** The text of `n` in `unit`'s source as a new string; caller frees. */
char *jf_node_text(const jf_unit *unit, TSNode n);
/** Whether the text of `n` equals `s`. */
bool jf_node_is(const jf_unit *unit, TSNode n, const char *s);

#endif
