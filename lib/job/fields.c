/* fields.c - reading the values of a job file from YAML nodes, with their places */
#include <errno.h>
#include <stdlib.h>

#include "job/reader.h"

yaml_node_t *jf_job__node(const jf_job_read *r, int index)
{
	return jf_yml_node(r->doc, index);
}

jf_loc jf_job__loc(const jf_job_read *r, const yaml_node_t *n)
{
	return (jf_loc){ r->src, jf_yml_span(r->src, n) };
}

void jf_job__wrong_type(jf_job_read *r, const yaml_node_t *n, const char *key, const char *want)
{
	const char *s = jf_yml_scalar(n);
	jf_span at = jf_yml_span(r->src, n);
	if (s && !jf_yml_is_null(n))
		jf_sink_add(r->sink, JF003, r->src, at, "'%s' must be %s, not '%s'", key, want, s);
	else
		jf_sink_add(r->sink, JF003, r->src, at, "'%s' must be %s, not %s", key, want,
		            jf_yml_is_null(n) ? "empty" : jf_yml_type_name(n));
}

void jf_job__one_document(jf_job_read *r, const char *what)
{
	if (!r->docs || r->docs->size < 2)
		return;
	const yaml_mark_t *m = &r->docs->items[1].start_mark;
	uint32_t at = jf_source_byte_from_yaml(r->src, m->line, m->column);
	jf_diag_set_help(jf_sink_add(r->sink, JF001, r->src, (jf_span){ at, at },
	                             "a second YAML document: %s", what),
	                 "keep one job per file; remove the '---' and what follows, or move it "
	                 "to a file of its own");
}

void jf_job__unknown_key(jf_job_read *r, const yaml_node_t *k, const char *where,
                         const char *const *known)
{
	const char *name = jf_yml_scalar(k);
	const char *best = jf_yml_suggest(name, known);
	jf_diag *d = jf_sink_add(r->sink, JF002, r->src, jf_yml_span(r->src, k),
	                         "unknown key '%s' in %s", name ? name : "?", where);
	if (best)
		jf_diag_set_help(d, "did you mean '%s'?", best);
}

static void add_note(jf_job_read *r, jf_job_fact fact, bool assumed, const char *fmt, va_list ap)
	JF_PRINTF(4, 0);

static void add_note(jf_job_read *r, jf_job_fact fact, bool assumed, const char *fmt, va_list ap)
{
	jf_buf b = JF_BUF_INIT;
	jf_buf_vaddf(&b, fmt, ap);
	char *text = jf_buf_detach(&b, NULL);
	jf_arena_adopt(&r->job->arena, text);
	jf_array_push(&r->job->notes, ((jf_job_note){ fact, assumed, text }));
}

void jf_job__unknown(jf_job_read *r, jf_job_fact fact, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	add_note(r, fact, false, fmt, ap);
	va_end(ap);
}

void jf_job__assume(jf_job_read *r, jf_job_fact fact, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	add_note(r, fact, true, fmt, ap);
	va_end(ap);
}

char *jf_job__copy(jf_job_read *r, const char *s)
{
	return jf_arena_strdup(&r->job->arena, s);
}

bool jf_job__string(jf_job_read *r, const yaml_node_t *n, const char *key, jf_field *out)
{
	if (n->type != YAML_SCALAR_NODE || jf_yml_is_null(n)) {
		jf_job__wrong_type(r, n, key, "a string");
		return false;
	}
	out->value = jf_job__copy(r, jf_yml_scalar(n));
	out->at = jf_job__loc(r, n);
	return true;
}

bool jf_job__count(jf_job_read *r, const yaml_node_t *n, const char *key, long *out)
{
	const char *s = jf_yml_scalar(n);
	char *end = NULL;
	errno = 0;
	long v = s ? strtol(s, &end, 10) : -1;
	if (!s || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE || !*s || *end || v < 0 ||
	    errno == ERANGE) {
		jf_job__wrong_type(r, n, key, "a whole number (0 or more, unquoted)");
		return false;
	}
	*out = v;
	return true;
}

jf_job_accel *jf_job__accel(jf_job_read *r, const char *kind, jf_loc kind_at,
                            jf_accel_names names, long count, jf_loc at)
{
	jf_job_accel a = { { kind ? jf_job__copy(r, kind) : NULL, kind_at }, names, count, 0, at };
	jf_array_push(&r->job->accels, a);
	return jf_array_last(&r->job->accels);
}

