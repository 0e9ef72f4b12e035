/* triage.c - jf_triage: the logs of failed jobs, read, linked to the job's code and findings */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linter.h"
#include "triage/output.h"

struct jf_triage {
	JF_ARRAY(jf_triage_entry) entries;
	bool linked;
	char *basis; /* jf_triage_line_basis()'s last */
};

jf_triage *jf_triage_new(void)
{
	return jf_xcalloc(1, sizeof(jf_triage));
}

void jf_triage_free(jf_triage *self)
{
	if (!self)
		return;
	for (size_t i = 0; i < self->entries.size; i++)
		jf_triage_entry_release(&self->entries.items[i]);
	jf_array_release(&self->entries);
	free(self->basis);
	free(self);
}

int jf_triage_read(jf_triage *self, const char *path)
{
	jf_triage_entry e = { 0 };
	jf_triage_analyze(path, &e.r);
	jf_array_push(&self->entries, e);
	return e.r.error ? JF_EIO : 0;
}

const char *jf_triage_error(const jf_triage *self)
{
	return self->entries.size ? self->entries.items[self->entries.size - 1].r.error : NULL;
}

const char *jf_triage_line_basis(jf_triage *self, size_t i)
{
	if (i >= self->entries.size)
		return NULL;
	const jf_triage_result *r = &self->entries.items[i].r;
	const char *log = strcmp(r->log, "-") ? r->log : "<stdin>";
	free(self->basis);
	if (r->error)
		self->basis = jf_xasprintf("%s: not read: %s", log, r->error);
	else if (!r->found)
		self->basis = jf_xasprintf(
			"%s: no line reads as a failure: none matches a pattern of data/triage.yaml, none "
			"is an exception line, none has an error word (error, exception, fail, fatal, "
			"abort, killed, denied, refused, timed out, core dumped, crash, no such file, not "
			"found, unrecognized, rejected, invalid, cannot, unable to, exceeded, assert) "
			"outside a warning or a progress bar",
			log);
	else if (r->pattern)
		self->basis = jf_xasprintf("%s:%" PRIu64 ": matches pattern %s (data/triage.yaml:%u)",
		                           log, r->line, r->pattern->id, r->pattern->line);
	else
		self->basis = jf_xasprintf(
			"%s:%" PRIu64 ": no pattern of data/triage.yaml knows this line (nor any but a "
			"launcher's wrapper line, which tells less); it is %s",
			log, r->line,
			r->basis == JF_BASIS_TRACEBACK_END ? "the last exception line a traceback ends with"
			: r->basis == JF_BASIS_EXCEPTION   ? "the last exception line (with no traceback)"
			                                   : "the last line with an error word, not a "
			                                     "warning's or a progress bar's");
	return self->basis;
}

int jf_triage_verdict(const jf_triage *self)
{
	int verdict = JF_TRIAGE_RETRY;
	for (size_t i = 0; i < self->entries.size; i++) {
		const jf_triage_result *r = &self->entries.items[i].r;
		if (!r->error && r->found && r->retry == JF_RETRY_NO)
			return JF_TRIAGE_NO_RETRY;
		if (r->error || !r->found || !r->pattern || !strcmp(r->category->name, "Unknown"))
			verdict = JF_TRIAGE_UNKNOWN;
	}
	return verdict;
}

int jf_triage_write(jf_triage *self, FILE *out, jf_format format)
{
	const char *name = format == JF_FORMAT_JSON    ? "json"
	                   : format == JF_FORMAT_SARIF ? "sarif"
	                   : format == JF_FORMAT_TEXT  ? "text"
	                                               : NULL;
	if (!name || (format == JF_FORMAT_SARIF && !self->linked))
		return JF_ERROR;
	jf_buf b = JF_BUF_INIT;
	jf_triage_render(self->entries.items, self->entries.size, self->linked, name, &b);
	size_t n = fwrite(b.buf, 1, b.len, out);
	int rc = n == b.len ? 0 : JF_EIO;
	jf_buf_release(&b);
	return rc;
}

/* Linking to the job */

/* The folders a traceback's file may be relative to: the job's folder and those above it,
 * up to the repository's top (the folder with .git) or the file system's root. */
static void code_roots(const char *job, jf_strings *roots)
{
	char *real = realpath(job, NULL);
	if (!real)
		return;
	char *slash = strrchr(real, '/');
	if (slash)
		*(slash == real ? slash + 1 : slash) = '\0';
	for (;;) {
		jf_array_push(roots, jf_xstrdup(real));
		char *git = jf_xasprintf("%s/.git", real);
		struct stat st;
		bool top = lstat(git, &st) == 0;
		free(git);
		slash = strrchr(real, '/');
		if (top || !slash || slash == real)
			break;
		*slash = '\0';
	}
	free(real);
}

