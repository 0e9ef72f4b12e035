/* test_source.c - unit tests of the line map, position conversion, UTF-8 checks and file loading */
#include "helpers.h"

#include <fcntl.h>
#include <yaml.h>

#define SRC(s) jf_source_from_string("t.txt", s, sizeof(s) - 1)

static void assert_pos(const jf_source *s, uint32_t byte, uint32_t line, uint32_t col)
{
	jf_pos p = jf_source_pos(s, byte);
	if (p.line != line || p.col != col)
		fail_msg("byte %u: %u:%u, expected %u:%u", byte, p.line, p.col, line, col);
}

static void test_source__line_map(void **state)
{
	(void)state;
	jf_source *s = SRC("ab\ncd\n\nxyz");
	assert_int_equal(s->status, JF_SOURCE_OK);
	assert_string_equal(s->path, "t.txt");
	assert_int_equal(s->len, 10);
	assert_string_equal(s->data, "ab\ncd\n\nxyz");
	assert_int_equal(s->nlines, 4);
	assert_int_equal(s->lines[0], 0);
	assert_int_equal(s->lines[1], 3);
	assert_int_equal(s->lines[2], 6);
	assert_int_equal(s->lines[3], 7);
	assert_int_equal(jf_source_line_of(s, 0), 0);
	assert_int_equal(jf_source_line_of(s, 2), 0); /* the newline belongs to its line */
	assert_int_equal(jf_source_line_of(s, 3), 1);
	assert_int_equal(jf_source_line_of(s, 6), 2);
	assert_int_equal(jf_source_line_of(s, 9), 3);
	assert_int_equal(jf_source_line_of(s, 10), 3);
	jf_source_free(s);

	/* A final newline starts one more (empty) line. */
	s = SRC("a\n");
	assert_int_equal(s->nlines, 2);
	assert_int_equal(s->lines[1], 2);
	jf_source_free(s);

	s = SRC("");
	assert_int_equal(s->nlines, 1);
	assert_int_equal(s->lines[0], 0);
	assert_int_equal(s->len, 0);
	assert_non_null(s->data);
	assert_string_equal(s->data, "");
	assert_pos(s, 0, 1, 1);
	jf_source_free(s);

	/* The source holds a copy of the bytes, NUL-terminated. */
	char buf[] = "xy";
	s = jf_source_from_string("t", buf, 1);
	buf[0] = 'z';
	assert_string_equal(s->data, "x");
	jf_source_free(s);

	s = SRC("a\0b");
	assert_int_equal(s->status, JF_SOURCE_BINARY);
	jf_source_free(s);
	jf_source_free(NULL);
}

static void test_source__pos_ascii(void **state)
{
	(void)state;
	jf_source *s = SRC("ab\ncd\n\nxyz");
	assert_pos(s, 0, 1, 1);
	assert_pos(s, 1, 1, 2);
	assert_pos(s, 2, 1, 3); /* the newline */
	assert_pos(s, 3, 2, 1);
	assert_pos(s, 6, 3, 1);
	assert_pos(s, 7, 4, 1);
	assert_pos(s, 9, 4, 3);
	jf_pos p = jf_source_pos(s, 4);
	assert_int_equal(p.byte, 4);
	jf_source_free(s);
}

static void test_source__pos_counts_characters(void **state)
{
	(void)state;
	/* "é" and "€" are one column each, "😀" too. */
	jf_source *s = SRC("x: \xc3\xa9t\xc3\xa9\n\xe2\x82\xac\xf0\x9f\x98\x80z");
	assert_pos(s, 3, 1, 4);  /* é */
	assert_pos(s, 5, 1, 5);  /* t */
	assert_pos(s, 6, 1, 6);  /* second é */
	assert_pos(s, 8, 1, 7);  /* newline */
	assert_pos(s, 9, 2, 1);  /* € */
	assert_pos(s, 12, 2, 2); /* 😀 */
	assert_pos(s, 16, 2, 3); /* z */
	jf_source_free(s);

	/* A byte that cannot start a character counts as one. */
	s = SRC("\xff\xfez");
	assert_pos(s, 2, 1, 3);
	jf_source_free(s);
}

static void test_source__pos_at_end(void **state)
{
	(void)state;
	jf_source *s = SRC("ab\ncd");
	assert_pos(s, 5, 2, 3);
	jf_pos p = jf_source_pos(s, 1000); /* clamped */
	assert_int_equal(p.byte, 5);
	assert_int_equal(p.line, 2);
	assert_int_equal(p.col, 3);
	jf_source_free(s);

	s = SRC("ab\n");
	assert_pos(s, 3, 2, 1);
	assert_pos(s, UINT32_MAX, 2, 1);
	jf_source_free(s);
}

