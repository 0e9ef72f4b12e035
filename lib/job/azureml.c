/* azureml.c - Azure ML CLI v2 jobs: command and sweep jobs, pipeline jobs, command components
 *
 * A command job runs `command` (shell text) in a snapshot of its `code`
 * folder, in the image of its `environment`. Azure ML substitutes
 * ${{inputs.x}}, ${{outputs.x}} and ${{search_space.x}} into the text
 * before the shell sees it: data inputs and outputs become the paths where
 * they are mounted, literal inputs their values, and a $[[ ... ]] block
 * drops out when the optional input it names is not given.
 *
 * The text jobfix parses keeps the file's offsets: each ${{expr}} is
 * written ${_expr_} (the same length, dots made underscores) in a copy of
 * the file, and `_expr_` is set as a shell variable of the command
 * (job->subst) to the mount path or literal, or to an unknown value. A
 * dropped $[[ ]] block becomes blanks. Findings in the command are so
 * reported at their line and column in the job file. Only where the
 * value's bytes are not the file's (escapes) is the substituted value
 * parsed as a copy reported at the whole value.
 *
 * A sweep job's `trial` is a command job body; a pipeline job's steps
 * are command jobs, inline or a command component of the repository
 * (`component: ./train.yml`). The job model holds one command: the first
 * command step is read, and --verbose names the steps that are not.
 *
 * Mount paths are fixed by jobfix (Azure ML's own are per job):
 * /mnt/azureml/inputs/<name> read-only for ro_mount (the default) and
 * eval_mount, writable for rw_mount, download and eval_download;
 * /mnt/azureml/outputs/<name> for outputs. A `direct` input is a URI,
 * not a path: unknown.
 *
 * Only the fields read are checked (JF003/JF004): Azure ML's schema is
 * large and evolving, so unknown keys are not reported.
 */
#include <ctype.h>
#include <stdlib.h>

#include "core/path.h"
#include "job/dockerfile.h"
#include "job/pip.h"
#include "job/place.h"
#include "job/reader.h"

#define INPUTS_ROOT "/mnt/azureml/inputs/"
#define OUTPUTS_ROOT "/mnt/azureml/outputs/"

/* ---- recognising a file ---- */

typedef enum { KIND_NONE, KIND_COMMAND, KIND_SWEEP, KIND_PIPELINE, KIND_OTHER } job_kind;

/* The kind a `$schema` value names: an azureml job or component schema. */
static job_kind schema_kind(const char *s, size_t n)
{
	char low[256];
	if (n >= sizeof low)
		return KIND_NONE;
	for (size_t i = 0; i < n; i++)
		low[i] = (char)tolower((unsigned char)s[i]);
	low[n] = '\0';
	if (!strstr(low, "azureml"))
		return KIND_NONE;
	const char *base = strrchr(low, '/');
	base = base ? base + 1 : low;
	size_t len = strcspn(base, ".");
	static const struct {
		const char *name;
		job_kind kind;
	} names[] = { { "commandjob", KIND_COMMAND },
		      { "commandcomponent", KIND_COMMAND },
		      { "sweepjob", KIND_SWEEP },
		      { "pipelinejob", KIND_PIPELINE } };
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (strlen(names[i].name) == len && !strncmp(base, names[i].name, len))
			return names[i].kind;
	/* Other job and component kinds (automl, spark, parallel, pipeline
	 * components) are Azure ML's too: claimed, not read. */
	if ((len > 3 && !strncmp(base + len - 3, "job", 3)) ||
	    (len > 9 && !strncmp(base + len - 9, "component", 9)))
		return KIND_OTHER;
	return KIND_NONE;
}

static job_kind type_kind(const char *s, size_t n)
{
	if (n == 7 && !strncmp(s, "command", 7))
		return KIND_COMMAND;
	if (n == 5 && !strncmp(s, "sweep", 5))
		return KIND_SWEEP;
	if (n == 8 && !strncmp(s, "pipeline", 8))
		return KIND_PIPELINE;
	static const char *const others[] = { "automl", "spark", "parallel", "finetuning",
		                              "distillation", "import", "data_transfer", NULL };
	for (size_t i = 0; others[i]; i++)
		if (strlen(others[i]) == n && !strncmp(s, others[i], n))
			return KIND_OTHER;
	return KIND_NONE;
}

/* What the top-level keys of a file say. */
typedef struct {
	job_kind schema, type;
	bool body;  /* command, trial or jobs */
	bool place; /* environment, compute or code */
	bool command, environment, image, typed;
	bool experiment; /* experiment_name */
} top_keys;

static bool claims(const top_keys *t, bool other_kinds)
{
	if (t->schema != KIND_NONE)
		return other_kinds || t->schema != KIND_OTHER;
	if (t->type == KIND_OTHER)
		return other_kinds && (t->place || t->experiment);
	if (t->type != KIND_NONE)
		return t->body && t->place;
	/* A command job may leave out `type` (command is the default); jobfix's
	 * own spec has `image` and no `environment`. */
	return !t->typed && t->command && t->environment && !t->image;
}

static void note_key(top_keys *t, const char *key, size_t klen, const char *val, size_t vlen)
{
#define IS(k) (klen == sizeof(k) - 1 && !strncmp(key, k, klen))
	if (IS("$schema"))
		t->schema = schema_kind(val, vlen);
	else if (IS("type")) {
		t->type = type_kind(val, vlen);
		t->typed = true;
	} else if (IS("image"))
		t->image = true;
	if (IS("command") || IS("trial") || IS("jobs"))
		t->body = true;
	if (IS("environment") || IS("compute") || IS("code"))
		t->place = true;
	t->command |= IS("command");
	t->experiment |= IS("experiment_name");
	t->environment |= IS("environment");
#undef IS
}

