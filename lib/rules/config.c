/* config.c - jobfix's own configuration: .jobfix.yaml, found or named, and the command line's overrides */
#include "rules/config.h"

#include <ctype.h>
#include <errno.h>
#include <unistd.h>

#include "core/confine.h"
#include "core/deps.h"
#include "core/path.h"
#include "core/yml.h"
/* A rule, rules or a category as the config names them, with where. */
typedef struct {
	char *text;
	const jf_source *src; /* NULL: from the command line */
	jf_span span;
	const char *flag;     /* the command line's option, when src is NULL */
} selector;

typedef JF_ARRAY(selector) selectors;

typedef struct {
	char *pattern;
	jf_span span;
} glob;

typedef JF_ARRAY(glob) globs;

typedef struct {
	selector rule;
	jf_severity severity;
} severity_override;

typedef struct {
	glob files;
	selectors rules;
} file_ignore;

struct jf_config {
	char *path;     /* as shown; NULL when no file was read */
	char *dir;      /* absolute: what patterns are relative to */
	char *cwd;      /* absolute: what the linted paths are relative to */
	jf_source *src; /* the file */
	bool has_select;
	selectors select, ignore;
	JF_ARRAY(severity_override) severity;
	globs exclude, jobs;
	JF_ARRAY(file_ignore) per_file;
	/* The rules folder: as written, where, and as shown. */
	char *rules_dir, *rules_dir_shown;
	const jf_source *rules_dir_src;
	jf_span rules_dir_span;
	jf_rules_dir *rules_folder; /* after resolve: the folder's rules, or NULL */
	jf_rule_list rules;         /* after resolve: jobfix's own and the folder's */
	bool fail_on_set;
	jf_severity fail_on;
	bool loaded, resolved;
	jf_image_builds images;
	jf_strings allow_outside; /* absolute folders */
	jf_report errors;
	uint64_t fingerprint; /* of what made it: the current folder, the file, the overrides */
};

static const char *const keys[] = { "select", "ignore",    "severity",  "exclude",
	                            "per-file-ignores", "jobs", "rules-dir", "fail-on",
	                            "images", "allow-outside", NULL };

static char *current_dir(void)
{
	jf_buf b = JF_BUF_INIT;
	jf_buf_grow(&b, 4096);
	while (!getcwd(b.buf, b.alloc)) {
		if (errno != ERANGE) {
			jf_buf_release(&b);
			return jf_xstrdup("/");
		}
		jf_buf_grow(&b, b.alloc);
	}
	b.len = strlen(b.buf);
	return jf_buf_detach(&b, NULL);
}

jf_config *jf_config_new(void)
{
	jf_config *c = jf_xcalloc(1, sizeof(*c));
	c->cwd = current_dir();
	c->dir = jf_xstrdup(c->cwd);
	c->fingerprint = jf_hash(c->cwd, strlen(c->cwd) + 1, 0);
	return c;
}

static void selectors_release(selectors *a)
{
	for (size_t i = 0; i < a->size; i++)
		free(a->items[i].text);
	jf_array_release(a);
}

static void globs_release(globs *a)
{
	for (size_t i = 0; i < a->size; i++)
		free(a->items[i].pattern);
	jf_array_release(a);
}

void jf_config_free(jf_config *self)
{
	if (!self)
		return;
	selectors_release(&self->select);
	selectors_release(&self->ignore);
	for (size_t i = 0; i < self->severity.size; i++)
		free(self->severity.items[i].rule.text);
	jf_array_release(&self->severity);
	globs_release(&self->exclude);
	globs_release(&self->jobs);
	for (size_t i = 0; i < self->per_file.size; i++) {
		free(self->per_file.items[i].files.pattern);
		selectors_release(&self->per_file.items[i].rules);
	}
	jf_array_release(&self->per_file);
	for (size_t i = 0; i < self->images.size; i++) {
		free(self->images.items[i].image);
		free(self->images.items[i].path);
		free(self->images.items[i].shown);
		free(self->images.items[i].context);
		free(self->images.items[i].context_shown);
	}
	jf_array_release(&self->images);
	jf_strings_release(&self->allow_outside);
	jf_report_release(&self->errors);
	jf_rule_list_release(&self->rules);
	if (self->rules_folder)
		jf_rules_dir_release(self->rules_folder);
	free(self->rules_folder);
	jf_source_free(self->src);
	free(self->rules_dir);
	free(self->rules_dir_shown);
	free(self->path);
	free(self->dir);
	free(self->cwd);
	free(self);
}

