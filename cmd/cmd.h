/* cmd.h - what the subcommands share: the exit codes, fixed for scripts and CI, and the helpers of option parsing and output */
#ifndef JF_CMD_H
#define JF_CMD_H

#define JF_EXIT_OK 0       /* nothing at or above --fail-on */
#define JF_EXIT_FINDINGS 1 /* findings at or above --fail-on */
#define JF_EXIT_ERROR 2    /* usage, unreadable input, jobfix's own config or rules broken */

#include <stdbool.h>
#include <stdio.h>

#include "jobfix/jobfix.h"

int cmd_lint(int argc, char **argv);
int cmd_rules(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_triage(int argc, char **argv);

/** Prints "jobfix: error: ..." and the usage hint to stderr; returns JF_EXIT_ERROR. */
int usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/**
 * The value of option `name` at argv[*i], given as `--name=v` or `--name v`
 * (then *i moves past it); NULL when argv[*i] is another option, or, with
 * *missing set, when the value is missing.
 */
const char *option_value(int argc, char **argv, int *i, const char *name, int *missing);
/**
 * Prints the usage error of `arg`, which `cmd` does not take: an option
 * without its value (`missing`, as option_value() sets it) or an unknown
 * option; returns JF_EXIT_ERROR.
 */
int cmd_bad_option(const char *cmd, const char *arg, int missing);
/** Flushes stdout and reports a write error; returns `rc` or JF_EXIT_ERROR. */
int finish_stdout(int rc);

/** Whether output to `fd` gets colour: `color` 1 always, 0 never, -1 on a terminal without NO_COLOR. */
int cmd_color_for(int color, int fd);
/**
 * Writes a report to `path` through `write` (0, or negative when writing
 * failed). A regular file (or a new one) is written to a temporary file beside
 * it and renamed over `path` once complete, so that a failed write leaves no
 * truncated file; a symbolic link or any other file (/dev/stdout, a pipe) is
 * written in place. Returns 0, or prints why to stderr and returns -1.
 */
int cmd_write_file(const char *path, int (*write)(void *data, FILE *f), void *data);

/* Where a command's report goes: stdout in `format` (`color` 1, 0 or -1 for
 * auto), and a copy in `output_format` into the file `output` (NULL: none). */
typedef struct {
	jf_format format;
	int color;
	const char *output;
	jf_format output_format;
} cmd_formats;

/* Which config a command reads: --config FILE, --no-config. */
typedef struct {
	const char *path; /* --config FILE; NULL: the one jf_config_find() finds */
	bool none;        /* --no-config */
} cmd_config_args;

/**
 * Takes argv[*i] into `c` when it is --config FILE or --no-config (then *i
 * moves as option_value() moves it); false for another argument, with
 * *missing set when it is --config without its value.
 */
bool cmd_config_arg(int argc, char **argv, int *i, cmd_config_args *c, int *missing);
/** The usage error of --config with --no-config (JF_EXIT_ERROR), else JF_EXIT_OK. */
int cmd_config_args_check(const char *cmd, const cmd_config_args *c);

/**
 * The config of a command: the file `c` names, else (unless --no-config) the
 * one jf_config_find() finds, with `overrides` (key, value pairs for
 * jf_config_set(), NULL-terminated) on top, resolved. NULL after reporting
 * its errors as `to` says: text and concise on stderr, json, sarif and github
 * on stdout (where CI reads them), and into the output file; then a last line
 * on stderr saying their number and `consequence`.
 */
jf_config *cmd_load_config(const cmd_config_args *c, const char *const *overrides,
                           const cmd_formats *to, const char *consequence);

/* Running git (git.c): as `git ARGS...`, found on PATH, with no shell. */
typedef struct {
	char *out; /* its stdout, NUL-terminated */
	size_t out_len;
	char *err; /* its stderr, NUL-terminated, without the last newline */
	int status; /* its exit status; 128 when a signal ended it */
} cmd_git_result;

/** Runs git; 0 when it ran (see r->status), -1 with errno set when it could not start. */
int cmd_git(const char *const *args, cmd_git_result *r);
void cmd_git_result_release(cmd_git_result *r);
/**
 * The first line of what git prints for `args`, or NULL after printing
 * "jobfix: error: WHAT: <git's message>" on stderr. Caller frees.
 */
char *cmd_git_line(const char *const *args, const char *what);

int cmd_hook(int argc, char **argv);

#endif
