/* crlf.c - JF401: scripts with Windows line endings, at the first line where a carriage return breaks them
 *
 * bash takes the carriage return before each newline as part of the line's
 * last word. Where that is harmless (a comment, a word whose value it does
 * not change), the script runs; the check reports the first line where it
 * breaks, and what happens there:
 *
 * - the #! line of a script the job runs by its path (`./run.sh`, also a
 *   Python script): "bad interpreter: No such file or directory";
 * - a line continuation `\` before the carriage return: it escapes the
 *   carriage return, the command ends there and the next line runs alone;
 * - a reserved word that ends a line (`then`, `do`, `fi`, ...): no keyword,
 *   and bash stops with a syntax error;
 * - `cd DIR`: the folder with the carriage return does not exist;
 * - the script a line runs, last on the line (`python train.py`, `bash
 *   run.sh`): its name with the carriage return does not exist;
 * - an option last on the line of a Python command: the script gets it with
 *   the carriage return, an option its parser does not define;
 * - a blank line under `set -e` (set on a line without a carriage return:
 *   `set -e` with one fails with "invalid option"): "$'\r': command not
 *   found" stops the script.
 *
 * A carriage return on other lines is not reported: bash prints an error, or
 * passes a value with a trailing \r, and goes on (whether the program
 * rejects the value is not judged).
 */
#include <ctype.h>

#include "rules/checks.h"

/* The words of line text `t` (n bytes, without the carriage return), split at
 * blanks; quotes are kept as written. At most `max` into `w`, with their offsets. */
static size_t split_line(const char *t, size_t n, const char **w, size_t *len, size_t max)
{
	size_t k = 0;
	for (size_t i = 0; i < n && k < max;) {
		while (i < n && (t[i] == ' ' || t[i] == '\t'))
			i++;
		if (i >= n)
			break;
		size_t a = i;
		while (i < n && t[i] != ' ' && t[i] != '\t')
			i++;
		w[k] = t + a;
		len[k++] = i - a;
	}
	return k;
}

static bool word_is(const char *w, size_t n, const char *s)
{
	return strlen(s) == n && !memcmp(w, s, n);
}

/* Whether line `t` (n bytes) turns errexit on: `set -e`, `set -eux`, `set -o errexit`. */
static bool sets_errexit(const char *t, size_t n)
{
	const char *w[16];
	size_t len[16];
	size_t k = split_line(t, n, w, len, 16);
	if (!k || !word_is(w[0], len[0], "set"))
		return false;
	for (size_t i = 1; i < k; i++) {
		if (len[i] > 1 && w[i][0] == '-' && w[i][1] != '-' && w[i][1] != 'o' &&
		    memchr(w[i], 'e', len[i]))
			return true;
		if (word_is(w[i], len[i], "-o") && i + 1 < k && word_is(w[i + 1], len[i + 1], "errexit"))
			return true;
	}
	return false;
}

/* Whether an invocation's script is named by the word that ends at byte `end` of `src`. */
static const jf_invocation *entry_ending_at(const jf_rule_ctx *ctx, const jf_source *src,
                                            uint32_t end)
{
	for (size_t i = 0; i < ctx->facts->shell.invocations.size; i++) {
		const jf_invocation *inv = &ctx->facts->shell.invocations.items[i];
		if (inv->script.src == src && inv->script.span.end == end && inv->script.value)
			return inv;
	}
	return NULL;
}

/*
 * What breaks at line `l` of `u`, which ends in a carriage return, as a
 * message into `msg`; false when the line runs as it would without it.
 */