/* Top-level `key: value` lines of the text: cheap, and enough to tell Azure ML's files. */
static bool sniff_azureml(const char *text, size_t len)
{
	top_keys t = { 0 };
	if (len >= 2 && text[0] == '#' && text[1] == '!')
		return false; /* a script, maybe writing a job file in a here-document */
	for (const char *p = text, *end = text + len; p < end;) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		const char *colon = memchr(p, ':', (size_t)(eol - p));
		/* A top-level line that is no key, list item, comment or document marker: not YAML. */
		if (!colon && p < eol && !isspace((unsigned char)*p) && *p != '#' && *p != '-' &&
		    *p != '.')
			return false;
		if (colon && (isalpha((unsigned char)*p) || *p == '$')) {
			const char *v = colon + 1, *ve = eol;
			while (v < ve && (*v == ' ' || *v == '\t'))
				v++;
			for (const char *h = v; h < ve && *v != '"' && *v != '\''; h++)
				if (*h == '#') {
					ve = h;
					break;
				}
			while (ve > v && isspace((unsigned char)ve[-1]))
				ve--;
			if (ve - v >= 2 && (*v == '"' || *v == '\'') && ve[-1] == *v) {
				v++;
				ve--;
			}
			note_key(&t, p, (size_t)(colon - p), v, (size_t)(ve - v));
		}
		p = eol + 1;
	}
	return claims(&t, false);
}

static top_keys doc_keys(const yaml_document_t *doc)
{
	top_keys t = { 0 };
	yaml_node_t *root = yaml_document_get_root_node((yaml_document_t *)doc);
	if (!root || root->type != YAML_MAPPING_NODE)
		return t;
	for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top;
	     p++) {
		const char *k = jf_yml_scalar(jf_yml_node(doc, p->key));
		yaml_node_t *v = jf_yml_node(doc, p->value);
		const char *s = jf_yml_scalar(v);
		if (k)
			note_key(&t, k, strlen(k), s ? s : "", s ? strlen(s) : 0);
	}
	return t;
}

static bool detect_azureml(const jf_source *src, const jf_yml_docs *docs)
{
	(void)src;
	if (!docs || !docs->size)
		return false;
	top_keys t = doc_keys(&docs->items[0]);
	return claims(&t, true);
}

/* ---- reading ---- */

/* One file being read (the job file, a component, an environment) and the job file. */
typedef struct {
	jf_job_read *job;  /* the job file */
	jf_job_read *file; /* the file of the values at hand */
	char *dir;         /* its folder, on this machine and as shown */
	char *display_dir;
} place;

/* The names ${{inputs.x}} and ${{outputs.x}} stand for, for one command. */
typedef struct {
	place *job_place;        /* the job file */
	yaml_node_t *inputs;     /* of the job file: the job's, a sweep's or a step's */
	yaml_node_t *outputs;
	yaml_node_t *parent_in;  /* a pipeline's own inputs, for ${{parent.inputs.x}} */
	place *decl;             /* a component's file, with its declared inputs and outputs */
	yaml_node_t *decl_in, *decl_out;
	bool bound_later;        /* a component read alone: its inputs are given by a pipeline */
} scope;

static bool data_type(const char *t)
{
	static const char *const types[] = { "uri_folder",   "uri_file",     "custom_model",
		                             "mlflow_model", "triton_model", "mltable",
		                             NULL };
	return t && jf_str_in(t, types);
}

static bool literal_type(const char *t)
{
	static const char *const types[] = { "integer", "number", "string", "boolean", NULL };
	return t && jf_str_in(t, types);
}

static const char *scalar_of(const yaml_document_t *doc, const yaml_node_t *map, const char *key)
{
	yaml_node_t *n = jf_yml_get(doc, map, key);
	return n && !jf_yml_is_null(n) ? jf_yml_scalar(n) : NULL;
}

static bool is_expr(const char *s)
{
	return s && strstr(s, "${{");
}

/* What one input or output is: a value, or a mount at `path` (value NULL: unknown). */
typedef struct {
	bool given;    /* the job gives it (a value, a path, a binding) */
	bool mount;    /* data mounted at path */
	bool writable;
	char *value;   /* the text substituted, or NULL */
	jf_loc at;     /* where the job gives it */
} resolved;

/* A data input or output's mount path, with a uri_file's name under it. */
static char *mount_value(jf_job_read *r, const char *root, const char *name, const char *type,
                         const char *path)
{
	char buf[512];
	if (type && !strcmp(type, "uri_file")) {
		const char *base = path && !is_expr(path) ? strrchr(path, '/') : NULL;
		base = base ? base + 1 : path;
		if (!base || !*base || strchr(base, ':') || is_expr(path))
			return NULL; /* the file's name is not known */
		snprintf(buf, sizeof buf, "%s%s/%s", root, name, base);
	} else {
		snprintf(buf, sizeof buf, "%s%s", root, name);
	}
	return jf_job__copy(r, buf);
}

/* An input `v` (a node of `f`) named `name`: a literal, a data mapping, or a binding. */
static resolved resolve_input(scope *s, jf_job_read *f, const char *name, yaml_node_t *v,
                              bool bound_later, int depth);

static resolved resolve_binding(scope *s, const char *name, yaml_node_t *v, int depth)
{
	jf_job_read *r = s->job_place->job;
	const char *text = jf_yml_scalar(v);
	resolved out = { .given = true, .at = jf_job__loc(r, v) };
	const char *p = text ? strstr(text, "${{") : NULL;
	if (p && s->parent_in && depth < 2) {
		const char *a = p + 3;
		while (*a == ' ')
			a++;
		if (!strncmp(a, "parent.inputs.", 14)) {
			a += 14;
			size_t n = strcspn(a, " }");
			char key[128];
			if (n < sizeof key) {
				memcpy(key, a, n);
				key[n] = '\0';
				yaml_node_t *pv = jf_yml_get(r->doc, s->parent_in, key);
				if (pv) {
					resolved pr = resolve_input(s, r, key, pv, false, depth + 1);
					if (pr.mount && pr.value) {
						/* Mounted under the step's input name, as the step sees it. */
						char buf[512];
						snprintf(buf, sizeof buf, "%s%s%s", INPUTS_ROOT, name,
						         pr.value + strlen(INPUTS_ROOT) + strlen(key));
						pr.value = jf_job__copy(r, buf);
					}
					return pr;
				}
			}
		}
	}
	/* Another step's output, or a value jobfix cannot follow: unknown. */
	return out;
}

