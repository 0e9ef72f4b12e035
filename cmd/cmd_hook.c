/* cmd_hook.c - `jobfix hook install|uninstall`: the git pre-commit hook that runs `jobfix lint --staged` */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"

/* The line that marks a hook jobfix wrote. It is not a `# jobfix:` comment,
 * which jobfix would read as a suppression if it ever linted the hook. */
#define MARKER "# jobfix-hook 1: written by 'jobfix hook install'"

static void print_help(void)
{
	printf("usage: jobfix hook install [--force]\n"
	       "       jobfix hook uninstall\n\n"
	       "install writes the git pre-commit hook of the repository that holds the\n"
	       "current folder (.git/hooks/pre-commit, or where core.hooksPath points): a\n"
	       "shell script that runs 'jobfix lint --staged' with this jobfix binary (or\n"
	       "the jobfix on PATH when that binary is gone). It replaces a hook it wrote\n"
	       "before, and another hook only with --force. uninstall removes the hook if\n"
	       "jobfix wrote it.\n\n"
	       "options:\n"
	       "  --force     replace a pre-commit hook that jobfix did not write\n"
	       "  -h, --help  show this help\n");
}

/* The pre-commit hook's path, as git names it (core.hooksPath respected); caller frees. */
static char *hook_path(void)
{
	static const char *const args[] = { "rev-parse", "--git-path", "hooks", NULL };
	char *dir = cmd_git_line(args, "the hook belongs in a git repository");
	if (!dir)
		return NULL;
	size_t n = strlen(dir) + sizeof "/pre-commit";
	char *path = malloc(n);
	if (path)
		snprintf(path, n, "%s/pre-commit", dir);
	free(dir);
	return path;
}

/* Whether the file at `path` is a hook jobfix wrote; *exists whether there is one. */
static bool is_ours(const char *path, bool *exists)
{
	FILE *f = fopen(path, "r");
	*exists = f != NULL || errno != ENOENT;
	if (!f)
		return false;
	char line[512];
	bool ours = false;
	for (int i = 0; i < 5 && !ours && fgets(line, sizeof line, f); i++)
		ours = !strncmp(line, MARKER, strlen(MARKER));
	fclose(f);
	return ours;
}

/* Creates folder `dir` and the folders above it that are missing. */
static int make_dirs(const char *dir)
{
	char *p = strdup(dir);
	if (!p)
		return -1;
	for (char *c = p + 1;; c++) {
		if (*c != '/' && *c)
			continue;
		char saved = *c;
		*c = '\0';
		if (mkdir(p, 0777) != 0 && errno != EEXIST) {
			free(p);
			return -1;
		}
		*c = saved;
		if (!saved)
			break;
	}
	free(p);
	return 0;
}

/* Cuts `path` (which holds a '/') to its folder. */
static char *dirname_of(char *path)
{
	char *slash = strrchr(path, '/');
	if (slash == path)
		slash[1] = '\0';
	else if (slash)
		*slash = '\0';
	return path;
}

/* Appends `s` to `f` in single quotes, as sh reads it. */
static void put_quoted(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

/* The absolute path of the running jobfix, or NULL when it cannot be told. */
static char *own_binary(void)
{
	return realpath("/proc/self/exe", NULL);
}

typedef struct {
	const char *binary; /* NULL: the jobfix on PATH */
} hook_script;

static int write_script(void *data, FILE *f)
{
	const hook_script *h = data;
	fprintf(f, "#!/bin/sh\n" MARKER "; 'jobfix hook uninstall' removes it.\n"
	           "# Lints the staged job specs, the jobs that read a staged file and the other\n"
	           "# staged Python and shell files. 'git commit --no-verify' skips it.\n");
	if (!h->binary) {
		fprintf(f, "exec jobfix lint --staged\n");
		return ferror(f) ? -1 : 0;
	}
	fputs("installed=", f);
	put_quoted(f, h->binary);
	fputs("\njobfix=$installed\n"
	      "if [ ! -x \"$jobfix\" ]; then\n"
	      "\tjobfix=$(command -v jobfix) || {\n"
	      "\t\techo \"jobfix hook: $installed is gone and there is no jobfix on PATH;"
	      " 'git commit --no-verify' skips this hook\" >&2\n"
	      "\t\texit 1\n"
	      "\t}\n"
	      "fi\n"
	      "exec \"$jobfix\" lint --staged\n",
	      f);
	return ferror(f) ? -1 : 0;
}

static int install(bool force)
{
	char *path = hook_path();
	if (!path)
		return JF_EXIT_ERROR;
	bool exists, ours = is_ours(path, &exists);
	if (exists && !ours && !force) {
		fprintf(stderr,
		        "jobfix: error: '%s' exists and jobfix did not write it: it is left alone\n"
		        "hint: run it from yours ('jobfix lint --staged'), or replace it with "
		        "'jobfix hook install --force'\n",
		        path);
		free(path);
		return JF_EXIT_ERROR;
	}
	char *dir = strdup(path);
	if (!dir || make_dirs(dirname_of(dir)) != 0) {
		fprintf(stderr, "jobfix: error: cannot create the folder of '%s': %s\n", path,
		        strerror(errno));
		free(dir);
		free(path);
		return JF_EXIT_ERROR;
	}
	free(dir);
	char *binary = own_binary();
	hook_script h = { binary };
	int rc = JF_EXIT_OK;
	if (cmd_write_file(path, write_script, &h) < 0) {
		rc = JF_EXIT_ERROR; /* cmd_write_file() said why */
	} else if (chmod(path, 0755) != 0) {
		fprintf(stderr, "jobfix: error: cannot make '%s' executable: %s\n", path,
		        strerror(errno));
		rc = JF_EXIT_ERROR;
	} else {
		printf("jobfix: %s the pre-commit hook %s: it runs '%s lint --staged'\n",
		       !exists ? "installed" : ours ? "updated" : "replaced", path,
		       binary ? binary : "jobfix");
	}
	free(binary);
	free(path);
	return finish_stdout(rc);
}

static int uninstall(void)
{
	char *path = hook_path();
	if (!path)
		return JF_EXIT_ERROR;
	bool exists, ours = is_ours(path, &exists);
	int rc = JF_EXIT_OK;
	if (!exists) {
		printf("jobfix: there is no pre-commit hook (%s)\n", path);
	} else if (!ours) {
		fprintf(stderr, "jobfix: error: '%s' was not written by jobfix: it is left alone\n",
		        path);
		rc = JF_EXIT_ERROR;
	} else if (unlink(path) != 0) {
		fprintf(stderr, "jobfix: error: cannot remove '%s': %s\n", path, strerror(errno));
		rc = JF_EXIT_ERROR;
	} else {
		printf("jobfix: removed the pre-commit hook %s\n", path);
	}
	free(path);
	return finish_stdout(rc);
}

int cmd_hook(int argc, char **argv)
{
	const char *action = NULL;
	bool force = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			print_help();
			return finish_stdout(JF_EXIT_OK);
		} else if (!strcmp(a, "--force")) {
			force = true;
		} else if (a[0] == '-') {
			return usage_error("hook ", "unknown option '%s'", a);
		} else if (action) {
			return usage_error("hook ", "unexpected argument '%s'", a);
		} else {
			action = a;
		}
	}
	if (!action)
		return usage_error("hook ", "no action given (install, uninstall)");
	if (!strcmp(action, "install"))
		return install(force);
	if (force)
		return usage_error("hook ", "--force goes with install");
	if (!strcmp(action, "uninstall"))
		return uninstall();
	return usage_error("hook ", "unknown action '%s' (install, uninstall)", action);
}