static void test_source__pos_crlf(void **state)
{
	(void)state;
	jf_source *s = SRC("ab\r\ncd\r\n\r\ne");
	assert_int_equal(s->nlines, 4);
	assert_pos(s, 2, 1, 3); /* the \r */
	assert_pos(s, 4, 2, 1);
	assert_pos(s, 5, 2, 2);
	assert_pos(s, 8, 3, 1);
	assert_pos(s, 10, 4, 1);
	jf_source_free(s);
}

static void test_source__line_span_strips_cr(void **state)
{
	(void)state;
	jf_source *s = SRC("ab\r\ncd\nxy\r\n\r\n");
	jf_span l0 = jf_source_line_span(s, 0);
	assert_int_equal(l0.start, 0);
	assert_int_equal(l0.end, 2);
	jf_span l1 = jf_source_line_span(s, 1); /* LF only */
	assert_int_equal(l1.start, 4);
	assert_int_equal(l1.end, 6);
	jf_span l2 = jf_source_line_span(s, 2);
	assert_int_equal(l2.start, 7);
	assert_int_equal(l2.end, 9);
	jf_span l3 = jf_source_line_span(s, 3); /* an empty CRLF line */
	assert_int_equal(l3.start, 11);
	assert_int_equal(l3.end, 11);
	jf_span l4 = jf_source_line_span(s, 4); /* after the final newline */
	assert_int_equal(l4.start, 13);
	assert_int_equal(l4.end, 13);
	jf_span past = jf_source_line_span(s, 99);
	assert_int_equal(past.start, s->len);
	assert_int_equal(past.end, s->len);
	jf_source_free(s);

	/* The last line without a newline, ending in \r. */
	s = SRC("a\nbc\r");
	jf_span l = jf_source_line_span(s, 1);
	assert_int_equal(l.start, 2);
	assert_int_equal(l.end, 4);
	jf_source_free(s);
}

static void test_source__byte_from_yaml(void **state)
{
	(void)state;
	jf_source *s = SRC("k: v\n\xc3\xa9\xc3\xa9: \xe2\x82\xacx\nlast");
	assert_int_equal(jf_source_byte_from_yaml(s, 0, 0), 0);
	assert_int_equal(jf_source_byte_from_yaml(s, 0, 3), 3);
	assert_int_equal(jf_source_byte_from_yaml(s, 1, 0), 5);
	assert_int_equal(jf_source_byte_from_yaml(s, 1, 1), 7);  /* second é */
	assert_int_equal(jf_source_byte_from_yaml(s, 1, 2), 9);  /* ':' */
	assert_int_equal(jf_source_byte_from_yaml(s, 1, 4), 11); /* € */
	assert_int_equal(jf_source_byte_from_yaml(s, 1, 5), 14); /* x */
	assert_int_equal(jf_source_byte_from_yaml(s, 2, 2), 18);
	/* Past the end of the file: the end. */
	assert_int_equal(jf_source_byte_from_yaml(s, 2, 100), s->len);
	assert_int_equal(jf_source_byte_from_yaml(s, 7, 0), s->len);
	jf_source_free(s);
}

static void test_source__byte_from_yaml_bom(void **state)
{
	(void)state;
	jf_source *s = SRC("\xef\xbb\xbf"
	                   "a: \xc3\xa9\nb: c\n");
	assert_int_equal(jf_source_byte_from_yaml(s, 0, 0), 3); /* the BOM is no column */
	assert_int_equal(jf_source_byte_from_yaml(s, 0, 3), 6);
	assert_int_equal(jf_source_byte_from_yaml(s, 0, 4), 8);
	assert_int_equal(jf_source_byte_from_yaml(s, 1, 0), 9); /* other lines unaffected */
	assert_int_equal(jf_source_byte_from_yaml(s, 1, 3), 12);
	jf_source_free(s);
}

/* Every scalar's libyaml start mark maps to the byte where its text starts. */
static void check_marks_against_libyaml(const char *text, size_t len)
{
	jf_source *s = jf_source_from_string("t.yaml", text, len);
	yaml_parser_t p;
	yaml_document_t doc;
	assert_true(yaml_parser_initialize(&p));
	yaml_parser_set_input_string(&p, (const unsigned char *)s->data, s->len);
	assert_true(yaml_parser_load(&p, &doc));
	int scalars = 0;
	for (yaml_node_t *n = doc.nodes.start; n < doc.nodes.top; n++) {
		if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
			continue;
		uint32_t at = jf_source_byte_from_yaml(s, n->start_mark.line, n->start_mark.column);
		uint32_t end = jf_source_byte_from_yaml(s, n->end_mark.line, n->end_mark.column);
		assert_int_equal(end - at, n->data.scalar.length);
		assert_memory_equal(s->data + at, n->data.scalar.value, n->data.scalar.length);
		scalars++;
	}
	assert_true(scalars >= 4);
	yaml_document_delete(&doc);
	yaml_parser_delete(&p);
	jf_source_free(s);
}

