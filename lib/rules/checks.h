/* checks.h - the C side of the rules: command analysis, import following, checks and hooks */
#ifndef JF_CHECKS_H
#define JF_CHECKS_H

#include "lint.h"

/** Finds the launch and entry scripts of the job's command and loads them (command.c). */
void jf_command_analyze(jf_ctx *ctx);
/** Loads the local modules that the job's Python files import (imports.c). */
void jf_imports_follow(jf_ctx *ctx);
/** Reports JF301 for a unit that does not parse (syntax.c). */
void jf_check_syntax(jf_ctx *ctx, const jf_unit *unit);

/** The rule's message with its {{captures}} filled from `m`; caller frees. */
char *jf_rule_message(const jf_rule *rule, const jf_match *m, const jf_unit *unit);
/** The same with capture `capture` shown as `value`; caller frees. */
char *jf_rule_message_with(const jf_rule *rule, const jf_match *m, const jf_unit *unit,
                           const char *capture, const char *value);
/** The text of capture `name` of `m`, or NULL; caller frees. */
char *jf_match_text(const jf_unit *unit, const jf_match *m, const char *capture);

/* C checks and query hooks named in checks.def. */
void jf_check_pip_install(jf_ctx *ctx, const jf_rule *rule);
/** JF302-JF306: invocations against the entry scripts' argument parsers (arguments.c). */
void jf_check_arguments(jf_ctx *ctx, const jf_rule *rule);
/**
 * When `entry` is a local launcher (a positional script and a REMAINDER for
 * its arguments), the index in `args` of the word naming the script it runs;
 * else -1 (arguments.c).
 */
long jf_wrapped_script(const jf_ctx *ctx, const jf_unit *entry, const jf_words *args);
/** JF110, JF111: imports against the image's packages and Python (packages.c). */
void jf_check_packages(jf_ctx *ctx, const jf_rule *rule);
/** JF310: code the image's Python version cannot run (pyversion.c). */
void jf_check_python_version(jf_ctx *ctx, const jf_rule *rule);
/** JF105, JF112: programs the image forbids or lacks (programs.c). */
void jf_check_programs(jf_ctx *ctx, const jf_rule *rule);
/** JF401: shell scripts with CRLF line endings (crlf.c). */
void jf_check_crlf(jf_ctx *ctx, const jf_rule *rule);
/** JF108, JF109: environment variables nothing sets for the job (envvars.c). */
void jf_check_env_vars(jf_ctx *ctx, const jf_rule *rule);
/** JF103, JF106, JF107 and JF101 through names: the paths the job's Python uses (paths.c). */
void jf_check_paths(jf_ctx *ctx, const jf_rule *rule);
/** JF210, JF211: processes per node against the job's GPUs (topology.c). */
void jf_check_topology(jf_ctx *ctx, const jf_rule *rule);
/**
 * Whether `p` is a path of the developer's machine that the job's container
 * does not provide (JF101's places, less mounts, workdir and the image user's
 * home) (local_path.c).
 */
bool jf_developer_path(const jf_ctx *ctx, const char *p);
void jf_hook_local_path(jf_ctx *ctx, const jf_rule *rule, const jf_unit *unit, const jf_match *m);
void jf_hook_tf_variable_scope(jf_ctx *ctx, const jf_rule *rule, const jf_unit *unit,
                               const jf_match *m);
void jf_hook_tf_session_run(jf_ctx *ctx, const jf_rule *rule, const jf_unit *unit,
                            const jf_match *m);

#endif