char *jf_config_find(const char *dir)
{
	char *cwd = current_dir();
	char *at = jf_path_join(cwd, dir ? dir : ".");
	char *found = NULL;
	jf_buf up = JF_BUF_INIT; /* "../" once per folder climbed */
	for (;;) {
		char *candidate = jf_path_join(at, JF_CONFIG_NAME);
		bool here = jf_path_is_file(candidate);
		free(candidate);
		if (here) {
			jf_buf_adds(&up, JF_CONFIG_NAME);
			found = jf_path_join(dir ? dir : "", up.buf);
			break;
		}
		char *git = jf_path_join(at, ".git");
		bool top = access(git, F_OK) == 0 || !strcmp(at, "/");
		free(git);
		if (top)
			break;
		char *parent = jf_path_dirname(at);
		free(at);
		at = parent;
		jf_buf_adds(&up, "../");
	}
	jf_buf_release(&up);
	free(at);
	free(cwd);
	return found;
}

/* Errors */

static jf_diag *error_at(jf_config *c, const jf_source *src, jf_span span, const char *fmt, ...)
	JF_PRINTF(4, 5);
static jf_diag *error_at(jf_config *c, const jf_source *src, jf_span span, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	jf_diag *d = jf_report_vadd(&c->errors, NULL, src, span, fmt, ap);
	va_end(ap);
	return d;
}

size_t jf_config_error_count(const jf_config *self)
{
	return self->errors.diags.size;
}

const jf_report *jf_config__errors(const jf_config *self)
{
	return &self->errors;
}

/* Loading the file */

typedef struct {
	jf_config *c;
	yaml_document_t *doc;
} loader;

static jf_span span_of(const loader *L, const yaml_node_t *n)
{
	return jf_yml_span(L->c->src, n);
}

static void wrong_type(loader *L, const yaml_node_t *n, const char *what, const char *want)
{
	const char *s = jf_yml_scalar(n);
	if (s && !jf_yml_is_null(n))
		error_at(L->c, L->c->src, span_of(L, n), "%s must be %s, not '%s'", what, want, s);
	else
		error_at(L->c, L->c->src, span_of(L, n), "%s must be %s, not %s", what, want,
		         jf_yml_is_null(n) ? "empty" : jf_yml_type_name(n));
}

/* The value of a scalar that is not null, or NULL after reporting why not. */
static const char *string_of(loader *L, const yaml_node_t *n, const char *what, const char *want)
{
	if (n->type != YAML_SCALAR_NODE || jf_yml_is_null(n) || !*jf_yml_scalar(n)) {
		wrong_type(L, n, what, want);
		return NULL;
	}
	return jf_yml_scalar(n);
}

static bool parse_severity(const char *s, jf_severity *out)
{
	if (!strcmp(s, "error"))
		*out = JF_SEV_ERROR;
	else if (!strcmp(s, "warning"))
		*out = JF_SEV_WARNING;
	else if (!strcmp(s, "note"))
		*out = JF_SEV_NOTE;
	else
		return false;
	return true;
}

static void add_selector(selectors *a, const char *text, size_t n, const jf_source *src,
                         jf_span span, const char *flag)
{
	selector s = { jf_xstrndup(text, n), src, span, flag };
	jf_array_push(a, s);
}

#define RULES_WANT "a list of rules (ids, names, id prefixes or categories)"

/* A list of rule selectors. */
static void load_selectors(loader *L, const yaml_node_t *n, const char *key, selectors *out)
{
	char what[96];
	snprintf(what, sizeof what, "'%s'", key);
	if (n->type != YAML_SEQUENCE_NODE) {
		wrong_type(L, n, what, RULES_WANT);
		return;
	}
	for (yaml_node_item_t *i = n->data.sequence.items.start; i < n->data.sequence.items.top;
	     i++) {
		const yaml_node_t *item = jf_yml_node(L->doc, *i);
		snprintf(what, sizeof what, "an entry of '%s'", key);
		const char *s = string_of(L, item, what, "a rule id, name, id prefix or category");
		if (s)
			add_selector(out, s, strlen(s), L->c->src, span_of(L, item), NULL);
	}
}

