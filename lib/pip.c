/* pip.c - JF104: `pip install` into the system site-packages of an image that is not root */
#include "checks.h"

void jf_check_pip_install(jf_ctx *ctx, const jf_rule *rule)
{
	const jf_job *j = ctx->job;
	if (!j || !jf_job_user_is_nonroot(j))
		return; /* root or an unknown user: pip may well succeed */
	for (size_t i = 0; i < ctx->pip_installs.size; i++) {
		const jf_pip_fact *f = &ctx->pip_installs.items[i];
		jf_diag *d = jf_ctx_report_at(ctx, rule->info.id, f->src, f->span,
		                              "'pip install' without '--user' fails with Permission "
		                              "denied: the image runs as user '%s'",
		                              j->image_user.value);
		jf_diag_relate(d, j->spec, j->image_user.span, "the image user is declared here");
	}
}
