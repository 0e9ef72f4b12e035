/* coverage.c - what each job's checks covered (--coverage): per job, its files, the
 * arguments of each entry script, its imports and its skipped checks by rule, then
 * the totals; as text, or as the "coverage" member of the json format's documents
 *
 * The jobs come as the linter kept them (core/cover.h): the lines the
 * checks said, read back here, and the lint's skipped checks.
 */
#include "report/render.h"

/* One job read back. */
typedef struct {
	const jf_cover_job *job;
	size_t python, shell;
	JF_ARRAY(jf_cover_line) entries;
	jf_cover_line imports; /* `fields` empty: the check did not run */
	bool has_imports;
} job_view;

static void view_read(job_view *v, const jf_cover_job *job)
{
	memset(v, 0, sizeof *v);
	v->job = job;
	for (size_t i = 0; i < job->covered.size; i++) {
		jf_cover_line l;
		if (!jf_cover_line_read(job->covered.items[i], &l))
			continue;
		if (l.kind == JF_COVER_LINE_ENTRY) {
			jf_array_push(&v->entries, l);
		} else if (l.kind == JF_COVER_LINE_IMPORTS && !v->has_imports) {
			v->imports = l;
			v->has_imports = true;
		} else {
			if (l.kind == JF_COVER_LINE_FILES) {
				v->python = l.a;
				v->shell = l.b;
			}
			jf_cover_line_release(&l);
		}
	}
}

static void view_release(job_view *v)
{
	for (size_t i = 0; i < v->entries.size; i++)
		jf_cover_line_release(&v->entries.items[i]);
	jf_array_release(&v->entries);
	if (v->has_imports)
		jf_cover_line_release(&v->imports);
}

/* A skipped check's message without its "JF110 missing-package in JOB: "
 * head, and the rule id and name in `id` and `name` (NUL-terminated, cut short). */
static const char *skip_parts(const char *skip, const char *job, char *id, size_t nid,
                              char *name, size_t nname)
{
	size_t a = strcspn(skip, " ");
	snprintf(id, nid, "%.*s", (int)a, skip);
	const char *rest = skip[a] ? skip + a + 1 : skip + a;
	size_t b = strcspn(rest, " :");
	snprintf(name, nname, "%.*s", (int)b, rest);
	rest += b;
	if (jf_str_starts(rest, " in ") && !strncmp(rest + 4, job, strlen(job)) &&
	    jf_str_starts(rest + 4 + strlen(job), ": "))
		return rest + 4 + strlen(job) + 2;
	return jf_str_starts(rest, ": ") ? rest + 2 : rest;
}

/* The order of the skipped checks: by rule id, then as said. */
typedef struct {
	const char *skip;
	size_t order;
} skip_ref;

static int skip_cmp(const void *pa, const void *pb)
{
	const skip_ref *a = pa, *b = pb;
	size_t na = strcspn(a->skip, " "), nb = strcspn(b->skip, " ");
	int c = strncmp(a->skip, b->skip, na < nb ? na : nb);
	if (!c && na != nb)
		c = na < nb ? -1 : 1;
	return c ? c : a->order < b->order ? -1 : a->order > b->order;
}

static skip_ref *sorted_skips(const jf_cover_job *job)
{
	skip_ref *refs = jf_xcalloc(job->skipped.size + 1, sizeof *refs);
	for (size_t i = 0; i < job->skipped.size; i++)
		refs[i] = (skip_ref){ job->skipped.items[i], i };
	if (job->skipped.size)
		qsort(refs, job->skipped.size, sizeof *refs, skip_cmp);
	return refs;
}

/* The totals over the jobs: the figures of issue 38's coverage. */
typedef struct {
	size_t jobs;
	size_t entries, args_checked, args_partial, args_not, args_nothing;
	size_t imports_full, imports_partial, imports_not, imports_nothing, imports_not_run;
} totals;

