/* json.c - the json format: one document of the findings, or of the errors of jobfix's
 * configuration */
#include "report/render.h"

#include "rules/registry.h"

/* The position, message, help and related places of `d` as JSON members. */
static void json_body(jf_buf *b, const jf_diag *d)
{
	jf_buf_adds(b, "\n      \"file\": ");
	if (d->src) {
		jf_pos a = jf_source_pos(d->src, d->span.start), e = jf_source_pos(d->src, d->span.end);
		jf_jsonw_quote(b, d->src->path);
		jf_buf_addf(b, ",\n      \"line\": %u,\n      \"column\": %u", a.line, a.col);
		jf_buf_addf(b, ",\n      \"end_line\": %u,\n      \"end_column\": %u", e.line, e.col);
	} else {
		jf_buf_adds(b, "null,\n      \"line\": null,\n      \"column\": null");
		jf_buf_adds(b, ",\n      \"end_line\": null,\n      \"end_column\": null");
	}
	jf_buf_adds(b, ",\n      \"message\": ");
	jf_jsonw_quote(b, d->message);
	jf_buf_adds(b, ",\n      \"help\": ");
	if (jf_render__help(d))
		jf_jsonw_quote(b, jf_render__help(d));
	else
		jf_buf_adds(b, "null");
	jf_buf_adds(b, ",\n      \"related\": [");
	for (size_t k = 0; k < d->related.size; k++) {
		const jf_related *rel = &d->related.items[k];
		jf_pos p = jf_source_pos(rel->src, rel->span.start);
		jf_buf_adds(b, k ? ", {" : "{");
		jf_buf_adds(b, "\"file\": ");
		jf_jsonw_quote(b, rel->src->path);
		jf_buf_addf(b, ", \"line\": %u, \"column\": %u, \"message\": ", p.line, p.col);
		jf_jsonw_quote(b, rel->message);
		jf_buf_adds(b, "}");
	}
	jf_buf_adds(b, "]\n    }");
}

/* {"version": 1, "diagnostics": [...]}, a finding a member of the list; with the
 * report's coverage, "coverage": {...} after it. */
void jf_render__json(const jf_report *r, jf_buf *b, bool color)
{
	(void)color;
	jf_buf_adds(b, "{\n  \"version\": 1,\n  \"diagnostics\": [");
	for (size_t i = 0; i < r->diags.size; i++) {
		const jf_diag *d = &r->diags.items[i];
		jf_buf_adds(b, i ? ",\n    {" : "\n    {");
		jf_buf_adds(b, "\n      \"rule\": ");
		jf_jsonw_quote(b, d->rule->info.id);
		jf_buf_adds(b, ",\n      \"name\": ");
		jf_jsonw_quote(b, d->rule->info.name);
		jf_buf_adds(b, ",\n      \"severity\": ");
		jf_jsonw_quote(b, jf_severity_name(d->severity));
		jf_buf_adds(b, ",\n      \"category\": ");
		jf_jsonw_quote(b, jf_diag_category(d));
		jf_buf_adds(b, ",");
		json_body(b, d);
	}
	jf_buf_adds(b, r->diags.size ? "\n  ]" : "]");
	if (r->coverage) {
		jf_jsonw w = { b, 1, false };
		jf_coverage_json_member(r->coverage, &w);
	}
	jf_buf_adds(b, "\n}\n");
}

/* The document of the findings with none, and the errors in "config_errors". */
void jf_render__json_errors(const jf_report *r, jf_buf *out, bool color)
{
	(void)color;
	jf_buf_adds(out, "{\n  \"version\": 1,\n  \"diagnostics\": [],\n  \"config_errors\": [");
	for (size_t i = 0; i < r->diags.size; i++) {
		jf_buf_adds(out, i ? ",\n    {" : "\n    {");
		json_body(out, &r->diags.items[i]);
	}
	jf_buf_adds(out, r->diags.size ? "\n  ]\n}\n" : "]\n}\n");
}