/* A list of globs. */
static void load_globs(loader *L, const yaml_node_t *n, const char *key, globs *out)
{
	char what[96];
	snprintf(what, sizeof what, "'%s'", key);
	if (n->type != YAML_SEQUENCE_NODE) {
		wrong_type(L, n, what, "a list of glob patterns");
		return;
	}
	for (yaml_node_item_t *i = n->data.sequence.items.start; i < n->data.sequence.items.top;
	     i++) {
		const yaml_node_t *item = jf_yml_node(L->doc, *i);
		snprintf(what, sizeof what, "an entry of '%s'", key);
		const char *s = string_of(L, item, what, "a glob pattern");
		if (!s)
			continue;
		const char *bad = jf_path_glob_error(s);
		if (bad) {
			error_at(L->c, L->c->src, span_of(L, item), "bad pattern '%s': %s", s, bad);
			continue;
		}
		glob g = { jf_xstrdup(s), span_of(L, item) };
		jf_array_push(out, g);
	}
}

static void load_severity(loader *L, const yaml_node_t *n)
{
	if (n->type != YAML_MAPPING_NODE) {
		wrong_type(L, n, "'severity'", "a mapping of rules to error, warning or note");
		return;
	}
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		const yaml_node_t *k = jf_yml_node(L->doc, p->key), *v = jf_yml_node(L->doc, p->value);
		const char *rule = string_of(L, k, "a key of 'severity'",
		                             "a rule id, name, id prefix or category");
		if (!rule)
			continue;
		char what[160];
		snprintf(what, sizeof what, "the severity of '%s'", rule);
		const char *sev = string_of(L, v, what, "error, warning or note");
		severity_override o = { { NULL, L->c->src, span_of(L, k), NULL }, JF_SEV_ERROR };
		if (!sev)
			continue;
		if (!parse_severity(sev, &o.severity)) {
			wrong_type(L, v, what, "error, warning or note");
			continue;
		}
		o.rule.text = jf_xstrdup(rule);
		jf_array_push(&L->c->severity, o);
	}
}

static void load_per_file(loader *L, const yaml_node_t *n)
{
	if (n->type != YAML_MAPPING_NODE) {
		wrong_type(L, n, "'per-file-ignores'", "a mapping of glob patterns to lists of rules");
		return;
	}
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		const yaml_node_t *k = jf_yml_node(L->doc, p->key), *v = jf_yml_node(L->doc, p->value);
		const char *pattern = string_of(L, k, "a key of 'per-file-ignores'", "a glob pattern");
		if (!pattern)
			continue;
		const char *bad = jf_path_glob_error(pattern);
		if (bad) {
			error_at(L->c, L->c->src, span_of(L, k), "bad pattern '%s': %s", pattern, bad);
			continue;
		}
		file_ignore fi = { { jf_xstrdup(pattern), span_of(L, k) }, { 0 } };
		char key[160];
		snprintf(key, sizeof key, "per-file-ignores.%s", pattern);
		load_selectors(L, v, key, &fi.rules);
		jf_array_push(&L->c->per_file, fi);
	}
}

/* A path of `images:`, from the config's folder: false (with an error) when it is not there. */
static bool image_path(loader *L, const yaml_node_t *v, const char *what, const char *image,
                       bool dir, char **path, char **shown)
{
	jf_config *c = L->c;
	const char *rel = string_of(L, v, what, dir ? "a folder" : "the path of a Dockerfile");
	if (!rel)
		return false;
	char *p = jf_path_join(c->dir, rel);
	if (dir ? !jf_path_is_dir(p) : !jf_path_is_file(p)) {
		error_at(c, c->src, span_of(L, v), "the %s '%s' of image '%s' does not exist",
		         dir ? "build context" : "Dockerfile", rel, image);
		free(p);
		return false;
	}
	char *shown_dir = jf_path_dirname(c->path);
	*path = p;
	*shown = jf_path_join(shown_dir, rel);
	free(shown_dir);
	return true;
}

/* images: {name: Dockerfile} or {name: {dockerfile: F, context: DIR}}: the
 * Dockerfile that builds each image, and its build context (by default the
 * config's folder, as `docker build -f F .` run there has it). */