uint64_t jf_job__bytes(const char *s)
{
	static const struct {
		const char *unit;
		uint64_t scale;
	} units[] = { { "KiB", 1ull << 10 }, { "Ki", 1ull << 10 }, { "MiB", 1ull << 20 },
		      { "Mi", 1ull << 20 },  { "GiB", 1ull << 30 }, { "Gi", 1ull << 30 },
		      { "TiB", 1ull << 40 }, { "Ti", 1ull << 40 },  { "KB", 1000ull },
		      { "K", 1000ull },      { "MB", 1000000ull },  { "M", 1000000ull },
		      { "GB", 1000000000ull }, { "G", 1000000000ull }, { "TB", 1000000000000ull },
		      { "T", 1000000000000ull } };
	if (!s || *s < '0' || *s > '9')
		return 0;
	char *end = NULL;
	errno = 0;
	unsigned long long whole = strtoull(s, &end, 10);
	uint64_t frac = 0, frac_div = 1;
	if (*end == '.') /* "1.5TiB" */
		for (end++; *end >= '0' && *end <= '9' && frac_div < 1000000; end++) {
			frac = frac * 10 + (uint64_t)(*end - '0');
			frac_div *= 10;
		}
	while (*end == ' ')
		end++;
	for (size_t i = 0; errno != ERANGE && i < sizeof units / sizeof *units; i++) {
		if (strcmp(end, units[i].unit))
			continue;
		uint64_t scale = units[i].scale;
		if (whole > UINT64_MAX / scale)
			return 0;
		return whole * scale + frac * scale / frac_div;
	}
	return 0;
}

void jf_job__each_pair(jf_job_read *r, yaml_node_t *n, const char *where,
                       const char *const *known, jf_job_pair_fn fn, void *data)
{
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *k = jf_job__node(r, p->key), *v = jf_job__node(r, p->value);
		const char *key = jf_yml_scalar(k);
		bool found = false;
		for (size_t i = 0; key && known[i]; i++)
			found |= !strcmp(known[i], key);
		if (!found || !fn(r, key, k, v, data))
			if (!found)
				jf_job__unknown_key(r, k, where, known);
	}
}

void jf_job__env_map(jf_job_read *r, yaml_node_t *n, const char *key, jf_job_value_fn value,
                     void *data)
{
	if (n->type != YAML_MAPPING_NODE) {
		jf_job__wrong_type(r, n, key, "a mapping of variable names to values");
		return;
	}
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *k = jf_job__node(r, p->key), *v = jf_job__node(r, p->value);
		if (!jf_yml_scalar(k))
			continue;
		if (v->type != YAML_SCALAR_NODE) {
			jf_job__wrong_type(r, v, jf_yml_scalar(k), "a string");
			continue;
		}
		const char *s = value ? value(v, data) : jf_yml_scalar(v);
		jf_job_var e = { { jf_job__copy(r, jf_yml_scalar(k)), jf_job__loc(r, k) },
			         { s ? jf_job__copy(r, s) : NULL, jf_job__loc(r, v) } };
		jf_array_push(&r->job->env, e);
	}
}

bool jf_job__value_ranges(const jf_source *src, const yaml_node_t *n, jf_cmd_unit *u)
{
	JF_ARRAY(jf_span) *out = (void *)&u->ranges;
	const char *value = (const char *)n->data.scalar.value;
	size_t vlen = n->data.scalar.length;
	uint32_t start = jf_source_byte_from_yaml(src, n->start_mark.line, n->start_mark.column);
	uint32_t end = jf_source_byte_from_yaml(src, n->end_mark.line, n->end_mark.column);
	yaml_scalar_style_t style = n->data.scalar.style;
	jf_buf seen = JF_BUF_INIT;
	bool folded = style == YAML_FOLDED_SCALAR_STYLE;
	bool ok = true;

	while (vlen && value[vlen - 1] == '\n')
		vlen--; /* the shell does not care for a last newline */
	if (style == YAML_SINGLE_QUOTED_SCALAR_STYLE || style == YAML_DOUBLE_QUOTED_SCALAR_STYLE) {
		if (end - start < 2 || memchr(src->data + start, '\n', end - start))
			return false;
		jf_array_push(out, ((jf_span){ start + 1, end - 1 }));
		jf_buf_add(&seen, src->data + start + 1, end - start - 2);
	} else if (style == YAML_PLAIN_SCALAR_STYLE) {
		folded = true;
		uint32_t a = start;
		for (uint32_t l = jf_source_line_of(src, start); a < end; l++) {
			jf_span ls = jf_source_line_span(src, l);
			uint32_t b = ls.end < end ? ls.end : end;
			if (a != start && (a >= b || src->data[a] != ' '))
				ok = false; /* a later line without indentation, or blank */
			jf_array_push(out, ((jf_span){ a, b }));
			if (seen.len)
				jf_buf_add(&seen, " ", 1);
			uint32_t k = a;
			while (k < b && src->data[k] == ' ')
				k++;
			jf_buf_add(&seen, src->data + k, b - k);
			if (l + 1 >= src->nlines)
				break;
			a = src->lines[l + 1];
		}
	} else {
		uint32_t line = jf_source_line_of(src, start) + 1;
		uint32_t indent = UINT32_MAX;
		for (uint32_t l = line; l < src->nlines && src->lines[l] < end; l++) {
			jf_span ls = jf_source_line_span(src, l);
			uint32_t k = ls.start;
			while (k < ls.end && src->data[k] == ' ')
				k++;
			if (k == ls.end) {
				if (folded && seen.len)
					ok = false; /* a blank line in a folded value is a newline */
				continue;
			}
			if (indent == UINT32_MAX)
				indent = k - ls.start;
			if (k - ls.start < indent)
				break;
			if (folded) {
				if (k - ls.start > indent || !indent)
					ok = false; /* a more indented line keeps its newline */
				uint32_t a = seen.len ? ls.start : ls.start + indent;
				jf_array_push(out, ((jf_span){ a, ls.end }));
				if (seen.len)
					jf_buf_add(&seen, " ", 1);
				jf_buf_add(&seen, src->data + k, ls.end - k);
			} else {
				uint32_t a = ls.start + indent;
				uint32_t b = l + 1 < src->nlines ? src->lines[l + 1] : src->len;
				if (b > end)
					b = end;
				jf_array_push(out, ((jf_span){ a, b }));
				jf_buf_add(&seen, src->data + a, b - a);
			}
		}
	}
	while (seen.len && (seen.buf[seen.len - 1] == '\n' || seen.buf[seen.len - 1] == ' '))
		seen.len--;
	size_t vl = vlen;
	while (vl && value[vl - 1] == ' ')
		vl--;
	ok = ok && out->size && seen.len == vl && !memcmp(seen.buf, value, vl);
	jf_buf_release(&seen);
	if (!ok)
		jf_array_release(out);
	return ok;
}


