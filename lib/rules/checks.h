/* checks.h - the C side of the rules: checks and query hooks, and what they see
 *
 * A check or a hook reads the facts of the lint (facts/facts.h) and reports
 * into the sink; it loads no file and walks no whole tree (a hook may look
 * around its own match). The table of checks and hooks is checks.def.
 */
#ifndef JF_CHECKS_H
#define JF_CHECKS_H

#include "core/sink.h"
#include "core/strmap.h"
#include "facts/facts.h"
#include "rules/record.h"
#include "rules/registry.h"
#include "sources/tree.h"

/* What a rule sees: the facts, read-only, and where its findings go. */
struct jf_rule_ctx {
	const jf_facts *facts;
	const jf_records *records; /* what the gather took of each Python file for the pass */
	jf_sink *out;
	struct jf_file_pass *pass; /* where jf_check_each_file()'s parts wait */
};

/* A check's look at file `file`, the `index`th of the workspace. */
typedef void (*jf_file_part_fn)(void *state, size_t index, const jf_file *file);
/* Whether a part reads the tree (or Python facts) of the `index`th file: a
 * look at its records, before the pass. */
typedef bool (*jf_file_wants_fn)(const void *state, size_t index, const jf_file *file);

/* A check's part in the pass over the files (jf_check_each_file()). */
typedef struct {
	/* The files whose trees (or Python facts) `each` reads; NULL: none, it
	 * reads their records only (jf_records_of()). Such a part may still read
	 * another file's facts where it is rare: they go at the next file. */
	jf_file_wants_fn reads_tree;
	jf_file_part_fn each;      /* looks at each file of the lint, in the workspace's order */
	void (*end)(void *state);  /* after the last file; frees `state` */
} jf_file_part;

/**
 * Has `part` look at every file of the lint, then end. The checks' parts
 * share one pass over the files: each file's tree is read once for all of
 * them, however few trees the lint keeps (jf_facts_settle() before each
 * file), instead of once per check, and only where some part reads it (a
 * released tree is parsed again ahead for those). Findings and skips go to
 * `ctx->out` as from the check itself; `state` keeps what the check needs of
 * `ctx` and of what it read before.
 */
void jf_check_each_file(jf_rule_ctx *ctx, const jf_file_part *part, void *state);

/**
 * Says for --verbose, as skips of `rule_id`, the notes of the job about any
 * of `facts` (jf_job_fact bits), in the order its reader wrote them: why a
 * fact the check needs is not known, and what the reader assumed of one it
 * relies on. Nothing for a file linted alone.
 */
void jf_check_say_job(jf_rule_ctx *ctx, const char *rule_id, unsigned facts);

/** Whether `u` is Python that the job runs, read whole: its entry script or a module. */
static inline bool jf_runs_python(const jf_file *u)
{
	return u->lang == JF_LANG_PYTHON && u->src->status == JF_SOURCE_OK &&
	       (u->role == JF_ROLE_ENTRY || u->role == JF_ROLE_MODULE);
}

/** The rule's message with its {{captures}} filled from `m`; caller frees. */
char *jf_rule_message(const jf_rule *rule, const jf_match *m, const jf_file *file);
/** The same with capture `capture` shown as `value`; caller frees. */
char *jf_rule_message_with(const jf_rule *rule, const jf_match *m, const jf_file *file,
                           const char *capture, const char *value);
/** The text of capture `name` of `m`, or NULL; caller frees. */
char *jf_match_text(const jf_file *file, const jf_match *m, const char *capture);

/* The C checks and query hooks, declared from their lines in checks.def. */
#define JF_CHECK(id, name, sev, cat, summary, help, fn)                                     \
	void fn(jf_rule_ctx *ctx, const jf_rule *rule);
#define JF_EMITTED(id, name, sev, cat, summary, help)
#define JF_HOOK(name, fn)                                                                  \
	void fn(jf_rule_ctx *ctx, const jf_rule *rule, const jf_file *file, const jf_match *m);
#define JF_RECORD(kind, check, prefix, reads)
#include "rules/checks.def"
#undef JF_CHECK
#undef JF_EMITTED
#undef JF_HOOK
#undef JF_RECORD

/* What the checks share. */

/**
 * Whether `p` is a path of the developer's machine that the job's container
 * does not provide (JF101's places, less mounts, workdir and the home of the
 * image's user) (local_path.c).
 */
bool jf_developer_path(const jf_facts *facts, const char *p);
/** Whether the Python call of function `fn` with `args` (its fields) makes a
 * folder: os.makedirs(P), os.mkdir(P), tf.io.gfile.makedirs(P), P.mkdir(...)
 * (pathlib, any object but `os`); P in *path (local_path.c). */
bool jf_py_makes_folder(const jf_file *unit, TSNode fn, TSNode args, TSNode *path);
/** How many times `name` stands as a whole word in the job's Python files,
 * comments left out, counting up to `most` (paths.c). */
size_t jf_name_mentions(const jf_facts *facts, const char *name, size_t most);
/** Whether folder `dir` of this machine holds module `top` (top.py, a folder
 * top/, or a compiled top.*.so) (packages.c). */
bool jf_module_in(jf_module_finder *self, const char *dir, const char *top);
void jf_module_finder_release(jf_module_finder *self);
/** Whether Python `if_stmt` is `if __name__ == "__main__":` (its condition names both). */
bool jf_py_is_main_guard(const jf_file *file, TSNode if_stmt);
/** Whether Python `try_stmt` has a bare `except`, or one that names any of
 * `names` (NULL-terminated; in a tuple too, or as `except X as e`). */
bool jf_py_try_catches(const jf_file *file, TSNode try_stmt, const char *const *names);

#endif
