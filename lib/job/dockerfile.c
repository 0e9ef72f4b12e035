/* dockerfile.c - the last stage of a Dockerfile: base image, WORKDIR, USER, ENV, local COPYs
 *
 * Instructions are read as Docker's parser reads them: a line ending in `\`
 * continues on the next, comment lines inside a continuation are dropped,
 * keywords are case-insensitive, arguments are a JSON list of strings or
 * words split at blanks. Variables ($X, ${X}, ${X:-default}) are expanded
 * from ARG defaults and ENV; one jobfix cannot know makes its value NULL.
 */
#include "job/dockerfile.h"

#include <ctype.h>
#include <stdlib.h>
#include <strings.h>

#include "core/path.h"
#include "job/pip.h"
#include "job/project.h"

/* One logical instruction: its text without the continuations, and where
 * each of its bytes is in the file. */
typedef struct {
	jf_buf text;
	JF_ARRAY(uint32_t) at;
	jf_span whole;
} logical;

typedef jf_docker_words words;

/* A variable and its value (NULL: set, value unknown). */
typedef struct {
	char *name, *value;
} var;
typedef JF_ARRAY(var) vars;

/* One build stage as far as it is read. */
typedef struct {
	char *name; /* AS name */
	char *from;
	jf_span from_at;
	char *workdir;
	jf_span workdir_at;
	jf_docker_word user;
	jf_docker_installs installs;
	jf_strings projects; /* the local projects RUNs install: folders of this machine */
	char *opaque;        /* the first RUN that may install what jobfix cannot name */
	jf_span opaque_at;
	const char *opaque_why; /* why, when a local project it installs says (static) */
	bool runs_python;    /* a RUN may change the Python */
	unsigned unfound;    /* files RUNs read from the context that no COPY put there */
	vars args; /* ARGs of the stage (and global ones it redeclares) */
	words env;
	jf_docker_copies copies;
	jf_docker_runs runs;
	words entrypoint, cmd;
	bool entrypoint_set, cmd_set, entrypoint_shell, cmd_shell;
} stage;

static void words_release(words *w)
{
	for (size_t i = 0; i < w->size; i++)
		free(w->items[i].value);
	jf_array_release(w);
}

static void words_copy(words *to, const words *from)
{
	for (size_t i = 0; i < from->size; i++) {
		jf_docker_word w = { from->items[i].value ? jf_xstrdup(from->items[i].value) : NULL,
			             from->items[i].at };
		jf_array_push(to, w);
	}
}

static void vars_release(vars *v)
{
	for (size_t i = 0; i < v->size; i++) {
		free(v->items[i].name);
		free(v->items[i].value);
	}
	jf_array_release(v);
}

static void vars_set(vars *v, const char *name, const char *value)
{
	for (size_t i = 0; i < v->size; i++)
		if (!strcmp(v->items[i].name, name)) {
			free(v->items[i].value);
			v->items[i].value = value ? jf_xstrdup(value) : NULL;
			return;
		}
	var x = { jf_xstrdup(name), value ? jf_xstrdup(value) : NULL };
	jf_array_push(v, x);
}

static const var *vars_get(const vars *v, const char *name)
{
	for (size_t i = 0; i < v->size; i++)
		if (!strcmp(v->items[i].name, name))
			return &v->items[i];
	return NULL;
}

static void copy_release(jf_docker_copy *c)
{
	for (size_t i = 0; i < c->sources.size; i++)
		free(c->sources.items[i]);
	jf_array_release(&c->sources);
	jf_strings_release(&c->written);
	free(c->folder);
	free(c->folder_dest);
	free(c->dest);
}

static void copies_release(jf_docker_copies *a)
{
	for (size_t i = 0; i < a->size; i++)
		copy_release(&a->items[i]);
	jf_array_release(a);
}

static void runs_release(jf_docker_runs *a)
{
	for (size_t i = 0; i < a->size; i++) {
		free(a->items[i].cwd);
		free(a->items[i].text);
	}
	jf_array_release(a);
}

static void installs_release(jf_docker_installs *a)
{
	for (size_t i = 0; i < a->size; i++) {
		free(a->items[i].name);
		free(a->items[i].version);
		free(a->items[i].spec);
	}
	jf_array_release(a);
}

static void stage_release(stage *s)
{
	installs_release(&s->installs);
	jf_strings_release(&s->projects);
	free(s->opaque);
	free(s->name);
	free(s->from);
	free(s->workdir);
	free(s->user.value);
	vars_release(&s->args);
	words_release(&s->env);
	copies_release(&s->copies);
	runs_release(&s->runs);
	words_release(&s->entrypoint);
	words_release(&s->cmd);
}

/* A new stage that continues `base`: what it set stays set. */
static void stage_continue(stage *s, const stage *base)
{
	free(s->from);
	s->from = base->from ? jf_xstrdup(base->from) : NULL;
	s->from_at = base->from_at;
	for (size_t i = 0; i < base->installs.size; i++) {
		const jf_docker_install *x = &base->installs.items[i];
		jf_docker_install c = { jf_xstrdup(x->name), x->version ? jf_xstrdup(x->version) : NULL,
			                x->at, x->spec ? jf_xstrdup(x->spec) : NULL };
		jf_array_push(&s->installs, c);
	}
	for (size_t i = 0; i < base->projects.size; i++)
		jf_array_push(&s->projects, jf_xstrdup(base->projects.items[i]));
	s->opaque = base->opaque ? jf_xstrdup(base->opaque) : NULL;
	s->opaque_at = base->opaque_at;
	s->opaque_why = base->opaque_why;
	s->runs_python = base->runs_python;
	s->unfound = base->unfound;
	s->workdir = base->workdir ? jf_xstrdup(base->workdir) : NULL;
	s->workdir_at = base->workdir_at;
	s->user = (jf_docker_word){ base->user.value ? jf_xstrdup(base->user.value) : NULL,
		                    base->user.at };
	words_copy(&s->env, &base->env);
	for (size_t i = 0; i < base->copies.size; i++) {
		jf_docker_copy c = base->copies.items[i];
		memset(&c.sources, 0, sizeof c.sources);
		memset(&c.written, 0, sizeof c.written);
		for (size_t k = 0; k < base->copies.items[i].sources.size; k++) {
			const char *x = base->copies.items[i].sources.items[k];
			const char *y = base->copies.items[i].written.items[k];
			jf_array_push(&c.sources, x ? jf_xstrdup(x) : NULL);
			jf_array_push(&c.written, y ? jf_xstrdup(y) : NULL);
		}
		c.folder = c.folder ? jf_xstrdup(c.folder) : NULL;
		c.folder_dest = c.folder_dest ? jf_xstrdup(c.folder_dest) : NULL;
		c.dest = c.dest ? jf_xstrdup(c.dest) : NULL;
		jf_array_push(&s->copies, c);
	}
	for (size_t i = 0; i < base->runs.size; i++) {
		jf_docker_run r = { base->runs.items[i].cwd ? jf_xstrdup(base->runs.items[i].cwd) : NULL,
			            jf_xstrdup(base->runs.items[i].text) };
		jf_array_push(&s->runs, r);
	}
	words_copy(&s->entrypoint, &base->entrypoint);
	words_copy(&s->cmd, &base->cmd);
	s->entrypoint_set = base->entrypoint_set;
	s->cmd_set = base->cmd_set;
	s->entrypoint_shell = base->entrypoint_shell;
	s->cmd_shell = base->cmd_shell;
}

