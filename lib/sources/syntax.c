/* syntax.c - JF301: Python and shell files that do not parse */
#include "sources/syntax.h"

#include "sources/tree.h"

/* The first ERROR or MISSING node in document order, or a null node. */
static TSNode first_error(TSNode n)
{
	TSNode none = { 0 };
	if (!ts_node_has_error(n))
		return none;
	if (ts_node_is_error(n) || ts_node_is_missing(n))
		return n;
	uint32_t count = ts_node_child_count(n);
	for (uint32_t i = 0; i < count; i++) {
		TSNode e = first_error(ts_node_child(n, i));
		if (!ts_node_is_null(e))
			return e;
	}
	return n; /* has_error without an error child: the node itself */
}

/* A coding declaration on line 1 or 2 (PEP 263) other than UTF-8. */
static bool declares_other_encoding(const jf_source *s)
{
	for (uint32_t l = 0; l < 2 && l < s->nlines; l++) {
		jf_span ls = jf_source_line_span(s, l);
		char line[256];
		snprintf(line, sizeof line, "%.*s", (int)(ls.end - ls.start), s->data + ls.start);
		char *c = strstr(line, "coding");
		if (line[0] == '#' && c && (c[6] == ':' || c[6] == '=')) {
			c += 7;
			while (*c == ' ')
				c++;
			return !jf_str_starts(c, "utf-8") && !jf_str_starts(c, "utf8") &&
			       !jf_str_starts(c, "UTF-8");
		}
	}
	return false;
}

/*
 * Where a shell text ends in a line continuation (`\` and then only blank
 * lines), the byte of that `\`; else UINT32_MAX. bash reads the
 * continuation as joining an empty line and runs the command; tree-sitter's
 * grammar reports an error after it.
 */
static uint32_t trailing_continuation(const jf_source *s, TSNode root)
{
	uint32_t i = ts_node_end_byte(root);
	if (i > s->len)
		i = s->len;
	while (i > 0 && (s->data[i - 1] == '\n' || s->data[i - 1] == ' ' ||
	                 s->data[i - 1] == '\t' || s->data[i - 1] == '\r'))
		i--;
	return i > 0 && s->data[i - 1] == '\\' ? i - 1 : UINT32_MAX;
}

void jf_syntax_check(jf_sink *sink, const jf_file *unit)
{
	const jf_source *s = unit->src;
	const char *lang = unit->lang == JF_LANG_PYTHON ? "Python" : "shell";
	if (unit->lang == JF_LANG_PYTHON && !declares_other_encoding(s)) {
		uint32_t bad = jf_source_invalid_utf8(s, 0);
		if (bad != UINT32_MAX) {
			jf_sink_add(sink, "JF301", unit->src, (jf_span){ bad, bad + 1 },
			              "invalid UTF-8 byte 0x%02x: Python reads source files as UTF-8",
			              (unsigned char)s->data[bad]);
			return;
		}
	}
	TSNode root = ts_tree_root_node(unit->tree);
	TSNode e = first_error(root);
	if (ts_node_is_null(e))
		return;
	if (ts_node_is_missing(e)) {
		uint32_t at = ts_node_start_byte(e);
		jf_sink_add(sink, "JF301", unit->src, (jf_span){ at, at }, "%s syntax error: missing '%s'",
		              lang, ts_node_type(e));
		return;
	}
	/* Point at the first token the parser could not place. */
	TSNode tok = e;
	while (ts_node_child_count(tok) > 0)
		tok = ts_node_child(tok, 0);
	jf_span span = jf_node_span(tok);
	if (unit->lang == JF_LANG_BASH && span.start >= trailing_continuation(s, root))
		return;
	char *text = jf_node_text(unit, tok);
	size_t n = strcspn(text, "\n");
	if (!n || n > 40) {
		jf_sink_add(sink, "JF301", unit->src, span, "%s syntax error", lang);
	} else {
		text[n] = '\0';
		jf_sink_add(sink, "JF301", unit->src, span, "%s syntax error: unexpected '%s'", lang, text);
	}
	free(text);
}
