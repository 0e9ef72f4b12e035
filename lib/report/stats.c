/* stats.c - the statistics (--statistics): the findings counted per rule and per category of
 * the study, as text tables or as JSON */
#include "report/render.h"

#include "rules/registry.h"

static jf_stat_row *row_for(jf_stat_rows *rows, const char *key)
{
	for (size_t i = 0; i < rows->size; i++)
		if (!strcmp(rows->items[i].key, key))
			return &rows->items[i];
	jf_stat_row r = { key, NULL, NULL, 0, JF_SEV_NOTE, 0 };
	jf_array_push(rows, r);
	return jf_array_last(rows);
}

static int cmp_row(const void *pa, const void *pb)
{
	const jf_stat_row *a = pa, *b = pb;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	if (a->order != b->order)
		return a->order < b->order ? -1 : 1;
	return strcmp(a->key, b->key);
}

static size_t category_order(const char *name)
{
	size_t i = 0;
	while (jf_categories[i].name && strcmp(jf_categories[i].name, name))
		i++;
	return i;
}

void jf_stats_collect(jf_stats *self, const jf_report *r)
{
	*self = (jf_stats){ 0 };
	for (size_t i = 0; i < r->diags.size; i++) {
		const jf_diag *d = &r->diags.items[i];
		jf_stat_row *row = row_for(&self->rules, d->rule->info.id);
		row->rule = d->rule;
		if (!row->count++ || d->severity > row->severity)
			row->severity = d->severity;
		jf_stat_row *c = row_for(&self->cats, jf_diag_category(d));
		c->dimension = jf_category_dimension(jf_diag_category(d));
		c->order = category_order(c->key);
		c->count++;
	}
	if (self->rules.size) {
		qsort(self->rules.items, self->rules.size, sizeof(jf_stat_row), cmp_row);
		qsort(self->cats.items, self->cats.size, sizeof(jf_stat_row), cmp_row);
	}
}

void jf_stats_release(jf_stats *self)
{
	jf_array_release(&self->rules);
	jf_array_release(&self->cats);
}

static size_t max_len(const jf_stat_rows *rows, size_t min,
                      const char *(*field)(const jf_stat_row *))
{
	for (size_t i = 0; i < rows->size; i++)
		if (strlen(field(&rows->items[i])) > min)
			min = strlen(field(&rows->items[i]));
	return min;
}

static const char *row_id(const jf_stat_row *r)
{
	return r->rule->info.id;
}

static const char *row_name(const jf_stat_row *r)
{
	return r->rule->info.name;
}

static const char *row_category(const jf_stat_row *r)
{
	return r->key;
}

/* The two tables; nothing when there are no findings. */
void jf_render__stats_text(const jf_report *report, const jf_stats *s, jf_buf *out)
{
	(void)report;
	if (!s->rules.size)
		return;
	int wid = (int)max_len(&s->rules, 4, row_id), wname = (int)max_len(&s->rules, 4, row_name);
	int wcat = (int)max_len(&s->cats, 8, row_category);
	jf_buf_addf(out, "%5s  %-*s  %-*s  %s\n", "COUNT", wid, "RULE", wname, "NAME", "SEVERITY");
	for (size_t i = 0; i < s->rules.size; i++) {
		const jf_stat_row *r = &s->rules.items[i];
		jf_buf_addf(out, "%5zu  %-*s  %-*s  %s\n", r->count, wid, r->rule->info.id, wname,
		            r->rule->info.name, jf_severity_name(r->severity));
	}
	jf_buf_addf(out, "\n%5s  %-*s  %s\n", "COUNT", wcat, "CATEGORY", "DIMENSION");
	for (size_t i = 0; i < s->cats.size; i++) {
		const jf_stat_row *c = &s->cats.items[i];
		jf_buf_addf(out, "%5zu  %-*s  %s\n", c->count, wcat, c->key,
		            c->dimension ? c->dimension : "-");
	}
}

void jf_stats_json_members(const jf_stats *self, jf_jsonw *w)
{
	jf_jsonw_open(w, "rules", '[');
	for (size_t i = 0; i < self->rules.size; i++) {
		const jf_stat_row *r = &self->rules.items[i];
		jf_jsonw_member(w, NULL);
		jf_buf_adds(w->b, "{\"rule\": ");
		jf_jsonw_quote(w->b, r->rule->info.id);
		jf_buf_adds(w->b, ", \"name\": ");
		jf_jsonw_quote(w->b, r->rule->info.name);
		jf_buf_adds(w->b, ", \"severity\": ");
		jf_jsonw_quote(w->b, jf_severity_name(r->severity));
		jf_buf_adds(w->b, ", \"category\": ");
		jf_jsonw_quote(w->b, r->rule->info.category);
		jf_buf_addf(w->b, ", \"count\": %zu}", r->count);
	}
	jf_jsonw_close(w, ']');
	jf_jsonw_open(w, "categories", '[');
	for (size_t i = 0; i < self->cats.size; i++) {
		const jf_stat_row *c = &self->cats.items[i];
		jf_jsonw_member(w, NULL);
		jf_buf_adds(w->b, "{\"category\": ");
		jf_jsonw_quote(w->b, c->key);
		jf_buf_adds(w->b, ", \"dimension\": ");
		if (c->dimension)
			jf_jsonw_quote(w->b, c->dimension);
		else
			jf_buf_adds(w->b, "null");
		jf_buf_addf(w->b, ", \"count\": %zu}", c->count);
	}
	jf_jsonw_close(w, ']');
}

/* {"version": 1, "rules": [...], "categories": [...]}, and "coverage": {...} with the report's. */
void jf_render__stats_json(const jf_report *report, const jf_stats *s, jf_buf *out)
{
	jf_jsonw w;
	jf_jsonw_start(&w, out);
	jf_jsonw_uint(&w, "version", 1);
	jf_stats_json_members(s, &w);
	if (report->coverage)
		jf_coverage_json_member(report->coverage, &w);
	jf_jsonw_finish(&w);
}