static void count(totals *t, const job_view *v)
{
	t->jobs++;
	for (size_t i = 0; i < v->entries.size; i++) {
		t->entries++;
		switch (v->entries.items[i].state) {
		case JF_COVER_CHECKED: t->args_checked++; break;
		case JF_COVER_PARTIAL: t->args_partial++; break;
		case JF_COVER_NOT_CHECKED: t->args_not++; break;
		case JF_COVER_NOTHING: t->args_nothing++; break;
		}
	}
	if (!v->has_imports) {
		t->imports_not_run++;
		return;
	}
	switch (v->imports.state) {
	case JF_COVER_CHECKED: t->imports_full++; break;
	case JF_COVER_PARTIAL: t->imports_partial++; break;
	case JF_COVER_NOT_CHECKED: t->imports_not++; break;
	case JF_COVER_NOTHING: t->imports_nothing++; break;
	}
}

static size_t percent(size_t part, size_t whole)
{
	return whole ? (part * 100 + whole / 2) / whole : 0;
}

/* Text */

static const char *entry_state_text(jf_cover state)
{
	switch (state) {
	case JF_COVER_CHECKED: return "checked";
	case JF_COVER_PARTIAL: return "partly checked";
	case JF_COVER_NOT_CHECKED: return "not checked";
	default: return "nothing to check";
	}
}

static void job_text(const job_view *v, jf_buf *out)
{
	jf_buf_addf(out, "%s: %zu Python file%s, %zu shell script%s\n", v->job->job, v->python,
	            v->python == 1 ? "" : "s", v->shell, v->shell == 1 ? "" : "s");
	if (!v->entries.size)
		jf_buf_adds(out, "  arguments  no entry script followed\n");
	for (size_t i = 0; i < v->entries.size; i++) {
		const jf_cover_line *e = &v->entries.items[i];
		jf_buf_addf(out, "  arguments  %s: %s%s%s\n", e->script, entry_state_text(e->state),
		            e->why ? ": " : "", e->why ? e->why : "");
	}
	if (!v->has_imports) {
		jf_buf_adds(out, "  imports    not run\n");
	} else {
		const jf_cover_line *m = &v->imports;
		if (m->state == JF_COVER_CHECKED)
			jf_buf_addf(out, "  imports    checked: %zu third-party module%s, none given up\n",
			            m->a, m->a == 1 ? "" : "s");
		else if (m->state == JF_COVER_PARTIAL)
			jf_buf_addf(out, "  imports    checked per question: %zu of %zu third-party modules, %zu given up\n",
			            m->a - m->b, m->a, m->b);
		else
			jf_buf_addf(out, "  imports    %s%s%s\n",
			            m->state == JF_COVER_NOT_CHECKED ? "not checked" : "nothing to check",
			            m->why ? ": " : "", m->why ? m->why : "");
	}
	skip_ref *refs = sorted_skips(v->job);
	for (size_t i = 0; i < v->job->skipped.size; i++) {
		char id[32], name[96];
		const char *msg = skip_parts(refs[i].skip, v->job->job, id, sizeof id, name, sizeof name);
		jf_buf_addf(out, "  skipped    %s %s: %s\n", id, name, msg);
	}
	free(refs);
}

void jf_coverage_render_text(const jf_cover_jobs *jobs, jf_buf *out)
{
	totals t = { 0 };
	for (size_t i = 0; i < jobs->size; i++) {
		job_view v;
		view_read(&v, &jobs->items[i]);
		job_text(&v, out);
		count(&t, &v);
		view_release(&v);
	}
	size_t with_line = t.entries - t.args_nothing, args = t.args_checked + t.args_partial;
	size_t asked = t.imports_full + t.imports_partial + t.imports_not;
	size_t imports = t.imports_full + t.imports_partial;
	jf_buf_addf(out, "coverage: %zu job%s; arguments checked for %zu of %zu entry scripts (%zu%%)",
	            t.jobs, t.jobs == 1 ? "" : "s", args, with_line, percent(args, with_line));
	if (t.args_partial)
		jf_buf_addf(out, ", %zu of them partly", t.args_partial);
	jf_buf_addf(out, "; imports checked for %zu of %zu jobs (%zu%%): %zu in full, %zu per "
	                 "question, %zu not at all\n",
	            imports, asked, percent(imports, asked), t.imports_full, t.imports_partial,
	            t.imports_not);
}

/* JSON */

/* `"key": "state", "why": ...` on the line of an object. */
static void json_state(jf_buf *b, const char *key, jf_cover state, const char *why)
{
	jf_jsonw_quote(b, key);
	jf_buf_adds(b, ": ");
	jf_jsonw_quote(b, jf_cover_name(state));
	jf_buf_adds(b, ", \"why\": ");
	if (why)
		jf_jsonw_quote(b, why);
	else
		jf_buf_adds(b, "null");
}

