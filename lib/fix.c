/* fix.c - jf_linter_fix(): the findings' exact replacements, written into their files or
 * shown as a unified diff */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linter.h"

#define CONTEXT 3u /* lines of context around a change in the diff */

typedef struct {
	const jf_source *src;
	jf_span span;
	const char *text;
	size_t order; /* among all edits: the first of two that overlap wins */
} edit;

typedef JF_ARRAY(edit) edits;

static int by_place(const void *pa, const void *pb)
{
	const edit *a = pa, *b = pb;
	int c = strcmp(a->src->fs_path, b->src->fs_path);
	if (c)
		return c;
	if (a->span.start != b->span.start)
		return a->span.start < b->span.start ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

/* `src`'s text with edits e[0..n) (sorted, not overlapping) applied to bytes [from, to). */
static void apply_range(jf_buf *out, const jf_source *src, const edit *e, size_t n, uint32_t from,
                        uint32_t to)
{
	uint32_t at = from;
	for (size_t i = 0; i < n; i++) {
		if (e[i].span.start < from || e[i].span.end > to)
			continue;
		jf_buf_add(out, src->data + at, e[i].span.start - at);
		jf_buf_adds(out, e[i].text);
		at = e[i].span.end;
	}
	jf_buf_add(out, src->data + at, to - at);
}

static uint32_t line_start(const jf_source *src, uint32_t line)
{
	return line < src->nlines ? src->lines[line] : src->len;
}

/* Writes lines [first, last] of text `t` (`n` bytes) with `mark` before each. */
static void put_lines(jf_buf *b, char mark, const char *t, size_t n)
{
	for (size_t i = 0; i < n;) {
		const char *nl = memchr(t + i, '\n', n - i);
		size_t len = nl ? (size_t)(nl - (t + i)) + 1 : n - i;
		jf_buf_addc(b, mark);
		jf_buf_add(b, t + i, len);
		if (!nl)
			jf_buf_adds(b, "\n\\ No newline at end of file\n");
		i += len;
	}
}

static size_t count_lines(const char *t, size_t n)
{
	size_t lines = 0;
	for (size_t i = 0; i < n; i++)
		lines += t[i] == '\n';
	return lines + (n && t[n - 1] != '\n');
}

/* The unified diff of edits e[0..n) of one file. */
static void diff_file(jf_buf *b, const jf_source *src, const edit *e, size_t n)
{
	jf_buf_addf(b, "--- a/%s\n+++ b/%s\n", src->path, src->path);
	long delta = 0; /* new lines minus old lines in the hunks so far */
	for (size_t i = 0; i < n;) {
		/* A hunk: the edits whose lines lie within 2 * CONTEXT lines of each other. */
		uint32_t first = jf_source_line_of(src, e[i].span.start);
		uint32_t last = jf_source_line_of(src, e[i].span.end ? e[i].span.end - 1 : 0);
		size_t k = i + 1;
		for (; k < n; k++) {
			uint32_t f = jf_source_line_of(src, e[k].span.start);
			if (f > last + 2 * CONTEXT + 1)
				break;
			uint32_t l = jf_source_line_of(src, e[k].span.end ? e[k].span.end - 1 : 0);
			last = l > last ? l : last;
		}
		uint32_t from = first > CONTEXT ? first - CONTEXT : 0;
		/* the file's last line, not the empty one after its final newline */
		uint32_t lines = src->nlines;
		if (lines > 1 && src->lines[lines - 1] >= src->len)
			lines--;
		uint32_t to = last + CONTEXT < lines ? last + CONTEXT : lines - 1;
		jf_buf hunk = JF_BUF_INIT;
		size_t old_n = 0, new_n = 0;
		/* Within the hunk: unchanged lines as context, each run of changed lines as - and +. */
		size_t j = i; /* the next edit */
		for (uint32_t line = from; line <= to;) {
			if (j == k || jf_source_line_of(src, e[j].span.start) > line) {
				uint32_t s = line_start(src, line), end = line_start(src, line + 1);
				put_lines(&hunk, ' ', src->data + s, end - s);
				old_n++, new_n++;
				line++;
				continue;
			}
			/* the lines the edits from j on touch, as long as they follow on */
			uint32_t run_end = line;
			size_t m = j;
			for (; m < k && jf_source_line_of(src, e[m].span.start) <= run_end + 1; m++) {
				uint32_t l = jf_source_line_of(src, e[m].span.end ? e[m].span.end - 1 : 0);
				run_end = l > run_end ? l : run_end;
			}
			uint32_t s = line_start(src, line), end = line_start(src, run_end + 1);
			jf_buf after = JF_BUF_INIT;
			apply_range(&after, src, e + j, m - j, s, end);
			put_lines(&hunk, '-', src->data + s, end - s);
			put_lines(&hunk, '+', after.buf ? after.buf : "", after.len);
			old_n += run_end - line + 1;
			new_n += count_lines(after.buf ? after.buf : "", after.len);
			jf_buf_release(&after);
			line = run_end + 1;
			j = m;
		}
		jf_buf_addf(b, "@@ -%u,%zu +%ld,%zu @@\n", from + 1, old_n, (long)from + 1 + delta, new_n);
		jf_buf_add(b, hunk.buf ? hunk.buf : "", hunk.len);
		jf_buf_release(&hunk);
		delta += (long)new_n - (long)old_n;
		i = k;
	}
}

/* Writes `text` over `path` (a temporary file in its folder, renamed over it, with its mode). */
static int write_over(jf_linter *self, const char *path, const jf_buf *text)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return jf_error_set(&self->error, JF_EIO, "cannot fix '%s': %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return jf_error_set(&self->error, JF_EIO, "cannot fix '%s': not a regular file", path);
	char *tmp = jf_xasprintf("%s.%ld.jobfix-tmp", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, st.st_mode & 07777);
	int err = fd < 0 ? errno : 0;
	if (fd >= 0) {
		size_t done = 0;
		while (!err && done < text->len) {
			ssize_t w = write(fd, text->buf + done, text->len - done);
			if (w < 0 && errno != EINTR)
				err = errno;
			else if (w > 0)
				done += (size_t)w;
		}
		if (close(fd) != 0 && !err)
			err = errno;
		if (!err && rename(tmp, path) != 0)
			err = errno;
		if (err)
			unlink(tmp);
	}
	free(tmp);
	return err ? jf_error_set(&self->error, JF_EIO, "cannot fix '%s': %s", path, strerror(err))
	           : 0;
}

/* Whether the file at `src`'s path still holds what the lint read. */
static bool unchanged(const jf_source *src)
{
	jf_source *now = jf_source_load(src->fs_path, src->path);
	bool same = now->status == JF_SOURCE_OK && now->len == src->len &&
	            !memcmp(now->data, src->data, src->len);
	jf_source_free(now);
	return same;
}

int jf_linter_fix(jf_linter *self, FILE *out, int apply, size_t *fixes)
{
	*fixes = 0;
	jf_report_finish(&self->report);
	edits all = { 0 };
	for (size_t i = 0; i < self->report.diags.size; i++) {
		const jf_diag *d = &self->report.diags.items[i];
		for (size_t k = 0; k < d->edits.size; k++) {
			const jf_edit *x = &d->edits.items[k];
			if (!x->src->fs_path || x->src->origin)
				continue; /* a copy of a value: no place in a file */
			edit e = { x->src, x->span, x->text, all.size };
			jf_array_push(&all, e);
		}
	}
	if (all.size)
		qsort(all.items, all.size, sizeof *all.items, by_place);
	int files = 0, rc = 0;
	jf_buf diff = JF_BUF_INIT;
	for (size_t i = 0; i < all.size && rc == 0;) {
		const jf_source *src = all.items[i].src;
		/* this file's edits, without the ones that overlap an earlier one */
		edits mine = { 0 };
		size_t k = i;
		for (; k < all.size && !strcmp(all.items[k].src->fs_path, src->fs_path); k++) {
			const edit *e = &all.items[k];
			const edit *prev = mine.size ? jf_array_last(&mine) : NULL;
			if (prev && e->span.start < prev->span.end)
				continue;
			if (e->span.end - e->span.start == strlen(e->text) &&
			    !memcmp(src->data + e->span.start, e->text, strlen(e->text)))
				continue; /* already says it */
			jf_array_push(&mine, *e);
		}
		i = k;
		if (!mine.size) {
			jf_array_release(&mine);
			continue;
		}
		if (!unchanged(src)) {
			rc = jf_error_set(&self->error, JF_EIO,
			                  "cannot fix '%s': it changed after it was linted", src->path);
		} else if (apply) {
			jf_buf text = JF_BUF_INIT;
			apply_range(&text, src, mine.items, mine.size, 0, src->len);
			rc = write_over(self, src->fs_path, &text);
			jf_buf_release(&text);
		} else {
			diff_file(&diff, src, mine.items, mine.size);
		}
		if (rc == 0) {
			files++;
			*fixes += mine.size;
		}
		jf_array_release(&mine);
	}
	jf_array_release(&all);
	if (rc == 0 && !apply && diff.len && fwrite(diff.buf, 1, diff.len, out) != diff.len)
		rc = jf_error_set(&self->error, JF_EIO, "cannot write the diff");
	jf_buf_release(&diff);
	return rc < 0 ? rc : files;
}