static void load_images(loader *L, const yaml_node_t *n)
{
	jf_config *c = L->c;
	if (n->type != YAML_MAPPING_NODE) {
		wrong_type(L, n, "'images'", "a mapping of image names to Dockerfiles");
		return;
	}
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		const yaml_node_t *k = jf_yml_node(L->doc, p->key), *v = jf_yml_node(L->doc, p->value);
		const char *image = string_of(L, k, "a key of 'images'", "an image name");
		if (!image)
			continue;
		jf_image_build b = { 0 };
		const yaml_node_t *file = v, *context = NULL;
		if (v->type == YAML_MAPPING_NODE) {
			file = NULL;
			for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top;
			     q++) {
				const yaml_node_t *qk = jf_yml_node(L->doc, q->key);
				const char *name = jf_yml_scalar(qk);
				if (name && !strcmp(name, "dockerfile"))
					file = jf_yml_node(L->doc, q->value);
				else if (name && !strcmp(name, "context"))
					context = jf_yml_node(L->doc, q->value);
				else
					error_at(c, c->src, span_of(L, qk),
					         "unknown key '%s' of an image (dockerfile, context)",
					         name ? name : "?");
			}
			if (!file) {
				error_at(c, c->src, span_of(L, v), "image '%s' has no 'dockerfile'", image);
				continue;
			}
		}
		if (!image_path(L, file, "the Dockerfile of an image", image, false, &b.path, &b.shown))
			continue;
		if (!context) {
			b.context = jf_xstrdup(c->dir);
			b.context_shown = jf_path_dirname(c->path);
		} else if (!image_path(L, context, "the build context of an image", image, true,
		                       &b.context, &b.context_shown)) {
			free(b.path);
			free(b.shown);
			continue;
		}
		b.image = jf_xstrdup(image);
		jf_array_push(&c->images, b);
	}
}

/* The folders outside the repository that linting may read, from the config's folder. */
static void load_allowed(loader *L, const yaml_node_t *n)
{
	if (n->type != YAML_SEQUENCE_NODE) {
		wrong_type(L, n, "'allow-outside'", "a list of folders");
		return;
	}
	for (yaml_node_item_t *i = n->data.sequence.items.start; i < n->data.sequence.items.top;
	     i++) {
		const yaml_node_t *item = jf_yml_node(L->doc, *i);
		const char *dir = string_of(L, item, "an entry of 'allow-outside'", "a folder");
		if (dir)
			jf_array_push(&L->c->allow_outside, jf_path_join(L->c->dir, dir));
	}
}

static void load_pair(loader *L, const char *key, const yaml_node_t *k, const yaml_node_t *v)
{
	jf_config *c = L->c;
	if (!strcmp(key, "select")) {
		c->has_select = true;
		load_selectors(L, v, key, &c->select);
	} else if (!strcmp(key, "ignore")) {
		load_selectors(L, v, key, &c->ignore);
	} else if (!strcmp(key, "severity")) {
		load_severity(L, v);
	} else if (!strcmp(key, "exclude")) {
		load_globs(L, v, key, &c->exclude);
	} else if (!strcmp(key, "jobs")) {
		load_globs(L, v, key, &c->jobs);
	} else if (!strcmp(key, "per-file-ignores")) {
		load_per_file(L, v);
	} else if (!strcmp(key, "rules-dir")) {
		const char *dir = string_of(L, v, "'rules-dir'", "a folder");
		if (dir) {
			char *shown_dir = jf_path_dirname(c->path);
			c->rules_dir = jf_path_join(c->dir, dir);
			c->rules_dir_shown = jf_path_join(shown_dir, dir);
			c->rules_dir_src = c->src;
			c->rules_dir_span = span_of(L, v);
			free(shown_dir);
		}
	} else if (!strcmp(key, "images")) {
		load_images(L, v);
	} else if (!strcmp(key, "allow-outside")) {
		load_allowed(L, v);
	} else if (!strcmp(key, "fail-on")) {
		const char *sev = string_of(L, v, "'fail-on'", "error, warning or note");
		if (sev && !(c->fail_on_set = parse_severity(sev, &c->fail_on)))
			wrong_type(L, v, "'fail-on'", "error, warning or note");
	} else {
		JF_BUG("key %s", key);
	}
	(void)k;
}

