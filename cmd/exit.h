/* exit.h - the exit codes of the jobfix command, fixed for scripts and CI */
#ifndef JF_EXIT_H
#define JF_EXIT_H

#define JF_EXIT_OK 0       /* nothing at or above --fail-on */
#define JF_EXIT_FINDINGS 1 /* findings at or above --fail-on */
#define JF_EXIT_ERROR 2    /* usage, unreadable input, jobfix's own config or rules broken */

#include "jobfix/jobfix.h"

int cmd_lint(int argc, char **argv);
int cmd_rules(int argc, char **argv);

/** Prints "jobfix: error: ..." and the usage hint to stderr; returns JF_EXIT_ERROR. */
int usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/** Flushes stdout and reports a write error; returns `rc` or JF_EXIT_ERROR. */
int finish_stdout(int rc);

/** Whether output to `fd` gets colour: `color` 1 always, 0 never, -1 on a terminal without NO_COLOR. */
int cmd_color_for(int color, int fd);
/**
 * The config of a command: the file at `path`, else (unless `no_config`) the
 * one jf_config_find() finds, with `overrides` (key, value pairs for
 * jf_config_set(), NULL-terminated) on top, resolved. NULL after printing its
 * errors in `format` (json on stdout, the others on stderr) and a last line
 * saying their number and `consequence`.
 */
jf_config *cmd_load_config(const char *path, int no_config, const char *const *overrides,
                           jf_format format, int color, const char *consequence);

#endif
