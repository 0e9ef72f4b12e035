/* cmd_config.c - what commands share: the config (.jobfix.yaml found or named, the command
 * line's overrides), colour, report files */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"

int cmd_color_for(int color, int fd)
{
	if (color >= 0)
		return color;
	const char *no = getenv("NO_COLOR");
	return isatty(fd) && !(no && *no);
}

/* Why jobfix refuses to write `path`, or NULL. A file of the checkout may
 * come from a pull request: a symlink planted there, as the file or as a
 * folder on the way to it from the current folder, would make jobfix write
 * wherever it points. A terminal, a pipe or /dev/null (a device, or a link to
 * one) and the links of /dev and /proc (/dev/stdout) are written in place. */
static const char *refused(const char *path, bool *in_place)
{
	struct stat st, target;
	*in_place = false;
	bool system = !strncmp(path, "/dev/", 5) || !strncmp(path, "/proc/", 6);
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && !system &&
	    (stat(path, &target) != 0 || S_ISREG(target.st_mode) || S_ISDIR(target.st_mode)))
		return "it is a symbolic link, and jobfix does not write through one";
	*in_place = lstat(path, &st) == 0 && !S_ISREG(st.st_mode);
	/* Below the current folder, named relative or absolute ($GITHUB_WORKSPACE/x). */
	char *cwd = getcwd(NULL, 0);
	size_t n = cwd ? strlen(cwd) : 0;
	const char *rel = path;
	if (path[0] == '/')
		rel = cwd && n > 1 && !strncmp(path, cwd, n) && path[n] == '/' ? path + n + 1 : NULL;
	free(cwd);
	if (!rel || !strncmp(rel, "../", 3))
		return NULL; /* named outside the current folder: the user's choice */
	char *dir = strdup(rel);
	for (char *slash = dir ? strchr(dir, '/') : NULL; slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		bool link = lstat(dir, &st) == 0 && S_ISLNK(st.st_mode);
		*slash = '/';
		if (link) {
			free(dir);
			return "a folder on its way is a symbolic link, and jobfix does not write "
			       "through one";
		}
	}
	free(dir);
	return NULL;
}

int cmd_write_file(const char *path, int (*write)(void *data, FILE *f), void *data)
{
	bool in_place;
	const char *why = refused(path, &in_place);
	if (why) {
		fprintf(stderr, "jobfix: error: cannot write '%s': %s\n", path, why);
		return -1;
	}
	char *tmp = NULL;
	size_t n = strlen(path) + 32;
	if (!in_place && (tmp = malloc(n)))
		snprintf(tmp, n, "%s.%ld.tmp", path, (long)getpid());
	int err = 0;
	FILE *f = NULL;
	if (!in_place && !tmp)
		err = ENOMEM;
	else if (!(f = fopen(in_place ? path : tmp, in_place ? "w" : "wx")))
		err = errno;
	if (f) {
		errno = 0;
		if (write(data, f) < 0 || fflush(f) != 0 || ferror(f))
			err = errno ? errno : EIO;
		if (fclose(f) != 0 && !err)
			err = errno;
		if (!err && tmp && rename(tmp, path) != 0)
			err = errno;
		if (err && tmp)
			unlink(tmp);
	}
	free(tmp);
	if (err)
		fprintf(stderr, "jobfix: error: cannot write '%s': %s\n", path, strerror(err));
	return err ? -1 : 0;
}

typedef struct {
	const jf_config *config;
	jf_format format;
} errors_to;

static int write_errors(void *data, FILE *f)
{
	const errors_to *t = data;
	return jf_config_write_errors(t->config, f, t->format, 0);
}

bool cmd_config_arg(int argc, char **argv, int *i, cmd_config_args *c, int *missing)
{
	const char *v;
	if (!strcmp(argv[*i], "--no-config"))
		c->none = true;
	else if ((v = option_value(argc, argv, i, "--config", missing)))
		c->path = v;
	else
		return false;
	return true;
}

int cmd_config_args_check(const char *cmd, const cmd_config_args *c)
{
	if (c->path && c->none)
		return usage_error(cmd, "--config and --no-config exclude each other");
	return JF_EXIT_OK;
}

jf_config *cmd_load_config(const cmd_config_args *args, const char *const *overrides,
                           const cmd_formats *to, const char *consequence)
{
	jf_config *c = jf_config_new();
	const char *path = args->path;
	char *found = NULL;
	if (!args->none && !path)
		path = found = jf_config_find(NULL);
	if (path)
		jf_config_load(c, path);
	free(found);
	for (size_t i = 0; overrides[i]; i += 2)
		jf_config_set(c, overrides[i], overrides[i + 1]);
	jf_config_resolve(c);
	size_t n = jf_config_error_count(c);
	if (!n)
		return c;
	/* Machine-read formats (all but the two for people) go to stdout, where a
	 * CI step parses them; text to stderr. */
	bool machine = to->format != JF_FORMAT_TEXT && to->format != JF_FORMAT_CONCISE;
	FILE *out = machine ? stdout : stderr;
	jf_config_write_errors(c, out, to->format, cmd_color_for(to->color, fileno(out)));
	fflush(stdout); /* before the file, which may be stdout too */
	errors_to file = { c, to->output_format };
	if (to->output)
		cmd_write_file(to->output, write_errors, &file);
	fprintf(stderr, "jobfix: error: %zu error%s in jobfix's configuration: %s\n", n,
	        n == 1 ? "" : "s", consequence);
	jf_config_free(c);
	return NULL;
}