static void load_root(loader *L, const yaml_node_t *root)
{
	jf_config *c = L->c;
	if (!root || jf_yml_is_null(root))
		return; /* an empty config: every default */
	if (root->type != YAML_MAPPING_NODE) {
		error_at(c, c->src, span_of(L, root),
		         "the config must be a mapping of keys to values, not %s", jf_yml_type_name(root));
		return;
	}
	bool seen[sizeof keys / sizeof *keys] = { false };
	for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top;
	     p++) {
		const yaml_node_t *k = jf_yml_node(L->doc, p->key), *v = jf_yml_node(L->doc, p->value);
		const char *key = jf_yml_scalar(k);
		size_t i = 0;
		while (key && keys[i] && strcmp(keys[i], key))
			i++;
		if (!key || !keys[i]) {
			jf_diag *d = error_at(c, c->src, span_of(L, k), "unknown key '%s' in the config",
			                      key ? key : jf_yml_type_name(k));
			const char *near = jf_yml_suggest(key, keys);
			if (near)
				jf_diag_set_help(d, "did you mean '%s'?", near);
			else
				jf_diag_set_help(d, "docs/config.md lists every key");
			continue;
		}
		if (seen[i]) {
			error_at(c, c->src, span_of(L, k), "key '%s' is given twice", key);
			continue;
		}
		seen[i] = true;
		load_pair(L, key, k, v);
	}
}

int jf_config_load(jf_config *self, const char *path)
{
	if (self->loaded)
		JF_BUG("jf_config_load called twice");
	self->loaded = true;
	jf_source *src = jf_source_load(path, path);
	self->fingerprint = jf_hash(path, strlen(path) + 1, self->fingerprint);
	self->fingerprint = jf_hash(src->data, src->len, self->fingerprint ^ src->status);
	if (src->status != JF_SOURCE_OK && src->status != JF_SOURCE_BINARY) {
		error_at(self, NULL, (jf_span){ 0, 0 }, "cannot read the config '%s': %s", path,
		         jf_source_why(src));
		jf_source_free(src);
		return JF_EIO;
	}
	self->src = src;
	self->path = jf_xstrdup(path);
	char *folder = jf_path_dirname(path);
	free(self->dir);
	self->dir = jf_path_join(self->cwd, folder);
	free(folder);

	size_t before = self->errors.diags.size;
	yaml_document_t doc;
	jf_yml_error err;
	if (!jf_yml_load(src, &doc, &err)) {
		if (err.status == JF_YML_BINARY)
			error_at(self, src, err.at,
			         "the config holds a NUL byte: it is not a YAML text file");
		else if (err.status == JF_YML_TOO_DEEP)
			error_at(self, src, err.at, "collections nested deeper than %d levels",
			         JF_YML_MAX_FLOW_DEPTH);
		else {
			jf_diag *d = error_at(self, src, err.at, "%s", err.problem);
			if (err.context)
				jf_diag_relate(d, src, err.context_at, "%s", err.context);
		}
		return JF_EPARSE;
	}
	loader L = { self, &doc };
	load_root(&L, yaml_document_get_root_node(&doc));
	yaml_document_delete(&doc);
	return self->errors.diags.size > before ? JF_EPARSE : 0;
}

/* The command line's overrides */

