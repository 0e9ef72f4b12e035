/* image.c - the job's image: spec fields, manifest, the catalog of well-known images, what its
 * Dockerfile's RUNs install, its conda environment */
#include "env/image.h"

#include <yaml.h>

#include <ctype.h>
#include <fnmatch.h>

#include "core/embed.h"
#include "core/path.h"
#include "core/yml.h"
#include "env/pymodules.h"

bool jf_dist_name_eq(const char *a, size_t n, const char *b)
{
	size_t i = 0;
	for (; i < n && b[i]; i++) {
		char x = a[i], y = b[i];
		x = (x == '_' || x == '.') ? '-' : (char)tolower((unsigned char)x);
		y = (y == '_' || y == '.') ? '-' : (char)tolower((unsigned char)y);
		if (x != y)
			return false;
	}
	return i == n && !b[i];
}

/* One dotted part of a version: its number, and whether letters follow it
 * ("0a0", "0rc1": a pre-release sorts before the release). */
static const char *version_part(const char *s, long *num, bool *pre)
{
	char *end;
	*num = isdigit((unsigned char)*s) ? strtol(s, &end, 10) : 0;
	if (!isdigit((unsigned char)*s))
		end = (char *)s;
	*pre = isalpha((unsigned char)*end) && strncmp(end, "post", 4);
	while (*end && *end != '.' && *end != '+')
		end++;
	return *end == '.' ? end + 1 : NULL;
}

int jf_version_cmp(const char *a, const char *b)
{
	while (a || b) {
		long x = 0, y = 0;
		bool xp = false, yp = false;
		if (a)
			a = version_part(a, &x, &xp);
		if (b)
			b = version_part(b, &y, &yp);
		if (x != y)
			return x < y ? -1 : 1;
		if (xp != yp)
			return xp ? -1 : 1;
	}
	return 0;
}

static void pairs_set(jf_image_pairs *a, const char *name, const char *value)
{
	for (size_t i = 0; i < a->size; i++)
		if (!strcmp(a->items[i].name, name)) {
			free(a->items[i].value);
			a->items[i].value = jf_xstrdup(value);
			return;
		}
	jf_image_pair p = { jf_xstrdup(name), jf_xstrdup(value) };
	jf_array_push(a, p);
}

static void pairs_release(jf_image_pairs *a)
{
	for (size_t i = 0; i < a->size; i++) {
		free(a->items[i].name);
		free(a->items[i].value);
	}
	jf_array_release(a);
}

/* "3.10", "3.10.12", "python3.8" -> 3, 10; false when it is none of those. */
static bool parse_python(const char *s, int *major, int *minor)
{
	while (*s && !isdigit((unsigned char)*s))
		s++;
	char *end;
	long ma = strtol(s, &end, 10);
	if (end == s || *end != '.' || !isdigit((unsigned char)end[1]))
		return false;
	long mi = strtol(end + 1, &end, 10);
	if (ma < 2 || ma > 9 || mi > 99)
		return false;
	*major = (int)ma;
	*minor = (int)mi;
	return true;
}

/* ---- the catalog ---- */

/* Splits an image reference into repository and tag, the Docker Hub
 * prefixes dropped ("docker.io/library/python:3.11" -> "python", "3.11"). */
static void split_ref(const char *ref, char **repo, char **tag)
{
	size_t len = strcspn(ref, "@");
	/* The tag follows the last ':' after the last '/' (a registry may have a port). */
	size_t repo_len = len;
	for (size_t i = len; i-- > 0 && ref[i] != '/';)
		if (ref[i] == ':') {
			repo_len = i;
			break;
		}
	const char *colon = repo_len < len ? ref + repo_len : NULL;
	*tag = colon ? jf_xstrndup(colon + 1, len - repo_len - 1) : jf_xstrdup("latest");
	const char *r = ref;
	static const char *const hub[] = { "docker.io/", "index.docker.io/", "registry-1.docker.io/",
		                           "registry.hub.docker.com/" };
	for (size_t i = 0; i < sizeof hub / sizeof *hub; i++)
		if (!strncmp(r, hub[i], strlen(hub[i]))) {
			r += strlen(hub[i]);
			break;
		}
	if (!strncmp(r, "library/", 8))
		r += 8;
	*repo = jf_xstrndup(r, repo_len - (size_t)(r - ref));
}

typedef struct {
	yaml_document_t doc;
	const jf_embedded *file;
} catalog_doc;

static yaml_node_t *node(catalog_doc *c, int id)
{
	return yaml_document_get_node(&c->doc, id);
}

