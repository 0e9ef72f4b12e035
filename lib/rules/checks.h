/* checks.h - the C side of the rules: checks and query hooks, and what they see
 *
 * A check or a hook reads the facts of the lint (facts/facts.h) and reports
 * into the sink; it loads no file and walks no whole tree (a hook may look
 * around its own match). The table of checks and hooks is checks.def.
 */
#ifndef JF_CHECKS_H
#define JF_CHECKS_H

#include "core/sink.h"
#include "facts/facts.h"
#include "rules/registry.h"
#include "sources/tree.h"

/* What a rule sees: the facts, read-only, and where its findings go. */
struct jf_rule_ctx {
	const jf_facts *facts;
	jf_sink *out;
};

/** The rule's message with its {{captures}} filled from `m`; caller frees. */
char *jf_rule_message(const jf_rule *rule, const jf_match *m, const jf_file *file);
/** The same with capture `capture` shown as `value`; caller frees. */
char *jf_rule_message_with(const jf_rule *rule, const jf_match *m, const jf_file *file,
                           const char *capture, const char *value);
/** The text of capture `name` of `m`, or NULL; caller frees. */
char *jf_match_text(const jf_file *file, const jf_match *m, const char *capture);

/* C checks and query hooks named in checks.def. */

/** JF102: scripts the command names that are not there (scripts.c). */
void jf_check_scripts(jf_rule_ctx *ctx, const jf_rule *rule);
/** JF104: `pip install` into a system site-packages the job cannot write (pip.c). */
void jf_check_pip_install(jf_rule_ctx *ctx, const jf_rule *rule);
/** JF302-JF309: invocations against the entry scripts' command lines (arguments.c). */
void jf_check_arguments(jf_rule_ctx *ctx, const jf_rule *rule);
/**
 * When `entry` is a local launcher (a positional script and a REMAINDER for
 * its arguments), the index in `args` of the word naming the script it runs;
 * else -1 (arguments.c).
 */
long jf_wrapped_script(const jf_facts *facts, const jf_file *entry, const jf_words *args);
/** JF110, JF111: imports against the image's packages and Python (packages.c). */
void jf_check_packages(jf_rule_ctx *ctx, const jf_rule *rule);
/** JF310: code the image's Python version cannot run (pyversion.c). */
void jf_check_python_version(jf_rule_ctx *ctx, const jf_rule *rule);
/** JF105, JF112: programs the image forbids or lacks (programs.c). */
void jf_check_programs(jf_rule_ctx *ctx, const jf_rule *rule);
/** JF401: shell scripts with CRLF line endings (crlf.c). */
void jf_check_crlf(jf_rule_ctx *ctx, const jf_rule *rule);
/** JF108, JF109: environment variables nothing sets for the job (envvars.c). */
void jf_check_env_vars(jf_rule_ctx *ctx, const jf_rule *rule);
/** JF103, JF106, JF107 and JF101 through names: the paths the job uses (paths.c). */
void jf_check_paths(jf_rule_ctx *ctx, const jf_rule *rule);
/** JF210, JF211: processes per node against the job's GPUs (topology.c). */
void jf_check_topology(jf_rule_ctx *ctx, const jf_rule *rule);
/**
 * Whether `p` is a path of the developer's machine that the job's container
 * does not provide (JF101's places, less mounts, workdir and the image user's
 * home) (local_path.c).
 */
bool jf_developer_path(const jf_job *job, const char *p);
void jf_hook_local_path(jf_rule_ctx *ctx, const jf_rule *rule, const jf_file *file,
                        const jf_match *m);
void jf_hook_tf_variable_scope(jf_rule_ctx *ctx, const jf_rule *rule, const jf_file *file,
                               const jf_match *m);
void jf_hook_tf_session_run(jf_rule_ctx *ctx, const jf_rule *rule, const jf_file *file,
                            const jf_match *m);

/** Whether Python `try_stmt` has a bare `except`, or one that names any of
 * `names` (NULL-terminated; in a tuple too, or as `except X as e`). */
bool jf_py_try_catches(const jf_file *file, TSNode try_stmt, const char *const *names);

#endif
