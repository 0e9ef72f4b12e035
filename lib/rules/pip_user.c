/* pip_user.c - JF104: `pip install` into the system site-packages, by a user who cannot write there
 *
 * pip 20.0 and later installs into the user's site-packages by itself when
 * the system one is not writable and user site-packages are enabled (pip's
 * release notes for 20.0; pip issue 1668). `pip install` as a non-root user
 * therefore fails only when that fallback cannot happen: user site-packages
 * disabled (PYTHONNOUSERSITE), a home the user cannot write ('/', what a uid
 * with no passwd entry gets), or a pip older than 20. JF104 fires on those
 * and says which; otherwise it is silent, and --verbose says why.
 */
#include "rules/checks.h"

/* Whether variable `name` is set to a non-empty value for the job's
 * command: in its env, the image's, or exported by its scripts. */
static bool job_sets(const jf_rule_ctx *ctx, const char *name)
{
	const jf_job_var *v = ctx->facts->job ? jf_job_env(ctx->facts->job, name) : NULL;
	const char *image = jf_image_env(ctx->facts->image, name);
	return (v && (!v->value.value || *v->value.value)) || (image && *image) ||
	       jf_strings_have(&ctx->facts->shell.exported, name);
}

/* Why pip cannot fall back to the user's site-packages, written into `why`;
 * false when it may (or jobfix cannot tell). */
static bool no_fallback(const jf_rule_ctx *ctx, const jf_image *img, char *why, size_t n,
                        const char **help)
{
	const jf_job_var *home = ctx->facts->job ? jf_job_env(ctx->facts->job, "HOME") : NULL;
	const char *pip = NULL;
	if (job_sets(ctx, "PYTHONNOUSERSITE"))
	{
		snprintf(why, n, "PYTHONNOUSERSITE disables user site-packages, so pip cannot fall back "
		                 "to installing under the user's home");
		*help = "install the package in the image, or with `pip install --target DIR` into a "
		        "folder the job puts on PYTHONPATH";
	}
	else if ((home && home->value.value && !strcmp(home->value.value, "/")) ||
	         (!home && !img->user_declared && img->home && !strcmp(img->home, "/")))
	{
		snprintf(why, n, "the user's home is '/', where pip's fallback to the user's "
		                 "site-packages cannot write either");
		*help = "set HOME to a folder the user can write (HOME=/tmp), or install the package "
		        "in the image";
	}
	else if (jf_image_has_package(img, "pip", &pip) == JF_YES && strcmp(pip, "*") &&
	         jf_version_cmp(pip, "20.0") < 0)
	{
		snprintf(why, n, "the image's pip %s is older than 20.0, which installs into the user's "
		                 "site-packages only with --user",
		         pip);
		*help = "use `pip install --user ...`, or install the package in the image";
	}
	else
		return false;
	return true;
}

void jf_check_pip_install(jf_rule_ctx *ctx, const jf_rule *rule)
{
	const jf_image *img = ctx->facts->image;
	if (!ctx->facts->shell.pip_installs.size)
		return;
	if (!img->user)
		jf_sink_skip(ctx->out, rule->info.id, "the image's user is unknown: declare image.user");
	if (!jf_image_user_is_nonroot(img))
		return; /* root or an unknown user: pip may well succeed */
	char why[256];
	const char *help = NULL;
	if (!no_fallback(ctx, img, why, sizeof why, &help)) {
		jf_sink_skip(ctx->out, rule->info.id,
		             "pip 20 and later installs into the user's site-packages when the system "
		             "one is not writable: 'pip install' as user '%s' fails only with user "
		             "site-packages disabled, a home it cannot write or a pip older than 20, "
		             "and nothing here says so",
		             img->user);
		return;
	}
	for (size_t i = 0; i < ctx->facts->shell.pip_installs.size; i++) {
		const jf_loc *f = &ctx->facts->shell.pip_installs.items[i];
		jf_diag *d = jf_sink_add(ctx->out, rule->info.id, f->src, f->span,
		                         "'pip install' as user '%s' fails with Permission denied: it "
		                         "cannot write the system site-packages, and %s",
		                         img->user, why);
		jf_image_relate(d, img, JF_FACT_USER, "user '%s'", img->user);
		jf_diag_set_help(d, "%s", help);
	}
}
