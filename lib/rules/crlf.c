/* crlf.c - JF401: shell scripts with Windows line endings */
#include "rules/checks.h"

void jf_check_crlf(jf_rule_ctx *ctx, const jf_rule *rule)
{
	for (size_t i = 0; i < ctx->facts->ws->files.size; i++) {
		const jf_file *u = ctx->facts->ws->files.items[i];
		const jf_source *src = u->src;
		if (u->lang != JF_LANG_BASH || !u->fs_path || src->status != JF_SOURCE_OK)
			continue;
		size_t crlf = 0;
		for (uint32_t l = 0; l < src->nlines; l++) {
			jf_span s = jf_source_line_span(src, l);
			crlf += s.end < src->len && src->data[s.end] == '\r'; /* the span stops before it */
		}
		if (!crlf)
			continue;
		/* Lines as an editor counts them: a final newline ends the last one. */
		uint32_t lines = src->nlines - (src->len && src->data[src->len - 1] == '\n');
		jf_span first = jf_source_line_span(src, 0);
		jf_sink_add(ctx->out, rule->info.id, src, first,
		                 "%s has Windows line endings (CRLF) on %zu of %u lines: bash fails "
		                 "with $'\\r': command not found",
		                 src->path, crlf, lines);
	}
}