static const char *scalar_of(yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* The value of `key` in mapping `m`, also through YAML merge keys (`<<`);
 * keys written in the mapping win over merged ones. */
static yaml_node_t *get(catalog_doc *c, yaml_node_t *m, const char *key)
{
	if (!m || m->type != YAML_MAPPING_NODE)
		return NULL;
	yaml_node_t *merged = NULL;
	for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
		const char *k = scalar_of(node(c, p->key));
		if (k && !strcmp(k, key))
			return node(c, p->value);
		if (k && !strcmp(k, "<<") && !merged) {
			yaml_node_t *v = node(c, p->value);
			if (v && v->type == YAML_SEQUENCE_NODE) {
				for (yaml_node_item_t *i = v->data.sequence.items.start;
				     i < v->data.sequence.items.top && !merged; i++)
					merged = get(c, node(c, *i), key);
			} else {
				merged = get(c, v, key);
			}
		}
	}
	return merged;
}

static bool tag_matches(catalog_doc *c, yaml_node_t *tags, const char *tag)
{
	if (!tags || tags->type != YAML_SEQUENCE_NODE)
		return false;
	for (yaml_node_item_t *i = tags->data.sequence.items.start; i < tags->data.sequence.items.top;
	     i++) {
		const char *g = scalar_of(node(c, *i));
		if (g && !fnmatch(g, tag, 0))
			return true;
	}
	return false;
}

static void fill_from_entry(jf_image *img, catalog_doc *c, yaml_node_t *e)
{
	const char *s;
	if ((s = scalar_of(get(c, e, "python"))))
		parse_python(s, &img->py_major, &img->py_minor);
	if ((s = scalar_of(get(c, e, "user"))))
		img->user = jf_xstrdup(s);
	if ((s = scalar_of(get(c, e, "home"))))
		img->home = jf_xstrdup(s);
	s = scalar_of(get(c, e, "complete"));
	img->packages_complete = s && !strcmp(s, "true");
	const struct {
		const char *key;
		jf_image_pairs *into;
	} maps[] = { { "packages", &img->packages },
		     { "executables", &img->executables },
		     { "env", &img->env } };
	for (size_t k = 0; k < sizeof maps / sizeof *maps; k++) {
		yaml_node_t *m = get(c, e, maps[k].key);
		if (!m || m->type != YAML_MAPPING_NODE)
			continue;
		for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top;
		     p++) {
			const char *name = scalar_of(node(c, p->key)), *v = scalar_of(node(c, p->value));
			if (!name || !v)
				continue;
			if (maps[k].into == &img->executables)
				v = !strcmp(v, "true") ? "yes" : "no";
			pairs_set(maps[k].into, name, v);
		}
	}
	yaml_node_t *absent = get(c, e, "absent");
	if (absent && absent->type == YAML_SEQUENCE_NODE)
		for (yaml_node_item_t *i = absent->data.sequence.items.start;
		     i < absent->data.sequence.items.top; i++)
			if ((s = scalar_of(node(c, *i))))
				jf_array_push(&img->absent, jf_xstrdup(s));
}

static bool load_catalog_doc(catalog_doc *c, const jf_embedded *f)
{
	c->file = f;
	return jf_yml_load_data(f->data, f->len, &c->doc, NULL);
}

/* The entries of a catalog file: the `images` sequence, or NULL. */
static yaml_node_t *catalog_entries(catalog_doc *c)
{
	yaml_node_t *images = get(c, yaml_document_get_root_node(&c->doc), "images");
	return images && images->type == YAML_SEQUENCE_NODE ? images : NULL;
}

static void match_catalog(jf_image *img, const char *ref)
{
	char *repo, *tag;
	split_ref(ref, &repo, &tag);
	for (size_t f = 0; f < jf_embedded_data_count && !img->catalog; f++) {
		const jf_embedded *file = &jf_embedded_data[f];
		/* Only files that name the repository are parsed. */
		if (!jf_str_starts(file->path, "images/") || !strstr(file->data, repo))
			continue;
		catalog_doc c;
		if (!load_catalog_doc(&c, file))
			continue;
		yaml_node_t *images = catalog_entries(&c);
		for (yaml_node_item_t *i = images ? images->data.sequence.items.start : NULL;
		     images && i < images->data.sequence.items.top; i++) {
			yaml_node_t *e = node(&c, *i);
			const char *name = scalar_of(get(&c, e, "name"));
			if (name && !strcmp(name, repo) && tag_matches(&c, get(&c, e, "tags"), tag)) {
				fill_from_entry(img, &c, e);
				img->catalog = jf_xasprintf("data/%s:%lu", file->path,
				                            (unsigned long)e->start_mark.line + 1);
				break;
			}
		}
		yaml_document_delete(&c.doc);
	}
	free(repo);
	free(tag);
}

