/* output.c - the text, json and sarif forms of triage results */
#include <inttypes.h>
#include <string.h>

#include "report/render.h"
#include "triage/output.h"

void jf_triage_entry_release(jf_triage_entry *e)
{
	jf_triage_result_release(&e->r);
	free(e->code_file);
	free(e->finding.file);
	free(e->finding.message);
	memset(e, 0, sizeof *e);
}

const char *jf_triage_cause_name(const char *code)
{
	static const char *const names[][2] = {
		{ "CPE", "a common programming error" },
		{ "DE", "the platform's environment differs from the developer's" },
		{ "IPS", "inappropriate model parameters or structure" },
		{ "ED", "exceptional data" },
		{ "APIM", "an API misunderstood" },
	};
	for (size_t i = 0; code && i < sizeof names / sizeof *names; i++)
		if (!strcmp(names[i][0], code))
			return names[i][1];
	return NULL;
}

static void add_duration(jf_buf *b, int64_t s)
{
	if (s >= 86400)
		jf_buf_addf(b, "%" PRId64 "d%" PRId64 "h", s / 86400, s % 86400 / 3600);
	else if (s >= 3600)
		jf_buf_addf(b, "%" PRId64 "h%02" PRId64 "m", s / 3600, s % 3600 / 60);
	else if (s >= 60)
		jf_buf_addf(b, "%" PRId64 "m%02" PRId64 "s", s / 60, s % 60);
	else
		jf_buf_addf(b, "%" PRId64 "s", s);
}

static const char *log_name(const jf_triage_result *r)
{
	return strcmp(r->log, "-") ? r->log : "<stdin>";
}

/* Text */

static void text_entry(const jf_triage_entry *e, bool linked, jf_buf *b)
{
	const jf_triage_result *r = &e->r;
	if (r->error) /* said on standard error */
		return;
	if (!r->found) {
		jf_buf_addf(b, "%s: no failure message found in %" PRIu64 " lines\n", log_name(r), r->lines);
		jf_buf_addf(b, "  retry: %s: %s\n", jf_retry_name(r->retry), r->why);
		return;
	}
	jf_buf_addf(b, "%s:%" PRIu64 ": %s: %s\n", log_name(r), r->line, r->category->name, r->message);
	jf_buf_addf(b, "  retry: %s: %s\n", jf_retry_name(r->retry), r->why);
	jf_buf_addf(b, "  dimension: %s", r->category->dimension);
	const char *cause = r->pattern ? jf_triage_cause_name(r->pattern->cause) : NULL;
	if (cause)
		jf_buf_addf(b, "; root cause: %s (%s)", r->pattern->cause, cause);
	jf_buf_addc(b, '\n');
	if (r->stage || r->progress || r->elapsed > 0) {
		jf_buf_adds(b, "  stage: ");
		jf_buf_adds(b, r->stage ? r->stage : "not told");
		if (r->progress)
			jf_buf_addf(b, ", after %s", r->progress);
		if (r->elapsed > 0) {
			jf_buf_adds(b, ", ");
			add_duration(b, r->elapsed);
			jf_buf_adds(b, " into the log");
		}
		jf_buf_addc(b, '\n');
	}
	if (r->has_frame) {
		jf_buf_addf(b, "  user code: %s:%u", r->frame.file, r->frame.line);
		if (r->frame.function)
			jf_buf_addf(b, ", in %s", r->frame.function);
		if (e->code_file)
			jf_buf_addf(b, " (the job's %s:%u)", e->code_file, e->code_line);
		else if (linked)
			jf_buf_adds(b, " (no file of the job's code has this path)");
		jf_buf_addc(b, '\n');
	}
	if (e->has_finding)
		jf_buf_addf(b, "  jobfix lint: %s at %s:%u reports it before the job runs: %s\n",
		            e->finding.rule, e->finding.file, e->finding.line, e->finding.message);
	else if (linked)
		jf_buf_adds(b, "  jobfix lint: no finding of the job reports it\n");
	if (r->pattern)
		jf_buf_addf(b, "  hint: %s\n", r->pattern->hint);
}

/* JSON */

static void json_str_or_null(jf_jsonw *w, const char *key, const char *value)
{
	if (value) {
		jf_jsonw_str(w, key, value);
	} else {
		jf_jsonw_member(w, key);
		jf_buf_adds(w->b, "null");
	}
}

