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

/*
 * The grammars' gaps, each checked against the language's own parser:
 * - bash: what is inside a plain `${...}` (no quote, substitution or brace
 *   in it): bash checks its operators only when it expands it (`${A:$K+1}`,
 *   and even `${a b}`, a run-time "bad substitution"); tree-sitter-bash
 *   rejects some.
 * - bash: `NAME=<word` (an empty assignment, then a redirection: the
 *   `<placeholder>` of a template), which tree-sitter-bash rejects; bash
 *   fails only where a redirection has no word after it (below).
 * - bash: an escaped blank `\ ` at the end of a line (a word of one space).
 * - bash: a backquoted comment (`` `# a note` ``), which expands to nothing
 *   and is how a comment is put inside a command continued over lines;
 *   tree-sitter-bash reads the `#` as a comment to the end of the line.
 * - bash: a `$` just before the `)` or backquote that closes a command
 *   substitution (`$(echo a$)`) is a literal `$` to bash; tree-sitter-bash
 *   rejects it.
 * - Python: a starred `*(...)` or `*[...]` in an unparenthesised tuple
 *   (`return a, *(None,) * n`, valid since 3.8) is rejected by
 *   tree-sitter-python. Blanking the `*` leaves valid code valid (`a *(b)`
 *   becomes the call `a (b)`).
 */
static uint32_t open_quote_at_end(const char *t, uint32_t n);

/* bash's reserved words, as the first word of a command. */
static const char *const reserved[] = { "if", "then", "else", "elif", "fi", "case", "esac", "for",
	                                "select", "while", "until", "do", "done", "in", "function",
	                                "time", "{", "}", "!", "[[", "]]", NULL };

/*
 * The reserved word that starts the line at `i`, when the line before ends
 * in a line continuation (`\` and a newline) in the middle of a command's
 * words: bash joins the lines, and the word is one more word of that command,
 * not a keyword (`--device cpu \` and then `elif ...`). Its length, or 0.
 */
static size_t continued_keyword(const jf_source *src, uint32_t i)
{
	const char *t = src->data;
	if (i < 2 || t[i - 1] != '\n' || t[i - 2] != '\\')
		return 0;
	uint32_t bs = i - 2, k = bs;
	while (k > 0 && t[k - 1] == '\\')
		k--;
	if ((bs - k) % 2)
		return 0; /* `\\` and a newline: an escaped backslash ends the line */
	uint32_t w = i;
	while (w < src->len && (t[w] == ' ' || t[w] == '\t'))
		w++;
	size_t n = 0;
	while (w + n < src->len && !strchr(" \t\r\n;&|()<>", t[w + n]))
		n++;
	char *word = jf_xstrndup(t + w, n);
	bool kw = n && jf_str_in(word, reserved);
	free(word);
	if (!kw)
		return 0;
	/* the line before: its last word, before the `\`, is an argument, not an
	 * operator or a keyword after which a command starts */
	uint32_t e = bs;
	while (e > 0 && (t[e - 1] == ' ' || t[e - 1] == '\t'))
		e--;
	uint32_t b = e;
	while (b > 0 && !strchr(" \t\n", t[b - 1]))
		b--;
	if (e == b || strchr(";&|({", t[e - 1]))
		return 0;
	char *last = jf_xstrndup(t + b, e - b);
	bool starts_command = jf_str_in(last, reserved);
	free(last);
	uint32_t line = b;
	while (line > 0 && t[line - 1] != '\n')
		line--;
	for (uint32_t c = line; c < b && !starts_command; c++)
		starts_command = t[c] == '#' && (c == line || t[c - 1] == ' ' || t[c - 1] == '\t');
	if (starts_command || open_quote_at_end(t, bs) != UINT32_MAX)
		return 0; /* a comment's `\`, or one inside quotes */
	return w - i + n;
}

