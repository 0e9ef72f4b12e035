/* sarif.c - the sarif format: a SARIF 2.1.0 log for code scanning, with the rules the
 * findings use, their fingerprints, and the configuration's errors as notifications; its
 * levels (error, warning, note) are the severities' names */
#include "core/strmap.h"
#include "report/render.h"

#include <inttypes.h>

#include "rules/registry.h"

/* A SARIF message or multiformatMessageString with text only. */
static void sarif_text(jf_jsonw *w, const char *key, const char *text)
{
	jf_jsonw_pair(w, key, "text", text);
}

#define SARIF_SCHEMA                                                                       \
	"https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
void jf_sarif_start(jf_jsonw *w, jf_buf *b)
{
	jf_jsonw_start(w, b);
	jf_jsonw_str(w, "$schema", SARIF_SCHEMA);
	jf_jsonw_str(w, "version", "2.1.0");
	jf_jsonw_open(w, "runs", '[');
	jf_jsonw_open(w, NULL, '{');
	jf_jsonw_open(w, "tool", '{');
	jf_jsonw_open(w, "driver", '{');
	jf_jsonw_str(w, "name", "jobfix");
	jf_jsonw_str(w, "version", JF_VERSION);
	jf_jsonw_str(w, "semanticVersion", JF_VERSION);
	jf_jsonw_str(w, "informationUri", jf_homepage_url());
}

/* The key of jobfix's fingerprint in partialFingerprints; bump the version when
 * the way it is computed changes. */
#define SARIF_FINGERPRINT "jobfixLineHash/v1"

static void sarif_rule(jf_jsonw *w, const jf_rule *rule)
{
	const jf_rule_info *r = &rule->info;
	jf_buf t = JF_BUF_INIT, uri = JF_BUF_INIT;
	if (!rule->dir) /* a rule of a user's folder has no page of jobfix's */
		jf_rule_doc_uri(rule, &uri);
	jf_jsonw_open(w, NULL, '{');
	jf_jsonw_str(w, "id", r->id);
	jf_jsonw_str(w, "name", r->name);
	sarif_text(w, "shortDescription", r->summary);
	jf_buf_addf(&t, "%s (failure category: %s)", r->summary, r->category);
	sarif_text(w, "fullDescription", t.buf);
	/* The help is the rule's explanation, as `jobfix explain` prints it. */
	char *text = jf_rule_explain(r, JF_EXPLAIN_TEXT);
	char *markdown = jf_rule_explain(r, JF_EXPLAIN_MARKDOWN);
	jf_jsonw_open(w, "help", '{');
	jf_jsonw_str(w, "text", text ? text : r->help);
	jf_buf_truncate(&t, 0);
	if (markdown)
		jf_buf_adds(&t, markdown);
	else if (uri.len)
		jf_buf_addf(&t, "%s\n\n[%s %s](%s)", r->help, r->id, r->name, uri.buf);
	else
		jf_buf_adds(&t, r->help);
	jf_jsonw_str(w, "markdown", t.buf);
	jf_jsonw_close(w, '}');
	free(text);
	free(markdown);
	if (uri.len)
		jf_jsonw_str(w, "helpUri", uri.buf);
	jf_jsonw_pair(w, "defaultConfiguration", "level", jf_severity_name(r->severity));
	jf_jsonw_member(w, "properties");
	jf_buf_adds(w->b, "{\"tags\": [");
	jf_jsonw_quote(w->b, r->category);
	jf_buf_adds(w->b, "]}");
	jf_jsonw_close(w, '}');
	jf_buf_release(&t);
	jf_buf_release(&uri);
}

/* The file as a URI reference: relative as the path is shown, or file:///... */
static void sarif_artifact(jf_jsonw *w, const jf_source *src)
{
	jf_buf uri = JF_BUF_INIT;
	const char *path = src->path;
	if (path[0] == '/')
		jf_buf_adds(&uri, "file://");
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	jf_buf_add_uri_path(&uri, path);
	jf_jsonw_pair(w, "artifactLocation", "uri", uri.buf);
	jf_buf_release(&uri);
}