/* The next logical instruction from `*pos`, or false at the end. */
static bool next_instruction(const jf_source *src, uint32_t *pos, logical *out)
{
	const char *d = src->data;
	uint32_t n = src->len, p = *pos;
	jf_buf_truncate(&out->text, 0);
	out->at.size = 0;
	/* Blank and comment lines before it. */
	for (;;) {
		while (p < n && (d[p] == ' ' || d[p] == '\t' || d[p] == '\r'))
			p++;
		if (p >= n) {
			*pos = p;
			return false;
		}
		if (d[p] == '\n') {
			p++;
			continue;
		}
		if (d[p] == '#') {
			while (p < n && d[p] != '\n')
				p++;
			continue;
		}
		break;
	}
	out->whole.start = p;
	for (;;) {
		uint32_t eol = p;
		while (eol < n && d[eol] != '\n')
			eol++;
		/* A `\` as the last non-blank byte of the line continues it. */
		uint32_t last = eol;
		while (last > p && (d[last - 1] == ' ' || d[last - 1] == '\t' || d[last - 1] == '\r'))
			last--;
		bool more = last > p && d[last - 1] == '\\' && eol < n;
		uint32_t stop = more ? last - 1 : last;
		for (uint32_t k = p; k < stop; k++) {
			jf_buf_addc(&out->text, d[k]);
			jf_array_push(&out->at, k);
		}
		out->whole.end = stop;
		p = eol < n ? eol + 1 : eol;
		if (!more)
			break;
		/* Comment and blank lines inside a continuation are dropped. */
		for (;;) {
			uint32_t k = p;
			while (k < n && (d[k] == ' ' || d[k] == '\t' || d[k] == '\r'))
				k++;
			if (k < n && d[k] == '#') {
				while (k < n && d[k] != '\n')
					k++;
				p = k < n ? k + 1 : k;
			} else if (k < n && d[k] == '\n') {
				p = k + 1;
			} else {
				break;
			}
		}
		if (p >= n)
			break;
		/* The continuation is joined with the text before it as one space. */
		jf_buf_addc(&out->text, ' ');
		jf_array_push(&out->at, p);
	}
	*pos = p;
	return true;
}

static jf_span span_of(const logical *l, size_t a, size_t b)
{
	if (a >= l->at.size)
		return (jf_span){ l->whole.end, l->whole.end };
	return (jf_span){ l->at.items[a], b > a ? l->at.items[b - 1] + 1 : l->at.items[a] };
}

/* The word of `t` (n bytes) at *i, quotes and backslashes removed, up to an
 * unquoted byte of `stops`; *dynamic tells a `$` or backtick outside single
 * quotes. */
static char *read_word(const char *t, size_t n, size_t *i, const char *stops, bool *dynamic)
{
	jf_buf w = JF_BUF_INIT;
	char q = 0;
	size_t k = *i;
	*dynamic = false;
	while (k < n && (q || !strchr(stops, t[k]))) {
		if (!q && (t[k] == '"' || t[k] == '\'')) {
			q = t[k++];
			continue;
		}
		if (q && t[k] == q) {
			q = 0;
			k++;
			continue;
		}
		if (q != '\'' && (t[k] == '$' || t[k] == '`'))
			*dynamic = true;
		if (t[k] == '\\' && k + 1 < n && q != '\'')
			k++;
		jf_buf_addc(&w, t[k++]);
	}
	*i = k;
	return jf_buf_detach(&w, NULL);
}

/* The words after the keyword split at blanks, quotes removed. */
static void shell_words(const logical *l, size_t from, words *out)
{
	const char *t = l->text.buf;
	size_t n = l->text.len, i = from;
	while (i < n) {
		while (i < n && isspace((unsigned char)t[i]))
			i++;
		if (i >= n)
			break;
		size_t a = i;
		bool dynamic;
		char *value = read_word(t, n, &i, " \t\r\n\v\f", &dynamic);
		jf_docker_word dw = { value, span_of(l, a, i) };
		jf_array_push(out, dw);
	}
}