static void json_entry(jf_jsonw *w, const jf_triage_entry *e, bool linked)
{
	const jf_triage_result *r = &e->r;
	jf_jsonw_open(w, NULL, '{');
	jf_jsonw_str(w, "file", log_name(r));
	if (r->error) {
		jf_jsonw_str(w, "error", r->error);
		jf_jsonw_close(w, '}');
		return;
	}
	jf_jsonw_member(w, "line");
	if (r->found)
		jf_buf_addf(w->b, "%" PRIu64, r->line);
	else
		jf_buf_adds(w->b, "null");
	json_str_or_null(w, "message", r->found ? r->message : NULL);
	jf_jsonw_str(w, "category", r->category->name);
	jf_jsonw_str(w, "dimension", r->category->dimension);
	json_str_or_null(w, "cause", r->pattern ? r->pattern->cause : NULL);
	jf_jsonw_str(w, "retry", jf_retry_name(r->retry));
	jf_jsonw_str(w, "retry_reason", r->why);
	json_str_or_null(w, "stage", r->stage);
	json_str_or_null(w, "progress", r->progress);
	jf_jsonw_member(w, "elapsed_seconds");
	if (r->elapsed >= 0)
		jf_buf_addf(w->b, "%" PRId64, r->elapsed);
	else
		jf_buf_adds(w->b, "null");
	json_str_or_null(w, "pattern", r->pattern ? r->pattern->id : NULL);
	json_str_or_null(w, "hint", r->pattern ? r->pattern->hint : NULL);
	if (r->has_frame) {
		jf_jsonw_open(w, "user_frame", '{');
		jf_jsonw_str(w, "file", r->frame.file);
		jf_jsonw_uint(w, "line", r->frame.line);
		json_str_or_null(w, "function", r->frame.function);
		json_str_or_null(w, "job_file", e->code_file);
		if (e->code_file)
			jf_jsonw_uint(w, "job_line", e->code_line);
		jf_jsonw_close(w, '}');
	} else {
		json_str_or_null(w, "user_frame", NULL);
	}
	if (e->has_finding) {
		const jf_triage_finding *f = &e->finding;
		jf_jsonw_open(w, "finding", '{');
		jf_jsonw_str(w, "rule", f->rule);
		jf_jsonw_str(w, "name", f->name);
		jf_jsonw_str(w, "severity", f->severity);
		jf_jsonw_str(w, "file", f->file);
		jf_jsonw_uint(w, "line", f->line);
		jf_jsonw_uint(w, "column", f->column);
		jf_jsonw_str(w, "message", f->message);
		jf_jsonw_close(w, '}');
	} else if (linked) {
		json_str_or_null(w, "finding", NULL);
	}
	jf_jsonw_uint(w, "lines_read", r->lines);
	jf_jsonw_close(w, '}');
}

/* SARIF */

/* "GPU Out of Memory" -> "triage/gpu-out-of-memory". */
static void rule_id(jf_buf *b, const char *category)
{
	jf_buf_adds(b, "triage/");
	for (const char *c = category; *c; c++)
		jf_buf_addc(b, *c == ' ' ? '-' : (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c));
}

static void sarif_location(jf_jsonw *w, const char *path, uint64_t line)
{
	jf_buf uri = JF_BUF_INIT;
	if (path[0] == '/')
		jf_buf_adds(&uri, "file://");
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	jf_buf_add_uri_path(&uri, path);
	jf_jsonw_open(w, "physicalLocation", '{');
	jf_jsonw_pair(w, "artifactLocation", "uri", uri.buf);
	jf_jsonw_member(w, "region");
	jf_buf_addf(w->b, "{\"startLine\": %" PRIu64 ", \"startColumn\": 1}", line ? line : 1);
	jf_jsonw_close(w, '}');
	jf_buf_release(&uri);
}