/* A physicalLocation with its region; columns count Unicode code points (the run
 * says so in columnKind), end just past the span, as in the JSON format. */
static void sarif_physical(jf_jsonw *w, const jf_source *src, jf_span span)
{
	jf_pos a = jf_source_pos(src, span.start), e = jf_source_pos(src, span.end);
	jf_jsonw_open(w, "physicalLocation", '{');
	sarif_artifact(w, src);
	jf_jsonw_member(w, "region");
	jf_buf_addf(w->b, "{\"startLine\": %u, \"startColumn\": %u, \"endLine\": %u, \"endColumn\": %u}",
	            a.line, a.col, e.line, e.col);
	jf_jsonw_close(w, '}');
}

/* FNV-1a, 64 bits. */
static uint64_t fnv1a(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3u;
	return h;
}

/*
 * What identifies a finding across runs, and across edits elsewhere in its
 * file: a hash of the rule id, the file as shown and the text of the line the
 * finding starts on, with leading and trailing white space dropped and inner
 * runs of it taken as one space.
 */
/* The keys of the findings on one line, by rule: a key hashes the whole line,
 * and a line may hold thousands of findings. */
typedef struct {
	const jf_source *src;
	uint32_t line;
	JF_ARRAY(struct line_key { const jf_rule *rule; uint64_t key; }) keys;
} line_keys;

static uint64_t line_key(const jf_diag *d);

static uint64_t finding_key(line_keys *cache, const jf_diag *d)
{
	uint32_t line = jf_source_line_of(d->src, d->span.start);
	if (cache->src != d->src || cache->line != line) {
		cache->src = d->src;
		cache->line = line;
		cache->keys.size = 0;
	}
	for (size_t i = 0; i < cache->keys.size; i++)
		if (cache->keys.items[i].rule == d->rule)
			return cache->keys.items[i].key;
	struct line_key k = { d->rule, line_key(d) };
	jf_array_push(&cache->keys, k);
	return k.key;
}

/* The rule, the file and the line's text with its runs of blanks as one. */
static uint64_t line_key(const jf_diag *d)
{
	const jf_source *s = d->src;
	uint64_t h = 0xcbf29ce484222325u;
	h = fnv1a(h, d->rule->info.id, strlen(d->rule->info.id) + 1);
	h = fnv1a(h, s->path, strlen(s->path) + 1);
	jf_span ls = jf_source_line_span(s, jf_source_line_of(s, d->span.start));
	bool text = false, gap = false;
	for (uint32_t i = ls.start; i < ls.end; i++) {
		char c = s->data[i];
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			gap = text;
			continue;
		}
		if (gap)
			h = fnv1a(h, " ", 1);
		gap = false;
		text = true;
		h = fnv1a(h, &c, 1);
	}
	return h;
}

/* A finding's message; help written for this finding goes on a second line
 * (the rule's own help is in its descriptor). */
static void sarif_message(jf_jsonw *w, const jf_diag *d)
{
	if (!d->help) {
		sarif_text(w, "message", d->message);
		return;
	}
	jf_buf t = JF_BUF_INIT;
	jf_buf_addf(&t, "%s\nhelp: %s", d->message, d->help);
	sarif_text(w, "message", t.buf);
	jf_buf_release(&t);
}