static resolved resolve_input(scope *s, jf_job_read *f, const char *name, yaml_node_t *v,
                              bool bound_later, int depth)
{
	resolved out = { .given = !bound_later, .at = jf_job__loc(f, v) };
	if (v->type == YAML_SCALAR_NODE) {
		if (jf_yml_is_null(v))
			return out;
		if (is_expr(jf_yml_scalar(v)))
			return resolve_binding(s, name, v, depth);
		if (!bound_later)
			out.value = jf_job__copy(f, jf_yml_scalar(v));
		return out;
	}
	if (v->type != YAML_MAPPING_NODE)
		return out;
	const char *type = scalar_of(f->doc, v, "type");
	const char *path = scalar_of(f->doc, v, "path");
	const char *mode = scalar_of(f->doc, v, "mode");
	yaml_node_t *pn = jf_yml_get(f->doc, v, "path");
	if (pn)
		out.at = jf_job__loc(f, pn);
	if (literal_type(type)) {
		const char *def = scalar_of(f->doc, v, "default");
		if (!def)
			def = scalar_of(f->doc, v, "value");
		if (def && !bound_later && !is_expr(def))
			out.value = jf_job__copy(f, def);
		out.given = out.given && def;
		return out;
	}
	if (!data_type(type) && !(type == NULL && path))
		return out; /* a type jobfix does not know */
	if (path && is_expr(path))
		return resolve_binding(s, name, pn, depth);
	if (mode && (!strcmp(mode, "direct")))
		return out; /* the command gets the URI, not a path */
	out.mount = true;
	out.writable = mode && (!strcmp(mode, "rw_mount") || !strcmp(mode, "download") ||
	                        !strcmp(mode, "eval_download"));
	out.given = out.given && (path || bound_later);
	out.value = mount_value(f, INPUTS_ROOT, name, type, path);
	return out;
}

/* Registers a mount of the job: read-only inputs, writable outputs. */
static void add_mount(jf_job_read *r, const char *root, const char *name, jf_loc at,
                      bool writable)
{
	jf_job *j = r->job;
	jf_job_mounts *a = writable ? &j->outputs : &j->inputs;
	char buf[512];
	snprintf(buf, sizeof buf, "%s%s", root, name);
	for (size_t i = 0; i < j->inputs.size; i++)
		if (!strcmp(j->inputs.items[i].path.value, buf))
			return;
	for (size_t i = 0; i < j->outputs.size; i++)
		if (!strcmp(j->outputs.items[i].path.value, buf))
			return;
	jf_job_mount m = { { jf_job__copy(r, name), at }, { jf_job__copy(r, buf), at } };
	jf_array_push(a, m);
}

/* The value of expression `expr` ("inputs.data") of the command, or NULL; `at` where it is given. */
static resolved resolve_expr(scope *s, const char *expr)
{
	resolved none = { 0 };
	const char *name = NULL;
	bool output = false;
	if (!strncmp(expr, "inputs.", 7))
		name = expr + 7;
	else if (!strncmp(expr, "outputs.", 8)) {
		name = expr + 8;
		output = true;
	}
	if (!name || !*name || strchr(name, '.'))
		return none; /* search_space.x, and anything else: known only at run time */
	jf_job_read *r = s->job_place->job;
	yaml_node_t *given = jf_yml_get(r->doc, output ? s->outputs : s->inputs, name);
	yaml_node_t *decl = s->decl ? jf_yml_get(s->decl->file->doc, output ? s->decl_out : s->decl_in,
	                                     name)
	                            : NULL;
	if (output) {
		resolved out = { .given = true, .mount = true, .writable = true };
		jf_job_read *f = given ? r : decl ? s->decl->file : NULL;
		yaml_node_t *v = given ? given : decl;
		if (!f)
			return none;
		out.at = jf_job__loc(f, v);
		const char *type = scalar_of(f->doc, v, "type");
		const char *mode = scalar_of(f->doc, v, "mode");
		if (mode && !strcmp(mode, "direct"))
			return none;
		if (decl && !type)
			type = scalar_of(s->decl->file->doc, decl, "type");
		if (type && !strcmp(type, "uri_file"))
			return out; /* a file of a name Azure ML picks */
		out.value = mount_value(r, OUTPUTS_ROOT, name, NULL, NULL);
		return out;
	}
	if (given) {
		resolved g = resolve_input(s, r, name, given, false, 0);
		if (decl && g.value && !g.mount && decl->type == YAML_MAPPING_NODE) {
			/* A step's literal bound to a component's data input is its path. */
			const char *type = scalar_of(s->decl->file->doc, decl, "type");
			if (data_type(type)) {
				g.mount = true;
				g.value = mount_value(r, INPUTS_ROOT, name, type, g.value);
			}
		}
		return g;
	}
	if (decl)
		return resolve_input(s, s->decl->file, name, decl, s->bound_later, 0);
	return none;
}

/* Registers every data input and output of the scope as a mount. */
static void scope_mounts(scope *s)
{
	jf_job_read *r = s->job_place->job;
	yaml_node_t *lists[] = { s->inputs, s->decl_in, s->outputs, s->decl_out };
	for (int l = 0; l < 4; l++) {
		place *pl = l % 2 ? s->decl : s->job_place;
		yaml_node_t *map = lists[l];
		if (!pl || !map || map->type != YAML_MAPPING_NODE)
			continue;
		const yaml_document_t *doc = pl->file->doc;
		for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
		     p < map->data.mapping.pairs.top; p++) {
			const char *name = jf_yml_scalar(jf_yml_node(doc, p->key));
			if (!name)
				continue;
			char expr[160];
			snprintf(expr, sizeof expr, "%s.%s", l < 2 ? "inputs" : "outputs", name);
			resolved v = resolve_expr(s, expr);
			if (v.mount)
				add_mount(r, l < 2 ? INPUTS_ROOT : OUTPUTS_ROOT, name,
				          v.at.src ? v.at : jf_job__loc(pl->file, jf_yml_node(doc, p->key)),
				          v.writable);
		}
	}
}

/* ---- the command's text ---- */

