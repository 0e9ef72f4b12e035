/* pip.c - JF104: `pip install` into the system site-packages of an image that is not root */
#include "rules/checks.h"

void jf_check_pip_install(jf_ctx *ctx, const jf_rule *rule)
{
	const jf_image *img = jf_ctx_image(ctx);
	if (!img->user && ctx->pip_installs.size)
		jf_ctx_skip(ctx, rule->info.id, "the image's user is unknown: declare image.user");
	if (!jf_image_user_is_nonroot(img))
		return; /* root or an unknown user: pip may well succeed */
	for (size_t i = 0; i < ctx->pip_installs.size; i++) {
		const jf_pip_fact *f = &ctx->pip_installs.items[i];
		jf_diag *d = jf_ctx_report_at(ctx, rule->info.id, f->src, f->span,
		                              "'pip install' without '--user' fails with Permission "
		                              "denied: the image runs as user '%s'",
		                              img->user);
		jf_image_relate(d, img, ctx->job->spec, JF_FACT_USER, "user '%s'", img->user);
	}
}