/* Blanks the continued keywords of `src` into *copy (made when needed). */
static void blank_continued_keywords(const jf_source *src, char **copy)
{
	for (uint32_t i = 2; i < src->len; i++) {
		if (src->data[i - 1] != '\n' || src->data[i - 2] != '\\')
			continue;
		size_t n = continued_keyword(src, i);
		if (!n)
			continue;
		if (!*copy) {
			*copy = jf_xmalloc(src->len + 1);
			memcpy(*copy, src->data, src->len + 1);
		}
		uint32_t w = i + (uint32_t)n - 1;
		while (w > i && !strchr(" \t", (*copy)[w - 1]))
			w--;
		(*copy)[w] = 'x';
	}
}

char *jf_syntax_continued_keywords_blanked(const jf_source *src)
{
	char *copy = NULL;
	blank_continued_keywords(src, &copy);
	return copy;
}

char *jf_syntax_gaps_blanked(const jf_source *src, jf_lang lang)
{
	char *copy = NULL;
	/* bash: a reserved word joined to the command before it by a line
	 * continuation is a plain word; tree-sitter-bash reads it as a keyword */
	if (lang == JF_LANG_BASH)
		blank_continued_keywords(src, &copy);
	for (uint32_t i = 0; lang == JF_LANG_BASH && i + 2 < src->len; i++) {
		if (src->data[i] != '$' || src->data[i + 1] != '{')
			continue;
		/* ${...} with no quote, substitution or nested brace inside: bash
		 * reads its operators when it expands it, not when it parses */
		uint32_t end = i + 2;
		while (end < src->len && !strchr("}{\"'`$(\n", src->data[end]))
			end++;
		/* `$K` inside (${A:$K+1}) is fine too */
		while (end + 1 < src->len && src->data[end] == '$' && src->data[end + 1] != '(' &&
		       src->data[end + 1] != '{') {
			end++;
			while (end < src->len && !strchr("}{\"'`$(\n", src->data[end]))
				end++;
		}
		if (end >= src->len || src->data[end] != '}' || end == i + 2)
			continue;
		if (!copy) {
			copy = jf_xmalloc(src->len + 1);
			memcpy(copy, src->data, src->len + 1);
		}
		memset(copy + i + 2, 'x', end - i - 2);
		i = end;
	}
	/* NAME=<word: an empty assignment, then a redirection from `word` (the
	 * `<placeholder>` of a template); tree-sitter-bash rejects it */
	for (uint32_t i = 1; lang == JF_LANG_BASH && i + 1 < src->len; i++) {
		if (src->data[i] != '<' || src->data[i - 1] != '=' || src->data[i + 1] == '(' ||
		    src->data[i + 1] == '<')
			continue;
		uint32_t k = i - 1;
		while (k > 0 && jf_is_name_char(src->data[k - 1]))
			k--;
		if (k == i - 1 || (k > 0 && !strchr(" \t\n;&|(", src->data[k - 1])) ||
		    (src->data[k] >= '0' && src->data[k] <= '9'))
			continue;
		if (!copy) {
			copy = jf_xmalloc(src->len + 1);
			memcpy(copy, src->data, src->len + 1);
		}
		copy[i] = ' ';
	}
	for (uint32_t i = 0; lang == JF_LANG_BASH && i + 1 < src->len; i++) {
		/* bash: `# ...` between backquotes on one line; blanked whole */
		if (src->data[i] != '`' || (i > 0 && src->data[i - 1] == '\\'))
			continue;
		uint32_t k = i + 1;
		while (k < src->len && (src->data[k] == ' ' || src->data[k] == '\t'))
			k++;
		if (k >= src->len || src->data[k] != '#')
			continue;
		while (k < src->len && src->data[k] != '`' && src->data[k] != '\n')
			k++;
		if (k >= src->len || src->data[k] != '`')
			continue;
		if (!copy) {
			copy = jf_xmalloc(src->len + 1);
			memcpy(copy, src->data, src->len + 1);
		}
		memset(copy + i, ' ', k - i + 1);
		i = k;
	}
	for (uint32_t i = 0; i + 1 < src->len; i++) {
		char c = src->data[i], next = src->data[i + 1];
		/* bash: `\ ` (an escaped blank) ending a line, which tree-sitter-bash
		 * rejects before a line starting with `(`; blanked to a plain word */
		bool escaped_blank = lang == JF_LANG_BASH && c == '\\' && next == ' ' &&
		                     i + 2 + strspn(src->data + i + 2, " \t") < src->len &&
		                     src->data[i + 2 + strspn(src->data + i + 2, " \t")] == '\n' &&
		                     (i == 0 || src->data[i - 1] != '\\');
		if (escaped_blank) {
			if (!copy) {
				copy = jf_xmalloc(src->len + 1);
				memcpy(copy, src->data, src->len + 1);
			}
			copy[i] = copy[i + 1] = 'x';
			continue;
		}
		bool gap = lang == JF_LANG_BASH
		                   ? c == '$' && (next == ')' || next == '`')
		                   : lang == JF_LANG_PYTHON && c == '*' && (next == '(' || next == '[') &&
		                             (i == 0 || src->data[i - 1] != '*');
		if (!gap)
			continue;
		if (!copy) {
			copy = jf_xmalloc(src->len + 1);
			memcpy(copy, src->data, src->len + 1);
		}
		copy[i] = ' ';
	}
	return copy;
}