/* The words of a JSON list of strings after the keyword; false when it is not one. */
static bool json_words(const logical *l, size_t from, words *out)
{
	const char *t = l->text.buf;
	size_t n = l->text.len, i = from;
	while (i < n && isspace((unsigned char)t[i]))
		i++;
	if (i >= n || t[i] != '[')
		return false;
	i++;
	words got = { 0 };
	for (;;) {
		while (i < n && isspace((unsigned char)t[i]))
			i++;
		if (i < n && t[i] == ']' && !got.size)
			break;
		if (i >= n || t[i] != '"')
			goto fail;
		size_t a = i++;
		jf_buf w = JF_BUF_INIT;
		while (i < n && t[i] != '"') {
			if (t[i] == '\\' && i + 1 < n) {
				i++;
				char c = t[i] == 'n' ? '\n' : t[i] == 't' ? '\t' : t[i];
				jf_buf_addc(&w, c);
				i++;
				continue;
			}
			jf_buf_addc(&w, t[i++]);
		}
		if (i >= n) {
			jf_buf_release(&w);
			goto fail;
		}
		i++;
		jf_docker_word dw = { jf_buf_detach(&w, NULL), span_of(l, a, i) };
		jf_array_push(&got, dw);
		while (i < n && isspace((unsigned char)t[i]))
			i++;
		if (i < n && t[i] == ',') {
			i++;
			continue;
		}
		if (i < n && t[i] == ']')
			break;
		goto fail;
	}
	i++;
	while (i < n && isspace((unsigned char)t[i]))
		i++;
	if (i < n)
		goto fail;
	for (size_t k = 0; k < got.size; k++)
		jf_array_push(out, got.items[k]);
	jf_array_release(&got);
	return true;
fail:
	words_release(&got);
	return false;
}

/* `s` with $X, ${X}, ${X:-d} expanded from `a` then `b`; NULL when one is unknown. */
static char *expand(const char *s, const vars *a, const words *env)
{
	if (!s)
		return NULL;
	jf_buf out = JF_BUF_INIT;
	for (const char *p = s; *p;) {
		if (*p == '\\' && p[1] == '$') {
			jf_buf_addc(&out, '$');
			p += 2;
			continue;
		}
		if (*p != '$') {
			jf_buf_addc(&out, *p++);
			continue;
		}
		const char *q = p + 1;
		bool brace = *q == '{';
		if (brace)
			q++;
		const char *name = q;
		while (isalnum((unsigned char)*q) || *q == '_')
			q++;
		size_t len = (size_t)(q - name);
		if (!len) {
			jf_buf_addc(&out, *p++);
			continue;
		}
		char *nm = jf_xstrndup(name, len);
		const char *def = NULL;
		size_t deflen = 0;
		if (brace) {
			if (q[0] == ':' && (q[1] == '-' || q[1] == '+')) {
				/* ${X:+word} is rare in the paths read here: unknown */
				if (q[1] == '+')
					goto unknown;
				def = q + 2;
				const char *e = strchr(def, '}');
				if (!e)
					goto unknown;
				deflen = (size_t)(e - def);
				q = e;
			}
			if (*q != '}')
				goto unknown;
			q++;
		}
		const char *val = NULL;
		bool found = false;
		for (size_t i = env->size; i-- > 0 && !found;) {
			const char *w = env->items[i].value;
			size_t k = strlen(nm);
			if (w && !strncmp(w, nm, k) && w[k] == '=') {
				val = w + k + 1;
				found = true;
			} else if (!w) {
				/* an ENV jobfix could not read may be this one */
				goto unknown;
			}
		}
		if (!found) {
			const var *v = vars_get(a, nm);
			if (v) {
				val = v->value;
				found = true;
				if (!val)
					goto unknown;
			}
		}
		if (!found || !*val) {
			if (!def)
				goto unknown; /* a build argument or an unset variable */
			jf_buf_add(&out, def, deflen);
		} else {
			jf_buf_adds(&out, val);
		}
		free(nm);
		p = q;
		continue;
	unknown:
		free(nm);
		jf_buf_release(&out);
		return NULL;
	}
	return jf_buf_detach(&out, NULL);
}

static bool keyword_is(const logical *l, size_t len, const char *kw)
{
	return strlen(kw) == len && !strncasecmp(l->text.buf, kw, len);
}

/* ARG NAME[=default] ... */
static void read_arg(stage *s, const words *w, const vars *globals)
{
	for (size_t i = 0; i < w->size; i++) {
		const char *a = w->items[i].value;
		const char *eq = strchr(a, '=');
		char *name = eq ? jf_xstrndup(a, (size_t)(eq - a)) : jf_xstrdup(a);
		if (eq) {
			char *v = expand(eq + 1, &s->args, &s->env);
			vars_set(&s->args, name, v);
			free(v);
		} else {
			/* A global ARG redeclared in the stage brings its default. */
			const var *g = vars_get(globals, name);
			vars_set(&s->args, name, g ? g->value : NULL);
		}
		free(name);
	}
}

/* ENV NAME=value ... or the older ENV NAME value. */
static void read_env(stage *s, const logical *l, size_t from, const words *w)
{
	if (!w->size)
		return;
	if (!strchr(w->items[0].value, '=')) {
		/* ENV NAME the rest of the line */
		const char *t = l->text.buf;
		size_t i = from;
		while (i < l->text.len && isspace((unsigned char)t[i]))
			i++;
		while (i < l->text.len && !isspace((unsigned char)t[i]))
			i++;
		while (i < l->text.len && isspace((unsigned char)t[i]))
			i++;
		char *v = expand(t + i, &s->args, &s->env);
		jf_docker_word e = { v ? jf_xasprintf("%s=%s", w->items[0].value, v) : NULL,
			             w->items[0].at };
		free(v);
		if (!e.value)
			e.value = jf_xasprintf("%s", w->items[0].value); /* no '=': value unknown */
		jf_array_push(&s->env, e);
		return;
	}
	for (size_t i = 0; i < w->size; i++) {
		const char *a = w->items[i].value;
		const char *eq = strchr(a, '=');
		if (!eq)
			continue;
		char *v = expand(eq + 1, &s->args, &s->env);
		char *name = jf_xstrndup(a, (size_t)(eq - a));
		jf_docker_word e = { v ? jf_xasprintf("%s=%s", name, v) : jf_xstrdup(name),
			             w->items[i].at };
		free(v);
		free(name);
		jf_array_push(&s->env, e);
	}
}

