/* main.c - the jobfix command: dispatch to subcommands */
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "jobfix/jobfix.h"

static const struct {
	const char *name;
	int (*fn)(int, char **);
	const char *help;
} commands[] = {
	{ "lint", cmd_lint, "lint job specs, Python and shell files" },
	{ "rules", cmd_rules, "list every rule: id, name, severity, category, summary" },
	{ "show", cmd_show, "show what jobfix understands of a job file: image, command, scripts" },
	{ "triage", cmd_triage, "read a failed job's log: what ended it, whether a retry can help" },
	{ "explain", cmd_explain, "explain a rule: what it finds, why the job fails, the fix" },
	{ "hook", cmd_hook, "install or remove the git pre-commit hook that lints staged files" },
};

static void print_help(void)
{
	printf("jobfix - a linter for deep-learning training jobs\n\n"
	       "usage: jobfix <command> [options] [args]\n\n"
	       "commands:\n");
	for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
		printf("  %-8s %s\n", commands[i].name, commands[i].help);
	printf("\noptions:\n"
	       "  -h, --help     show this help\n"
	       "  --version      show the version\n\n"
	       "'jobfix <command> --help' shows the options of a command; 'man jobfix' and\n"
	       "'jobfix explain RULE' tell more.\n");
}

int usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fputs("jobfix: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nsee 'jobfix %s--help'\n", cmd ? cmd : "");
	return JF_EXIT_ERROR;
}

const char *option_value(int argc, char **argv, int *i, const char *name, int *missing)
{
	size_t n = strlen(name);
	if (strncmp(argv[*i], name, n))
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n] != '\0')
		return NULL;
	if (*i + 1 >= argc) {
		*missing = 1;
		return NULL;
	}
	return argv[++*i];
}

int cmd_bad_option(const char *cmd, const char *arg, int missing)
{
	if (missing)
		return usage_error(cmd, "option '%s' needs a value", arg);
	return usage_error(cmd, "unknown option '%s'", arg);
}

int finish_stdout(int rc)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("jobfix: error: cannot write the output");
		return JF_EXIT_ERROR;
	}
	return rc;
}

int main(int argc, char **argv)
{
#ifndef JF_MIMALLOC
	/* A lint allocates and frees tens of MB in large blocks (tree-sitter's
	 * query analysis): keep them on the heap instead of mapping and zeroing
	 * fresh pages for each, which costs about a fifth of a small lint. */
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 128 << 20);
	mallopt(M_TOP_PAD, 16 << 20);
#endif
	if (argc < 2)
		return usage_error(NULL, "no command given");
	const char *cmd = argv[1];
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
		print_help();
		return finish_stdout(JF_EXIT_OK);
	}
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
		printf("jobfix %s\n", JF_VERSION);
		return finish_stdout(JF_EXIT_OK);
	}
	for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
		if (!strcmp(commands[i].name, cmd))
			return commands[i].fn(argc - 1, argv + 1);
	return usage_error(NULL, "unknown command '%s'", cmd);
}