/* The shell a `#!` first line names when it is not bash or a POSIX sh
 * bash reads alike (`#!/usr/bin/env zsh`): "zsh"; NULL otherwise. */
static char *other_shell(const jf_source *s)
{
	if (s->len < 2 || s->data[0] != '#' || s->data[1] != '!')
		return NULL;
	jf_span l = jf_source_line_span(s, 0);
	const char *p = s->data + l.start + 2, *end = s->data + l.end;
	/* the program, and for `env [-opts]` the first word after it */
	const char *base = NULL;
	for (bool env = false; p < end;) {
		while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		const char *w = p;
		while (p < end && *p != ' ' && *p != '\t' && *p != '\r')
			p++;
		if (w == p)
			break;
		const char *b = w;
		for (const char *q = w; q < p; q++)
			if (*q == '/')
				b = q + 1;
		if (!env && (size_t)(p - b) == 3 && !memcmp(b, "env", 3)) {
			env = true;
		} else if (!env || *w != '-') {
			base = b;
			break;
		}
	}
	if (!base)
		return NULL;
	char *name = jf_xstrndup(base, strcspn(base, " \t\r\n"));
	static const char *const bash_like[] = { "bash", "sh", "dash", "ash", "busybox", NULL };
	if (jf_str_in(name, bash_like) || jf_str_starts(name, "bash")) {
		free(name);
		return NULL;
	}
	return name;
}

/*
 * Where the quote that is still open at the end of shell text `t` (n bytes)
 * starts, as bash reads quotes: '...', "..." (backslash escapes; $(...),
 * ${...} and `...` inside start a quoting of their own), $'...', `#`
 * comments, backslash escapes and here-documents (their bodies are not
 * quoted text). UINT32_MAX when every quote is closed.
 */
