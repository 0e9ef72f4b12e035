/* scripts.c - JF102: launch and entry scripts the command names that the code folder lacks */
#include "rules/checks.h"

void jf_check_scripts(jf_rule_ctx *ctx, const jf_rule *rule)
{
	const jf_job *job = ctx->facts->job;
	const jf_shell_facts *sh = &ctx->facts->shell;
	/* Where the code is and what runs, when the reader could not tell; what
	 * of the command the shell could not follow. */
	jf_check_say_job(ctx, rule->info.id, JF_JOB_CODE | JF_JOB_COMMAND);
	for (size_t i = 0; i < sh->not_followed.size; i++)
		jf_sink_skip(ctx->out, rule->info.id, "%s", sh->not_followed.items[i]);
	for (size_t i = 0; i < sh->assumed.size; i++)
		jf_sink_skip(ctx->out, rule->info.id, "%s", sh->assumed.items[i]);
	for (size_t i = 0; i < sh->missing_scripts.size; i++) {
		const jf_missing_script *m = &sh->missing_scripts.items[i];
		const jf_word *w = &m->word;
		if (m->module_file) {
			size_t n = strlen(m->display) - 3;
			jf_diag *d = jf_sink_add(ctx->out, rule->info.id, w->src, w->span,
			                         "`python -m` takes a module name, and '%s' is a file's: "
			                         "\"Error while finding module specification for '%s' "
			                         "(ModuleNotFoundError: __path__ attribute not found on "
			                         "'%.*s' ...)\"",
			                         m->display, m->display, (int)n, m->display);
			if (memchr(m->display, '.', n))
				jf_diag_set_help(d, "run `python -m %.*s`", (int)n, m->display);
			else
				jf_diag_set_help(d, "run `python -m %.*s`, or `python %s`", (int)n, m->display,
				                 m->display);
			continue;
		}
		jf_diag *d = jf_sink_add(ctx->out, rule->info.id, w->src, w->span,
		                         m->is_dir ? "%s '%s' is a folder, not a file"
		                                   : "%s '%s' does not exist",
		                         m->python ? "entry script" : "launch script", m->display);
		/* Where the name went, when a workdir made it another path. */
		if (strcmp(m->cpath, w->value) && job->workdir.value)
			jf_diag_relate(d, job->workdir.at.src, job->workdir.at.span,
			               "'%s' resolves to '%s' in the container", w->value, m->cpath);
	}
}