void jf_job__shell_unit(jf_job_read *r, const yaml_node_t *n)
{
	jf_cmd_unit u = { .kind = JF_CMD_SHELL, .at = jf_job__loc(r, n) };
	if (!jf_job__value_ranges(r->src, n, &u))
		u.copy = jf_source_from_value(r->src, u.at.span, (const char *)n->data.scalar.value,
		                              n->data.scalar.length);
	jf_array_push(&r->job->command, u);
}

void jf_job__text_unit(jf_job_read *r, jf_span span)
{
	jf_cmd_unit u = { .kind = JF_CMD_SHELL, .at = { r->src, span } };
	jf_array_push(&u.ranges, span);
	jf_array_push(&r->job->command, u);
}

/* Whether `word` runs a shell on its next words: sh, bash, /bin/sh, /usr/bin/env bash... */
static bool is_shell(const char *word)
{
	const char *base = strrchr(word, '/');
	base = base ? base + 1 : word;
	return !strcmp(base, "sh") || !strcmp(base, "bash") || !strcmp(base, "dash") ||
	       !strcmp(base, "zsh");
}

/* `-c`, or a cluster of single-letter options that holds c: `-lc`, `-ec`, `-xec`. */
static bool is_dash_c(const char *word)
{
	if (word[0] != '-' || word[1] == '-' || !strchr(word, 'c'))
		return false;
	for (const char *p = word + 1; *p; p++)
		if (!strchr("abcefhklmnpuvxBCEHPT", *p))
			return false;
	return true;
}

void jf_job__argv_unit(jf_job_read *r, yaml_node_t *const *words, size_t n, jf_loc at)
{
	size_t i = 0;
	/* `/usr/bin/env bash -c TEXT`: env only finds the shell */
	if (n > 1 && jf_yml_scalar(words[0]) && !strcmp(jf_yml_scalar(words[0]), "/usr/bin/env"))
		i = 1;
	/* `sh -c TEXT [NAME ARGS...]`: the text is the program. Its $0 and positional
	 * parameters are rare in jobs; the text alone is run. */
	for (size_t k = i; k < n; k++)
		if (!jf_yml_scalar(words[k]))
			goto argv; /* a word that is a list or mapping: not a command jobfix can follow */
	if (n >= i + 3 && is_shell(jf_yml_scalar(words[i])) && is_dash_c(jf_yml_scalar(words[i + 1]))) {
		jf_job__shell_unit(r, words[i + 2]);
		return;
	}
argv:;
	jf_cmd_unit u = { .kind = JF_CMD_ARGV, .at = at };
	for (size_t k = 0; k < n; k++) {
		const char *s = jf_yml_scalar(words[k]);
		jf_field f = { s ? jf_job__copy(r, s) : NULL, jf_job__loc(r, words[k]) };
		jf_array_push(&u.argv, f);
	}
	jf_array_push(&r->job->command, u);
}