/* The expression of `${{ expr }}` at p (p[0..2] = "${{"), trimmed; its end after "}}" in *end. */
static bool expr_at(const char *p, const char *limit, char *out, size_t cap, const char **end)
{
	const char *a = p + 3, *close = NULL;
	for (const char *q = a; q + 1 < limit; q++) {
		if (*q == '\n')
			return false;
		if (q[0] == '}' && q[1] == '}') {
			close = q;
			break;
		}
	}
	if (!close)
		return false;
	const char *b = close;
	while (a < b && *a == ' ')
		a++;
	while (b > a && b[-1] == ' ')
		b--;
	if ((size_t)(b - a) >= cap || a == b)
		return false;
	memcpy(out, a, (size_t)(b - a));
	out[b - a] = '\0';
	*end = close + 2;
	return true;
}

/*
 * Rewrites the text t[0..len) in place, the same length: each ${{ expr }}
 * as ${_expr_} (its shell variable set in job->subst), each $[[ ... ]]
 * either kept without its brackets or blanked when it names an input the
 * job does not give. Newlines stay. Returns false when an expression is
 * not closed on its line.
 */
static bool rewrite(scope *s, char *t, size_t len)
{
	jf_job *j = s->job_place->job->job;
	jf_job_read *r = s->job_place->job;
	char expr[128];
	const char *end;
	/* $[[ ... ]] first: a block whose inputs are all given stays. */
	for (char *p = t; (p = strstr(p, "$[[")) && p < t + len;) {
		char *close = strstr(p + 3, "]]");
		if (!close || close >= t + len)
			return false;
		bool keep = true;
		for (char *q = p; (q = strstr(q, "${{")) && q < close; q++)
			if (expr_at(q, close, expr, sizeof expr, &end)) {
				resolved v = resolve_expr(s, expr);
				keep &= v.given || s->bound_later;
			}
		if (keep) {
			memset(p, ' ', 3);
			memset(close, ' ', 2);
		} else {
			for (char *q = p; q < close + 2; q++)
				if (*q != '\n')
					*q = ' ';
		}
		p = close + 2;
	}
	for (char *p = t; (p = strstr(p, "${{")) && p < t + len;) {
		if (!expr_at(p, t + len, expr, sizeof expr, &end))
			return false;
		/* ${{ e }} -> ${_e_}: 3 + n + 2 bytes to 2 + (n + 2) + 1. */
		size_t n = (size_t)(end - p) - 5;
		char name[160];
		name[0] = '_';
		for (size_t i = 0; i < n; i++) {
			char c = p[3 + i];
			name[1 + i] = isalnum((unsigned char)c) ? c : '_';
		}
		name[n + 1] = '_';
		name[n + 2] = '\0';
		bool known = false;
		for (size_t i = 0; i < j->subst.size && !known; i++)
			known = !strcmp(j->subst.items[i].name.value, name);
		if (!known) {
			resolved v = resolve_expr(s, expr);
			jf_loc at = v.at.src ? v.at : (jf_loc){ NULL, { 0, 0 } };
			jf_job_var var = { { jf_job__copy(r, name), at }, { v.value, at } };
			jf_array_push(&j->subst, var);
		}
		p[1] = '{';
		memcpy(p + 2, name, n + 2);
		p[n + 4] = '}';
		p = (char *)end;
	}
	return true;
}

/* Appends the shell unit of command `n`, a scalar of `pl`'s file. */
static void command_unit(scope *s, place *pl, yaml_node_t *n)
{
	jf_job_read *f = pl->file;
	jf_job *j = s->job_place->job->job;
	const jf_source *src = f->src;
	jf_cmd_unit u = { .kind = JF_CMD_SHELL, .at = jf_job__loc(f, n) };
	const char *value = (const char *)n->data.scalar.value;
	size_t vlen = n->data.scalar.length;
	bool subst = strstr(value, "${{") || strstr(value, "$[[");

	if (jf_job__value_ranges(src, n, &u)) {
		if (src != s->job_place->job->src)
			u.src = src; /* a component's file, owned by the job */
		if (subst) {
			/* A copy of the file, the same lines and offsets, its expressions rewritten. */
			char *copy = jf_xmalloc(src->len + 1);
			memcpy(copy, src->data, src->len + 1);
			uint32_t a = u.ranges.items[0].start, b = jf_array_last(&u.ranges)->end;
			char save = copy[b];
			copy[b] = '\0';
			bool ok = rewrite(s, copy + a, b - a);
			copy[b] = save;
			if (ok) {
				jf_source *shadow = jf_source_from_rewrite(src, copy);
				jf_array_push(&j->sources, shadow);
				u.src = shadow;
			} else {
				jf_array_release(&u.ranges);
			}
			free(copy);
		}
	}
	if (!u.ranges.size) {
		/* The value itself, rewritten the same way, reported at the value. */
		char *copy = jf_xmalloc(vlen + 1);
		memcpy(copy, value, vlen + 1);
		if (subst)
			rewrite(s, copy, vlen);
		u.copy = jf_source_from_value(src, u.at.span, copy, vlen);
		free(copy);
	}
	jf_array_push(&j->command, u);
}

/* ---- the other fields of a command ---- */

/* A value that is an expression Azure ML fills in (${{...}}) is known only at run time. */
static const char *env_value(const yaml_node_t *v, void *data)
{
	(void)data;
	const char *s = jf_yml_scalar(v);
	return is_expr(s) ? NULL : s;
}

static void read_env_vars(jf_job_read *f, yaml_node_t *v)
{
	if (!jf_yml_is_null(v))
		jf_job__env_map(f, v, "environment_variables", env_value, NULL);
}

static void read_distribution(jf_job_read *f, yaml_node_t *v)
{
	if (v->type != YAML_MAPPING_NODE) {
		if (!jf_yml_is_null(v))
			jf_job__wrong_type(f, v, "distribution", "a mapping with 'type'");
		return;
	}
	yaml_node_t *t = jf_yml_get(f->doc, v, "type");
	if (!t) {
		jf_sink_add(f->sink, JF004, f->src, jf_yml_span(f->src, v),
		            "'distribution' has no 'type' (pytorch, mpi, tensorflow or ray)");
		return;
	}
	yaml_node_t *pc = jf_yml_get(f->doc, v, "process_count_per_instance");
	if (pc)
		jf_job__count(f, pc, "distribution.process_count_per_instance", &f->job->procs);
}