/* ---- the manifest ---- */

/* Reads a `pip freeze` list: `name==version`, `name @ url`, `-e ...#egg=name`. */
static void read_manifest(jf_image *img, const char *text)
{
	for (const char *line = text; *line;) {
		size_t len = strcspn(line, "\n");
		const char *s = line;
		while (s < line + len && (*s == ' ' || *s == '\t'))
			s++;
		/* a project installed from a local folder: `x @ file:///p`, `-e /p`, `-e file:///p` */
		char *one = jf_xstrndup(s, (size_t)(line + len - s));
		const char *at = strstr(one, "file://");
		const char *local = at ? at + 7 : NULL;
		if (!local && !strncmp(one, "-e ", 3) && one[3 + strspn(one + 3, " ")] == '/')
			local = one + 3 + strspn(one + 3, " ");
		if (local && *local == '/')
			jf_array_push(&img->local_projects,
			              jf_xstrndup(local, strcspn(local, " #;\r\n")));
		free(one);
		const char *egg = NULL;
		if (*s == '-') { /* an editable install names itself in #egg= */
			const char *e = strstr(s, "#egg=");
			egg = e && e < line + len ? e + 5 : NULL;
			s = egg;
		}
		if (s && s < line + len && (isalnum((unsigned char)*s))) {
			size_t n = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			                     "0123456789-_.");
			char *name = jf_xstrndup(s, n);
			const char *v = s + n;
			while (*v == ' ')
				v++;
			char *version = NULL;
			if (!egg && !strncmp(v, "==", 2)) {
				v += 2 + (v[2] == '=');
				version = jf_xstrndup(v, strcspn(v, " ;#\r\n"));
			}
			pairs_set(&img->packages, name, version && *version ? version : "*");
			free(name);
			free(version);
		}
		line += len + (line[len] == '\n');
	}
}

/* ---- the image ---- */

/* Adds to `img` what the job's build installs (`ji->installs`) and what that
 * brings (data/dependencies.txt), at its pinned version when it says one.
 * `builder` names what installs them in messages ("the Dockerfile"). An
 * install jobfix cannot name (`ji->extended_by`), or a distribution whose
 * requirements the data does not have, may bring anything: the package list
 * is then no longer complete, nothing is known absent, no executable known
 * missing. */
static void add_installs(jf_image *img, const jf_job_image *ji, const char *builder)
{
	jf_strings named = { 0 }, brought = { 0 };
	for (size_t i = 0; i < ji->installs.size; i++)
		if (strcmp(ji->installs.items[i].name.value, "python")) /* conda's interpreter */
			jf_array_push(&named, ji->installs.items[i].name.value);
	const char *unknown = jf_dist_closure(&named, &brought);
	for (size_t i = 0; i < named.size; i++)
		if (!jf_dist_requires(named.items[i]) &&
		    !jf_strings_have(&img->unknown_installs, named.items[i]))
			jf_array_push(&img->unknown_installs, jf_xstrdup(named.items[i]));
	jf_array_release(&named);
	if (ji->extended_by.value)
		img->extended = jf_xasprintf(ji->extended_why ? "%s:%u (%.*s) installs a local project, and %s"
		                                              : "%s:%u (%.*s) may install packages jobfix cannot name%s",
		                             ji->extended_by.at.src->path,
		                             jf_source_line_of(ji->extended_by.at.src,
		                                               ji->extended_by.at.span.start) + 1,
		                             (int)strcspn(ji->extended_by.value, " \t"),
		                             ji->extended_by.value,
		                             ji->extended_why ? ji->extended_why : "");
	else if (unknown)
		img->extended = jf_xasprintf("%s installs '%s', whose requirements are not in "
		                             "jobfix's data (data/dependencies.txt)",
		                             builder, unknown);
	if (ji->extended_by.value)
		img->unnamed_install = img->extended;
	if (img->extended) {
		img->base_complete = img->packages_complete;
		for (size_t i = 0; i < img->absent.size; i++)
			jf_array_push(&img->base_absent, jf_xstrdup(img->absent.items[i]));
		img->packages_complete = false;
		for (size_t i = 0; i < img->absent.size; i++)
			free(img->absent.items[i]);
		img->absent.size = 0;
		size_t k = 0;
		for (size_t i = 0; i < img->executables.size; i++) {
			jf_image_pair p = img->executables.items[i];
			if (!strcmp(p.value, "no")) {
				free(p.name);
				free(p.value);
			} else {
				img->executables.items[k++] = p;
			}
		}
		img->executables.size = k;
	}
	for (size_t i = 0; i < brought.size; i++) {
		const char *d = brought.items[i], *version = "*";
		for (size_t k = 0; k < ji->installs.size; k++)
			if (jf_dist_name_eq(ji->installs.items[k].name.value,
			                    strlen(ji->installs.items[k].name.value), d) &&
			    ji->installs.items[k].version)
				version = ji->installs.items[k].version;
		pairs_set(&img->packages, d, version);
		size_t k = 0;
		for (size_t a = 0; a < img->absent.size; a++) {
			if (jf_dist_name_eq(img->absent.items[a], strlen(img->absent.items[a]), d))
				free(img->absent.items[a]);
			else
				img->absent.items[k++] = img->absent.items[a];
		}
		img->absent.size = k;
	}
	jf_strings_release(&brought);
}