/* COPY/ADD [--flag...] src... dest: where each source lands. */
static void read_copy(stage *s, const words *w, bool add, const char *context, jf_span at)
{
	jf_docker_copy c = { .at = at };
	size_t i = 0;
	bool other = false;
	for (; i < w->size && jf_str_starts(w->items[i].value, "--"); i++)
		other |= jf_str_starts(w->items[i].value, "--from=");
	if (w->size < i + 2)
		return;
	char *dest = expand(w->items[w->size - 1].value, &s->args, &s->env);
	size_t nsrc = w->size - 1 - i;
	/* A dest is a folder when it says so, or is the working folder (`.`);
	 * one of the base image's folders is not known. */
	c.dest_dir = nsrc > 1 || (dest && (jf_str_ends(dest, "/") || jf_str_ends(dest, "/.") ||
	                                   !strcmp(dest, ".") ||
	                                   (s->workdir && !strcmp(dest, s->workdir))));
	if (dest && dest[0] != '/')
		c.dest = s->workdir ? jf_path_join(s->workdir, dest) : NULL;
	else if (dest)
		c.dest = jf_path_normalize(dest);
	free(dest);
	for (size_t k = i; k < w->size - 1; k++) {
		char *src = other ? NULL : expand(w->items[k].value, &s->args, &s->env);
		if (src && add && strstr(src, "://")) {
			free(src);
			src = NULL;
		}
		if (!src) {
			jf_array_push(&c.sources, NULL);
			jf_array_push(&c.written, NULL);
			continue;
		}
		jf_array_push(&c.written, jf_xstrdup(src));
		bool glob = strchr(src, '*') || strchr(src, '?') || strchr(src, '[');
		char *local = jf_path_join(context, src);
		if (glob) {
			c.dest_dir = true; /* matches land in dest */
		} else if (jf_path_is_dir(local)) {
			c.dest_dir = true; /* a folder's contents land in dest */
			if (nsrc == 1 && c.dest) {
				c.folder = jf_xstrdup(src);
				c.folder_dest = jf_xstrdup(c.dest);
			}
		} else if (nsrc == 1 && c.dest && jf_path_is_file(local)) {
			/* one file: its folder stands at the folder it lands in, when it keeps its name */
			const char *base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
			char *cpath = c.dest_dir ? jf_path_join(c.dest, base) : jf_xstrdup(c.dest);
			const char *cbase = strrchr(cpath, '/') + 1;
			if (!strcmp(cbase, base)) {
				char *dir = jf_path_dirname(src);
				c.folder = *dir ? dir : (free(dir), jf_xstrdup("."));
				c.folder_dest = jf_path_dirname(cpath);
				if (!*c.folder_dest) {
					free(c.folder_dest);
					c.folder_dest = jf_xstrdup("/");
				}
			}
			free(cpath);
		}
		jf_array_push(&c.sources, local);
		free(src);
	}
	jf_array_push(&s->copies, c);
}

/* Whether a RUN's command line may install another Python than the base image's. */
static bool run_changes_python(const char *t)
{
	static const char *const changers[] = { "python=", "python==", "python3.", "python3=",
		                                "conda create", "pyenv", "uv python", "deadsnakes",
		                                "mamba create", "micromamba create", NULL };
	for (size_t i = 0; changers[i]; i++)
		if (strstr(t, changers[i]))
			return true;
	return false;
}

/* Whether a RUN's command line may create files: downloads, clones, archives, copies. */
static bool run_writes(const char *t)
{
	static const char *const writers[] = { "git clone", "wget", "curl", "unzip", "tar ",
		                               "mkdir", "touch", "cp ", "mv ", "ln ", ">",
		                               "gdown", "huggingface-cli", "python", "sh ",
		                               "bash ", "rsync", "gsutil", "aws s3", NULL };
	for (size_t i = 0; writers[i]; i++)
		if (strstr(t, writers[i]))
			return true;
	return false;
}

/* ---- what the RUNs install ---- */

typedef JF_ARRAY(words) commands;

static void commands_release(commands *c)
{
	for (size_t i = 0; i < c->size; i++)
		words_release(&c->items[i]);
	jf_array_release(c);
}

/* The simple commands of a RUN's shell text from byte `from`: words with
 * quotes removed and variables expanded (NULL when not known), split at
 * `&&`, `||`, `;`, `|`, `&` and parentheses (braces are words: `{ a; }`,
 * `find -exec rm {} +`); redirections dropped (and
 * noted in *redirects when they write). */
static void run_commands(const stage *s, const logical *l, size_t from, commands *out,
                         bool *redirects)
{
	const char *t = l->text.buf;
	size_t n = l->text.len, i = from;
	words cur = { 0 };
	bool skip_next = false; /* the target of a redirection */
	while (i < n) {
		char c = t[i];
		if (c == ' ' || c == '\t' || c == '\r') {
			i++;
			continue;
		}
		if (c == '#' ) /* a comment to the end of the text */
			break;
		if (strchr(";&|()\n", c)) {
			if (cur.size)
				jf_array_push(out, cur);
			memset(&cur, 0, sizeof cur);
			i++;
			continue;
		}
		if (c == '>' || c == '<' || (isdigit((unsigned char)c) && i + 1 < n && t[i + 1] == '>')) {
			*redirects |= c != '<';
			while (i < n && strchr("0123456789<>&", t[i]))
				i++;
			skip_next = !(i > 0 && t[i - 1] == '&' && i < n && isdigit((unsigned char)t[i]));
			if (!skip_next)
				while (i < n && isdigit((unsigned char)t[i]))
					i++;
			continue;
		}
		size_t a = i;
		bool dynamic;
		char *value = read_word(t, n, &i, " \t\r\n;&|()<>", &dynamic);
		if (dynamic) {
			char *v = expand(value, &s->args, &s->env);
			free(value);
			value = v && !strpbrk(v, "$`") ? v : (free(v), NULL);
		}
		if (skip_next) {
			free(value);
			skip_next = false;
			continue;
		}
		jf_docker_word dw = { value, span_of(l, a, i) };
		jf_array_push(&cur, dw);
	}
	if (cur.size)
		jf_array_push(out, cur);
	else
		jf_array_release(&cur);
}