static uint32_t open_quote_at_end(const char *t, uint32_t n)
{
	enum { PLAIN, SINGLE, DOUBLE, ANSI, BACKQUOTE } ctx[64];
	uint32_t opened[64];
	int paren[64]; /* in PLAIN: the depth of ( inside a $( ... ) context; -1 at the top */
	int top = 0;
	ctx[0] = PLAIN;
	paren[0] = -1;
	opened[0] = UINT32_MAX;
	char heredoc[64] = "";
	bool pending = false, strip_tabs = false;
	for (uint32_t i = 0; i < n; i++) {
		char c = t[i];
		if (c == '\n' && pending) { /* the here-document's body: up to its delimiter line */
			pending = false;
			size_t dl = strlen(heredoc);
			for (uint32_t l = i + 1; l < n;) {
				uint32_t e = l;
				while (e < n && t[e] != '\n')
					e++;
				uint32_t b = l;
				while (strip_tabs && b < e && t[b] == '\t')
					b++;
				if (e - b == dl && !memcmp(t + b, heredoc, dl)) {
					i = e - 1;
					break;
				}
				i = e - 1;
				l = e + 1;
			}
			continue;
		}
		switch (ctx[top]) {
		case SINGLE:
			if (c == '\'')
				top--;
			continue;
		case ANSI:
			if (c == '\\')
				i++;
			else if (c == '\'')
				top--;
			continue;
		case DOUBLE:
		case BACKQUOTE:
			if (c == '\\') {
				i++;
			} else if (c == (ctx[top] == DOUBLE ? '"' : '`')) {
				top--;
			} else if (c == '$' && i + 1 < n && (t[i + 1] == '(' || t[i + 1] == '{') && top < 62) {
				top++;
				ctx[top] = PLAIN;
				paren[top] = 0;
				opened[top] = i++;
			} else if (c == '`' && top < 62) {
				ctx[++top] = BACKQUOTE;
				opened[top] = i;
				paren[top] = -1;
			}
			continue;
		case PLAIN:
			break;
		}
		if (c == '\\') {
			i++;
		} else if (c == '#' && (i == 0 || strchr(" \t\n;&|(", t[i - 1]))) {
			while (i + 1 < n && t[i + 1] != '\n')
				i++;
		} else if ((c == '\'' || c == '"' || c == '`') && top < 62) {
			bool ansi = c == '\'' && i > 0 && t[i - 1] == '$';
			ctx[++top] = c == '"' ? DOUBLE : c == '`' ? BACKQUOTE : ansi ? ANSI : SINGLE;
			opened[top] = i;
			paren[top] = -1;
		} else if ((c == '(' || c == '{') && paren[top] >= 0) {
			paren[top]++;
		} else if ((c == ')' || c == '}') && paren[top] >= 0) {
			if (paren[top]-- == 0)
				top--;
		} else if (c == '$' && i + 1 < n && (t[i + 1] == '(' || t[i + 1] == '{') && top < 62) {
			ctx[++top] = PLAIN;
			paren[top] = 0;
			opened[top] = i++;
		} else if (c == '<' && i + 2 < n && t[i + 1] == '<' && t[i + 2] != '<' && !pending) {
			uint32_t k = i + 2;
			strip_tabs = k < n && t[k] == '-';
			k += strip_tabs;
			while (k < n && (t[k] == ' ' || t[k] == '\t'))
				k++;
			size_t dl = 0;
			while (k < n && dl + 1 < sizeof heredoc && !strchr(" \t\n;&|<>()", t[k])) {
				if (t[k] != '\'' && t[k] != '"' && t[k] != '\\')
					heredoc[dl++] = t[k];
				k++;
			}
			heredoc[dl] = '\0';
			pending = dl > 0;
			i = k - 1;
		}
	}
	for (int k = top; k > 0; k--)
		if (ctx[k] != PLAIN)
			return opened[k];
	return UINT32_MAX;
}

/*
 * The first redirection with no word on its line (`X=<path>` and then a
 * newline: bash stops with "syntax error near unexpected token `newline'");
 * tree-sitter-bash takes the next line's words as its file. A null node
 * when there is none.
 */
static TSNode redirect_without_file(const jf_source *s, TSNode root)
{
	TSTreeCursor cur = ts_tree_cursor_new(root);
	TSNode found = { 0 };
	for (bool more = true; more && ts_node_is_null(found);) {
		TSNode n = ts_tree_cursor_current_node(&cur);
		if (jf_node_type_is(n, JF_T_file_redirect)) {
			TSNode dest = jf_node_field(n, JF_F_destination);
			uint32_t from = ts_node_start_byte(n), to = ts_node_is_null(dest)
			                                                  ? ts_node_end_byte(n)
			                                                  : ts_node_start_byte(dest);
			while (from < to && from < s->len && strchr("<>&|0123456789", s->data[from]))
				from++; /* the operator */
			for (uint32_t i = from; i < to && i < s->len && ts_node_is_null(found); i++)
				if (s->data[i] == '\n' && (i == 0 || s->data[i - 1] != '\\'))
					found = n;
		}
		if (ts_tree_cursor_goto_first_child(&cur))
			continue;
		while (!ts_tree_cursor_goto_next_sibling(&cur))
			if (!ts_tree_cursor_goto_parent(&cur)) {
				more = false;
				break;
			}
	}
	ts_tree_cursor_delete(&cur);
	return found;
}