/* The facts of the catalog image a Dockerfile builds the job's image FROM,
 * with what its RUNs install; a RUN that may install a Python leaves the
 * version unknown. */
static void build_from(jf_image *img, const jf_job_image *ji)
{
	match_catalog(img, ji->base.value);
	if (!img->catalog)
		return;
	img->base = jf_xstrdup(ji->base.value);
	img->ref_at = ji->base.at;
	add_installs(img, ji, "the Dockerfile");
	if (ji->base_python_changed)
		img->py_major = img->py_minor = 0;
}

/* The conda environment the platform makes from the job's conda file: its
 * packages are what the file installs and what that brings, whatever the
 * image holds, and its Python the file's `python=X.Y`. */
static void conda_env(jf_image *img, const jf_job_image *ji)
{
	pairs_release(&img->packages);
	for (size_t i = 0; i < img->absent.size; i++)
		free(img->absent.items[i]);
	img->absent.size = 0;
	img->py_major = img->py_minor = 0;
	img->conda = jf_xstrdup(ji->conda_file.value);
	img->conda_at = ji->conda_file.at;
	img->packages_complete = true;
	/* what a Dockerfile's build left open is no part of the environment */
	free(img->extended);
	img->extended = NULL;
	img->unnamed_install = NULL;
	jf_strings_release(&img->unknown_installs);
	jf_strings_release(&img->base_absent);
	add_installs(img, ji, "the conda file");
	for (size_t i = 0; i < ji->installs.size; i++)
		if (!strcmp(ji->installs.items[i].name.value, "python") && ji->installs.items[i].version)
			parse_python(ji->installs.items[i].version, &img->py_major, &img->py_minor);
}

jf_image *jf_image_resolve(const jf_job *job, jf_sink *sink)
{
	jf_image *img = jf_xcalloc(1, sizeof *img);
	if (!job)
		return img;
	const jf_job_image *ji = &job->image;
	/* A fact the job states nowhere is noted at the image's name, in its file. */
	img->ref_at = (jf_loc){ job->file, ji->ref.at.span };
	if (ji->ref.value) {
		img->ref = jf_xstrdup(ji->ref.value);
		match_catalog(img, img->ref);
	}
	if (!img->catalog && ji->base.value)
		build_from(img, ji);
	if (ji->conda_file.value)
		conda_env(img, ji);
	img->python_at = img->user_at = img->manifest_at = img->ref_at;
	if (ji->python.value && parse_python(ji->python.value, &img->py_major, &img->py_minor)) {
		img->python_at = ji->python.at;
		img->python_declared = true;
	}
	if (ji->user.value) {
		free(img->user);
		img->user = jf_xstrdup(ji->user.value);
		img->user_at = ji->user.at;
		img->user_declared = true;
	}
	if (ji->manifest.value) {
		img->manifest_at = ji->manifest.at;
		char *path = jf_path_join(job->file_dir, ji->manifest.value);
		jf_source *src = jf_source_load(path, path);
		if (src->status == JF_SOURCE_OK) {
			/* A manifest lists everything: it replaces the catalog's packages. */
			pairs_release(&img->packages);
			read_manifest(img, src->data);
			img->packages_complete = true;
			img->has_manifest = true;
			jf_strings_release(&img->unknown_installs);
			img->unnamed_install = NULL;
		} else if (sink) {
			jf_diag_set_help(
				jf_sink_add(sink, JF005, ji->manifest.at.src, ji->manifest.at.span,
				            "the image manifest '%s' is not read: %s; the image's packages "
				            "are taken from what jobfix knows of the image",
				            ji->manifest.value, jf_source_why(src)),
				"point `image.manifest` at the `pip freeze` list of the image, a regular "
				"file in the repository");
		}
		jf_source_free(src);
		free(path);
	}
	return img;
}