static int set_rules(jf_config *c, selectors *out, const char *flag, const char *value)
{
	selectors_release(out);
	int rc = 0;
	for (const char *p = value;;) {
		size_t n = strcspn(p, ",");
		const char *a = p, *e = p + n;
		while (a < e && (*a == ' ' || *a == '\t'))
			a++;
		while (e > a && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		if (a == e) {
			error_at(c, NULL, (jf_span){ 0, 0 }, "an empty rule in %s '%s'", flag, value);
			rc = JF_ERROR;
		} else {
			add_selector(out, a, (size_t)(e - a), NULL, (jf_span){ 0, 0 }, flag);
		}
		if (!p[n])
			break;
		p += n + 1;
	}
	return rc;
}

int jf_config_set(jf_config *self, const char *key, const char *value)
{
	self->fingerprint = jf_hash(key, strlen(key) + 1, self->fingerprint);
	self->fingerprint = jf_hash(value, strlen(value) + 1, self->fingerprint);
	if (!strcmp(key, "select")) {
		self->has_select = true;
		return set_rules(self, &self->select, "--select", value);
	}
	if (!strcmp(key, "ignore"))
		return set_rules(self, &self->ignore, "--ignore", value);
	if (!strcmp(key, "rules-dir")) {
		free(self->rules_dir);
		free(self->rules_dir_shown);
		self->rules_dir = jf_path_join(self->cwd, value);
		self->rules_dir_shown = jf_xstrdup(value);
		self->rules_dir_src = NULL;
		return 0;
	}
	if (!strcmp(key, "allow-outside")) {
		jf_array_push(&self->allow_outside, jf_path_join(self->cwd, value));
		return 0;
	}
	if (!strcmp(key, "fail-on")) {
		if (!parse_severity(value, &self->fail_on)) {
			error_at(self, NULL, (jf_span){ 0, 0 },
			         "unknown severity '%s' in --fail-on (error, warning, note)", value);
			return JF_ERROR;
		}
		self->fail_on_set = true;
		return 0;
	}
	error_at(self, NULL, (jf_span){ 0, 0 }, "'%s' cannot be set from the command line", key);
	return JF_ERROR;
}

/* Resolving rules */

static bool is_prefix_text(const char *s)
{
	size_t letters = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
	return letters > 0 && !s[letters + strspn(s + letters, "0123456789")];
}

/* Whether selector text `s` names rule `r`: its id, its name, its category,
 * or a prefix of its id. */
static bool selects(const char *s, const jf_rule *r)
{
	return !strcmp(s, r->info.id) || !strcmp(s, r->info.name) ||
	       !strcmp(s, r->info.category) || (is_prefix_text(s) && jf_str_starts(r->info.id, s));
}

static bool any_selects(const selectors *a, const jf_rule *r)
{
	for (size_t i = 0; i < a->size; i++)
		if (selects(a->items[i].text, r))
			return true;
	return false;
}

/* Whether `a` and `b` are the same but for case and '-', '_' for ' '. */
static bool loosely_equal(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a == '-' || *a == '_' ? ' ' : (char)tolower((unsigned char)*a);
		char y = *b == '-' || *b == '_' ? ' ' : (char)tolower((unsigned char)*b);
		if (x != y)
			return false;
	}
	return !*a && !*b;
}

/* Reports selector `s` when it names no rule the config sees. */
static void check_selector(jf_config *c, const selector *s)
{
	const jf_rule_list *rules = &c->rules;
	for (size_t i = 0; i < rules->items.size; i++)
		if (selects(s->text, rules->items.items[i]))
			return;
	/* The nearest id, name or category, for a did-you-mean. */
	const char *best = NULL;
	size_t best_d = 3;
	for (size_t i = 0; i < rules->items.size; i++) {
		const jf_rule *r = rules->items.items[i];
		const char *cands[] = { r->info.id, r->info.name, r->info.category };
		for (size_t k = 0; k < 3; k++) {
			if (loosely_equal(s->text, cands[k])) {
				best = cands[k];
				best_d = 0;
			}
			size_t max = strlen(cands[k]) <= 5 ? 1 : 2;
			size_t d = jf_edit_distance(s->text, cands[k], max);
			if (d <= max && d < best_d) {
				best = cands[k];
				best_d = d;
			}
		}
	}
	jf_diag *d;
	if (s->src)
		d = error_at(c, s->src, s->span, "unknown rule '%s'", s->text);
	else
		d = error_at(c, NULL, s->span, "unknown rule '%s' in %s", s->text, s->flag);
	if (best)
		jf_diag_set_help(d, "did you mean '%s'?", best);
	else
		jf_diag_set_help(d, "name rules by id (JF101), name (hard-coded-local-path), id "
		                    "prefix (JF1) or category (\"Path Not Found\"); 'jobfix rules' "
		                    "lists them");
}

/* Whether error `a` goes after `b`: the command line's first, then by file and position. */
static bool after(const jf_diag *a, const jf_diag *b)
{
	if (!a->src || !b->src)
		return a->src && !b->src;
	int c = strcmp(a->src->path, b->src->path);
	return c > 0 || (c == 0 && a->span.start > b->span.start);
}

/* A stable insertion sort: errors are few, and ties keep the order found. */
static void sort_errors(jf_report *r)
{
	for (size_t i = 1; i < r->diags.size; i++) {
		jf_diag d = r->diags.items[i];
		size_t k = i;
		for (; k > 0 && after(&r->diags.items[k - 1], &d); k--)
			r->diags.items[k] = r->diags.items[k - 1];
		r->diags.items[k] = d;
	}
}