/* The local file or folder a COPY of the stage put at container path `cpath`, or NULL. */
static char *local_of(const stage *s, const char *cpath)
{
	for (size_t i = s->copies.size; i-- > 0;) {
		const jf_docker_copy *c = &s->copies.items[i];
		if (!c->dest)
			continue;
		for (size_t k = 0; k < c->sources.size; k++) {
			const char *src = c->sources.items[k];
			if (!src || strpbrk(src, "*?["))
				continue;
			if (jf_path_is_dir(src)) {
				const char *rel = jf_path_under(cpath, c->dest);
				char *local = rel ? jf_path_join(src, rel) : NULL;
				if (local && (jf_path_is_file(local) || jf_path_is_dir(local)))
					return local;
				free(local);
			} else {
				const char *base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
				char *lands = c->dest_dir ? jf_path_join(c->dest, base) : jf_xstrdup(c->dest);
				bool here = !strcmp(lands, cpath);
				free(lands);
				if (here)
					return jf_xstrdup(src);
			}
		}
	}
	return NULL;
}

/* One RUN being read for what it installs. */
typedef struct {
	stage *s;
	const words *cmd;
	size_t first;    /* the index in cmd of the first argument after `install` */
	char *cwd;       /* the container folder it runs in, or NULL */
	jf_span at;      /* where installs from a file are noted */
	bool from_file;  /* the items come from a file, noted at `at` */
	bool opaque;
	const char *why; /* why it is opaque, when a local project makes it so (static) */
	bool only_packages; /* its commands only install or remove packages, or cd */
} run_read;

/* The local file a container path of the RUN names: through the COPY that put it there. */
static char *run_local(const run_read *r, const char *path)
{
	char *cpath = path[0] == '/' ? jf_path_normalize(path)
	              : r->cwd      ? jf_path_join(r->cwd, path)
	                            : NULL;
	char *local = cpath ? local_of(r->s, cpath) : NULL;
	free(cpath);
	return local;
}

static void install_item(const jf_pip_item *it, void *data);

/* A local project (`pip install .`, `-e path`): what its metadata says it
 * requires (job/project.h), noted at `at`. */
static void install_project(run_read *r, const char *arg, jf_span at)
{
	char *extras;
	char *dir = jf_project_split(arg, &extras);
	char *local = run_local(r, dir);
	if (local && jf_path_is_dir(local)) {
		jf_project p;
		jf_project_read(local, extras, &p);
		r->s->unfound += !p.metadata; /* pip: "does not appear to be a Python project" */
		run_read inner = *r;
		inner.at = at;
		inner.from_file = true;
		for (size_t i = 0; i < p.requires.size; i++)
			jf_pip_requirements(p.requires.items[i], install_item, &inner);
		r->opaque |= p.unknown || inner.opaque;
		if (p.unknown && !r->why)
			r->why = p.unknown;
		jf_project_release(&p);
		jf_array_push(&r->s->projects, local);
		local = NULL;
	} else {
		r->opaque = true;
		r->s->unfound += local == NULL;
	}
	free(local);
	free(dir);
	free(extras);
}

static void install_item(const jf_pip_item *it, void *data)
{
	run_read *r = data;
	jf_span at = r->from_file ? r->at : r->cmd->items[r->first + it->word].at;
	if (it->kind == JF_PIP_NAMED) {
		jf_docker_install x = { jf_xstrdup(it->name),
			                it->version ? jf_xstrdup(it->version) : NULL, at,
			                it->spec ? jf_xstrdup(it->spec) : NULL };
		jf_array_push(&r->s->installs, x);
		r->opaque |= it->conda; /* its recipe may bring more than its name says */
	} else if (it->kind == JF_PIP_REQUIREMENTS) {
		char *local = run_local(r, it->path);
		run_read inner = *r;
		inner.at = at;
		inner.from_file = true;
		if (local)
			jf_pip_requirements_file(local, install_item, &inner);
		r->s->unfound += !local && it->path[0] != '/' && !strchr(it->path, '$');
		r->opaque |= !local || inner.opaque;
		free(local);
	} else if (it->kind == JF_PIP_PROJECT) {
		install_project(r, it->path, at);
	} else {
		r->opaque = true; /* a URL, a value known only at build time */
	}
}

/* `conda env update -f FILE` into the active (base) environment, from word i
 * (after `update`); `conda env create` makes another environment. */
static void conda_env_update(run_read *r, const words *cmd, size_t i)
{
	const char *file = NULL;
	for (; i < cmd->size; i++) {
		const char *a = cmd->items[i].value;
		if (!a) {
			r->opaque = true;
			return;
		}
		const char *next = i + 1 < cmd->size ? cmd->items[i + 1].value : NULL;
		if (!strcmp(a, "-f") || !strcmp(a, "--file"))
			file = next, i++;
		else if (jf_str_starts(a, "--file="))
			file = a + 7;
		else if ((!strcmp(a, "-n") || !strcmp(a, "--name")) && next && strcmp(next, "base"))
			file = NULL, i = cmd->size; /* another environment */
		else if (!strcmp(a, "-p") || !strcmp(a, "--prefix"))
			file = NULL, i = cmd->size;
	}
	char *local = file ? run_local(r, file) : NULL;
	run_read inner = *r;
	inner.at = cmd->items[0].at;
	inner.from_file = true;
	if (!local || !jf_conda_environment(local, install_item, &inner))
		r->opaque = true;
	r->opaque |= inner.opaque;
	free(local);
}

/* Programs that install no Python package into the image's Python. */
static const char *const no_python_packages[] = {
	"mkdir", "rm", "rmdir", "cp", "mv", "ln", "chmod", "chown", "chgrp", "touch", "echo",
	"printf", "true", "false", "test", "[", "export", "set", "unset", "umask", "cat", "tee",
	"sed", "awk", "grep", "ls", "ldconfig", "locale-gen", "update-locale", "localedef",
	"useradd", "groupadd", "adduser", "addgroup", "usermod", "passwd", "chpasswd", "id",
	"whoami", "curl", "wget", "git", "tar", "unzip", "gzip", "gunzip", "bzip2", "xz", "which",
	"apt-key", "apt-cache", "dpkg-reconfigure", "update-alternatives", "nvidia-smi", "nvcc",
	"pipx", "npm", "gem", "cargo", "rustup", "go", "sleep", "date", "source", ".",
	"pwd", "ulimit", "exit", "head", "tail", "sort", "wc", "du", "df", "rsync",
	"hash", "alias", "ccache", "nproc", "uname", "python-config", NULL
};

