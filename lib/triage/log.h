/* log.h - a log read as lines, streaming, in bounded memory
 *
 * A jf_log reads a file, a FIFO or standard input, plain or gzip-compressed (zlib tells
 * them apart), in blocks, and hands out one line at a time. A line longer than
 * JF_LOG_LINE_MAX keeps its first JF_LOG_LINE_MAX bytes; the rest is skipped. The last line
 * needs no newline. A NUL byte in the first block makes the log binary: jf_log_next() then
 * fails with a message saying where the byte is.
 *
 * jf_log_clean() turns a raw line into what a terminal shows and what the patterns match:
 * the text after the last carriage return (progress bars), without ANSI escape sequences,
 * and without the prefixes a launcher or a logger puts before the program's own text
 * (timestamps, rank labels). It keeps the timestamp and the rank label it removed.
 */
#ifndef JF_TRIAGE_LOG_H
#define JF_TRIAGE_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JF_LOG_LINE_MAX (64u << 10)

typedef struct jf_log jf_log;

/** Opens `path` ("-": standard input); NULL with *error set (caller frees) when it cannot. */
jf_log *jf_log_open(const char *path, char **error);
/**
 * The next line, without its newline: 1 with *line and *len set (valid until the next
 * call), 0 at the end, -1 on a read error or a binary log (*error set; caller frees).
 */
int jf_log_next(jf_log *self, const char **line, size_t *len, char **error);
/** The number of the line jf_log_next() returned last, from 1. */
uint64_t jf_log_line_number(const jf_log *self);
void jf_log_close(jf_log *self);

typedef struct {
	const char *text; /* into the buffer given to jf_log_clean() */
	size_t len;
	int64_t time;     /* seconds (since 1970, or of a day for a time with no date); -1: none */
	bool dated;       /* `time` has a date */
	char rank[32];    /* the rank or host label removed ("rank3", "3", "1,3", "worker-1"), or "" */
} jf_log_line;

/**
 * Cleans raw[0, len) and describes the result in *out: its text points into `raw`, or into
 * `buf` (at least len + 1 bytes) when escape sequences or NUL bytes had to be dropped.
 */
void jf_log_clean(const char *raw, size_t len, char *buf, jf_log_line *out);

/** Days since 1970-01-01 of a date of the proleptic Gregorian calendar. */
int64_t jf_days_from_civil(int64_t y, unsigned m, unsigned d);

#endif