/*
 * The first command whose name is a reserved word that closes or continues
 * a compound command (then, elif, else, fi, do, done, esac): bash reads a
 * reserved word at the start of a command as the keyword, which does not
 * fit there ("syntax error near unexpected token `then'"); tree-sitter-bash
 * lexes keywords by context and takes it for a program's name. A null node
 * when there is none.
 */
static TSNode keyword_as_command(const jf_source *s, TSNode root)
{
	static const char *const closers[] = { "then", "elif", "else", "fi", "do", "done", "esac",
		                               NULL };
	TSTreeCursor cur = ts_tree_cursor_new(root);
	TSNode found = { 0 };
	for (bool more = true; more && ts_node_is_null(found);) {
		TSNode n = ts_tree_cursor_current_node(&cur);
		if (jf_node_type_is(n, JF_T_command_name)) {
			TSNode w = ts_node_named_child(n, 0);
			uint32_t a = ts_node_start_byte(w), b = ts_node_end_byte(w);
			if (jf_node_type_is(w, JF_T_word) && b > a && b - a < 8 && b <= s->len) {
				char word[8];
				memcpy(word, s->data + a, b - a);
				word[b - a] = '\0';
				if (jf_str_in(word, closers))
					found = w;
			}
		}
		if (ts_tree_cursor_goto_first_child(&cur))
			continue;
		while (!ts_tree_cursor_goto_next_sibling(&cur))
			if (!ts_tree_cursor_goto_parent(&cur)) {
				more = false;
				break;
			}
	}
	ts_tree_cursor_delete(&cur);
	return found;
}

/* The last reserved word before `before` that a line continuation joins to
 * the command before it, or UINT32_MAX. */
static uint32_t continued_keyword_before(const jf_source *s, uint32_t before)
{
	uint32_t at = UINT32_MAX;
	for (uint32_t i = 2; i < before && i < s->len; i++)
		if (s->data[i - 1] == '\n' && s->data[i - 2] == '\\' && continued_keyword(s, i)) {
			at = i;
			while (s->data[at] == ' ' || s->data[at] == '\t')
				at++;
		}
	return at;
}

/* A shell file's syntax error at byte `at`: bash runs none of its commands from there on. */
static void mark_error(jf_file *unit, uint32_t at)
{
	if (unit->lang != JF_LANG_BASH)
		return;
	unit->syntax_error = true;
	unit->syntax_error_at = at;
}

/* When a reserved word that a line continuation joins to the command
 * before it comes before `at`, the error bash reports at `at`: says so on `d`. */
static void relate_continuation(jf_diag *d, const jf_source *s, uint32_t at)
{
	uint32_t cont = continued_keyword_before(s, at);
	if (!d || cont == UINT32_MAX)
		return;
	size_t n = strcspn(s->data + cont, " \t\r\n;&|()<>");
	char *kw = jf_xstrndup(s->data + cont, n);
	jf_diag_relate(d, s, (jf_span){ cont, cont + (uint32_t)n },
	               "the `\\` at the end of line %u joins '%s' to the command before it, as one "
	               "more of its words, not a keyword",
	               jf_source_line_of(s, cont), kw);
	jf_diag_set_help(d, "end the command before '%s' without a `\\`", kw);
	free(kw);
}