/* System package managers: they may install Python packages as `python3-*`. */
static const char *const system_managers[] = { "apt-get", "apt", "yum", "dnf", "microdnf",
	                                       "apk", "dpkg", "zypper", NULL };

/* Whether `name` runs pip: pip, pip3, pip3.10. */
static bool is_pip(const char *name)
{
	return !strcmp(name, "pip") || !strcmp(name, "pip3") || jf_str_starts(name, "pip3.");
}

static bool is_python(const char *name)
{
	return !strcmp(name, "python") || jf_str_starts(name, "python3");
}

/* One simple command of a RUN: what it installs, and whether it may install
 * what jobfix cannot name. */
static void run_command(run_read *r, const words *cmd)
{
	size_t i = 0;
	/* NAME=value prefixes, braces of a group, and the wrappers that run the rest */
	while (i < cmd->size) {
		const char *v = cmd->items[i].value;
		if (v && (strchr(v, '=') && v[0] != '=' && v[0] != '-') &&
		    strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") ==
		            (size_t)(strchr(v, '=') - v)) {
			i++;
		} else if (v && (!strcmp(v, "{") || !strcmp(v, "}") || !strcmp(v, "!"))) {
			i++;
		} else if (v && !strcmp(v, "env")) {
			/* env [-i] [-u NAME] [NAME=value]... program */
			for (i++; i < cmd->size && cmd->items[i].value && cmd->items[i].value[0] == '-'; i++)
				if (!strcmp(cmd->items[i].value, "-u") || !strcmp(cmd->items[i].value, "-C"))
					i++;
		} else if (v && (!strcmp(v, "sudo") || !strcmp(v, "time") || !strcmp(v, "nohup") ||
		                 !strcmp(v, "exec") || !strcmp(v, "command"))) {
			for (i++; i < cmd->size && cmd->items[i].value && cmd->items[i].value[0] == '-';)
				i++;
		} else {
			break;
		}
	}
	if (i >= cmd->size)
		return;
	const char *prog = cmd->items[i].value;
	if (!prog) {
		r->opaque = true;
		return;
	}
	const char *base = strrchr(prog, '/') ? strrchr(prog, '/') + 1 : prog;
	const char *sub = i + 1 < cmd->size ? cmd->items[i + 1].value : NULL;
	size_t install = 0; /* the word after `install`, when this is a pip or conda install */
	bool pip = true;
	if (!strcmp(base, "cd")) {
		char *dir = sub && sub[0] == '/' ? jf_path_normalize(sub)
		            : sub && r->cwd       ? jf_path_join(r->cwd, sub)
		                                  : NULL;
		free(r->cwd);
		r->cwd = dir;
		return;
	}
	if (is_pip(base)) {
		install = sub && !strcmp(sub, "install") ? i + 2 : 0;
	} else if (is_python(base) && sub && !strcmp(sub, "-m") && i + 3 < cmd->size &&
	           cmd->items[i + 2].value && !strcmp(cmd->items[i + 2].value, "pip")) {
		sub = cmd->items[i + 3].value;
		install = sub && !strcmp(sub, "install") ? i + 4 : 0;
	} else if (is_python(base)) {
		/* `python -c`: a program of its own, that installs nothing pip knows;
		 * `python setup.py install` and the like may install anything */
		r->only_packages = false;
		r->opaque |= !sub || strcmp(sub, "-c");
		return;
	} else if (!strcmp(base, "uv") && sub && !strcmp(sub, "pip")) {
		sub = i + 2 < cmd->size ? cmd->items[i + 2].value : NULL;
		install = sub && !strcmp(sub, "install") ? i + 3 : 0;
	} else if (!strcmp(base, "conda") || !strcmp(base, "mamba") || !strcmp(base, "micromamba")) {
		static const char *const quiet[] = { "clean", "config", "info", "list", "init",
			                             "activate", "deactivate", "search", NULL };
		const char *verb = i + 2 < cmd->size ? cmd->items[i + 2].value : NULL;
		if (sub && !strcmp(sub, "install")) {
			install = i + 2;
			pip = false;
		} else if (sub && !strcmp(sub, "env") && verb && !strcmp(verb, "update")) {
			conda_env_update(r, cmd, i + 3);
		} else if (!sub || !jf_str_in(sub, quiet)) {
			r->opaque = true; /* conda create, conda env create: another environment */
		}
		if (!install)
			return;
	} else if (jf_str_in(base, system_managers)) {
		for (size_t k = i + 1; k < cmd->size; k++) {
			const char *p = cmd->items[k].value;
			if (!p || jf_str_starts(p, "python") || jf_str_starts(p, "py3-"))
				r->opaque = true;
		}
		return;
	} else if (!strcmp(base, "find")) {
		/* find ... -exec PROGRAM ...: what it runs for each file */
		r->only_packages = false;
		for (size_t k = i + 1; k < cmd->size; k++) {
			const char *a = cmd->items[k].value;
			if (a && jf_str_in(a, (const char *const[]){ "-exec", "-execdir", "-ok", "-okdir",
			                                             NULL })) {
				const char *p = k + 1 < cmd->size ? cmd->items[k + 1].value : NULL;
				r->opaque |= !p || !jf_str_in(p, no_python_packages);
			}
		}
		return;
	} else if (jf_str_in(base, no_python_packages)) {
		/* What a RUN does beside installing packages may create files. */
		static const char *const package_work[] = { "rm", "true", "echo", "set", "export",
			                                     "apt-key", "ldconfig", NULL };
		r->only_packages &= jf_str_in(base, package_work);
		return;
	} else {
		r->only_packages = false;
		r->opaque = true;
		return;
	}
	if (!install)
		return; /* pip uninstall, pip cache purge, pip --version ... */
	const char **values = jf_xcalloc(cmd->size - install + 1, sizeof *values);
	for (size_t k = install; k < cmd->size; k++)
		values[k - install] = cmd->items[k].value;
	r->cmd = cmd;
	r->first = install;
	jf_pip_install_args(values, cmd->size - install, pip, install_item, r);
	free(values);
}

