/* source.c - reading files, the line map and position conversion */
#include "core/source.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/confine.h"
#include "core/deps.h"

/* The last position this thread counted: findings are rendered in order, and
 * counting each one's column from its line's start would make the findings
 * of a long line quadratic. */
static _Thread_local struct last_pos {
	const jf_source *src;
	const char *data;
	uint32_t line, byte, col;
} last_pos;

static void build_line_map(jf_source *s)
{
	uint32_t n = 1;
	for (uint32_t i = 0; i < s->len; i++)
		n += s->data[i] == '\n';
	s->lines = jf_xmalloc(n * sizeof(*s->lines));
	s->nlines = 0;
	s->lines[s->nlines++] = 0;
	for (uint32_t i = 0; i < s->len; i++)
		if (s->data[i] == '\n')
			s->lines[s->nlines++] = i + 1;
}

static jf_source *source_new(const char *display_path)
{
	jf_source *s = jf_xcalloc(1, sizeof(*s));
	s->path = jf_xstrdup(display_path);
	return s;
}

static void set_data(jf_source *s, char *data, size_t len)
{
	s->data = data;
	s->len = (uint32_t)len;
	build_line_map(s);
}

jf_source *jf_source_from_string(const char *display_path, const char *data, size_t len)
{
	jf_source *s = source_new(display_path);
	set_data(s, jf_xstrndup(data, len), len);
	if (memchr(data, '\0', len))
		s->status = JF_SOURCE_BINARY;
	return s;
}

jf_source *jf_source_from_value(const jf_source *origin, jf_span at, const char *data, size_t len)
{
	jf_source *s = jf_source_from_string(origin->path, data, len);
	s->origin = origin;
	s->origin_span = at;
	return s;
}

jf_source *jf_source_from_rewrite(const jf_source *origin, const char *data)
{
	jf_source *s = jf_source_from_string(origin->path, data, origin->len);
	if (origin->fs_path)
		s->fs_path = jf_xstrdup(origin->fs_path);
	s->origin = origin;
	s->origin_span = (jf_span){ 0, origin->len };
	s->same_offsets = true;
	return s;
}

void jf_source_shown(const jf_source **src, jf_span *span)
{
	if (*src && (*src)->origin) {
		if (!(*src)->same_offsets)
			*span = (*src)->origin_span;
		*src = (*src)->origin;
	}
}

jf_source *jf_source_load(const char *fs_path, const char *display_path)
{
	jf_deps_note(JF_DEP_FILE, fs_path);
	jf_source *s = source_new(display_path);
	s->fs_path = jf_xstrdup(fs_path);
	s->from_file = true;
	struct stat st;
	set_data(s, jf_xstrdup(""), 0);
	if (stat(fs_path, &st) != 0) {
		s->err = errno;
		s->status = errno == ENOENT || errno == ENOTDIR ? JF_SOURCE_MISSING
		                                                : JF_SOURCE_UNREADABLE;
		return s;
	}
	if (S_ISDIR(st.st_mode)) {
		s->status = JF_SOURCE_DIR;
		return s;
	}
	if (!S_ISREG(st.st_mode)) {
		/* a FIFO or a device: opening it could block, reading it never end */
		s->status = JF_SOURCE_UNREADABLE;
		return s;
	}
	if (!jf_confine_allows(fs_path)) {
		s->status = JF_SOURCE_OUTSIDE;
		return s;
	}
	if ((uint64_t)st.st_size > JF_SOURCE_MAX_BYTES) {
		s->status = JF_SOURCE_TOO_LARGE;
		return s;
	}
	int fd = open(fs_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		s->err = errno;
		s->status = JF_SOURCE_UNREADABLE;
		return s;
	}
	/* The size stat gave and one byte more, so that the read that finds the
	 * end fits: every source stays in memory for the report, and a buffer
	 * doubled as it fills would hold up to twice the text. A file that grew
	 * since is read to its end all the same. */
	size_t cap = (size_t)st.st_size + 1, len = 0;
	char *data = jf_xmalloc(cap + 1);
	int err = 0;
	while (len <= JF_SOURCE_MAX_BYTES) {
		if (len == cap) {
			cap *= 2;
			data = jf_xrealloc(data, cap + 1);
		}
		ssize_t n = read(fd, data + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? errno : 0;
			break;
		}
		len += (size_t)n;
	}
	close(fd);
	if (err || len > JF_SOURCE_MAX_BYTES) {
		free(data);
		s->err = err;
		s->status = err ? JF_SOURCE_UNREADABLE : JF_SOURCE_TOO_LARGE;
		return s;
	}
	data[len] = '\0';
	free(s->data);
	free(s->lines);
	set_data(s, data, len);
	if (memchr(data, '\0', len))
		s->status = JF_SOURCE_BINARY;
	return s;
}

uint32_t jf_source_bom(const jf_source *self)
{
	return self->len >= 3 && !memcmp(self->data, "\xef\xbb\xbf", 3) ? 3 : 0;
}

const char *jf_source_why(const jf_source *self)
{
	switch (self->status) {
	case JF_SOURCE_OK:
		return "it was read";
	case JF_SOURCE_MISSING:
		return "No such file or directory";
	case JF_SOURCE_DIR:
		return "Is a directory";
	case JF_SOURCE_BINARY:
		return "it holds NUL bytes";
	case JF_SOURCE_TOO_LARGE:
		return "it is larger than 8 MiB";
	case JF_SOURCE_OUTSIDE:
		return "it lies outside the repository (--allow-outside DIR reads there)";
	case JF_SOURCE_UNREADABLE:
		break;
	}
	return self->err ? strerror(self->err) : "not a regular file (a FIFO or a device)";
}

