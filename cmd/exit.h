/* exit.h - the exit codes of the jobfix command, fixed for scripts and CI */
#ifndef JF_EXIT_H
#define JF_EXIT_H

#define JF_EXIT_OK 0       /* nothing at or above --fail-on */
#define JF_EXIT_FINDINGS 1 /* findings at or above --fail-on */
#define JF_EXIT_ERROR 2    /* usage, unreadable input, jobfix's own rules broken */

int cmd_lint(int argc, char **argv);
int cmd_rules(int argc, char **argv);
int cmd_explain(int argc, char **argv);

/** Prints "jobfix: error: ..." and the usage hint to stderr; returns JF_EXIT_ERROR. */
int usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/**
 * The value of option `name` at argv[*i], given as `--name=v` or `--name v`
 * (then *i moves past it); NULL when argv[*i] is another option, or, with
 * *missing set, when the value is missing.
 */
const char *option_value(int argc, char **argv, int *i, const char *name, int *missing);
/** Flushes stdout and reports a write error; returns `rc` or JF_EXIT_ERROR. */
int finish_stdout(int rc);

#endif