static void read_resources(jf_job_read *f, yaml_node_t *v)
{
	f->job->resources = jf_job__loc(f, v);
	if (v->type != YAML_MAPPING_NODE) {
		if (!jf_yml_is_null(v))
			jf_job__wrong_type(f, v, "resources", "a mapping");
		return;
	}
	yaml_node_t *ic = jf_yml_get(f->doc, v, "instance_count");
	if (ic)
		jf_job__count(f, ic, "resources.instance_count", &f->job->nodes);
	/* The VM size of serverless compute (Standard_NC24ads_A100_v4), or an
	 * instance type of Kubernetes compute, whose names are the cluster's. A
	 * later `resources` (a step's over its component's) replaces it. */
	yaml_node_t *it = jf_yml_get(f->doc, v, "instance_type");
	const char *s = it ? jf_yml_scalar(it) : NULL;
	if (s && *s && !jf_yml_is_null(it) && !strstr(s, "${{")) {
		f->job->accels.size = 0;
		jf_job__accel(f, s, jf_job__loc(f, it), JF_ACCEL_INSTANCE, -1, jf_job__loc(f, it));
	}
}

/* A YAML file of the repository, parsed; NULL (and nothing reported) when it cannot be read. */
typedef struct {
	jf_job_read r;
	jf_yml_docs docs;
	place pl;
} other_file;

/* The YAML file at `fs` (shown as `shown`; both taken) into *o. */
static bool open_file(place *from, char *fs, char *shown, other_file *o)
{
	memset(o, 0, sizeof *o);
	jf_source *src = NULL;
	jf_yml_error err;
	if (jf_path_is_file(fs))
		src = jf_source_load(fs, shown);
	bool ok = src && src->status == JF_SOURCE_OK && jf_yml_load_all(src, &o->docs, &err);
	if (ok && (!o->docs.size ||
	           !yaml_document_get_root_node(&o->docs.items[0]) ||
	           yaml_document_get_root_node(&o->docs.items[0])->type != YAML_MAPPING_NODE)) {
		jf_yml_docs_release(&o->docs);
		ok = false;
	}
	if (!ok) {
		jf_source_free(src);
		free(fs);
		free(shown);
		return false;
	}
	jf_job *j = from->job->job;
	jf_array_push(&j->sources, src);
	o->r = (jf_job_read){ j, src, &o->docs, &o->docs.items[0], from->job->sink,
	                      from->job->builds };
	o->pl.job = from->job;
	o->pl.file = &o->r;
	o->pl.dir = jf_path_dirname(fs);
	o->pl.display_dir = jf_path_dirname(shown);
	jf_arena_adopt(&j->arena, o->pl.dir);
	jf_arena_adopt(&j->arena, o->pl.display_dir);
	free(fs);
	free(shown);
	return true;
}

/* The YAML file `rel` of `from`'s folder into *o. */
static bool open_other(place *from, const char *rel, other_file *o)
{
	return open_file(from, jf_path_join(from->dir, rel), jf_path_join(from->display_dir, rel), o);
}

static void close_other(other_file *o)
{
	jf_yml_docs_release(&o->docs);
}

static yaml_node_t *root_of(jf_job_read *f)
{
	return yaml_document_get_root_node((yaml_document_t *)f->doc);
}

/* A conda file's installs, kept in the job. */
typedef struct {
	jf_job_read *f; /* the file the conda environment is written in */
} conda_read;

static void conda_item(const jf_pip_item *it, void *data)
{
	conda_read *c = data;
	jf_job *j = c->f->job;
	const char *t = c->f->src->data + it->word;
	size_t n = strcspn(t, "\n\r#");
	while (n && (t[n - 1] == ' ' || t[n - 1] == '\t'))
		n--;
	jf_loc at = { c->f->src, { it->word, it->word + n } };
	if (it->kind == JF_PIP_NAMED) {
		jf_job_install in = { { jf_job__copy(c->f, it->name), at },
			              it->version ? jf_job__copy(c->f, it->version) : NULL,
			              it->spec ? jf_job__copy(c->f, it->spec) : NULL };
		jf_array_push(&j->image.installs, in);
	}
	if ((it->kind != JF_PIP_NAMED || it->conda) && !j->image.extended_by.value) {
		char *text = jf_xstrndup(t, n);
		j->image.extended_by = (jf_field){ jf_job__copy(c->f, text), at };
		free(text);
	}
}

/* The conda environment Azure ML makes from `conda` (a file name, or the
 * mapping itself) of `pl`'s file: the job's Python and its packages. */
static void read_conda(place *pl, yaml_node_t *conda)
{
	jf_job_read *f = pl->file;
	jf_job *j = f->job;
	const char *name = jf_yml_scalar(conda);
	if (conda->type == YAML_MAPPING_NODE) {
		conda_read c = { f };
		if (!jf_conda_environment_node(f->src, (yaml_document_t *)f->doc, conda, pl->dir,
		                               conda_item, &c))
			goto unread;
		j->image.conda_file = (jf_field){ jf_job__copy(f, "conda_file"), jf_job__loc(f, conda) };
		return;
	}
	if (!name || jf_yml_is_null(conda))
		goto unread;
	if (!strncmp(name, "file:", 5))
		name += 5;
	other_file o;
	if (!open_other(pl, name, &o))
		goto unread;
	conda_read c = { &o.r };
	bool ok = jf_conda_environment_node(o.r.src, (yaml_document_t *)o.r.doc, root_of(&o.r),
	                                    o.pl.dir, conda_item, &c);
	close_other(&o);
	if (!ok)
		goto unread;
	j->image.conda_file = (jf_field){ jf_job__copy(f, o.r.src->path), jf_job__loc(f, conda) };
	return;
unread:
	j->image.installs.size = 0; /* strings live in the arena */
	j->image.extended_by = (jf_field){ 0 };
	jf_job__unknown(f, JF_JOB_PACKAGES,
	                "the environment's conda file cannot be read as a conda environment: the "
	                "packages of the environment Azure ML builds are unknown");
}