void jf_image_free(jf_image *self)
{
	if (!self)
		return;
	free(self->ref);
	free(self->base);
	free(self->extended);
	free(self->conda);
	free(self->catalog);
	free(self->user);
	free(self->home);
	pairs_release(&self->packages);
	jf_strings_release(&self->local_projects);
	pairs_release(&self->executables);
	pairs_release(&self->env);
	for (size_t i = 0; i < self->absent.size; i++)
		free(self->absent.items[i]);
	jf_array_release(&self->absent);
	jf_strings_release(&self->unknown_installs);
	jf_strings_release(&self->base_absent);
	free(self);
}

void jf_image_relate(jf_diag *d, const jf_image *self, jf_image_fact fact, const char *fmt, ...)
{
	jf_buf b = JF_BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	jf_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (fact == JF_FACT_PACKAGES && self->has_manifest)
		jf_diag_relate(d, self->manifest_at.src, self->manifest_at.span,
		               "the image's manifest lists %s", b.buf);
	else if (fact == JF_FACT_PYTHON && self->python_declared)
		jf_diag_relate(d, self->python_at.src, self->python_at.span, "the job declares %s", b.buf);
	else if (fact == JF_FACT_USER && self->user_declared)
		jf_diag_relate(d, self->user_at.src, self->user_at.span, "the job declares %s", b.buf);
	else if (self->conda && (fact == JF_FACT_PACKAGES || fact == JF_FACT_PYTHON))
		jf_diag_relate(d, self->conda_at.src, self->conda_at.span,
		               "the job's conda environment, made from '%s', has %s", self->conda, b.buf);
	else if (self->base)
		jf_diag_relate(d, self->ref_at.src, self->ref_at.span,
		               "the image is built from '%s', which has %s (jobfix's image catalog)",
		               self->base, b.buf);
	else
		jf_diag_relate(d, self->ref_at.src, self->ref_at.span,
		               "the image '%s' has %s (jobfix's image catalog)", self->ref, b.buf);
	jf_buf_release(&b);
}

const char *jf_image_unknown_reason(const jf_image *self)
{
	return self->ref ? "the image is not in jobfix's catalog" : "the job names no image";
}

bool jf_image_known(const jf_image *self)
{
	return self->catalog || self->has_manifest || self->conda || self->py_major;
}

jf_tri jf_image_has_package(const jf_image *self, const char *dist, const char **version)
{
	for (size_t i = 0; i < self->packages.size; i++) {
		const jf_image_pair *p = &self->packages.items[i];
		if (jf_dist_name_eq(p->name, strlen(p->name), dist)) {
			if (version)
				*version = p->value;
			return JF_YES;
		}
	}
	if (self->packages_complete)
		return JF_NO;
	for (size_t i = 0; i < self->absent.size; i++)
		if (jf_dist_name_eq(self->absent.items[i], strlen(self->absent.items[i]), dist))
			return JF_NO;
	return JF_UNKNOWN;
}

jf_tri jf_image_base_has_package(const jf_image *self, const char *dist)
{
	jf_tri has = jf_image_has_package(self, dist, NULL);
	if (has != JF_UNKNOWN || !self->extended)
		return has;
	if (self->base_complete)
		return JF_NO;
	for (size_t i = 0; i < self->base_absent.size; i++)
		if (jf_dist_name_eq(self->base_absent.items[i], strlen(self->base_absent.items[i]), dist))
			return JF_NO;
	return JF_UNKNOWN;
}

bool jf_image_user_is_nonroot(const jf_image *self)
{
	const char *u = self->user;
	return u && *u && strcmp(u, "root") && strcmp(u, "0") && !jf_str_starts(u, "0:") &&
	       !jf_str_starts(u, "root:");
}

jf_tri jf_image_has_executable(const jf_image *self, const char *name)
{
	for (size_t i = 0; i < self->executables.size; i++)
		if (!strcmp(self->executables.items[i].name, name))
			return !strcmp(self->executables.items[i].value, "yes") ? JF_YES : JF_NO;
	return JF_UNKNOWN;
}