/* Whether the config file's rules folder lies in the config's repository or
 * a folder it allows (core/confine.h); one that does not exist is reported later. */
static bool rules_dir_inside(const jf_config *self)
{
	if (!jf_path_is_dir(self->rules_dir))
		return true;
	jf_confine in;
	jf_confine_init(&in, self->path, &self->allow_outside);
	bool inside = jf_confine_has(&in, self->rules_dir);
	jf_confine_release(&in);
	return inside;
}

int jf_config_resolve(jf_config *self)
{
	if (self->resolved)
		return self->errors.diags.size ? JF_EPARSE : 0;
	self->resolved = true;
	const char *broken = jf_rules_builtin_error();
	if (broken) {
		error_at(self, NULL, (jf_span){ 0, 0 }, "%s", broken);
		return JF_EPARSE;
	}
	if (self->rules_dir && self->rules_dir_src && !rules_dir_inside(self)) {
		error_at(self, self->rules_dir_src, self->rules_dir_span,
		         "the rules folder '%s' lies outside the repository: a config names folders "
		         "of its own repository, or of 'allow-outside'",
		         self->rules_dir_shown);
		free(self->rules_dir);
		self->rules_dir = NULL;
	}
	if (self->rules_dir) {
		self->rules_folder = jf_xcalloc(1, sizeof(*self->rules_folder));
		int rc = jf_rules_dir_load(self->rules_folder, self->rules_dir, self->rules_dir_shown);
		if (rc == JF_ENOTFOUND && self->rules_dir_src)
			error_at(self, self->rules_dir_src, self->rules_dir_span,
			         "the rules folder '%s' does not exist", self->rules_dir_shown);
		else if (rc == JF_ENOTFOUND)
			error_at(self, NULL, (jf_span){ 0, 0 },
			         "the rules folder '%s' of --rules-dir does not exist",
			         self->rules_dir_shown);
		const jf_report *problems = &self->rules_folder->problems;
		for (size_t i = 0; i < problems->diags.size; i++) {
			const jf_diag *p = &problems->diags.items[i];
			jf_diag *d = jf_report_add_error(&self->errors, p->src, p->span, "%s", p->message);
			if (p->help)
				jf_diag_set_help(d, "%s", p->help);
		}
	}
	jf_rule_list_init(&self->rules, self->rules_folder);
	for (size_t i = 0; i < self->select.size; i++)
		check_selector(self, &self->select.items[i]);
	for (size_t i = 0; i < self->ignore.size; i++)
		check_selector(self, &self->ignore.items[i]);
	for (size_t i = 0; i < self->severity.size; i++)
		check_selector(self, &self->severity.items[i].rule);
	for (size_t i = 0; i < self->per_file.size; i++)
		for (size_t k = 0; k < self->per_file.items[i].rules.size; k++)
			check_selector(self, &self->per_file.items[i].rules.items[k]);
	sort_errors(&self->errors);
	return self->errors.diags.size ? JF_EPARSE : 0;
}

int jf_config_fail_on(const jf_config *self, jf_severity *out)
{
	if (self->fail_on_set)
		*out = self->fail_on;
	return self->fail_on_set;
}

const char *jf_config_path(const jf_config *self)
{
	return self->path;
}

const char *jf_config_dir(const jf_config *self)
{
	return self->dir;
}

const char *jf_config_job_pattern(const jf_config *self, size_t i)
{
	return i < self->jobs.size ? self->jobs.items[i].pattern : NULL;
}

/* What the linter asks */

/* Whether glob `pattern` of the config matches `rel`, a path relative to the
 * config's folder (of a folder when `is_dir`). A pattern without '/' matches
 * any file or folder name in the path; one with '/' matches the path from the
 * config's folder, or a folder above the file. A trailing '/' matches folders
 * only. */