void jf_syntax_check(jf_sink *sink, jf_file *unit, TSTree *blanked)
{
	const jf_source *s = unit->src;
	const char *lang = unit->lang == JF_LANG_PYTHON ? "Python" : "shell";
	char *shell = unit->lang == JF_LANG_BASH ? other_shell(s) : NULL;
	if (shell) {
		char *why = jf_xasprintf("%s: its #! line names %s, whose syntax is not bash's: it "
		                         "is not checked",
		                         s->path, shell);
		jf_arena_adopt(&unit->arena, why);
		unit->syntax_unchecked = why;
		free(shell);
		return;
	}
	if (unit->lang == JF_LANG_PYTHON && !declares_other_encoding(s)) {
		uint32_t bad = jf_source_invalid_utf8(s, 0);
		if (bad != UINT32_MAX) {
			jf_sink_add(sink, JF301, unit->src, (jf_span){ bad, bad + 1 },
			              "invalid UTF-8 byte 0x%02x: Python reads source files as UTF-8",
			              (unsigned char)s->data[bad]);
			return;
		}
	}
	TSNode root = ts_tree_root_node(blanked ? blanked : unit->tree);
	TSNode e = first_error(root);
	/* Checked only where the grammar found an error: the one bash finds may be earlier. */
	TSNode r = unit->lang == JF_LANG_BASH && ts_node_has_error(ts_tree_root_node(unit->tree))
	                   ? redirect_without_file(s, root)
	                   : (TSNode){ 0 };
	if (!ts_node_is_null(r) && (ts_node_is_null(e) || ts_node_start_byte(r) < ts_node_start_byte(e))) {
		uint32_t at = ts_node_start_byte(r);
		mark_error(unit, at);
		jf_sink_add(sink, JF301, unit->src, (jf_span){ at, at + 1 },
		            "shell syntax error: a redirection with no file after it on its line "
		            "(bash: unexpected token `newline')");
		return;
	}
	if (ts_node_is_null(e) && unit->lang == JF_LANG_BASH) {
		TSNode k = keyword_as_command(s, root);
		if (ts_node_is_null(k))
			return;
		uint32_t at = ts_node_start_byte(k);
		char *word = jf_xstrndup(s->data + at, ts_node_end_byte(k) - at);
		jf_diag *d = jf_sink_add(sink, JF301, unit->src, jf_node_span(k),
		                         "shell syntax error: unexpected '%s' (bash: syntax error near "
		                         "unexpected token `%s')",
		                         word, word);
		relate_continuation(d, s, at);
		free(word);
		mark_error(unit, at);
		return;
	}
	if (ts_node_is_null(e))
		return;
	/* A quote left open: bash reads to the end of the file looking for its
	 * match, and reports the line the quote opens. */
	uint32_t end = s->len;
	while (end > 0 && strchr("\n\r \t", s->data[end - 1]))
		end--;
	/* (the whole file: a script, not a command in a job file's YAML) */
	bool whole = ts_node_end_byte(root) >= end && (unit->fs_path || !ts_node_start_byte(root));
	uint32_t quote = unit->lang == JF_LANG_BASH && whole ? open_quote_at_end(s->data, s->len)
	                                                     : UINT32_MAX;
	if (quote != UINT32_MAX) {
		mark_error(unit, quote);
		jf_diag_set_help(
			jf_sink_add(sink, JF301, unit->src, (jf_span){ quote, quote + 1 },
			            "shell syntax error: this %c is never closed: bash reads to the end "
			            "of the file looking for its match (unexpected EOF)",
			            s->data[quote]),
			"close it; if it looks closed, a string above it lacks its closing quote, and "
			"every quote after that one pairs with the next");
		return;
	}
	if (ts_node_is_missing(e)) {
		uint32_t at = ts_node_start_byte(e);
		mark_error(unit, at);
		jf_diag *d = jf_sink_add(sink, JF301, unit->src, (jf_span){ at, at },
		                         "%s syntax error: missing '%s'", lang, ts_node_type(e));
		if (unit->lang == JF_LANG_BASH)
			relate_continuation(d, s, at);
		return;
	}
	/* Point at the first token the parser could not place. */
	TSNode tok = e;
	while (ts_node_child_count(tok) > 0)
		tok = ts_node_child(tok, 0);
	jf_span span = jf_node_span(tok);
	if (unit->lang == JF_LANG_BASH && span.start >= trailing_continuation(s, root))
		return;
	mark_error(unit, span.start);
	char *text = jf_xstrndup(s->data + span.start, span.end - span.start);
	size_t n = strcspn(text, "\n");
	jf_diag *d;
	if (!n || n > 40) {
		d = jf_sink_add(sink, JF301, unit->src, span, "%s syntax error", lang);
	} else {
		text[n] = '\0';
		d = jf_sink_add(sink, JF301, unit->src, span, "%s syntax error: unexpected '%s'", lang, text);
	}
	if (unit->lang == JF_LANG_BASH)
		relate_continuation(d, s, span.start);
	free(text);
}
