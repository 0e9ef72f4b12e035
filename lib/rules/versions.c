/* versions.c - the version of a distribution, or of Python, that the job's code runs with */
#include "rules/versions.h"

#include "env/pymodules.h"

struct jf_versions {
	const jf_facts *f;
	JF_ARRAY(struct version_slot { char *dist; jf_dist_version v; }) versions;
	jf_strings brought; /* what the job's installs bring, the named ones too */
	const char *brings_unknown;
};

/* Distributions that install the same modules: an entry of the first is
 * decided by whichever of them the job has. */
static const char *const same_modules[][4] = {
	{ "tensorflow", "tensorflow-gpu", "tensorflow-cpu", NULL },
	{ "Pillow", "pillow-simd", NULL, NULL },
};

/* The distributions that provide `dist`'s modules, `dist` first, NULL-terminated. */
static const char *const *providers(const char *dist, const char *own[2])
{
	for (size_t i = 0; i < sizeof same_modules / sizeof *same_modules; i++)
		if (jf_dist_name_eq(same_modules[i][0], strlen(same_modules[i][0]), dist))
			return same_modules[i];
	own[0] = dist;
	own[1] = NULL;
	return own;
}

/* Whether distribution `name` provides `dist`'s modules. */
bool jf_dist_provides(const char *name, const char *dist)
{
	const char *own[2];
	for (const char *const *p = providers(dist, own); *p; p++)
		if (jf_dist_name_eq(name, strlen(name), *p))
			return true;
	return false;
}

/* Whether the image has `dist`'s modules: the distribution that provides
 * them in *which and its version in *v when it has. */
static jf_tri image_provider(const jf_image *img, const char *dist, const char **v,
                             const char **which)
{
	const char *own[2];
	jf_tri has = JF_NO;
	*which = dist;
	for (const char *const *p = providers(dist, own); *p && has != JF_YES; p++) {
		jf_tri one = jf_image_has_package(img, *p, v);
		if (one == JF_YES)
			*which = *p;
		if (one != JF_NO)
			has = one;
	}
	return has;
}

static void version_of(jf_versions *c, const char *dist, jf_dist_version *out)
{
	const jf_facts *f = c->f;
	const jf_image *img = f->image;
	memset(out, 0, sizeof *out);
	if (!strcmp(dist, "python")) {
		out->known = img->py_major == 3;
		if (out->known) {
			out->version = jf_xasprintf("3.%d", img->py_minor);
			out->shown = jf_xasprintf("Python 3.%d", img->py_minor);
		} else {
			out->why = jf_xstrdup("the image's Python version is not known");
		}
		return;
	}
	const jf_shell_facts *sh = &f->shell;
	for (size_t i = sh->pins.size; i-- > 0;) {
		const jf_shell_pin *p = &sh->pins.items[i];
		if (!jf_dist_provides(p->name, dist))
			continue;
		out->pin = p;
		out->known = p->version || p->spec;
		if (p->version) {
			out->version = jf_xstrdup(p->version);
			out->shown = jf_xasprintf("%s %s", p->name, p->version);
		} else if (p->spec) {
			out->spec = jf_xstrdup(p->spec);
			out->shown = jf_xasprintf("%s%s", p->name, p->spec);
		} else {
			out->why = jf_xasprintf("the job installs %s without a version", dist);
		}
		return;
	}
	if (sh->installs_unknown) {
		out->why = jf_xstrdup(sh->installs_why ? sh->installs_why
		                                       : "the job installs what jobfix cannot name");
		return;
	}
	if (c->brings_unknown) {
		out->why = jf_xasprintf("the job installs '%s', whose requirements are not in jobfix's "
		                        "data",
		                        c->brings_unknown);
		return;
	}
	for (size_t i = 0; i < c->brought.size; i++)
		if (jf_dist_provides(c->brought.items[i], dist)) {
			out->why = jf_xasprintf("what the job installs may bring another %s", dist);
			return;
		}
	if (img->extended) {
		out->why = jf_xstrdup(img->extended);
		return;
	}
	/* What the Dockerfile or the conda file installs: a range decides as the job's own does. */
	const jf_job_image *ji = &f->job->image;
	for (size_t i = ji->installs.size; i-- > 0;) {
		const jf_job_install *in = &ji->installs.items[i];
		if (!jf_dist_provides(in->name.value, dist))
			continue;
		if (!in->version && in->spec) {
			out->known = true;
			out->spec = jf_xstrdup(in->spec);
			out->shown = jf_xasprintf("%s%s", in->name.value, in->spec);
			out->docker = in;
			return;
		}
		break;
	}
	const char *v = NULL, *which;
	jf_tri has = image_provider(img, dist, &v, &which);
	if (has != JF_YES || !strcmp(v, "*")) {
		out->why = has == JF_YES     ? jf_xasprintf("the image has %s in a version jobfix does "
		                                            "not know",
		                                            dist)
		           : has == JF_NO    ? jf_xasprintf("the image does not have %s", dist)
		           : jf_image_known(img) ? jf_xasprintf("the image's package list does not name %s",
		                                                dist)
		                             : jf_xstrdup(jf_image_unknown_reason(img));
		return;
	}
	out->known = true;
	out->version = jf_xstrdup(v);
	out->shown = jf_xasprintf("%s %s", which, v);
	for (size_t i = 0; i < ji->installs.size; i++)
		if (jf_dist_provides(ji->installs.items[i].name.value, dist) &&
		    ji->installs.items[i].version && !strcmp(ji->installs.items[i].version, v))
			out->docker = &ji->installs.items[i];
}

const jf_dist_version *jf_versions_of(jf_versions *c, const char *dist)
{
	for (size_t i = 0; i < c->versions.size; i++)
		if (!strcmp(c->versions.items[i].dist, dist))
			return &c->versions.items[i].v;
	struct version_slot s = { jf_xstrdup(dist), { 0 } };
	version_of(c, dist, &s.v);
	jf_array_push(&c->versions, s);
	return &jf_array_last(&c->versions)->v;
}


jf_versions *jf_versions_new(const jf_facts *f)
{
	jf_versions *self = jf_xcalloc(1, sizeof *self);
	self->f = f;
	self->brings_unknown = jf_dist_closure(&f->shell.installed, &self->brought);
	return self;
}

void jf_versions_free(jf_versions *self)
{
	if (!self)
		return;
	for (size_t i = 0; i < self->versions.size; i++) {
		jf_dist_version *v = &self->versions.items[i].v;
		free(self->versions.items[i].dist);
		free(v->version);
		free(v->spec);
		free(v->shown);
		free(v->why);
	}
	jf_array_release(&self->versions);
	jf_strings_release(&self->brought);
	free(self);
}

void jf_dist_version_relate(jf_diag *d, const jf_facts *f, const jf_dist_version *v, bool python)
{
	if (v->pin && v->pin->file)
		jf_diag_relate(d, v->pin->at.src, v->pin->at.span, "the job installs %s from %s",
		               v->shown, v->pin->file);
	else if (v->pin)
		jf_diag_relate(d, v->pin->at.src, v->pin->at.span, "the job installs %s", v->shown);
	else if (v->docker)
		jf_diag_relate(d, v->docker->name.at.src, v->docker->name.at.span,
		               f->image->conda ? "the job's conda file installs %s"
		                               : "the image's Dockerfile installs %s",
		               v->shown);
	else
		jf_image_relate(d, f->image, python ? JF_FACT_PYTHON : JF_FACT_PACKAGES, "%s",
		                v->shown);
}