const char *jf_image_env(const jf_image *self, const char *name)
{
	for (size_t i = 0; i < self->env.size; i++)
		if (!strcmp(self->env.items[i].name, name))
			return self->env.items[i].value;
	return NULL;
}

bool jf_image_python_before(const jf_image *self, int major, int minor)
{
	return self->py_major &&
	       (self->py_major < major || (self->py_major == major && self->py_minor < minor));
}

/* ---- the catalog's own check, for the test suite ---- */

static const char *const entry_keys[] = { "name", "tags", "python", "user", "home", "env",
	                                  "executables", "packages", "complete", "absent",
	                                  "partial", "source", "<<", NULL };

static int check_entry(catalog_doc *c, yaml_node_t *e, jf_error *err)
{
	const char *where = c->file->path;
	unsigned long line = (unsigned long)e->start_mark.line + 1;
	if (e->type != YAML_MAPPING_NODE)
		return jf_error_set(err, JF_EPARSE, "data/%s:%lu: an entry is not a mapping", where,
		                    line);
	const yaml_node_t *unknown = jf_yml_unknown_key(&c->doc, e, entry_keys);
	if (unknown)
		return jf_error_set(err, JF_EPARSE, "data/%s:%lu: unknown key '%s'", where,
		                    (unsigned long)unknown->start_mark.line + 1,
		                    jf_yml_scalar(unknown) ? jf_yml_scalar(unknown) : "?");
	if (!scalar_of(get(c, e, "name")))
		return jf_error_set(err, JF_EPARSE, "data/%s:%lu: no name", where, line);
	yaml_node_t *tags = get(c, e, "tags");
	if (!tags || tags->type != YAML_SEQUENCE_NODE ||
	    tags->data.sequence.items.start == tags->data.sequence.items.top)
		return jf_error_set(err, JF_EPARSE, "data/%s:%lu: 'tags' is not a list of globs",
		                    where, line);
	yaml_node_t *py = get(c, e, "python");
	int ma, mi;
	if (py && (!scalar_of(py) || py->data.scalar.style == YAML_PLAIN_SCALAR_STYLE ||
	           !parse_python(scalar_of(py), &ma, &mi)))
		return jf_error_set(err, JF_EPARSE,
		                    "data/%s:%lu: 'python' must be a quoted \"3.10\"-style version",
		                    where, (unsigned long)py->start_mark.line + 1);
	const char *const maps[] = { "packages", "executables", "env" };
	for (size_t k = 0; k < 3; k++) {
		yaml_node_t *m = get(c, e, maps[k]);
		if (!m)
			continue;
		if (m->type != YAML_MAPPING_NODE)
			return jf_error_set(err, JF_EPARSE, "data/%s:%lu: '%s' is not a mapping", where,
			                    (unsigned long)m->start_mark.line + 1, maps[k]);
		for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top;
		     p++) {
			yaml_node_t *v = node(c, p->value);
			const char *s = scalar_of(v);
			bool ok = s && (k != 1 || !strcmp(s, "true") || !strcmp(s, "false")) &&
			          (k != 0 || v->data.scalar.style != YAML_PLAIN_SCALAR_STYLE ||
			           !strcmp(s, "*") || !isdigit((unsigned char)s[0]) || strchr(s, '.'));
			if (!ok)
				return jf_error_set(err, JF_EPARSE, "data/%s:%lu: bad value in '%s'", where,
				                    (unsigned long)v->start_mark.line + 1, maps[k]);
		}
	}
	return 0;
}

int jf_image_catalog_check(jf_error *err)
{
	int rc = 0;
	for (size_t f = 0; f < jf_embedded_data_count && !rc; f++) {
		const jf_embedded *file = &jf_embedded_data[f];
		if (!jf_str_starts(file->path, "images/"))
			continue;
		catalog_doc c;
		if (!load_catalog_doc(&c, file))
			return jf_error_set(err, JF_EPARSE, "data/%s: not valid YAML", file->path);
		yaml_node_t *images = catalog_entries(&c);
		if (!images)
			rc = jf_error_set(err, JF_EPARSE, "data/%s: no 'images' list", file->path);
		for (yaml_node_item_t *i = images ? images->data.sequence.items.start : NULL;
		     images && i < images->data.sequence.items.top && !rc; i++)
			rc = check_entry(&c, node(&c, *i), err);
		yaml_document_delete(&c.doc);
	}
	return rc;
}
