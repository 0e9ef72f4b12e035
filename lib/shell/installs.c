/* installs.c - what `pip install` and `conda install` put into the image at run time
 *
 * The distributions a job installs (named, or from requirements files,
 * followed through -r), and whether it installs something jobfix cannot name
 * (a path, a URL, -e, a file made at run time). JF104's fact: a pip install
 * into the system site-packages (no --user, --target, --prefix, --root, no
 * active virtualenv, no PIP_USER).
 */
#include "core/path.h"
#include "env/image.h"
#include "shell/internal.h"

static bool pip_exempt_env(shell *sh)
{
	const char *names[] = { "PIP_USER", "PIP_TARGET", "PIP_PREFIX", "VIRTUAL_ENV" };
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		bool unset;
		const char *v = jf_shell__lookup(sh, names[i], &unset);
		if (!unset && (i > 0 || !v || strcmp(v, "0")))
			return true;
	}
	return false;
}

/* `pip install ...` from word i (just after "install"). */
void jf_shell__pip_install(shell *sh, const words *w, size_t i, TSNode cmd, bool explicit_path)
{
	static const char *const exempt[] = { "--user", "--target", "-t", "--prefix", "--root",
		                              "--dry-run", "--help", "-h", "--download", NULL };
	if (sh->venv || explicit_path || pip_exempt_env(sh))
		return;
	for (; i < w->size; i++) {
		const char *s = w->items[i].value;
		if (!s)
			continue;
		for (size_t k = 0; exempt[k]; k++)
			if (!strcmp(s, exempt[k]) || (jf_str_starts(s, exempt[k]) && s[strlen(exempt[k])] == '='))
				return;
		if (s[0] == '-' && s[1] != '-' && strchr(s + 1, 't'))
			return; /* -t DIR among short options */
	}
	jf_loc at = sh->argv_at;
	if (!ts_node_is_null(cmd)) {
		word where = jf_shell__place(sh, cmd);
		at = (jf_loc){ where.src, where.span };
	}
	jf_array_push(&sh->out->pip_installs, at);
}
/* Installed packages */

static void install(shell *sh, const char *spec, size_t n)
{
	/* A requirement: a name, then extras, a version, a marker or " @ url". */
	size_t len = strspn(spec, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.");
	if (len > n)
		len = n;
	if (!len || spec[0] == '.' || (len < n && (spec[len] == '/' || spec[len] == ':'))) {
		sh->out->installs_unknown = true; /* a path, a URL: a project whose name jobfix cannot see */
		return;
	}
	jf_array_push(&sh->out->installed, jf_xstrndup(spec, len));
}

/* The requirements in file `path` (a container path), -r and -c followed. */
static void install_requirements(shell *sh, const char *path, int depth)
{
	const char *rel = path ? jf_path_under(path, jf_job_workdir(sh->job)) : NULL;
	char *local = rel ? jf_path_join(sh->job->code_dir, rel) : NULL;
	jf_source *src = local && depth < 4 ? jf_source_load(local, local) : NULL;
	if (!src || src->status != JF_SOURCE_OK) {
		sh->out->installs_unknown = true; /* made at run time, or not there: pip says so */
		jf_source_free(src);
		free(local);
		return;
	}
	char *dir = jf_path_dirname(path);
	for (const char *line = src->data; *line;) {
		size_t len = strcspn(line, "\n");
		const char *s = line;
		while (*s == ' ' || *s == '\t')
			s++;
		size_t n = (size_t)(line + len - s);
		const char *hash = memchr(s, '#', n);
		if (hash && (hash == s || hash[-1] == ' ' || hash[-1] == '\t'))
			n = (size_t)(hash - s);
		while (n && (s[n - 1] == ' ' || s[n - 1] == '\r' || s[n - 1] == '\t'))
			n--;
		if (n && (!strncmp(s, "-r ", 3) || !strncmp(s, "--requirement", 13))) {
			const char *f = s + strcspn(s, " =");
			f += strspn(f, " =");
			char *name = jf_xstrndup(f, n - (size_t)(f - s));
			char *inner = jf_path_join(dir, name);
			install_requirements(sh, inner, depth + 1);
			free(inner);
			free(name);
		} else if (n && (s[0] == '-' && strncmp(s, "-e", 2) && strncmp(s, "--editable", 10))) {
			/* -c, -i, --index-url, --find-links ...: no package */
		} else if (n) {
			if (s[0] == '-') /* -e path: a local project */
				sh->out->installs_unknown = true;
			else
				install(sh, s, n);
		}
		line += len + (line[len] == '\n');
	}
	free(dir);
	jf_source_free(src);
	free(local);
}

/* `pip install ...` or `conda install ...` from word i (just after "install"). */
void jf_shell__install_words(shell *sh, const words *w, size_t i, bool pip)
{
	static const char *const with_value[] = { "-i", "--index-url", "--extra-index-url", "-f",
		"--find-links", "-t", "--target", "--prefix", "--root", "--platform", "--python-version",
		"--implementation", "--abi", "--src", "--upgrade-strategy", "--progress-bar", "--log",
		"--cache-dir", "--trusted-host", "--proxy", "--timeout", "--retries", "--config-settings",
		"-C", "-c", "--channel", "-n", "--name", "-p", "--global-option", "--install-option",
		NULL };
	for (; i < w->size; i++) {
		const char *s = w->items[i].value;
		if (!s) {
			sh->out->installs_unknown = true;
			continue;
		}
		if (pip && (!strcmp(s, "-r") || !strcmp(s, "--requirement"))) {
			const char *f = i + 1 < w->size ? w->items[++i].value : NULL;
			char *cpath = f ? jf_shell__container_path(sh, f) : NULL;
			install_requirements(sh, cpath, 0);
			free(cpath);
		} else if (pip && (jf_str_starts(s, "-r") || jf_str_starts(s, "--requirement="))) {
			char *cpath = jf_shell__container_path(sh, s + (s[1] == 'r' ? 2 : 14));
			install_requirements(sh, cpath, 0);
			free(cpath);
		} else if (!strcmp(s, "-e") || !strcmp(s, "--editable")) {
			sh->out->installs_unknown = true;
			i++;
		} else if (s[0] == '-') {
			if (!strchr(s, '=') && jf_str_in(s, with_value))
				i++;
		} else if (pip) {
			install(sh, s, strlen(s));
		} else { /* conda: name=version, name==version, channel::name */
			const char *colons = strstr(s, "::");
			install(sh, colons ? colons + 2 : s, strlen(colons ? colons + 2 : s));
		}
	}
}
bool jf_shell_installs(const jf_shell_facts *self, const char *dist)
{
	for (size_t i = 0; i < self->installed.size; i++) {
		const char *s = self->installed.items[i];
		if (jf_dist_name_eq(s, strlen(s), dist))
			return true;
	}
	return false;
}