static void job_json(const job_view *v, jf_jsonw *w)
{
	jf_jsonw_open(w, NULL, '{');
	jf_jsonw_str(w, "job", v->job->job);
	jf_jsonw_member(w, "files");
	jf_buf_addf(w->b, "{\"python\": %zu, \"shell\": %zu}", v->python, v->shell);
	jf_jsonw_open(w, "entry_scripts", '[');
	for (size_t i = 0; i < v->entries.size; i++) {
		const jf_cover_line *e = &v->entries.items[i];
		jf_jsonw_member(w, NULL);
		jf_buf_adds(w->b, "{\"script\": ");
		jf_jsonw_quote(w->b, e->script);
		jf_buf_adds(w->b, ", ");
		json_state(w->b, "arguments", e->state, e->why);
		jf_buf_addc(w->b, '}');
	}
	jf_jsonw_close(w, ']');
	jf_jsonw_member(w, "imports");
	if (!v->has_imports) {
		jf_buf_adds(w->b, "null");
	} else {
		jf_buf_addc(w->b, '{');
		json_state(w->b, "state", v->imports.state, v->imports.why);
		jf_buf_addf(w->b, ", \"modules\": %zu, \"given_up\": %zu}", v->imports.a, v->imports.b);
	}
	jf_jsonw_open(w, "skipped", '[');
	skip_ref *refs = sorted_skips(v->job);
	for (size_t i = 0; i < v->job->skipped.size;) {
		char id[32], name[96], id2[32], name2[96];
		skip_parts(refs[i].skip, v->job->job, id, sizeof id, name, sizeof name);
		jf_jsonw_open(w, NULL, '{');
		jf_jsonw_str(w, "rule", id);
		jf_jsonw_str(w, "name", name);
		jf_jsonw_open(w, "messages", '[');
		for (; i < v->job->skipped.size; i++) {
			const char *msg = skip_parts(refs[i].skip, v->job->job, id2, sizeof id2, name2,
			                             sizeof name2);
			if (strcmp(id, id2))
				break;
			jf_jsonw_member(w, NULL);
			jf_jsonw_quote(w->b, msg);
		}
		jf_jsonw_close(w, ']');
		jf_jsonw_close(w, '}');
	}
	free(refs);
	jf_jsonw_close(w, ']');
	jf_jsonw_close(w, '}');
}

void jf_coverage_json_member(const jf_cover_jobs *jobs, jf_jsonw *w)
{
	totals t = { 0 };
	jf_jsonw_open(w, "coverage", '{');
	jf_jsonw_open(w, "jobs", '[');
	for (size_t i = 0; i < jobs->size; i++) {
		job_view v;
		view_read(&v, &jobs->items[i]);
		job_json(&v, w);
		count(&t, &v);
		view_release(&v);
	}
	jf_jsonw_close(w, ']');
	jf_jsonw_open(w, "totals", '{');
	jf_jsonw_uint(w, "jobs", t.jobs);
	jf_jsonw_uint(w, "entry_scripts", t.entries);
	jf_jsonw_uint(w, "arguments_checked", t.args_checked);
	jf_jsonw_uint(w, "arguments_partial", t.args_partial);
	jf_jsonw_uint(w, "arguments_not_checked", t.args_not);
	jf_jsonw_uint(w, "arguments_nothing", t.args_nothing);
	jf_jsonw_uint(w, "imports_checked", t.imports_full);
	jf_jsonw_uint(w, "imports_partial", t.imports_partial);
	jf_jsonw_uint(w, "imports_not_checked", t.imports_not);
	jf_jsonw_uint(w, "imports_not_run", t.imports_not_run);
	jf_jsonw_close(w, '}');
	jf_jsonw_close(w, '}');
}

void jf_coverage_render_json(const jf_cover_jobs *jobs, jf_buf *out)
{
	jf_jsonw w;
	jf_jsonw_start(&w, out);
	jf_jsonw_uint(&w, "version", 1);
	jf_coverage_json_member(jobs, &w);
	jf_jsonw_finish(&w);
}
