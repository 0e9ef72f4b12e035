/* local_path.c - JF101: paths of the developer's machine where the job reads or writes
 *
 * The queries (python/ and bash/JF101-hard-coded-local-path.scm) find the
 * string literals and words used as paths; this hook drops the ones the job's
 * container provides (a mount or the workdir at that path, the image user's
 * own home) and points at the job's inputs as the likely replacement.
 */
#include "checks.h"
#include "path.h"

/* The literal's value without prefix letters and quotes; caller frees. */
static char *literal_value(const jf_unit *unit, TSNode n)
{
	char *text = jf_node_text(unit, n);
	char *p = text;
	while (*p && strchr("rRbBuUfF", *p))
		p++;
	size_t len = strlen(p);
	size_t q = 0;
	if (len >= 6 && (!strncmp(p, "\"\"\"", 3) || !strncmp(p, "'''", 3)))
		q = 3;
	else if (len >= 2 && (p[0] == '"' || p[0] == '\''))
		q = 1;
	char *v = q ? jf_xstrndup(p + q, len - 2 * q) : jf_xstrdup(p);
	free(text);
	return v;
}

static bool provided_by_job(const jf_job *j, const char *path)
{
	const jf_named_paths *lists[] = { &j->inputs, &j->outputs };
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < lists[k]->size; i++)
			if (jf_path_under(path, lists[k]->items[i].path))
				return true;
	if (j->workdir.value && jf_path_under(path, j->workdir.value))
		return true;
	/* The image's own user has a home of that name. */
	const char *user = j->image_user.value;
	if (user && jf_str_starts(path, "/home/") && !strncmp(path + 6, user, strlen(user)) &&
	    (path[6 + strlen(user)] == '/' || !path[6 + strlen(user)]))
		return true;
	return false;
}

void jf_hook_local_path(jf_ctx *ctx, const jf_rule *rule, const jf_unit *unit, const jf_match *m)
{
	TSNode at = jf_match_get(m, "finding");
	if (ts_node_is_null(at))
		return;
	char *value = literal_value(unit, at);
	jf_span span = jf_node_span(at);
	/* A shell word `--flag=/home/...`: the path is what follows the '='. */
	char *path = value;
	char *eq = strchr(value, '=');
	if (unit->lang == JF_LANG_BASH && eq && value[0] != '/' && value[0] != '"') {
		path = eq + 1;
		span.start += (uint32_t)(path - value);
	}
	if (ctx->job && provided_by_job(ctx->job, path)) {
		free(value);
		return;
	}
	char *msg = jf_rule_message_with(rule, m, unit, "finding", path);
	jf_diag *d = jf_ctx_report(ctx, rule->info.id, unit, span, "%s", msg);
	free(msg);
	free(value);
	if (ctx->job && ctx->job->inputs.size) {
		const jf_named_path *in = &ctx->job->inputs.items[0];
		jf_diag_relate(d, ctx->job->spec, in->path_span,
		               "the job mounts its input '%s' at '%s'", in->name, in->path);
	}
}
