/* pip.c - the arguments of `pip install` and `conda install`, and requirements files
 *
 * As pip reads them (pip's "Requirements File Format" and `pip install
 * --help`): a requirement is a name, then extras, a version specifier or
 * `@ url`, and a marker; `#` after a blank starts a comment; a line that
 * starts with `-` is an option. Conda specs are `name`, `name=version`,
 * `name==version`, `channel::name`, with conda's names for a few projects.
 */
#include <ctype.h>

#include "job/pip.h"

#include <string.h>

#include "core/path.h"
#include "core/util.h"
#include "core/yml.h"

/* Options of pip install and conda install that take a value. */
static const char *const with_value[] = {
	"-i", "--index-url", "--extra-index-url", "-f", "--find-links", "-t", "--target", "--prefix",
	"--root", "--platform", "--python-version", "--implementation", "--abi", "--src",
	"--upgrade-strategy", "--progress-bar", "--log", "--cache-dir", "--trusted-host", "--proxy",
	"--timeout", "--retries", "--config-settings", "-C", "-c", "--constraint", "--channel", "-n",
	"--name", "-p", "--global-option", "--install-option", "--python", NULL
};

/* Conda package names whose pip distribution has another name. */
static const char *const conda_names[][2] = {
	{ "pytorch", "torch" },
	{ "pytorch-gpu", "torch" },
	{ "pytorch-cpu", "torch" },
	{ "py-opencv", "opencv-python" },
};

static const char name_chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.";

void jf_pip_item_release(jf_pip_item *item)
{
	free(item->name);
	free(item->version);
	free(item->spec);
	free(item->path);
	memset(item, 0, sizeof *item);
}

/* The version after `=`/`==` at v (before end), or NULL. */
static char *pinned(const char *v, const char *end, bool conda)
{
	while (v < end && *v == ' ')
		v++;
	if (v + 2 <= end && v[0] == '=' && v[1] == '=')
		v += 2;
	else if (conda && v < end && v[0] == '=' && (v + 1 >= end || v[1] != '='))
		v += 1;
	else
		return NULL;
	while (v < end && *v == ' ')
		v++;
	size_t k = 0;
	while (v + k < end && !strchr(" ;,#*=<>!\r\n\t", v[k]))
		k++;
	return k ? jf_xstrndup(v, k) : NULL;
}

/* The version specifier at v (before end, after the name and extras), or
 * NULL: ">=1.20,<2"; conda's "=1.24" means 1.24.* and "1.24" alone too. */
static char *specifier(const char *v, const char *end, bool conda)
{
	while (v < end && (*v == ' ' || *v == '('))
		v++;
	size_t k = 0;
	while (v + k < end && !strchr(";#)\r\n\t", v[k]) && !(v[k] == ' ' && conda))
		k++;
	while (k && v[k - 1] == ' ')
		k--;
	if (!k)
		return NULL;
	if (conda && v[0] == '=' && (k < 2 || v[1] != '='))
		return jf_xasprintf("==%.*s%s", (int)k - 1, v + 1, v[k - 1] == '*' ? "" : ".*");
	if (conda && isdigit((unsigned char)v[0]))
		return jf_xasprintf("==%.*s%s", (int)k, v, v[k - 1] == '*' ? "" : ".*");
	return jf_xstrndup(v, k);
}

static bool requirement(const char *spec, size_t n, bool conda, jf_pip_item *item)
{
	memset(item, 0, sizeof *item);
	size_t len = strspn(spec, name_chars);
	if (len > n)
		len = n;
	/* A path or a URL: a project whose name jobfix cannot see. */
	if (!len || spec[0] == '.' || (len < n && (spec[len] == '/' || spec[len] == ':')))
		return false;
	/* `git+https://...` is a URL; `name @ https://...` names its project. */
	const char *after = spec + len, *end = spec + n;
	if (after < end && *after == '[') {
		const char *close = memchr(after, ']', (size_t)(end - after));
		after = close ? close + 1 : end;
	}
	while (after < end && *after == ' ')
		after++;
	bool url = false;
	for (const char *p = spec; p + 3 <= end && !url; p++)
		url = !memcmp(p, "://", 3);
	if (url && (after >= end || *after != '@'))
		return false;
	char *name = jf_xstrndup(spec, len);
	if (jf_str_ends(name, ".whl") || jf_str_ends(name, ".gz") || jf_str_ends(name, ".zip") ||
	    jf_str_ends(name, ".py")) {
		free(name);
		return false;
	}
	for (size_t i = 0; conda && i < sizeof conda_names / sizeof *conda_names; i++)
		if (!strcmp(name, conda_names[i][0])) {
			free(name);
			name = jf_xstrdup(conda_names[i][1]);
			break;
		}
	static const char *const conda_leaves[] = { "python", "pip", "setuptools", "wheel", NULL };
	item->kind = JF_PIP_NAMED;
	item->name = name;
	item->conda = conda && !jf_str_in(name, conda_leaves);
	const char *v = spec + len;
	if (v < end && *v == '[') { /* extras */
		const char *close = memchr(v, ']', (size_t)(end - v));
		v = close ? close + 1 : end;
	}
	item->version = pinned(v, end, conda);
	item->spec = specifier(v, end, conda);
	return true;
}