static bool breaks(const jf_rule_ctx *ctx, const jf_file *u, uint32_t l, bool errexit,
                   jf_buf *msg)
{
	const jf_source *src = u->src;
	jf_span s = jf_source_line_span(src, l);
	const char *t = src->data + s.start;
	size_t n = s.end - s.start;
	while (n && (t[n - 1] == ' ' || t[n - 1] == '\t' || t[n - 1] == '\r'))
		n--;
	size_t lead = 0;
	while (lead < n && (t[lead] == ' ' || t[lead] == '\t'))
		lead++;
	if (l == 0 && n >= 2 && t[0] == '#' && t[1] == '!') {
		if (!u->run_by_path)
			return false; /* `bash run.sh`: the #! line is a comment */
		jf_buf_addf(msg, "the job runs the script by its path, and the kernel takes the "
		                 "carriage return as part of the interpreter's name: \"bad "
		                 "interpreter: No such file or directory\"");
		return true;
	}
	if (u->lang != JF_LANG_BASH || (lead < n && t[lead] == '#'))
		return false; /* a comment; a Python file's other lines */
	if (lead == n) {
		if (!errexit)
			return false; /* bash prints "$'\r': command not found" and goes on */
		jf_buf_addf(msg, "this blank line is a command to bash, \"$'\\r': command not "
		                 "found\", and `set -e` stops the script here");
		return true;
	}
	size_t slashes = 0;
	while (slashes < n && t[n - 1 - slashes] == '\\')
		slashes++;
	if (slashes % 2) {
		jf_buf_addf(msg, "the `\\` escapes the carriage return instead of joining the next "
		                 "line: the command ends here, without the words of line %u, which "
		                 "runs as a command of its own",
		            l + 2);
		return true;
	}
	const char *w[64];
	size_t len[64];
	size_t k = split_line(t, n, w, len, 64);
	const char *last = w[k - 1];
	size_t last_n = len[k - 1];
	static const char *const closers[] = { "then", "do", "else", "elif", "fi", "done", "esac",
		                               "{", "in", NULL };
	char kw[8] = "";
	if (last_n < sizeof kw)
		memcpy(kw, last, last_n), kw[last_n] = '\0';
	/* a reserved word where a command starts, or `case X in` */
	const char *p = last;
	while (p > t + lead && (p[-1] == ' ' || p[-1] == '\t'))
		p--;
	char before = p > t + lead ? p[-1] : ';';
	bool at_command = k == 1 || strchr(";&|)", before) != NULL;
	bool case_in = !strcmp(kw, "in") && word_is(w[0], len[0], "case");
	if (*kw && jf_str_in(kw, closers) && (at_command || case_in) &&
	    (strcmp(kw, "in") || case_in)) {
		jf_buf_addf(msg, "'%s' ends with the carriage return, which bash takes as part of the "
		                 "word: it is no keyword here, and bash stops with a syntax error",
		            kw);
		return true;
	}
	size_t first = 0;
	while (first < k && memchr(w[first], '=', len[first]) && w[first][0] != '-')
		first++; /* X=1 cmd */
	if (first < k && (word_is(w[first], len[first], "cd") || word_is(w[first], len[first], "pushd")) &&
	    first + 1 < k) {
		jf_buf_addf(msg, "cd fails: bash passes the folder with the carriage return as part of "
		                 "its name (\"No such file or directory\"), and the commands after it run "
		                 "in the folder before");
		return true;
	}
	uint32_t end = s.start + (uint32_t)(last - t + (ptrdiff_t)last_n);
	const jf_invocation *inv = entry_ending_at(ctx, src, end);
	bool runs_script = first < k &&
	                   ((first + 1 == k - 1 && (word_is(w[first], len[first], "bash") ||
	                                            word_is(w[first], len[first], "sh") ||
	                                            word_is(w[first], len[first], "source") ||
	                                            word_is(w[first], len[first], ".")) &&
	                     last_n > 3 && !memcmp(last + last_n - 3, ".sh", 3)) ||
	                    (first == k - 1 && memchr(last, '/', last_n)));
	if (inv || runs_script) {
		jf_buf_addf(msg, "'%.*s' is named with the carriage return as part of its name, and %s "
		                 "cannot open it (\"No such file or directory\")",
		            (int)last_n, last, inv ? "python" : "bash");
		return true;
	}
	/* the last word of a Python command is an option: with the carriage
	 * return, it is none the script defines */
	bool python = false;
	for (size_t j = first; j + 1 < k && !python; j++)
		python = (len[j] >= 6 && !memcmp(w[j], "python", 6)) || word_is(w[j], len[j], "torchrun") ||
		         word_is(w[j], len[j], "deepspeed") || word_is(w[j], len[j], "accelerate");
	if (python && last_n > 1 && last[0] == '-' && !isdigit((unsigned char)last[1])) {
		jf_buf_addf(msg, "the script is given '%.*s' with the carriage return at its end, which "
		                 "is no option it defines: its parser stops with \"unrecognized "
		                 "arguments\"",
		            (int)last_n, last);
		return true;
	}
	return false;
}

void jf_check_crlf(jf_rule_ctx *ctx, const jf_rule *rule)
{
	for (size_t i = 0; i < ctx->facts->ws->files.size; i++) {
		const jf_file *u = ctx->facts->ws->files.items[i];
		const jf_source *src = u->src;
		if ((u->lang != JF_LANG_BASH && !(u->lang == JF_LANG_PYTHON && u->run_by_path)) ||
		    !u->fs_path || src->status != JF_SOURCE_OK)
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
		bool errexit = false;
		for (uint32_t l = 0; l < src->nlines; l++) {
			jf_span s = jf_source_line_span(src, l);
			bool cr = s.end < src->len && src->data[s.end] == '\r';
			if (!cr) {
				errexit |= u->lang == JF_LANG_BASH && sets_errexit(src->data + s.start, s.end - s.start);
				continue;
			}
			jf_buf what = JF_BUF_INIT;
			if (breaks(ctx, u, l, errexit, &what)) {
				jf_sink_add(ctx->out, rule->info.id, src, s,
				            "%s has Windows line endings (CRLF) on %zu of %u lines: %s",
				            src->path, crlf, lines, what.buf);
				jf_buf_release(&what);
				break;
			}
			jf_buf_release(&what);
			if (u->lang != JF_LANG_BASH)
				break; /* a Python file: only its #! line matters */
		}
	}
}
