/* pip.c - JF104: `pip install` into the system site-packages of an image that is not root */
#include "rules/checks.h"

void jf_check_pip_install(jf_rule_ctx *ctx, const jf_rule *rule)
{
	const jf_image *img = ctx->facts->image;
	if (!img->user && ctx->facts->shell.pip_installs.size)
		jf_sink_skip(ctx->out, rule->info.id, "the image's user is unknown: declare image.user");
	if (!jf_image_user_is_nonroot(img))
		return; /* root or an unknown user: pip may well succeed */
	for (size_t i = 0; i < ctx->facts->shell.pip_installs.size; i++) {
		const jf_loc *f = &ctx->facts->shell.pip_installs.items[i];
		jf_diag *d = jf_sink_add(ctx->out, rule->info.id, f->src, f->span,
		                              "'pip install' without '--user' fails with Permission "
		                              "denied: the image runs as user '%s'",
		                              img->user);
		jf_image_relate(d, img, JF_FACT_USER, "user '%s'", img->user);
	}
}