static void test_source__byte_from_yaml_matches_libyaml(void **state)
{
	(void)state;
	static const char plain[] = "\xc3\xa9t\xc3\xa9: \xe2\x82\xac\xe2\x82\xac\n"
	                            "k: [\xf0\x9f\x98\x80, b\xc3\xa9]\n";
	static const char bom[] = "\xef\xbb\xbf\xc3\xa9: x\xc3\xa9y\nz: w\n";
	check_marks_against_libyaml(plain, sizeof plain - 1);
	check_marks_against_libyaml(bom, sizeof bom - 1);
}

static void assert_invalid_at(const char *data, size_t len, uint32_t from, uint32_t expect)
{
	jf_source *s = jf_source_from_string("t", data, len);
	uint32_t got = jf_source_invalid_utf8(s, from);
	if (got != expect)
		fail_msg("first invalid byte of %zu-byte input from %u: %u, expected %u", len, from, got,
		         expect);
	jf_source_free(s);
}

#define INVALID_AT(s, expect) assert_invalid_at(s, sizeof(s) - 1, 0, expect)

static void test_source__invalid_utf8(void **state)
{
	(void)state;
	/* Valid text. */
	INVALID_AT("", UINT32_MAX);
	INVALID_AT("plain ascii\n", UINT32_MAX);
	INVALID_AT("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf \xed\x9f\xbf",
	           UINT32_MAX);
	/* Overlong encodings. */
	INVALID_AT("ab\xc0\x80", 2);
	INVALID_AT("\xc1\xbf", 0);
	INVALID_AT("x\xe0\x80\x80", 1);
	INVALID_AT("xy\xe0\x9f\xbf", 2);
	INVALID_AT("\xf0\x80\x80\x80", 0);
	INVALID_AT("\xf0\x8f\xbf\xbf", 0);
	/* UTF-16 surrogates. */
	INVALID_AT("ok \xed\xa0\x80", 3);
	INVALID_AT("\xed\xbf\xbf", 0);
	/* Past U+10FFFF. */
	INVALID_AT("\xf4\x90\x80\x80", 0);
	INVALID_AT("\xf5\x80\x80\x80", 0);
	INVALID_AT("\xff", 0);
	/* Truncated sequences: at the end, and cut by another character. */
	INVALID_AT("abc\xe2\x82", 3);
	INVALID_AT("abc\xf0\x9f\x98", 3);
	INVALID_AT("\xc3", 0);
	INVALID_AT("\xe2\x82x", 0);
	INVALID_AT("\xc3 ", 0);
	/* A lone continuation byte. */
	INVALID_AT("a\x80", 1);
	/* Past runs of ASCII read eight bytes at a time: at each place in the
	 * run and just after it, and a sequence cut at the end of a run. */
	for (uint32_t at = 0; at < 20; at++) {
		char buf[32];
		memset(buf, 'a', sizeof buf);
		buf[at] = '\xff';
		assert_invalid_at(buf, sizeof buf, 0, at);
		assert_invalid_at(buf, at + 1, 0, at);
		memcpy(buf + at, "\xc3\xa9", 2); /* valid: none */
		assert_invalid_at(buf, sizeof buf, 0, UINT32_MAX);
		assert_invalid_at(buf, at + 1, 0, at); /* cut after its first byte */
	}
	INVALID_AT("0123456789abcdef\xe2\x82\xac" "0123456\x80", 26);
	/* `from` skips what comes before. */
	static const char two[] = "\xff ok \xff";
	assert_invalid_at(two, sizeof two - 1, 0, 0);
	assert_invalid_at(two, sizeof two - 1, 1, 5);
	assert_invalid_at(two, sizeof two - 1, 6, UINT32_MAX);
}

/* A temporary folder for the file-loading tests. */
static int setup_dir(void **state)
{
	*state = th_mkdtemp();
	return 0;
}

static int teardown_dir(void **state)
{
	th_rmtree(*state);
	free(*state);
	return 0;
}