static void sarif_result(jf_jsonw *w, const jf_diag *d, size_t rule_index,
                         uint64_t fingerprint)
{
	jf_jsonw_open(w, NULL, '{');
	jf_jsonw_str(w, "ruleId", d->rule->info.id);
	jf_jsonw_uint(w, "ruleIndex", rule_index);
	jf_jsonw_str(w, "level", jf_severity_name(d->severity));
	sarif_message(w, d);
	jf_jsonw_open(w, "locations", '[');
	jf_jsonw_open(w, NULL, '{');
	sarif_physical(w, d->src, d->span);
	jf_jsonw_close(w, '}');
	jf_jsonw_close(w, ']');
	if (d->related.size) {
		jf_jsonw_open(w, "relatedLocations", '[');
		for (size_t k = 0; k < d->related.size; k++) {
			const jf_related *rel = &d->related.items[k];
			jf_jsonw_open(w, NULL, '{');
			jf_jsonw_uint(w, "id", k + 1);
			sarif_text(w, "message", rel->message);
			sarif_physical(w, rel->src, rel->span);
			jf_jsonw_close(w, '}');
		}
		jf_jsonw_close(w, ']');
	}
	char hex[17];
	snprintf(hex, sizeof hex, "%016" PRIx64, fingerprint);
	jf_jsonw_pair(w, "partialFingerprints", SARIF_FINGERPRINT, hex);
	if (d->category) /* the finding's own, where it differs by case from the rule's */
		jf_jsonw_pair(w, "properties", "category", d->category);
	jf_jsonw_close(w, '}');
}

/* A notification of the invocation: an error of the configuration, with its
 * place when it has one. */
static void sarif_notification(jf_jsonw *w, const jf_diag *d)
{
	jf_jsonw_open(w, NULL, '{');
	jf_jsonw_str(w, "level", "error");
	sarif_message(w, d);
	if (d->src) {
		jf_jsonw_open(w, "locations", '[');
		jf_jsonw_open(w, NULL, '{');
		sarif_physical(w, d->src, d->span);
		jf_jsonw_close(w, '}');
		jf_jsonw_close(w, ']');
	}
	jf_jsonw_close(w, '}');
}

/* A rule some result uses, with the level the config gives it (that of each of its results). */
typedef JF_ARRAY(struct used_rule {
	const jf_rule *rule;
	jf_severity level;
}) used_rules;

static void use_rule(used_rules *used, const jf_diag *d)
{
	for (size_t i = 0; i < used->size; i++)
		if (used->items[i].rule == d->rule)
			return;
	struct used_rule u = { d->rule, d->severity };
	jf_array_push(used, u);
}

static int cmp_used(const void *a, const void *b)
{
	return jf_rule_cmp(((const struct used_rule *)a)->rule, ((const struct used_rule *)b)->rule);
}

static size_t used_index(const used_rules *used, const jf_rule *rule)
{
	for (size_t i = 0; i < used->size; i++)
		if (used->items[i].rule == rule)
			return i;
	JF_BUG("rule '%s' of a result is not among the run's rules", rule->info.id);
}

/*
 * The SARIF log of `r`'s findings (NULL: none), or of the errors of jobfix's
 * configuration in `config_errors` (then nothing was linted: the invocation
 * failed, with each error a toolConfigurationNotification). With `s`, the
 * run's properties carry the statistics, and with the report's coverage, that.
 */