static bool pattern_matches(const char *pattern, const char *rel, bool is_dir)
{
	char *p = jf_xstrdup(pattern);
	size_t n = strlen(p);
	bool dirs_only = false;
	while (n > 1 && p[n - 1] == '/') {
		p[--n] = '\0';
		dirs_only = true;
	}
	const char *pat = p;
	bool anchored = strchr(pat, '/') != NULL;
	while (jf_str_starts(pat, "./"))
		pat += 2;
	while (*pat == '/')
		pat++;
	bool found = false;
	char *path = jf_xstrdup(rel);
	for (char *c = path, *seg = path; !found; c++) {
		bool last = !*c;
		if (*c != '/' && !last)
			continue;
		char saved = *c;
		*c = '\0';
		if (!(dirs_only && last && !is_dir))
			found = anchored ? jf_path_glob(pat, path) : jf_path_glob(pat, seg);
		*c = saved;
		seg = c + 1;
		if (last)
			break;
	}
	free(path);
	free(p);
	return found;
}

/* `fs_path` relative to the config's folder, or NULL when it is outside; caller frees. */
static char *relative(const jf_config *c, const char *fs_path)
{
	char *abs = jf_path_join(c->cwd, fs_path);
	const char *rel = jf_path_under(abs, c->dir);
	char *out = rel && *rel ? jf_xstrdup(rel) : NULL;
	free(abs);
	return out;
}

static bool any_pattern(const jf_config *c, const glob *g, size_t n, const char *fs_path,
                        bool is_dir)
{
	if (!n || !fs_path)
		return false;
	char *rel = relative(c, fs_path);
	bool found = false;
	for (size_t i = 0; rel && i < n && !found; i++)
		found = pattern_matches(g[i].pattern, rel, is_dir);
	free(rel);
	return found;
}

bool jf_config__enabled(const jf_config *self, const jf_rule *rule)
{
	if (rule->dir && !(self && self->rules_folder && rule->dir == self->rules_folder->dir))
		return false; /* a rule of another config's folder */
	if (!self)
		return true;
	return (!self->has_select || any_selects(&self->select, rule)) &&
	       !any_selects(&self->ignore, rule);
}

bool jf_config__runs(const jf_config *self, const jf_rule *rule, bool job)
{
	return (job || !rule->job_only) && jf_config__enabled(self, rule);
}

bool jf_config__active(const jf_config *self, const jf_rule *rule, const char *fs_path)
{
	if (!jf_config__enabled(self, rule))
		return false;
	if (!self || !fs_path)
		return true;
	for (size_t i = 0; i < self->per_file.size; i++) {
		const file_ignore *fi = &self->per_file.items[i];
		if (any_selects(&fi->rules, rule) && any_pattern(self, &fi->files, 1, fs_path, false))
			return false;
	}
	return true;
}

bool jf_config__excluded(const jf_config *self, const char *fs_path)
{
	return self && any_pattern(self, self->exclude.items, self->exclude.size, fs_path, false);
}

bool jf_config__excluded_dir(const jf_config *self, const char *fs_path)
{
	return self && any_pattern(self, self->exclude.items, self->exclude.size, fs_path, true);
}

bool jf_config__is_job(const jf_config *self, const char *fs_path)
{
	return self && any_pattern(self, self->jobs.items, self->jobs.size, fs_path, false);
}

const jf_strings *jf_config__allow_outside(const jf_config *self)
{
	return self ? &self->allow_outside : NULL;
}

const jf_image_builds *jf_config__images(const jf_config *self)
{
	return self && self->images.size ? &self->images : NULL;
}

jf_severity jf_config__severity(const jf_config *self, const jf_rule *rule)
{
	jf_severity s = rule->info.severity;
	for (size_t i = 0; self && i < self->severity.size; i++)
		if (selects(self->severity.items[i].rule.text, rule))
			s = self->severity.items[i].severity;
	return s;
}

bool jf_config__fingerprint(const jf_config *self, uint64_t *out)
{
	*out = self ? self->fingerprint : 1;
	/* A rules folder's query files are read with the config, not by a lint. */
	return !self || !self->rules_dir;
}

const jf_rule_list *jf_config__rules(const jf_config *self)
{
	return self && self->resolved ? &self->rules : jf_rules_builtin();
}

size_t jf_config_rules_count(const jf_config *self)
{
	return jf_config__rules(self)->items.size;
}

const jf_rule_info *jf_config_rule(const jf_config *self, size_t i)
{
	const jf_rule_list *rules = jf_config__rules(self);
	return i < rules->items.size ? &rules->items.items[i]->info : NULL;
}

const jf_rule *jf_config__find_rule(const jf_config *self, const char *id_or_name)
{
	return jf_rule_list_find(jf_config__rules(self), id_or_name);
}