static void test_source__load_file(void **state)
{
	const char *dir = *state;
	char *path = th_write(dir, "a.py", "import os\r\nprint(1)\n");
	jf_source *s = jf_source_load(path, "shown/a.py");
	assert_int_equal(s->status, JF_SOURCE_OK);
	assert_string_equal(s->path, "shown/a.py");
	assert_int_equal(s->len, 20);
	assert_string_equal(s->data, "import os\r\nprint(1)\n");
	assert_int_equal(s->nlines, 3);
	assert_int_equal(s->lines[1], 11);
	jf_span l0 = jf_source_line_span(s, 0);
	assert_int_equal(l0.end, 9);
	jf_source_free(s);
	free(path);

	path = th_write(dir, "empty.py", "");
	s = jf_source_load(path, path);
	assert_int_equal(s->status, JF_SOURCE_OK);
	assert_int_equal(s->len, 0);
	assert_string_equal(s->data, "");
	assert_int_equal(s->nlines, 1);
	jf_source_free(s);
	free(path);
}

static void test_source__load_missing(void **state)
{
	const char *dir = *state;
	char *path = jf_xasprintf("%s/nope.py", dir);
	jf_source *s = jf_source_load(path, "nope.py");
	assert_int_equal(s->status, JF_SOURCE_MISSING);
	assert_int_equal(s->err, ENOENT);
	assert_string_equal(s->path, "nope.py");
	assert_non_null(s->data);
	assert_int_equal(s->len, 0);
	assert_int_equal(s->nlines, 1); /* positions still work */
	assert_pos(s, 0, 1, 1);
	jf_source_free(s);
	free(path);

	/* A path through a regular file is missing too (ENOTDIR). */
	char *file = th_write(dir, "f", "x");
	path = jf_xasprintf("%s/f/inside.py", dir);
	s = jf_source_load(path, path);
	assert_int_equal(s->status, JF_SOURCE_MISSING);
	jf_source_free(s);
	free(path);
	free(file);
}

static void test_source__load_dir(void **state)
{
	const char *dir = *state;
	char *sub = jf_xasprintf("%s/train.py", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	jf_source *s = jf_source_load(sub, "train.py");
	assert_int_equal(s->status, JF_SOURCE_DIR);
	assert_int_equal(s->len, 0);
	assert_string_equal(s->data, "");
	jf_source_free(s);
	free(sub);
}

static void test_source__load_binary(void **state)
{
	const char *dir = *state;
	static const char bytes[] = "print(1)\n\0\x01\x02\nmore\n";
	char *path = th_write_n(dir, "bin.py", bytes, sizeof bytes - 1);
	jf_source *s = jf_source_load(path, "bin.py");
	assert_int_equal(s->status, JF_SOURCE_BINARY);
	assert_int_equal(s->len, sizeof bytes - 1); /* the bytes are kept */
	assert_memory_equal(s->data, bytes, sizeof bytes - 1);
	assert_int_equal(s->nlines, 4);
	jf_source_free(s);
	free(path);
}

static void test_source__load_unreadable_and_large(void **state)
{
	const char *dir = *state;
	/* A FIFO is not a regular file: reported, never opened (which would block). */
	char *fifo = jf_xasprintf("%s/pipe.sh", dir);
	assert_int_equal(mkfifo(fifo, 0644), 0);
	jf_source *s = jf_source_load(fifo, "pipe.sh");
	assert_int_equal(s->status, JF_SOURCE_UNREADABLE);
	assert_int_equal(s->err, 0);
	assert_string_equal(jf_source_why(s), "not a regular file (a FIFO or a device)");
	jf_source_free(s);
	free(fifo);

	/* Larger than the limit (a sparse file: nothing is written). */
	char *big = th_write(dir, "big.py", "");
	int fd = open(big, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)JF_SOURCE_MAX_BYTES + 1), 0);
	close(fd);
	s = jf_source_load(big, "big.py");
	assert_int_equal(s->status, JF_SOURCE_TOO_LARGE);
	assert_int_equal(s->len, 0);
	jf_source_free(s);
	free(big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_source__line_map),
		cmocka_unit_test(test_source__pos_ascii),
		cmocka_unit_test(test_source__pos_counts_characters),
		cmocka_unit_test(test_source__pos_at_end),
		cmocka_unit_test(test_source__pos_crlf),
		cmocka_unit_test(test_source__line_span_strips_cr),
		cmocka_unit_test(test_source__byte_from_yaml),
		cmocka_unit_test(test_source__byte_from_yaml_bom),
		cmocka_unit_test(test_source__byte_from_yaml_matches_libyaml),
		cmocka_unit_test(test_source__invalid_utf8),
		cmocka_unit_test_setup_teardown(test_source__load_file, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_source__load_missing, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_source__load_dir, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_source__load_binary, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_source__load_unreadable_and_large, setup_dir,
		                                teardown_dir),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