/* An environment built from a Docker build context (`build: {path,
 * dockerfile_path}`): the image its Dockerfile builds. */
static void read_build(place *pl, yaml_node_t *build)
{
	jf_job_read *f = pl->file;
	jf_job *j = f->job;
	const char *path = jf_yml_scalar(jf_yml_get(f->doc, build, "path"));
	const char *file = jf_yml_scalar(jf_yml_get(f->doc, build, "dockerfile_path"));
	if (!file)
		file = "Dockerfile";
	if (!path || strstr(path, "://") || !strncmp(path, "azureml:", 8) || file[0] == '/') {
		jf_job__unknown(f, JF_JOB_PACKAGES, "the environment is built from a Docker context that is "
		                                    "not a folder of the repository: its image is unknown");
		return;
	}
	char *ctx = jf_path_join(pl->dir, path), *ctx_shown = jf_path_join(pl->display_dir, path);
	char *fs = jf_path_join(ctx, file), *shown = jf_path_join(ctx_shown, file);
	jf_dockerfile df;
	if (!jf_dockerfile_read(fs, shown, ctx, &df)) {
		jf_job__unknown(f, JF_JOB_PACKAGES, "%s is not read (%s): the image of the environment is "
		                                    "unknown",
		                shown, jf_dockerfile_why(&df));
	} else {
		const jf_source *dsrc = jf_dockerfile_keep(f, &df);
		jf_dockerfile_build_image(f, &df, dsrc);
		if (df.user.value)
			j->image.user = jf_dockerfile_field(f, dsrc, df.user.value, df.user.at);
		jf_job__assume(f, JF_JOB_PACKAGES, "the environment's image is built by %s", shown);
	}
	jf_dockerfile_release(&df);
	free(ctx);
	free(ctx_shown);
	free(fs);
	free(shown);
}

/* The image of an environment mapping (inline, or an environment file's root). `anchor`:
 * where in the job file the environment is named. */
static void environment_map(place *pl, yaml_node_t *v, jf_loc anchor)
{
	jf_job_read *f = pl->file;
	jf_job *j = f->job;
	yaml_node_t *img = jf_yml_get(f->doc, v, "image");
	yaml_node_t *conda = jf_yml_get(f->doc, v, "conda_file");
	yaml_node_t *build = jf_yml_get(f->doc, v, "build");
	if (build) {
		read_build(pl, build);
		return;
	}
	if (!img) {
		jf_sink_add(f->sink, JF004, f->src, jf_yml_span(f->src, v),
		            "the environment has no 'image' and no 'build'");
		return;
	}
	jf_field ref = { 0 };
	if (!jf_job__string(f, img, "environment.image", &ref))
		return;
	j->image.ref = ref;
	if (f->src != j->file)
		j->image.ref.at = anchor; /* the catalog's notes point into the job file */
	/* Azure ML builds an image: a conda environment made from the file on top
	 * of this one, with its own Python and packages. */
	if (conda)
		read_conda(pl, conda);
}

/* A registered environment `azureml:NAME:VERSION` or `azureml:NAME@LABEL`
 * that an environment file of the repository defines (`name`, and `version`
 * when both say one): read as that file. */
static bool registered_here(place *pl, const char *ref, jf_loc anchor)
{
	if (strncmp(ref, "azureml:", 8) || !strncmp(ref, "azureml://", 10))
		return false;
	const char *nm = ref + 8;
	size_t n = strcspn(nm, ":@");
	const char *version = nm[n] == ':' ? nm + n + 1 : NULL;
	char *name = jf_xstrndup(nm, n);
	const char *const needles[] = { name, NULL };
	jf_job_place files[64];
	size_t found = n ? jf_job__find_yaml(pl->job, needles, files, 64) : 0;
	bool read = false;
	for (size_t i = 0; i < found && !read; i++) {
		other_file o;
		if (!open_file(pl, jf_xstrdup(files[i].dir), jf_xstrdup(files[i].display), &o))
			continue;
		yaml_node_t *root = root_of(&o.r);
		const char *fname = jf_yml_scalar(jf_yml_get(o.r.doc, root, "name"));
		const char *fversion = jf_yml_scalar(jf_yml_get(o.r.doc, root, "version"));
		bool env = jf_yml_get(o.r.doc, root, "image") || jf_yml_get(o.r.doc, root, "build");
		bool job = jf_yml_get(o.r.doc, root, "command") || jf_yml_get(o.r.doc, root, "type");
		if (env && !job && fname && !strcmp(fname, name) &&
		    (!version || !fversion || !strcmp(version, fversion))) {
			jf_job__assume(pl->file, JF_JOB_PACKAGES, "the environment '%s' taken from %s", ref,
			               o.r.src->path);
			environment_map(&o.pl, root, anchor);
			read = true;
		}
		close_other(&o);
	}
	free(name);
	return read;
}

/* `environment` value `v` of `pl`'s file; `anchor`: where the job file names it. */
static void read_environment(place *pl, yaml_node_t *v, jf_loc anchor)
{
	jf_job_read *f = pl->file;
	jf_job *j = f->job;
	j->image.present = true;
	j->image.at = jf_job__loc(f, v);
	if (v->type == YAML_MAPPING_NODE) {
		environment_map(pl, v, anchor);
		return;
	}
	const char *s = jf_yml_scalar(v);
	if (!s || jf_yml_is_null(v)) {
		jf_job__wrong_type(f, v, "environment", "an environment name or a mapping with 'image'");
		return;
	}
	const char *file = !strncmp(s, "file:", 5) ? s + 5 : NULL;
	size_t n = strlen(s);
	if (!file && n > 4 && (!strcmp(s + n - 4, ".yml") || !strcmp(s + n - 5, ".yaml")) &&
	    !strchr(s, ':'))
		file = s;
	if (file) {
		other_file o;
		if (!open_other(pl, file, &o)) {
			jf_job__unknown(f, JF_JOB_PACKAGES, "the environment file '%s' cannot be read: the "
			                                    "image is unknown",
			                file);
			return;
		}
		environment_map(&o.pl, root_of(&o.r), anchor);
		close_other(&o);
		return;
	}
	if (!registered_here(pl, s, anchor))
		jf_job__unknown(f, JF_JOB_PACKAGES,
		                "the environment '%s' is registered in the workspace, and no environment "
		                "file of the repository defines it: its image is unknown",
		                s);
}