static void emit(jf_pip_kind kind, const char *path, size_t word, jf_pip_fn fn, void *data)
{
	jf_pip_item it = { .kind = kind, .path = path ? jf_xstrdup(path) : NULL, .word = word };
	fn(&it, data);
	jf_pip_item_release(&it);
}

void jf_pip_install_args(const char *const *words, size_t n, bool pip, jf_pip_fn fn, void *data)
{
	for (size_t i = 0; i < n; i++) {
		const char *s = words[i];
		if (!s) {
			emit(JF_PIP_UNKNOWN, NULL, i, fn, data);
		} else if (pip && (!strcmp(s, "-r") || !strcmp(s, "--requirement"))) {
			i++;
			emit(i < n && words[i] ? JF_PIP_REQUIREMENTS : JF_PIP_UNKNOWN, i < n ? words[i] : NULL,
			     i, fn, data);
		} else if (pip && (jf_str_starts(s, "-r") || jf_str_starts(s, "--requirement="))) {
			emit(JF_PIP_REQUIREMENTS, s + (s[1] == 'r' ? 2 : 14), i, fn, data);
		} else if (!strcmp(s, "-e") || !strcmp(s, "--editable")) {
			i++;
			emit(i < n && words[i] ? JF_PIP_PROJECT : JF_PIP_UNKNOWN, i < n ? words[i] : NULL, i,
			     fn, data);
		} else if (jf_str_starts(s, "--editable=")) {
			emit(JF_PIP_PROJECT, s + 11, i, fn, data);
		} else if (!pip && (!strcmp(s, "--file") || jf_str_starts(s, "--file="))) {
			/* a list of conda specs jobfix does not read */
			i += !strcmp(s, "--file");
			emit(JF_PIP_UNKNOWN, NULL, i, fn, data);
		} else if (s[0] == '-') {
			if (!strchr(s, '=') && jf_str_in(s, with_value))
				i++;
		} else {
			const char *spec = s;
			if (!pip && strstr(s, "::"))
				spec = strstr(s, "::") + 2;
			jf_pip_item it;
			if (requirement(spec, strlen(spec), !pip, &it)) {
				it.word = i;
				fn(&it, data);
				jf_pip_item_release(&it);
			} else {
				/* `.` or a folder is a local project; a URL or a file is not known */
				bool project = pip && !strstr(s, "://") && !jf_str_ends(s, ".whl") &&
				               !jf_str_ends(s, ".tar.gz") && !jf_str_ends(s, ".zip") &&
				               (s[0] == '.' || s[0] == '/');
				emit(project ? JF_PIP_PROJECT : JF_PIP_UNKNOWN, project ? s : NULL, i, fn, data);
			}
		}
	}
}

void jf_pip_requirements(const char *text, jf_pip_fn fn, void *data)
{
	for (const char *line = text; *line;) {
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
		size_t at = (size_t)(line - text);
		if (n && s[0] == '-') {
			/* -r FILE, -e PATH, and options that name no package (-c, -i, --find-links...) */
			size_t opt = strcspn(s, " =\t");
			if (opt > n)
				opt = n;
			const char *v = s + opt;
			while (v < s + n && (*v == ' ' || *v == '=' || *v == '\t'))
				v++;
			char *value = jf_xstrndup(v, (size_t)(s + n - v));
			bool r = (opt == 2 && !strncmp(s, "-r", 2)) || (opt == 13 && !strncmp(s, "--requirement", 13));
			bool e = (opt == 2 && !strncmp(s, "-e", 2)) || (opt == 10 && !strncmp(s, "--editable", 10));
			if (r || e) {
				bool url = strstr(value, "://") != NULL;
				emit(url || !*value ? JF_PIP_UNKNOWN : r ? JF_PIP_REQUIREMENTS : JF_PIP_PROJECT,
				     value, at, fn, data);
			}
			free(value);
		} else if (n) {
			jf_pip_item it;
			if (requirement(s, n, false, &it)) {
				it.word = at;
				fn(&it, data);
				jf_pip_item_release(&it);
			} else {
				bool project = !memchr(s, ':', n) && (s[0] == '.' || s[0] == '/');
				char *p = project ? jf_xstrndup(s, n) : NULL;
				emit(project ? JF_PIP_PROJECT : JF_PIP_UNKNOWN, p, at, fn, data);
				free(p);
			}
		}
		line += len + (line[len] == '\n');
	}
}

