/* log.c - a log read as lines (zlib: plain or gzip), a line cleaned of what is not the program's */
#define _GNU_SOURCE /* memrchr */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "core/util.h"
#include "triage/log.h"

#define BLOCK (256u << 10)

struct jf_log {
	gzFile gz;
	char *block; /* BLOCK bytes read, [pos, end) not handed out yet */
	size_t pos, end;
	bool eof, first_block;
	char *line; /* JF_LOG_LINE_MAX bytes: a line that spans blocks is gathered here */
	uint64_t number;
};

jf_log *jf_log_open(const char *path, char **error)
{
	int fd;
	if (!strcmp(path, "-")) {
		fd = dup(STDIN_FILENO);
	} else {
		/* O_NONBLOCK: a FIFO nobody writes to opens at once and reads as empty. */
		fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0) {
			struct stat st;
			if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
				close(fd);
				*error = jf_xasprintf("%s: is a folder, not a log", path);
				return NULL;
			}
			int flags = fcntl(fd, F_GETFL);
			if (flags >= 0)
				(void)fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
		}
	}
	if (fd < 0) {
		*error = jf_xasprintf("%s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	gzFile gz = gzdopen(fd, "rb");
	if (!gz) {
		close(fd);
		*error = jf_xasprintf("%s: cannot read: out of memory", path);
		return NULL;
	}
	(void)gzbuffer(gz, BLOCK);
	jf_log *self = jf_xcalloc(1, sizeof *self);
	self->gz = gz;
	self->block = jf_xmalloc(BLOCK);
	self->line = jf_xmalloc(JF_LOG_LINE_MAX);
	self->first_block = true;
	return self;
}

void jf_log_close(jf_log *self)
{
	if (!self)
		return;
	gzclose(self->gz);
	free(self->block);
	free(self->line);
	free(self);
}

uint64_t jf_log_line_number(const jf_log *self)
{
	return self->number;
}

/* Reads the next block; false at the end or on an error (*error set then). */
static bool fill(jf_log *self, char **error)
{
	self->pos = self->end = 0;
	if (self->eof)
		return false;
	int n = gzread(self->gz, self->block, BLOCK);
	if (n < 0) {
		int code;
		const char *msg = gzerror(self->gz, &code);
		*error = jf_xasprintf("%s", code == Z_ERRNO ? strerror(errno) : msg);
		return false;
	}
	if (n == 0) {
		self->eof = true;
		/* A gzip stream cut short reads as its end; zlib tells it apart. */
		int code;
		const char *msg = gzerror(self->gz, &code);
		if (code != Z_OK && code != Z_STREAM_END)
			*error = jf_xasprintf("the compressed log is cut short or corrupt: %s", msg);
		return false;
	}
	self->end = (size_t)n;
	if (self->first_block) {
		self->first_block = false;
		const char *nul = memchr(self->block, '\0', self->end);
		if (nul) {
			uint64_t line = 1, col = 1;
			for (const char *p = self->block; p < nul; p++, col++)
				if (*p == '\n')
					line++, col = 0;
			*error = jf_xasprintf("%llu:%llu: a NUL byte: this is not a text log",
			                      (unsigned long long)line, (unsigned long long)col);
			return false;
		}
	}
	return true;
}

int jf_log_next(jf_log *self, const char **line, size_t *len, char **error)
{
	size_t have = 0; /* bytes gathered in self->line */
	bool gathered = false;
	for (;;) {
		if (self->pos == self->end) {
			char *err = NULL;
			if (!fill(self, &err)) {
				if (err) {
					*error = err;
					return -1;
				}
				if (!gathered)
					return 0;
				break; /* the last line, with no newline */
			}
		}
		const char *start = self->block + self->pos;
		size_t avail = self->end - self->pos;
		const char *nl = memchr(start, '\n', avail);
		size_t take = nl ? (size_t)(nl - start) : avail;
		self->pos += take + (nl ? 1 : 0);
		if (nl && !gathered) { /* the whole line is in the block: no copy */
			self->number++;
			*line = start;
			*len = take < JF_LOG_LINE_MAX ? take : JF_LOG_LINE_MAX;
			return 1;
		}
		gathered = true;
		size_t room = JF_LOG_LINE_MAX - have;
		memcpy(self->line + have, start, take < room ? take : room);
		have += take < room ? take : room;
		if (nl)
			break;
	}
	self->number++;
	*line = self->line;
	*len = have;
	return 1;
}

/* Cleaning a line */

int64_t jf_days_from_civil(int64_t y, unsigned m, unsigned d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	unsigned yoe = (unsigned)(y - era * 400);
	unsigned doy = (153 * (m + (m > 2 ? (unsigned)-3 : 9)) + 2) / 5 + d - 1;
	unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

/* The number of n digits at s, or -1. */
static int digits(const char *s, const char *end, int n)
{
	int v = 0;
	if (end - s < n)
		return -1;
	for (int i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* "HH:MM:SS" at s: seconds of the day, or -1. */
static int64_t clock_at(const char *s, const char *end)
{
	int h = digits(s, end, 2), m = digits(s + 3, end, 2), sec = digits(s + 6, end, 2);
	if (h < 0 || m < 0 || sec < 0 || s[2] != ':' || s[5] != ':' || h > 23 || m > 59 || sec > 60)
		return -1;
	return h * 3600 + m * 60 + sec;
}

/* Skips a fraction of a second and a time zone after a clock. */
static const char *skip_fraction_zone(const char *p, const char *end)
{
	if (p < end && (*p == '.' || *p == ',')) {
		p++;
		while (p < end && isdigit((unsigned char)*p))
			p++;
	}
	if (p < end && *p == 'Z')
		p++;
	else if (p + 5 <= end && (*p == '+' || *p == '-') && digits(p + 1, end, 2) >= 0 &&
	         (digits(p + 3, end, 2) >= 0 || (p[3] == ':' && digits(p + 4, end, 2) >= 0)))
		p += p[3] == ':' ? 6 : 5;
	return p;
}

/*
 * A timestamp at s: "2024-03-01T12:00:00[.123][Z|+01:00]", "2024-03-01 12:00:00,123",
 * "2024-03-01_12:00:00", "03/01/2024 12:00:00"; its end (NULL: none) and *time.
 */
static const char *timestamp(const char *s, const char *end, int64_t *time)
{
	int y, mo, d;
	const char *clock;
	if ((y = digits(s, end, 4)) >= 0 && s + 10 < end && s[4] == '-' && s[7] == '-' &&
	    (mo = digits(s + 5, end, 2)) >= 0 && (d = digits(s + 8, end, 2)) >= 0 &&
	    (s[10] == 'T' || s[10] == ' ' || s[10] == '_')) {
		clock = s + 11;
	} else if ((mo = digits(s, end, 2)) >= 0 && s + 10 < end && s[2] == '/' && s[5] == '/' &&
	           (d = digits(s + 3, end, 2)) >= 0 && (y = digits(s + 6, end, 4)) >= 0 &&
	           s[10] == ' ') {
		clock = s + 11;
	} else {
		return NULL;
	}
	int64_t secs = clock_at(clock, end);
	if (secs < 0 || mo < 1 || mo > 12 || d < 1 || d > 31)
		return NULL;
	*time = jf_days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 + secs;
	return skip_fraction_zone(clock + 8, end);
}

/* glog and absl: "I0301 12:00:00.123456  1234 file.cc:56] ". */
static const char *glog_prefix(const char *s, const char *end, int64_t *time)
{
	if (end - s < 22 || !strchr("IWEF", *s) || digits(s + 1, end, 4) < 0 || s[5] != ' ')
		return NULL;
	int64_t secs = clock_at(s + 6, end);
	if (secs < 0)
		return NULL;
	const char *p = skip_fraction_zone(s + 14, end);
	while (p < end && *p == ' ')
		p++;
	while (p < end && isdigit((unsigned char)*p))
		p++;
	if (p >= end || *p != ' ')
		return NULL;
	const char *close = memchr(p, ']', (size_t)(end - p));
	if (!close || close - p > 80)
		return NULL;
	/* no year: a day of 2001 orders the days of one log */
	int mo = digits(s + 1, end, 2), d = digits(s + 3, end, 2);
	int64_t day = mo >= 1 && mo <= 12 && d >= 1
	                      ? jf_days_from_civil(2001, (unsigned)mo, (unsigned)d)
	                      : 0;
	*time = day * 86400 + secs;
	return close + 1 + (close + 1 < end && close[1] == ' ');
}

/* A rank label inside brackets or before ": ": "rank3", "default3", "3", "1,3". */
static bool rank_label(const char *s, size_t n)
{
	size_t i = 0;
	if (n > 4 && !strncmp(s, "rank", 4))
		i = 4;
	else if (n > 7 && !strncmp(s, "default", 7))
		i = 7;
	if (i == n)
		return false;
	for (; i < n; i++)
		if (!isdigit((unsigned char)s[i]) && s[i] != ',')
			return false;
	return true;
}

/* A host label before ": ": a name with a digit at its end ("worker-1", "node03"). */
static size_t host_label(const char *s, const char *end)
{
	const char *p = s;
	if (p >= end || !isalpha((unsigned char)*p))
		return 0;
	while (p < end && (isalnum((unsigned char)*p) || *p == '-' || *p == '.' || *p == '_'))
		p++;
	if (p - s > 40 || p + 1 >= end || p[0] != ':' || p[1] != ' ' || !isdigit((unsigned char)p[-1]))
		return 0;
	return (size_t)(p - s);
}

/* The length of mpirun's tag "[1,19]<stderr>:" at p, or 0. */
static size_t mpi_tag(const char *p, const char *end)
{
	const char *q = p + 1;
	int commas = 0;
	while (q < end && (isdigit((unsigned char)*q) || (*q == ',' && !commas++)))
		q++;
	if (commas != 1 || end - q < 10 || *q != ']' ||
	    (strncmp(q + 1, "<stderr>:", 9) && strncmp(q + 1, "<stdout>:", 9)))
		return 0;
	return (size_t)(q + 10 - p);
}

static void set_rank(jf_log_line *out, const char *s, size_t n)
{
	if (n >= sizeof out->rank)
		n = sizeof out->rank - 1;
	memcpy(out->rank, s, n);
	out->rank[n] = '\0';
}

/* Removes one prefix from the start of [*s, end); false when there is none. */
static bool strip_prefix(const char **s, const char *end, jf_log_line *out)
{
	const char *p = *s, *q;
	int64_t t;
	if ((q = timestamp(p, end, &t)) || (p < end && *p == '[' && (q = timestamp(p + 1, end, &t)) &&
	                                    q < end && *q++ == ']')) {
		out->time = t;
		out->dated = true;
	} else if ((q = glog_prefix(p, end, &t))) {
		out->time = t;
		out->dated = false;
		*s = q;
		return true;
	} else if (p < end && *p == '[') {
		const char *close = memchr(p, ']', (size_t)(end - p) < 40 ? (size_t)(end - p) : 40);
		if (!close || !rank_label(p + 1, (size_t)(close - p - 1)))
			return false;
		set_rank(out, p + 1, (size_t)(close - p - 1));
		q = close + 1;
		if (end - q >= 8 && (!strncmp(q, "<stderr>", 8) || !strncmp(q, "<stdout>", 8)))
			q += 8;
		if (q < end && *q == ':')
			q++;
	} else if (p < end && isdigit((unsigned char)*p)) {
		q = p;
		while (q < end && isdigit((unsigned char)*q) && q - p < 6)
			q++;
		if (q + 1 >= end || q[0] != ':' || q[1] != ' ')
			return false;
		set_rank(out, p, (size_t)(q - p));
		q++;
	} else {
		size_t n = host_label(p, end);
		if (!n)
			return false;
		set_rank(out, p, n);
		q = p + n + 1;
	}
	/* One space after the prefix; and a separator a logger puts there ("- ", "| "). */
	if (q < end && *q == ' ')
		q++;
	if (q + 1 < end && (*q == '-' || *q == '|') && q[1] == ' ')
		q += 2;
	*s = q;
	return true;
}

void jf_log_clean(const char *raw, size_t len, char *buf, jf_log_line *out)
{
	out->time = -1;
	out->dated = false;
	out->rank[0] = '\0';
	/* What a terminal shows: the text after the last carriage return that has some. */
	while (len && raw[len - 1] == '\r')
		len--;
	for (const char *cr; (cr = memrchr(raw, '\r', len));) {
		bool blank = true;
		for (const char *k = cr + 1; k < raw + len && blank; k++)
			blank = isspace((unsigned char)*k);
		if (!blank) {
			len -= (size_t)(cr + 1 - raw);
			raw = cr + 1;
			break;
		}
		len = (size_t)(cr - raw);
	}
	const char *s = raw, *end = raw + len;
	/* ANSI escapes (CSI: ESC [ ... final byte; OSC: ESC ] ... BEL or ESC \; others: ESC and
	 * one byte) and NUL bytes are dropped, into `buf`; most lines have none and stay where
	 * they are. */
	if (memchr(raw, 0x1b, len) || memchr(raw, '\0', len)) {
		size_t n = 0;
		for (size_t i = 0; i < len; i++) {
			unsigned char c = (unsigned char)raw[i];
			if (c != 0x1b) {
				buf[n++] = (char)(c == '\0' ? '?' : c);
				continue;
			}
			if (i + 1 < len && raw[i + 1] == '[') {
				i += 2;
				while (i < len && !((unsigned char)raw[i] >= 0x40 && (unsigned char)raw[i] <= 0x7e))
					i++;
			} else if (i + 1 < len && raw[i + 1] == ']') {
				i += 2;
				while (i < len && raw[i] != '\a' &&
				       !(raw[i] == 0x1b && i + 1 < len && raw[i + 1] == '\\'))
					i++;
				if (i < len && raw[i] == 0x1b)
					i++;
			} else {
				i++;
			}
		}
		buf[n] = '\0';
		s = buf;
		end = buf + n;
	}
	for (int k = 0; k < 4 && strip_prefix(&s, end, out); k++)
		;
	/* mpirun tags each write of a rank ("[1,19]<stderr>:"), so two writes of one line carry
	 * a second tag inside it ("RuntimeError[1,19]<stderr>:: NCCL ..."): it is dropped, into
	 * `buf` (compacted in place when the text is already there). */
	if (memmem(s, (size_t)(end - s), "]<std", 5)) {
		size_t n = 0;
		for (const char *p = s; p < end;) {
			size_t tag = *p == '[' ? mpi_tag(p, end) : 0;
			if (tag) {
				p += tag;
				continue;
			}
			buf[n++] = *p++;
		}
		buf[n] = '\0';
		s = buf;
		end = buf + n;
	}
	/* A platform's error report that quotes the script's traceback as one JSON or repr
	 * string ("FailureReason": "...Traceback (most recent call last):\n  File ...\nKeyError:
	 * 'x'\n"): its escaped line breaks are read as spaces, so that each message in it starts
	 * a word. Only there: a Windows path's "\new" elsewhere stays as it is. */
	static const char ESCAPED_TRACEBACK[] = "Traceback (most recent call last):\\n";
	if (memmem(s, (size_t)(end - s), ESCAPED_TRACEBACK, sizeof ESCAPED_TRACEBACK - 1)) {
		size_t n = 0;
		for (const char *p = s; p < end; p++) {
			bool escape = *p == '\\' && p + 1 < end && (p[1] == 'n' || p[1] == 't');
			buf[n++] = escape ? ' ' : *p;
			if (escape)
				buf[n++] = ' ', p++;
		}
		buf[n] = '\0';
		s = buf;
		end = buf + n;
	}
	out->text = s;
	out->len = (size_t)(end - s);
}