static void render_log(const jf_report *r, const jf_report *config_errors, const jf_stats *s,
                       jf_buf *b)
{
	static const jf_report none = { 0 };
	if (!r)
		r = &none;
	jf_jsonw w;
	jf_sarif_start(&w, b);
	/* The rules the results use, in id order: a result's ruleIndex is its
	 * rule's place in this list. */
	used_rules used = { 0 };
	for (size_t i = 0; i < r->diags.size; i++)
		use_rule(&used, &r->diags.items[i]);
	if (used.size)
		qsort(used.items, used.size, sizeof(*used.items), cmp_used);
	size_t overridden = 0;
	jf_jsonw_open(&w, "rules", '[');
	for (size_t i = 0; i < used.size; i++) {
		sarif_rule(&w, used.items[i].rule);
		overridden += used.items[i].level != used.items[i].rule->info.severity;
	}
	jf_jsonw_close(&w, ']');
	jf_jsonw_close(&w, '}');
	jf_jsonw_close(&w, '}');
	jf_jsonw_open(&w, "invocations", '[');
	jf_jsonw_open(&w, NULL, '{');
	bool failed = r->failures.size || (config_errors && config_errors->diags.size);
	jf_jsonw_member(&w, "executionSuccessful");
	jf_buf_adds(b, failed ? "false" : "true");
	if (overridden) {
		/* The config's `severity`: each rule whose level is not its default. */
		jf_jsonw_open(&w, "ruleConfigurationOverrides", '[');
		for (size_t i = 0; i < used.size; i++) {
			const jf_rule *rule = used.items[i].rule;
			if (used.items[i].level == rule->info.severity)
				continue;
			jf_jsonw_open(&w, NULL, '{');
			jf_jsonw_member(&w, "descriptor");
			jf_buf_adds(b, "{\"id\": ");
			jf_jsonw_quote(b, rule->info.id);
			jf_buf_addf(b, ", \"index\": %zu}", i);
			jf_jsonw_pair(&w, "configuration", "level",
			              jf_severity_name(used.items[i].level));
			jf_jsonw_close(&w, '}');
		}
		jf_jsonw_close(&w, ']');
	}
	if (config_errors && config_errors->diags.size) {
		jf_jsonw_open(&w, "toolConfigurationNotifications", '[');
		for (size_t i = 0; i < config_errors->diags.size; i++)
			sarif_notification(&w, &config_errors->diags.items[i]);
		jf_jsonw_close(&w, ']');
	}
	if (r->failures.size) {
		jf_jsonw_open(&w, "toolExecutionNotifications", '[');
		for (size_t i = 0; i < r->failures.size; i++) {
			jf_jsonw_open(&w, NULL, '{');
			jf_jsonw_str(&w, "level", "error");
			sarif_text(&w, "message", r->failures.items[i]);
			jf_jsonw_close(&w, '}');
		}
		jf_jsonw_close(&w, ']');
	}
	jf_jsonw_close(&w, '}');
	jf_jsonw_close(&w, ']');
	jf_jsonw_str(&w, "columnKind", "unicodeCodePoints");
	jf_jsonw_open(&w, "results", '[');
	/* A finding's fingerprint: its key and how many findings before it in the
	 * same file have the same key (diagnostics are sorted by file). */
	jf_strmap seen = JF_STRMAP_INIT; /* key -> findings with it so far in the file, + 1 */
	line_keys cache = { 0 };
	for (size_t i = 0; i < r->diags.size; i++) {
		const jf_diag *d = &r->diags.items[i];
		if (i && strcmp(r->diags.items[i - 1].src->path, d->src->path)) {
			jf_strmap_release(&seen);
			seen = (jf_strmap)JF_STRMAP_INIT;
		}
		uint64_t key = finding_key(&cache, d);
		uintptr_t count = (uintptr_t)jf_strmap_get(&seen, (const char *)&key, sizeof key);
		jf_strmap_put(&seen, (const char *)&key, sizeof key, (void *)(count ? count + 1 : 2));
		char n[16];
		int len = snprintf(n, sizeof n, ":%u", count ? (unsigned)(count - 1) : 0u);
		sarif_result(&w, d, used_index(&used, d->rule), fnv1a(key, n, (size_t)len));
	}
	jf_strmap_release(&seen);
	jf_array_release(&cache.keys);
	jf_array_release(&used);
	jf_jsonw_close(&w, ']');
	if (s || r->coverage) {
		jf_jsonw_open(&w, "properties", '{');
		if (s) {
			jf_jsonw_open(&w, "statistics", '{');
			jf_stats_json_members(s, &w);
			jf_jsonw_close(&w, '}');
		}
		if (r->coverage)
			jf_coverage_json_member(r->coverage, &w);
		jf_jsonw_close(&w, '}');
	}
	jf_jsonw_close(&w, '}');
	jf_jsonw_close(&w, ']');
	jf_jsonw_finish(&w);
}


void jf_render__sarif(const jf_report *r, jf_buf *out, bool color)
{
	(void)color;
	render_log(r, NULL, NULL, out);
}

void jf_render__sarif_errors(const jf_report *r, jf_buf *out, bool color)
{
	(void)color;
	render_log(NULL, r, NULL, out);
}

/* Code scanning needs the findings: the counts come with them. */
void jf_render__sarif_statistics(const jf_report *r, const jf_stats *s, jf_buf *out)
{
	render_log(r, NULL, s, out);
}