/* The instruction may bring packages jobfix cannot name: the first one is kept. */
static void open_packages(stage *s, const logical *l, const char *why)
{
	if (s->opaque)
		return;
	s->opaque = jf_xstrdup(l->text.buf);
	s->opaque_at = l->whole;
	s->opaque_why = why;
}

/* Whether an ENV points Python elsewhere: a virtualenv or conda environment,
 * another PYTHONPATH or home, a PATH with an environment's bin folder. */
static bool env_moves_python(const words *w)
{
	static const char *const names[] = { "VIRTUAL_ENV", "CONDA_PREFIX", "CONDA_DEFAULT_ENV",
		                             "PYTHONPATH", "PYTHONHOME", "PYTHONUSERBASE", NULL };
	for (size_t i = 0; i < w->size; i++) {
		const char *v = w->items[i].value;
		if (!v)
			continue;
		char *name = jf_xstrndup(v, strcspn(v, "="));
		bool moves = jf_str_in(name, names) ||
		             (!strcmp(name, "PATH") && (strstr(v, "conda") || strstr(v, "venv") ||
		                                        strstr(v, "env/bin") || strstr(v, "mamba")));
		free(name);
		if (moves)
			return true;
	}
	return false;
}

/* RUN: the packages it installs; the first RUN that may install what
 * jobfix cannot name is kept. */
static void read_run(stage *s, const logical *l, size_t from)
{
	commands cmds = { 0 };
	words json = { 0 };
	run_read r = { .s = s, .cwd = s->workdir ? jf_xstrdup(s->workdir) : NULL,
		       .only_packages = true };
	bool redirects = false;
	if (json_words(l, from, &json)) {
		run_command(&r, &json);
	} else if (strstr(l->text.buf + from, "<<")) {
		r.opaque = true; /* a here-document: text jobfix does not read */
		r.only_packages = false;
	} else {
		run_commands(s, l, from, &cmds, &redirects);
		for (size_t i = 0; i < cmds.size; i++)
			run_command(&r, &cmds.items[i]);
	}
	/* A RUN that may create files where the code is (JF102 stays out then);
	 * one that only installs packages writes into the Python's site-packages
	 * (a local project's build leaves only build/ and *.egg-info beside it). */
	if (run_writes(l->text.buf + from) && (!r.only_packages || redirects)) {
		jf_docker_run run = { s->workdir ? jf_xstrdup(s->workdir) : NULL,
			              jf_xstrdup(l->text.buf + from) };
		jf_array_push(&s->runs, run);
	}
	if (r.opaque)
		open_packages(s, l, r.why);
	free(r.cwd);
	words_release(&json);
	commands_release(&cmds);
}

const char *jf_dockerfile_why(const jf_dockerfile *self)
{
	return self->src && self->src->status != JF_SOURCE_OK ? jf_source_why(self->src)
	                                                      : "it has no FROM";
}

/* ENTRYPOINT / CMD: the JSON form's words, or the shell form noted. */
static void read_exec(const logical *l, size_t from, words *to, bool *set, bool *shell)
{
	words_release(to);
	*set = true;
	*shell = !json_words(l, from, to);
}