static void read_code(place *pl, yaml_node_t *v)
{
	jf_job_read *f = pl->file;
	jf_job *j = f->job;
	if (!jf_job__string(f, v, "code", &j->code))
		return;
	const char *c = j->code.value;
	if (!strncmp(c, "file:", 5))
		c += 5;
	if (strstr(c, "://") || !strncmp(c, "azureml:", 8) || !strncmp(c, "git+", 4)) {
		jf_job__unknown(f, JF_JOB_CODE, "the code '%s' is not a folder of this machine: the "
		                                "command's scripts are not followed",
		                c);
		return;
	}
	j->code_dir = jf_path_join(pl->dir, c);
	j->code_display = jf_path_join(pl->display_dir, c);
	jf_arena_adopt(&j->arena, j->code_dir);
	jf_arena_adopt(&j->arena, j->code_display);
	if (jf_path_is_dir(j->code_dir))
		return;
	if (jf_path_is_file(j->code_dir)) {
		/* A single file is uploaded as the snapshot: its folder stands for it. */
		return;
	}
	jf_diag_set_help(jf_sink_add(f->sink, JF003, f->src, j->code.at.span,
	                             "'code' folder '%s' does not exist", j->code_display),
	                 "'code' is relative to the job file's folder; fix it or create the folder");
	j->code_dir = NULL;
}

/* A command body (a command job, a sweep's trial, a pipeline step or a component): `body`
 * in `pl`'s file, inputs resolved through `s`; `anchor`: where the job file names it. */
static void read_body(scope *s, place *pl, yaml_node_t *body, const char *where, jf_loc anchor)
{
	jf_job_read *f = pl->file;
	jf_job *j = f->job;
	yaml_node_t *v;
	if ((v = jf_yml_get(f->doc, body, "code")))
		read_code(pl, v);
	if ((v = jf_yml_get(f->doc, body, "environment")))
		read_environment(pl, v, f->src == j->file ? jf_job__loc(f, v) : anchor);
	if ((v = jf_yml_get(f->doc, body, "environment_variables")))
		read_env_vars(f, v);
	if ((v = jf_yml_get(f->doc, body, "distribution")))
		read_distribution(f, v);
	if ((v = jf_yml_get(f->doc, body, "resources")))
		read_resources(f, v);
	scope_mounts(s);
	v = jf_yml_get(f->doc, body, "command");
	if (!v) {
		/* At the start of the file for a whole file, else at the body. */
		jf_span at = body == root_of(f) ? (jf_span){ 0, 0 } : jf_yml_span(f->src, body);
		jf_sink_add(f->sink, JF004, f->src, at, "%s has no 'command'", where);
		return;
	}
	j->has_command = true;
	if (v->type == YAML_SCALAR_NODE && !jf_yml_is_null(v))
		command_unit(s, pl, v);
	else
		jf_job__wrong_type(f, v, "command", "a shell command line");
}

/* How well step `step` of a pipeline can be read: 2 with its code (inline `code`, or a
 * command component of the repository), 1 an inline command without code, 0 not at all. */
static int step_score(jf_job_read *r, yaml_node_t *step)
{
	if (step->type != YAML_MAPPING_NODE)
		return 0;
	const char *type = scalar_of(r->doc, step, "type");
	if (type && strcmp(type, "command"))
		return 0;
	yaml_node_t *comp = jf_yml_get(r->doc, step, "component");
	const char *cs = comp ? jf_yml_scalar(comp) : NULL;
	if (comp)
		return cs && !jf_yml_is_null(comp) && strncmp(cs, "azureml:", 8) && !strstr(cs, "://")
		               ? 2
		               : 0;
	if (!jf_yml_get(r->doc, step, "command"))
		return 0;
	return jf_yml_get(r->doc, step, "code") ? 2 : 1;
}