static void render_sarif(const jf_triage_entry *entries, size_t n, jf_buf *b)
{
	/* the categories the results use, in order of first use: a result's ruleIndex */
	const jf_triage_category *used[64];
	size_t nused = 0;
	for (size_t i = 0; i < n; i++) {
		const jf_triage_category *c = entries[i].r.category;
		size_t k = 0;
		while (k < nused && used[k] != c)
			k++;
		if (c && k == nused && nused < 64)
			used[nused++] = c;
	}
	jf_jsonw w;
	jf_buf t = JF_BUF_INIT;
	jf_sarif_start(&w, b);
	jf_jsonw_open(&w, "rules", '[');
	for (size_t k = 0; k < nused; k++) {
		const jf_triage_category *c = used[k];
		jf_jsonw_open(&w, NULL, '{');
		jf_buf_truncate(&t, 0);
		rule_id(&t, c->name);
		jf_jsonw_str(&w, "id", t.buf);
		jf_buf_truncate(&t, 0);
		for (const char *p = c->name; *p; p++) /* "GPU Out of Memory" -> "GPUOutOfMemory" */
			if (*p != ' ')
				jf_buf_addc(&t, p > c->name && p[-1] == ' ' && *p >= 'a' && *p <= 'z' ? (char)(*p - 32) : *p);
		jf_jsonw_str(&w, "name", t.buf);
		jf_jsonw_pair(&w, "shortDescription", "text", c->name);
		jf_buf_truncate(&t, 0);
		jf_buf_addf(&t, "A job failed with a failure of category %s (%s). Retry: %s: %s.", c->name,
		            c->dimension, jf_retry_name(c->retry), c->why);
		jf_jsonw_pair(&w, "fullDescription", "text", t.buf);
		jf_jsonw_open(&w, "help", '{');
		jf_jsonw_str(&w, "text", t.buf);
		jf_jsonw_str(&w, "markdown", t.buf);
		jf_jsonw_close(&w, '}');
		jf_jsonw_pair(&w, "defaultConfiguration", "level", "error");
		jf_jsonw_member(&w, "properties");
		jf_buf_adds(w.b, "{\"tags\": [\"triage\", ");
		jf_jsonw_quote(w.b, c->name);
		jf_buf_adds(w.b, "]}");
		jf_jsonw_close(&w, '}');
	}
	jf_jsonw_close(&w, ']');
	jf_jsonw_close(&w, '}');
	jf_jsonw_close(&w, '}');
	jf_jsonw_open(&w, "invocations", '[');
	jf_jsonw_open(&w, NULL, '{');
	bool ok = true;
	for (size_t i = 0; i < n; i++)
		ok = ok && !entries[i].r.error;
	jf_jsonw_member(&w, "executionSuccessful");
	jf_buf_adds(b, ok ? "true" : "false");
	jf_jsonw_close(&w, '}');
	jf_jsonw_close(&w, ']');
	jf_jsonw_str(&w, "columnKind", "unicodeCodePoints");
	jf_jsonw_open(&w, "results", '[');
	for (size_t i = 0; i < n; i++) {
		const jf_triage_entry *e = &entries[i];
		const jf_triage_result *r = &e->r;
		if (r->error || !r->found)
			continue;
		size_t k = 0;
		while (k < nused && used[k] != r->category)
			k++;
		jf_jsonw_open(&w, NULL, '{');
		jf_buf_truncate(&t, 0);
		rule_id(&t, r->category->name);
		jf_jsonw_str(&w, "ruleId", t.buf);
		jf_jsonw_uint(&w, "ruleIndex", k);
		jf_jsonw_str(&w, "level", "error"); /* the job failed, whatever a retry does */
		jf_buf_truncate(&t, 0);
		jf_buf_addf(&t, "%s: %s (retry: %s)", r->category->name, r->message, jf_retry_name(r->retry));
		jf_jsonw_pair(&w, "message", "text", t.buf);
		/* the same failure message at the same place of the code is the same result */
		uint64_t h = 14695981039346656037ull; /* FNV-1a */
		for (const char *p = r->message; *p; p++)
			h = (h ^ (unsigned char)*p) * 1099511628211ull;
		jf_buf_truncate(&t, 0);
		jf_buf_addf(&t, "%016" PRIx64 ":%s:%u", h, e->code_file ? e->code_file : "",
		            e->code_file ? e->code_line : 0);
		jf_jsonw_pair(&w, "partialFingerprints", "jobfixTriage/v1", t.buf);
		jf_jsonw_open(&w, "locations", '[');
		jf_jsonw_open(&w, NULL, '{');
		if (e->code_file)
			sarif_location(&w, e->code_file, e->code_line);
		else
			sarif_location(&w, log_name(r), r->line);
		jf_jsonw_close(&w, '}');
		jf_jsonw_close(&w, ']');
		jf_jsonw_open(&w, "relatedLocations", '[');
		jf_jsonw_open(&w, NULL, '{');
		jf_jsonw_uint(&w, "id", 1);
		sarif_location(&w, log_name(r), r->line);
		jf_jsonw_pair(&w, "message", "text", "the failure in the log");
		jf_jsonw_close(&w, '}');
		if (e->has_finding) {
			jf_jsonw_open(&w, NULL, '{');
			jf_jsonw_uint(&w, "id", 2);
			sarif_location(&w, e->finding.file, e->finding.line);
			jf_buf_truncate(&t, 0);
			jf_buf_addf(&t, "%s reports it before the job runs: %s", e->finding.rule,
			            e->finding.message);
			jf_jsonw_pair(&w, "message", "text", t.buf);
			jf_jsonw_close(&w, '}');
		}
		jf_jsonw_close(&w, ']');
		jf_jsonw_open(&w, "properties", '{');
		jf_jsonw_str(&w, "category", r->category->name);
		jf_jsonw_str(&w, "dimension", r->category->dimension);
		jf_jsonw_str(&w, "retry", jf_retry_name(r->retry));
		if (r->stage)
			jf_jsonw_str(&w, "stage", r->stage);
		if (e->has_finding)
			jf_jsonw_str(&w, "finding", e->finding.rule);
		jf_jsonw_close(&w, '}');
		jf_jsonw_close(&w, '}');
	}
	jf_jsonw_close(&w, ']');
	jf_jsonw_close(&w, '}');
	jf_jsonw_close(&w, ']');
	jf_jsonw_finish(&w);
	jf_buf_release(&t);
}

void jf_triage_render(const jf_triage_entry *entries, size_t n, bool linked, const char *format,
                      jf_buf *b)
{
	if (!strcmp(format, "sarif")) {
		render_sarif(entries, n, b);
	} else if (!strcmp(format, "json")) {
		jf_jsonw w;
		jf_jsonw_start(&w, b);
		jf_jsonw_uint(&w, "version", 1);
		jf_jsonw_open(&w, "results", '[');
		for (size_t i = 0; i < n; i++)
			json_entry(&w, &entries[i], linked);
		jf_jsonw_close(&w, ']');
		jf_jsonw_finish(&w);
	} else {
		for (size_t i = 0; i < n; i++)
			text_entry(&entries[i], linked, b);
	}
}