const char *jf_source_help(const jf_source *self)
{
	switch (self->status) {
	case JF_SOURCE_TOO_LARGE:
		return "nothing to fix in the job; split very large generated files out of the code "
		       "folder";
	case JF_SOURCE_OUTSIDE:
		return "keep the job's files in its repository; when reading there is meant, name the "
		       "folder with --allow-outside DIR or the config's allow-outside";
	case JF_SOURCE_UNREADABLE:
		return self->err ? "make the file readable to the user jobfix runs as"
		                 : "a FIFO or a device is no source file: point the job at a regular "
		                   "file";
	default:
		return NULL;
	}
}

void jf_source_free(jf_source *self)
{
	if (!self)
		return;
	if (last_pos.src == self)
		last_pos.src = NULL;
	free(self->path);
	free(self->fs_path);
	free(self->data);
	free(self->lines);
	free(self);
}

void jf_sources_release(jf_sources *list)
{
	for (size_t i = 0; i < list->size; i++)
		jf_source_free(list->items[i]);
	jf_array_release(list);
}

uint32_t jf_source_line_of(const jf_source *self, uint32_t byte)
{
	uint32_t lo = 0, hi = self->nlines;
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (self->lines[mid] <= byte)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

jf_span jf_source_line_span(const jf_source *self, uint32_t line)
{
	if (line >= self->nlines)
		return (jf_span){ self->len, self->len };
	uint32_t start = self->lines[line];
	uint32_t end = line + 1 < self->nlines ? self->lines[line + 1] - 1 : self->len;
	if (end > start && self->data[end - 1] == '\r')
		end--;
	return (jf_span){ start, end };
}

/* Length of the valid UTF-8 sequence at s[i] (1..4), or 0 when it is invalid. */
static uint32_t utf8_len(const unsigned char *s, uint32_t i, uint32_t n)
{
	unsigned char c = s[i];
	if (c < 0x80)
		return 1;
	uint32_t len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
	if (!len || c > 0xf4 || i + len > n)
		return 0;
	for (uint32_t k = 1; k < len; k++)
		if ((s[i + k] & 0xc0) != 0x80)
			return 0;
	if ((c == 0xe0 && s[i + 1] < 0xa0) || (c == 0xed && s[i + 1] >= 0xa0) ||
	    (c == 0xf0 && s[i + 1] < 0x90) || (c == 0xf4 && s[i + 1] >= 0x90))
		return 0;
	return len;
}

/* One character: a valid sequence, or a single invalid byte. */
static uint32_t char_len(const char *s, uint32_t i, uint32_t n)
{
	uint32_t len = utf8_len((const unsigned char *)s, i, n);
	return len ? len : 1;
}

/* Characters in [from, to). */
static uint32_t count_chars(const char *s, uint32_t from, uint32_t to)
{
	uint32_t n = 0;
	for (uint32_t i = from; i < to; i += char_len(s, i, to))
		n++;
	return n;
}

jf_pos jf_source_pos(const jf_source *self, uint32_t byte)
{
	if (byte > self->len)
		byte = self->len;
	uint32_t line = jf_source_line_of(self, byte);
	bool on = last_pos.src == self && last_pos.data == self->data && last_pos.line == line &&
	          byte >= last_pos.byte;
	uint32_t col = on ? last_pos.col + count_chars(self->data, last_pos.byte, byte)
	                  : count_chars(self->data, self->lines[line], byte);
	last_pos = (struct last_pos){ self, self->data, line, byte, col };
	/* A byte-order mark is no column an editor shows. */
	if (line == 0 && col > 0 && jf_source_bom(self))
		col--;
	return (jf_pos){ byte, line + 1, col + 1 };
}

jf_pos jf_text_pos(const char *text, uint32_t len, uint32_t byte)
{
	if (byte > len)
		byte = len;
	uint32_t line = 1, start = 0;
	for (uint32_t i = 0; i < byte; i++)
		if (text[i] == '\n') {
			line++;
			start = i + 1;
		}
	return (jf_pos){ byte, line, count_chars(text, start, byte) + 1 };
}

uint32_t jf_source_byte_from_yaml(const jf_source *self, size_t line, size_t column)
{
	if (line >= self->nlines)
		return self->len;
	uint32_t i = self->lines[line];
	/* libyaml counts a leading byte-order mark as no column. */
	if (line == 0)
		i = jf_source_bom(self);
	for (; i < self->len && column > 0; column--)
		i += char_len(self->data, i, self->len);
	return i;
}

uint32_t jf_source_invalid_utf8(const jf_source *self, uint32_t from)
{
	const unsigned char *s = (const unsigned char *)self->data;
	for (uint32_t i = from; i < self->len;) {
		uint64_t word; /* eight ASCII bytes at once: most source is ASCII */
		if (self->len - i >= 8 && (memcpy(&word, s + i, 8), !(word & 0x8080808080808080u))) {
			i += 8;
			continue;
		}
		uint32_t len = utf8_len(s, i, self->len);
		if (!len)
			return i;
		i += len;
	}
	return UINT32_MAX;
}