/* One command step of a pipeline; the others are named for --verbose. */
static void read_pipeline(place *top, yaml_node_t *root)
{
	jf_job_read *r = top->job;
	yaml_node_t *jobs = jf_yml_get(r->doc, root, "jobs");
	if (!jobs) {
		jf_sink_add(r->sink, JF004, r->src, jf_yml_span(r->src, root),
		            "the pipeline job has no 'jobs'");
		return;
	}
	if (jobs->type != YAML_MAPPING_NODE) {
		jf_job__wrong_type(r, jobs, "jobs", "a mapping of step names to jobs");
		return;
	}
	/* The step read: the first with code (an inline step with `code`, or a
	 * component of the repository), else the first command step. */
	yaml_node_pair_t *chosen = NULL;
	int best = 0;
	for (yaml_node_pair_t *p = jobs->data.mapping.pairs.start; p < jobs->data.mapping.pairs.top;
	     p++) {
		int score = step_score(r, jf_job__node(r, p->value));
		if (score > best) {
			best = score;
			chosen = p;
		}
	}
	bool done = false;
	jf_buf skipped = JF_BUF_INIT;
	for (yaml_node_pair_t *p = jobs->data.mapping.pairs.start; p < jobs->data.mapping.pairs.top;
	     p++) {
		const char *name = jf_yml_scalar(jf_job__node(r, p->key));
		yaml_node_t *step = jf_job__node(r, p->value);
		if (!name || step->type != YAML_MAPPING_NODE)
			continue;
		yaml_node_t *comp = jf_yml_get(r->doc, step, "component");
		const char *cs = comp ? jf_yml_scalar(comp) : NULL;
		bool inline_cmd = step_score(r, step) && !cs;
		if (done || p != chosen) {
			jf_buf_addf(&skipped, "%s'%s'", skipped.len ? ", " : "", name);
			continue;
		}
		scope s = { .job_place = top,
			    .inputs = jf_yml_get(r->doc, step, "inputs"),
			    .outputs = jf_yml_get(r->doc, step, "outputs"),
			    .parent_in = jf_yml_get(r->doc, root, "inputs") };
		char where[160];
		snprintf(where, sizeof where, "step '%s'", name);
		if (inline_cmd) {
			read_body(&s, top, step, where, jf_job__loc(r, step));
			if (!r->job->image.present)
				jf_sink_add(r->sink, JF004, r->src, jf_job__loc(r, step).span,
				            "step '%s' has no 'environment'", name);
			done = true;
			continue;
		}
		other_file o;
		const char *rel = !strncmp(cs, "file:", 5) ? cs + 5 : cs;
		if (!open_other(top, rel, &o)) {
			jf_sink_add(r->sink, JF003, r->src, jf_yml_span(r->src, comp),
			            "component file '%s' of step '%s' does not exist or is not a "
			            "YAML mapping",
			            rel, name);
			continue;
		}
		yaml_node_t *croot = root_of(&o.r);
		const char *ctype = scalar_of(o.r.doc, croot, "type");
		if (ctype && strcmp(ctype, "command")) {
			jf_buf_addf(&skipped, "%s'%s'", skipped.len ? ", " : "", name);
			close_other(&o);
			continue;
		}
		s.decl = &o.pl;
		s.decl_in = jf_yml_get(o.r.doc, croot, "inputs");
		s.decl_out = jf_yml_get(o.r.doc, croot, "outputs");
		read_body(&s, &o.pl, croot, "the component", jf_job__loc(r, comp));
		/* A step's own settings override its component's. */
		yaml_node_t *v;
		if ((v = jf_yml_get(r->doc, step, "environment")))
			read_environment(top, v, jf_job__loc(r, v));
		if (!r->job->image.present)
			jf_sink_add(r->sink, JF004, o.r.src, jf_yml_span(o.r.src, croot),
			            "the component of step '%s' has no 'environment'", name);
		if ((v = jf_yml_get(r->doc, step, "environment_variables")))
			read_env_vars(r, v);
		if ((v = jf_yml_get(r->doc, step, "distribution")))
			read_distribution(r, v);
		if ((v = jf_yml_get(r->doc, step, "resources")))
			read_resources(r, v);
		close_other(&o);
		done = true;
	}
	if (skipped.len)
		jf_job__unknown(r, JF_JOB_COMMAND,
		                "the job model holds one command: the pipeline's step%s %s %s not linted",
		                strchr(skipped.buf, ',') ? "s" : "", skipped.buf,
		                strchr(skipped.buf, ',') ? "are" : "is");
	else if (!done)
		jf_job__unknown(r, JF_JOB_COMMAND, "the pipeline has no command step jobfix can read");
	jf_buf_release(&skipped);
}

static void read_azureml(jf_job_read *r)
{
	jf_job *j = r->job;
	jf_job__one_document(r, "an Azure ML job file is one document, and the CLI stops at "
	                        "this one ('expected a single document in the stream')");
	j->platform = (jf_field){ jf_job__copy(r, "azureml"), { NULL, { 0, 0 } } };
	yaml_node_t *root = yaml_document_get_root_node((yaml_document_t *)r->doc);
	top_keys t = doc_keys(r->doc);
	place top = { r, r, j->file_dir, j->display_dir };
	job_kind kind = t.type != KIND_NONE ? t.type : t.schema != KIND_NONE ? t.schema : KIND_COMMAND;
	if (t.typed && t.type == KIND_NONE)
		kind = KIND_OTHER;
	const char *schema = scalar_of(r->doc, root, "$schema");
	bool component = schema && strstr(schema, "omponent");
	yaml_node_t *name = jf_yml_get(r->doc, root, "name");
	if (!name)
		name = jf_yml_get(r->doc, root, "display_name");
	if (name && jf_yml_scalar(name))
		jf_job__string(r, name, "name", &j->name);

	if (kind == KIND_COMMAND) {
		scope s = { .job_place = &top,
			    .inputs = component ? NULL : jf_yml_get(r->doc, root, "inputs"),
			    .outputs = component ? NULL : jf_yml_get(r->doc, root, "outputs"),
			    .bound_later = component };
		if (component) {
			s.decl = &top;
			s.decl_in = jf_yml_get(r->doc, root, "inputs");
			s.decl_out = jf_yml_get(r->doc, root, "outputs");
		}
		read_body(&s, &top, root, component ? "the component" : "the command job",
		          jf_job__loc(r, root));
		if (!j->image.present)
			jf_sink_add(r->sink, JF004, r->src, (jf_span){ 0, 0 }, "%s has no 'environment'",
			            component ? "the component" : "the command job");
	} else if (kind == KIND_SWEEP) {
		yaml_node_t *trial = jf_yml_get(r->doc, root, "trial");
		if (!trial) {
			jf_sink_add(r->sink, JF004, r->src, jf_yml_span(r->src, root),
			            "the sweep job has no 'trial'");
		} else if (trial->type != YAML_MAPPING_NODE) {
			jf_job__wrong_type(r, trial, "trial", "a mapping (a command job)");
		} else {
			yaml_node_t *in = jf_yml_get(r->doc, root, "inputs");
			yaml_node_t *out = jf_yml_get(r->doc, root, "outputs");
			scope s = { .job_place = &top,
				    .inputs = in ? in : jf_yml_get(r->doc, trial, "inputs"),
				    .outputs = out ? out : jf_yml_get(r->doc, trial, "outputs") };
			read_body(&s, &top, trial, "the sweep's trial", jf_job__loc(r, trial));
			if (!j->image.present)
				jf_sink_add(r->sink, JF004, r->src, jf_yml_span(r->src, trial),
				            "the sweep's trial has no 'environment'");
			/* Distribution and resources may stand at the sweep's level. */
			yaml_node_t *v;
			if (j->nodes < 0 && (v = jf_yml_get(r->doc, root, "resources")))
				read_resources(r, v);
		}
	} else if (kind == KIND_PIPELINE) {
		read_pipeline(&top, root);
	} else {
		const char *type = scalar_of(r->doc, root, "type");
		jf_job__unknown(r, JF_JOB_COMMAND, "Azure ML %s '%s' runs no command jobfix reads",
		                type ? "job type" : "schema", type ? type : schema ? schema : "?");
	}
}

const jf_job_reader jf_job_azureml_reader = { "azureml", true, sniff_azureml, detect_azureml,
	                                      read_azureml };