typedef struct {
	jf_pip_fn fn;
	void *data;
	const char *dir; /* the folder of the file being read */
	int depth;
} file_read;

static void read_file(file_read *r, const char *path);

static void file_item(const jf_pip_item *it, void *data)
{
	file_read *r = data;
	if (it->kind != JF_PIP_REQUIREMENTS) {
		jf_pip_item copy = *it;
		copy.word = 0;
		r->fn(&copy, r->data);
	} else if (it->path[0] == '/') {
		emit(JF_PIP_UNKNOWN, NULL, 0, r->fn, r->data);
	} else {
		char *path = jf_path_join(r->dir, it->path);
		file_read inner = { r->fn, r->data, NULL, r->depth + 1 };
		read_file(&inner, path);
		free(path);
	}
}

static void read_file(file_read *r, const char *path)
{
	jf_source *src = r->depth < 4 ? jf_source_load(path, path) : NULL;
	if (!src || src->status != JF_SOURCE_OK) {
		emit(JF_PIP_UNKNOWN, NULL, 0, r->fn, r->data);
	} else {
		char *dir = jf_path_dirname(path);
		r->dir = dir;
		jf_pip_requirements(src->data, file_item, r);
		free(dir);
	}
	jf_source_free(src);
}

void jf_pip_requirements_file(const char *path, jf_pip_fn fn, void *data)
{
	file_read r = { fn, data, NULL, 0 };
	read_file(&r, path);
}

/* A pip line of a conda environment file: its items at `offset`. */
typedef struct {
	jf_pip_fn fn;
	void *data;
	size_t offset;
} env_line;

static void env_line_item(const jf_pip_item *it, void *data)
{
	env_line *l = data;
	jf_pip_item copy = *it;
	copy.word = l->offset;
	l->fn(&copy, l->data);
}

bool jf_conda_environment_node(const jf_source *src, yaml_document_t *doc, yaml_node_t *root,
                               const char *dir, jf_pip_fn fn, void *data)
{
	yaml_node_t *deps = jf_yml_get(doc, root, "dependencies");
	if (!deps || deps->type != YAML_SEQUENCE_NODE)
		return false;
	for (yaml_node_item_t *i = deps->data.sequence.items.start; i < deps->data.sequence.items.top;
	     i++) {
		yaml_node_t *n = jf_yml_node(doc, *i);
		size_t at = jf_yml_span(src, n).start;
		const char *spec = jf_yml_scalar(n);
		if (spec) {
			/* conda's `channel::name`, and its `name version build` form */
			if (strstr(spec, "::"))
				spec = strstr(spec, "::") + 2;
			jf_pip_item it;
			if (requirement(spec, strcspn(spec, " "), true, &it)) {
				it.word = at;
				fn(&it, data);
				jf_pip_item_release(&it);
			} else {
				emit(JF_PIP_UNKNOWN, NULL, at, fn, data);
			}
			continue;
		}
		/* - pip: [requirement lines] */
		yaml_node_t *pip = jf_yml_get(doc, n, "pip");
		if (!pip || pip->type != YAML_SEQUENCE_NODE) {
			emit(JF_PIP_UNKNOWN, NULL, at, fn, data);
			continue;
		}
		for (yaml_node_item_t *k = pip->data.sequence.items.start;
		     k < pip->data.sequence.items.top; k++) {
			yaml_node_t *line = jf_yml_node(doc, *k);
			const char *text = jf_yml_scalar(line);
			env_line l = { fn, data, jf_yml_span(src, line).start };
			if (!text) {
				emit(JF_PIP_UNKNOWN, NULL, l.offset, fn, data);
				continue;
			}
			file_read r = { env_line_item, &l, dir, 0 };
			jf_pip_requirements(text, file_item, &r);
		}
	}
	return true;
}

bool jf_conda_environment(const char *path, jf_pip_fn fn, void *data)
{
	jf_source *src = jf_source_load(path, path);
	yaml_document_t doc;
	jf_yml_error err;
	if (src->status != JF_SOURCE_OK || !jf_yml_load(src, &doc, &err)) {
		jf_source_free(src);
		return false;
	}
	char *dir = jf_path_dirname(path);
	bool ok = jf_conda_environment_node(src, &doc, yaml_document_get_root_node(&doc), dir, fn,
	                                    data);
	free(dir);
	yaml_document_delete(&doc);
	jf_source_free(src);
	return ok;
}