/* `path` as shown: relative to the current folder when it is below it. */
static char *shown(const char *path)
{
	char cwd[PATH_MAX];
	if (getcwd(cwd, sizeof cwd)) {
		size_t n = strlen(cwd);
		if (!strncmp(path, cwd, n) && path[n] == '/')
			return jf_xstrdup(path + n + 1);
	}
	return jf_xstrdup(path);
}

/* The job's file a traceback's file is: the longest tail of its path found below a root. */
static char *find_code_file(const char *frame, const jf_strings *roots)
{
	if (jf_triage_library_file(frame))
		return NULL;
	const char *tail = frame;
	while (*tail == '/')
		tail++;
	for (;;) {
		for (size_t i = 0; i < roots->size; i++) {
			char *p = jf_xasprintf("%s/%s", roots->items[i], tail);
			struct stat st;
			if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
				char *real = realpath(p, NULL);
				free(p);
				char *s = shown(real ? real : frame);
				free(real);
				return s;
			}
			free(p);
		}
		const char *next = strchr(tail, '/');
		if (!next)
			return NULL;
		tail = next + 1;
	}
}

static bool same_file(const jf_source *src, const char *path)
{
	struct stat a, b;
	return src->fs_path && stat(src->fs_path, &a) == 0 && stat(path, &b) == 0 &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* What the failure message names: --flags, quoted text. */
static void subjects(const char *message, jf_strings *out)
{
	for (const char *p = message; *p; p++) {
		if (p[0] == '-' && p[1] == '-' && (p == message || p[-1] == ' ' || p[-1] == '\'')) {
			const char *e = p + 2;
			while (*e && (jf_is_name_char(*e) || *e == '-'))
				e++;
			if (e - p > 3)
				jf_array_push(out, jf_xstrndup(p, (size_t)(e - p)));
			p = e - 1;
		} else if (*p == '\'' || *p == '"') {
			const char *e = strchr(p + 1, *p);
			if (!e)
				break;
			if (e - p - 1 >= 3 && e - p - 1 <= 200)
				jf_array_push(out, jf_xstrndup(p + 1, (size_t)(e - p - 1)));
			p = e;
		}
	}
}

static void set_finding(jf_triage_entry *e, const jf_diag *d)
{
	const jf_rule_info *info = jf_rule_info_of(d->rule);
	e->has_finding = true;
	e->finding.rule = info->id;
	e->finding.name = info->name;
	e->finding.severity = jf_severity_name(d->severity);
	e->finding.file = jf_xstrdup(d->src->path);
	jf_pos pos = jf_source_pos(d->src, d->span.start);
	e->finding.line = pos.line;
	e->finding.column = pos.col;
	e->finding.message = jf_xstrdup(d->message);
}

/* The finding of `report` for entry `e`: one at the job's line of the user frame, else one
 * naming what the failure names; of the failure's category either way. */
static void link_finding(jf_triage_entry *e, const jf_report *report)
{
	const jf_triage_result *r = &e->r;
	if (!r->found || !r->category)
		return;
	jf_strings subj = { 0 };
	subjects(r->message, &subj);
	const jf_diag *by_line = NULL, *by_subject = NULL;
	for (size_t i = 0; i < report->diags.size; i++) {
		const jf_diag *d = &report->diags.items[i];
		const char *cat = d->rule ? jf_diag_category(d) : NULL;
		if (!cat || strcmp(cat, r->category->name))
			continue;
		if (!by_line && e->code_file && jf_source_pos(d->src, d->span.start).line == e->code_line &&
		    same_file(d->src, e->code_file))
			by_line = d;
		for (size_t k = 0; !by_subject && k < subj.size; k++)
			if (strstr(d->message, subj.items[k]))
				by_subject = d;
	}
	if (by_line || by_subject)
		set_finding(e, by_line ? by_line : by_subject);
	jf_strings_release(&subj);
}

int jf_triage_link(jf_triage *self, jf_linter *linter, const char *job)
{
	int rc = jf_linter_lint(linter, job);
	self->linked = true;
	jf_report_finish(&linter->report);
	jf_strings roots = { 0 };
	code_roots(job, &roots);
	for (size_t i = 0; i < self->entries.size; i++) {
		jf_triage_entry *e = &self->entries.items[i];
		if (e->r.has_frame && (e->code_file = find_code_file(e->r.frame.file, &roots)))
			e->code_line = e->r.frame.line;
		link_finding(e, &linter->report);
	}
	jf_strings_release(&roots);
	return rc;
}