bool jf_dockerfile_read(const char *fs_path, const char *display_path, const char *ctx,
                        jf_dockerfile *out)
{
	memset(out, 0, sizeof *out);
	out->src = jf_source_load(fs_path, display_path);
	if (out->src->status != JF_SOURCE_OK)
		return false;
	char *context = jf_xstrdup(*ctx ? ctx : ".");
	logical l = { JF_BUF_INIT, { 0 }, { 0, 0 } };
	vars globals = { 0 };
	JF_ARRAY(stage) stages = { 0 };
	uint32_t pos = 0;
	while (next_instruction(out->src, &pos, &l)) {
		size_t kw = 0;
		while (kw < l.text.len && !isspace((unsigned char)l.text.buf[kw]))
			kw++;
		words w = { 0 };
		shell_words(&l, kw, &w);
		stage *s = stages.size ? jf_array_last(&stages) : NULL;
		if (keyword_is(&l, kw, "FROM")) {
			stage ns = { 0 };
			size_t i = 0;
			while (i < w.size && jf_str_starts(w.items[i].value, "--"))
				i++;
			ns.from = i < w.size ? expand(w.items[i].value, &globals, &ns.env) : NULL;
			if (i < w.size)
				ns.from_at = w.items[i].at;
			if (i + 2 < w.size && !strcasecmp(w.items[i + 1].value, "AS"))
				ns.name = jf_xstrdup(w.items[i + 2].value);
			for (size_t k = 0; ns.from && k < stages.size; k++)
				if (stages.items[k].name && !strcmp(stages.items[k].name, ns.from)) {
					stage_continue(&ns, &stages.items[k]);
					break;
				}
			jf_array_push(&stages, ns);
		} else if (keyword_is(&l, kw, "ARG")) {
			if (s) {
				read_arg(s, &w, &globals);
			} else {
				/* global: ARG before the first FROM */
				for (size_t i = 0; i < w.size; i++) {
					const char *a = w.items[i].value;
					const char *eq = strchr(a, '=');
					char *name = eq ? jf_xstrndup(a, (size_t)(eq - a)) : jf_xstrdup(a);
					char *v = eq ? expand(eq + 1, &globals, &(words){ 0 }) : NULL;
					vars_set(&globals, name, v);
					free(name);
					free(v);
				}
			}
		} else if (s && keyword_is(&l, kw, "WORKDIR") && w.size) {
			char *d = expand(w.items[0].value, &s->args, &s->env);
			char *abs = d && d[0] == '/' ? jf_path_normalize(d)
			            : d && s->workdir ? jf_path_join(s->workdir, d)
			                              : NULL;
			free(d);
			free(s->workdir);
			s->workdir = abs;
			s->workdir_at = w.items[0].at;
		} else if (s && keyword_is(&l, kw, "USER") && w.size) {
			free(s->user.value);
			s->user = (jf_docker_word){ expand(w.items[0].value, &s->args, &s->env),
				                    w.items[0].at };
		} else if (s && keyword_is(&l, kw, "ENV")) {
			read_env(s, &l, kw, &w);
			if (env_moves_python(&w))
				open_packages(s, &l, NULL);
		} else if (s && (keyword_is(&l, kw, "COPY") || keyword_is(&l, kw, "ADD"))) {
			words j = { 0 };
			size_t flags = 0;
			while (flags < w.size && jf_str_starts(w.items[flags].value, "--"))
				flags++;
			/* JSON form after the flags: COPY --chown=u ["a", "b"] */
			size_t after = kw;
			if (flags) {
				jf_span last = w.items[flags - 1].at;
				after = 0;
				while (after < l.at.size && l.at.items[after] < last.end)
					after++;
			}
			/* Files of another stage or image may be packages, a virtualenv. */
			for (size_t k = 0; k < flags; k++)
				if (jf_str_starts(w.items[k].value, "--from="))
					open_packages(s, &l, NULL);
			if (json_words(&l, after, &j)) {
				words all = { 0 };
				words_copy(&all, &(words){ w.items, flags, flags });
				for (size_t k = 0; k < j.size; k++)
					jf_array_push(&all, j.items[k]);
				jf_array_release(&j);
				read_copy(s, &all, keyword_is(&l, kw, "ADD"), context, l.whole);
				words_release(&all);
			} else {
				read_copy(s, &w, keyword_is(&l, kw, "ADD"), context, l.whole);
			}
		} else if (s && keyword_is(&l, kw, "RUN")) {
			s->runs_python |= run_changes_python(l.text.buf + kw);
			read_run(s, &l, kw);
		} else if (s && keyword_is(&l, kw, "ENTRYPOINT")) {
			read_exec(&l, kw, &s->entrypoint, &s->entrypoint_set, &s->entrypoint_shell);
			/* ENTRYPOINT resets an inherited CMD */
			words_release(&s->cmd);
			s->cmd_set = s->cmd_shell = false;
		} else if (s && keyword_is(&l, kw, "CMD")) {
			read_exec(&l, kw, &s->cmd, &s->cmd_set, &s->cmd_shell);
		}
		words_release(&w);
	}
	bool ok = stages.size > 0;
	if (ok) {
		stage *s = jf_array_last(&stages);
		out->from = s->from;
		s->from = NULL;
		out->from_at = s->from_at;
		out->installs = s->installs;
		memset(&s->installs, 0, sizeof s->installs);
		out->projects = s->projects;
		memset(&s->projects, 0, sizeof s->projects);
		out->opaque = s->opaque;
		s->opaque = NULL;
		out->opaque_at = s->opaque_at;
		out->opaque_why = s->opaque_why;
		out->runs_python = s->runs_python;
		out->unfound = s->unfound;
		out->workdir = s->workdir;
		s->workdir = NULL;
		out->workdir_at = s->workdir_at;
		out->user = s->user;
		s->user.value = NULL;
		out->env = s->env;
		memset(&s->env, 0, sizeof s->env);
		out->copies = s->copies;
		memset(&s->copies, 0, sizeof s->copies);
		out->runs = s->runs;
		memset(&s->runs, 0, sizeof s->runs);
		out->entrypoint = s->entrypoint;
		memset(&s->entrypoint, 0, sizeof s->entrypoint);
		out->cmd = s->cmd;
		memset(&s->cmd, 0, sizeof s->cmd);
		out->entrypoint_set = s->entrypoint_set;
		out->cmd_set = s->cmd_set;
		out->entrypoint_shell = s->entrypoint_shell;
		out->cmd_shell = s->cmd_shell;
	}
	for (size_t i = 0; i < stages.size; i++)
		stage_release(&stages.items[i]);
	jf_array_release(&stages);
	vars_release(&globals);
	jf_buf_release(&l.text);
	jf_array_release(&l.at);
	free(context);
	return ok;
}

void jf_dockerfile_release(jf_dockerfile *self)
{
	jf_source_free(self->src);
	free(self->from);
	free(self->workdir);
	free(self->user.value);
	words_release(&self->env);
	copies_release(&self->copies);
	runs_release(&self->runs);
	installs_release(&self->installs);
	jf_strings_release(&self->projects);
	free(self->opaque);
	words_release(&self->entrypoint);
	words_release(&self->cmd);
	memset(self, 0, sizeof *self);
}

const jf_source *jf_dockerfile_keep(jf_job_read *r, jf_dockerfile *df)
{
	const jf_source *src = df->src;
	jf_array_push(&r->job->sources, df->src);
	df->src = NULL;
	return src;
}

jf_field jf_dockerfile_field(jf_job_read *r, const jf_source *src, const char *v, jf_span at)
{
	return (jf_field){ v ? jf_job__copy(r, v) : NULL, { src, at } };
}

void jf_dockerfile_build_image(jf_job_read *r, const jf_dockerfile *df, const jf_source *src)
{
	jf_job *j = r->job;
	if (!df->from)
		return;
	j->image.base = jf_dockerfile_field(r, src, df->from, df->from_at);
	for (size_t i = 0; i < df->installs.size; i++) {
		const jf_docker_install *x = &df->installs.items[i];
		jf_job_install in = { jf_dockerfile_field(r, src, x->name, x->at),
			              x->version ? jf_job__copy(r, x->version) : NULL,
			              x->spec ? jf_job__copy(r, x->spec) : NULL };
		jf_array_push(&j->image.installs, in);
	}
	for (size_t i = 0; i < df->projects.size; i++)
		jf_array_push(&j->image.projects, jf_job__copy(r, df->projects.items[i]));
	if (df->opaque) {
		j->image.extended_by = jf_dockerfile_field(r, src, df->opaque, df->opaque_at);
		j->image.extended_why = df->opaque_why;
	}
	j->image.base_python_changed = df->runs_python;
}
