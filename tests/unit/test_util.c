/* test_util.c - unit tests of jf_buf, JSON, GitHub and URI escaping, edit distance and JF_ARRAY */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/util.h"

/* Asserts the written invariants of a jf_buf. */
static void assert_buf_ok(const jf_buf *b)
{
	assert_non_null(b->buf);
	assert_int_equal(b->buf[b->len], '\0');
	if (b->alloc)
		assert_true(b->len < b->alloc);
	else
		assert_int_equal(b->len, 0);
}

static void test_util__buf_fresh_is_empty_string(void **state)
{
	(void)state;
	jf_buf b = JF_BUF_INIT;
	assert_buf_ok(&b);
	assert_string_equal(b.buf, "");
	assert_int_equal(b.len, 0);
	assert_int_equal(b.alloc, 0);
	jf_buf_release(&b); /* releasing a fresh buffer is a no-op */
	assert_buf_ok(&b);
	assert_string_equal(b.buf, "");
}

static void test_util__buf_add_keeps_nul(void **state)
{
	(void)state;
	jf_buf b = JF_BUF_INIT;
	jf_buf_add(&b, "abc", 2);
	assert_buf_ok(&b);
	assert_string_equal(b.buf, "ab");
	jf_buf_adds(&b, "cd");
	jf_buf_addc(&b, 'e');
	assert_buf_ok(&b);
	assert_string_equal(b.buf, "abcde");
	assert_int_equal(b.len, 5);
	jf_buf_add(&b, "zzz", 0); /* nothing to add */
	assert_string_equal(b.buf, "abcde");
	/* Grow well past the first allocation, one byte at a time. */
	for (int i = 0; i < 1000; i++) {
		jf_buf_addc(&b, (char)('a' + i % 26));
		assert_buf_ok(&b);
	}
	assert_int_equal(b.len, 1005);
	assert_int_equal(strlen(b.buf), 1005);
	assert_int_equal(b.buf[5], 'a');
	assert_int_equal(b.buf[1004], 'a' + 999 % 26);
	jf_buf_truncate(&b, 3);
	assert_buf_ok(&b);
	assert_string_equal(b.buf, "abc");
	jf_buf_truncate(&b, 10); /* longer than the buffer: no change */
	assert_string_equal(b.buf, "abc");
	jf_buf_release(&b);
	assert_buf_ok(&b);
	assert_int_equal(b.len, 0);
}

static void test_util__buf_addf(void **state)
{
	(void)state;
	jf_buf b = JF_BUF_INIT;
	jf_buf_addf(&b, "%s:%u:%d", "x.py", 12u, -3);
	assert_buf_ok(&b);
	assert_string_equal(b.buf, "x.py:12:-3");
	jf_buf_addf(&b, "%s", ""); /* an empty expansion adds nothing */
	assert_string_equal(b.buf, "x.py:12:-3");
	/* Longer than the buffer's first allocation. */
	char big[300];
	memset(big, 'q', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	jf_buf_addf(&b, "[%s]", big);
	assert_buf_ok(&b);
	assert_int_equal(b.len, 10 + 2 + 299);
	assert_int_equal(b.buf[10], '[');
	assert_int_equal(b.buf[b.len - 1], ']');
	jf_buf_release(&b);

	jf_buf e = JF_BUF_INIT;
	jf_buf_addf(&e, "%s", "");
	assert_buf_ok(&e);
	assert_string_equal(e.buf, "");
	jf_buf_release(&e);

	char *s = jf_xasprintf("%d-%s", 42, "x");
	assert_string_equal(s, "42-x");
	free(s);
}

static void test_util__buf_detach_resets(void **state)
{
	(void)state;
	jf_buf b = JF_BUF_INIT;
	jf_buf_adds(&b, "hello");
	size_t len = 0;
	char *s = jf_buf_detach(&b, &len);
	assert_string_equal(s, "hello");
	assert_int_equal(len, 5);
	assert_buf_ok(&b);
	assert_ptr_equal(b.buf, jf_buf__empty);
	assert_int_equal(b.len, 0);
	assert_int_equal(b.alloc, 0);
	/* The buffer is usable again and does not share memory with `s`. */
	jf_buf_adds(&b, "again");
	assert_string_equal(s, "hello");
	assert_string_equal(b.buf, "again");
	free(s);
	jf_buf_release(&b);

	/* Detaching a fresh buffer still hands over heap memory. */
	jf_buf f = JF_BUF_INIT;
	char *empty = jf_buf_detach(&f, &len);
	assert_non_null(empty);
	assert_ptr_not_equal(empty, jf_buf__empty);
	assert_string_equal(empty, "");
	assert_int_equal(len, 0);
	free(empty);
	assert_string_equal(jf_buf__empty, "");
}

/* jf_buf_add_json_str over `n` bytes of `s`, as a new string. */
static char *json(const char *s, size_t n)
{
	jf_buf b = JF_BUF_INIT;
	jf_buf_add_json_str(&b, s, n);
	return jf_buf_detach(&b, NULL);
}

#define assert_json(in, expect)                                                          \
	do {                                                                             \
		char *j_ = json(in, sizeof(in) - 1);                                     \
		assert_string_equal(j_, expect);                                         \
		free(j_);                                                                \
	} while (0)

static void test_util__json_plain_and_quotes(void **state)
{
	(void)state;
	assert_json("", "\"\"");
	assert_json("abc", "\"abc\"");
	assert_json("say \"hi\"", "\"say \\\"hi\\\"\"");
	assert_json("C:\\dir\\", "\"C:\\\\dir\\\\\"");
	assert_json("a/b", "\"a/b\""); /* '/' needs no escape */
	/* Appends after what the buffer holds. */
	jf_buf b = JF_BUF_INIT;
	jf_buf_adds(&b, "x=");
	jf_buf_add_json_str(&b, "y", 1);
	assert_string_equal(b.buf, "x=\"y\"");
	jf_buf_release(&b);
}

static void test_util__json_control_chars(void **state)
{
	(void)state;
	assert_json("a\nb\tc\rd", "\"a\\nb\\tc\\rd\"");
	assert_json("\x01\x1f", "\"\\u0001\\u001f\"");
	assert_json("\x7f", "\"\\u007f\"");
	assert_json("\x1b[31m", "\"\\u001b[31m\"");
	assert_json("\b\f", "\"\\u0008\\u000c\"");
	/* A NUL inside the given length is escaped, not a terminator. */
	assert_json("a\0b", "\"a\\u0000b\"");
	/* Only `n` bytes are read. */
	char *j = json("abcdef", 3);
	assert_string_equal(j, "\"abc\"");
	free(j);
}

static void test_util__json_utf8_kept(void **state)
{
	(void)state;
	assert_json("caf\xc3\xa9", "\"caf\xc3\xa9\"");                 /* é, 2 bytes */
	assert_json("\xe2\x82\xac 5", "\"\xe2\x82\xac 5\"");           /* €, 3 bytes */
	assert_json("\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"");       /* U+1F600, 4 bytes */
	assert_json("\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"");       /* U+10FFFF */
	assert_json("\xed\x9f\xbf", "\"\xed\x9f\xbf\"");               /* U+D7FF, below surrogates */
}

static void test_util__json_invalid_utf8(void **state)
{
	(void)state;
	assert_json("\xff", "\"\\ufffd\"");
	assert_json("a\x80z", "\"a\\ufffdz\"");                     /* lone continuation byte */
	assert_json("\xc0\xaf", "\"\\ufffd\\ufffd\"");              /* overlong '/' */
	assert_json("\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"");   /* overlong, 3 bytes */
	assert_json("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"");   /* surrogate U+D800 */
	assert_json("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\""); /* > U+10FFFF */
	assert_json("\xf5\x80", "\"\\ufffd\\ufffd\"");
	/* A truncated sequence: each byte is replaced, the next character kept. */
	assert_json("\xe2\x82x", "\"\\ufffd\\ufffdx\"");
	assert_json("ok\xe2\x82", "\"ok\\ufffd\\ufffd\"");
	/* A sequence cut by `n` is invalid even though more bytes follow in memory. */
	char *j = json("\xc3\xa9", 1);
	assert_string_equal(j, "\"\\ufffd\"");
	free(j);
}

/* jf_buf_add_gh_escaped as a new string. */
static char *gh(const char *s, bool property)
{
	jf_buf b = JF_BUF_INIT;
	jf_buf_add_gh_escaped(&b, s, property);
	return jf_buf_detach(&b, NULL);
}

#define assert_gh(in, property, expect)                                                  \
	do {                                                                             \
		char *g_ = gh(in, property);                                             \
		assert_string_equal(g_, expect);                                         \
		free(g_);                                                                \
	} while (0)

static void test_util__gh_message_data(void **state)
{
	(void)state;
	assert_gh("", false, "");
	assert_gh("plain text", false, "plain text");
	assert_gh("100% sure", false, "100%25 sure");
	assert_gh("%0A is not a newline", false, "%250A is not a newline");
	assert_gh("one\ntwo\r\nthree", false, "one%0Atwo%0D%0Athree");
	/* Data keeps ':' and ',' (the message follows the last '::'). */
	assert_gh("a: b, c::d", false, "a: b, c::d");
	assert_gh("caf\xc3\xa9 \xf0\x9f\x98\x80", false, "caf\xc3\xa9 \xf0\x9f\x98\x80");
	assert_gh("bad \xff byte", false, "bad \xef\xbf\xbd byte");
}

static void test_util__gh_property_value(void **state)
{
	(void)state;
	assert_gh("run.sh", true, "run.sh");
	assert_gh("a,b:c", true, "a%2Cb%3Ac");
	assert_gh("JF101 hard-coded-local-path", true, "JF101 hard-coded-local-path");
	assert_gh("50%,\n::", true, "50%25%2C%0A%3A%3A");
	assert_gh("x\r", true, "x%0D");
}

/* jf_buf_add_uri_path as a new string. */
static char *uri(const char *path)
{
	jf_buf b = JF_BUF_INIT;
	jf_buf_add_uri_path(&b, path);
	return jf_buf_detach(&b, NULL);
}

#define assert_uri(in, expect)                                                           \
	do {                                                                             \
		char *u_ = uri(in);                                                      \
		assert_string_equal(u_, expect);                                         \
		free(u_);                                                                \
	} while (0)

static void test_util__uri_path(void **state)
{
	(void)state;
	assert_uri("scripts/train.sh", "scripts/train.sh");
	assert_uri("a-b_c.d~e/../f", "a-b_c.d~e/../f");
	assert_uri("/abs/path.py", "/abs/path.py");
	assert_uri("my file.py", "my%20file.py");
	assert_uri("50%.py", "50%25.py");
	assert_uri("a#b?c.py", "a%23b%3Fc.py");
	assert_uri("[x].py", "%5Bx%5D.py");
	assert_uri("back\\slash", "back%5Cslash");
	/* ':' would make "c:x.py" read as a URI with scheme "c". */
	assert_uri("c:x.py", "c%3Ax.py");
	/* Sub-delimiters and '@' are allowed in a path segment. */
	assert_uri("a,b;c=d!e$f&g'h(i)j*k+l@m", "a,b;c=d!e$f&g'h(i)j*k+l@m");
	/* UTF-8 bytes are percent-encoded, upper-case hex. */
	assert_uri("d\xc3\xa4ta/\xf0\x9f\x98\x80.py", "d%C3%A4ta/%F0%9F%98%80.py");
	assert_uri("\x7f\x01", "%7F%01");
}

static void test_util__edit_distance(void **state)
{
	(void)state;
	assert_int_equal(jf_edit_distance("", "", 3), 0);
	assert_int_equal(jf_edit_distance("image", "image", 3), 0);
	assert_int_equal(jf_edit_distance("", "abc", 5), 3);
	assert_int_equal(jf_edit_distance("abc", "", 5), 3);
	assert_int_equal(jf_edit_distance("kitten", "sitting", 5), 3);
	assert_int_equal(jf_edit_distance("sitting", "kitten", 5), 3);
	/* A swap of neighbours is one edit (optimal string alignment)... */
	assert_int_equal(jf_edit_distance("imgae", "image", 3), 1);
	assert_int_equal(jf_edit_distance("ab", "ba", 3), 1);
	assert_int_equal(jf_edit_distance("comamnd", "command", 3), 1);
	assert_int_equal(jf_edit_distance("abcd", "badc", 3), 2);
	/* ...but a swapped pair is not edited again (unlike full Damerau-Levenshtein). */
	assert_int_equal(jf_edit_distance("ca", "abc", 5), 3);
	assert_int_equal(jf_edit_distance("comand", "command", 3), 1);
	assert_int_equal(jf_edit_distance("workdr", "workdir", 3), 1);
	assert_int_equal(jf_edit_distance("flaw", "lawn", 3), 2);
}

static void test_util__edit_distance_cap(void **state)
{
	(void)state;
	/* At most `max` is exact; beyond, the answer is max + 1. */
	assert_int_equal(jf_edit_distance("kitten", "sitting", 3), 3);
	assert_int_equal(jf_edit_distance("kitten", "sitting", 2), 3);
	assert_int_equal(jf_edit_distance("kitten", "sitting", 1), 2);
	assert_int_equal(jf_edit_distance("kitten", "sitting", 0), 1);
	assert_int_equal(jf_edit_distance("abc", "abc", 0), 0);
	/* The length difference alone exceeds the cap. */
	assert_int_equal(jf_edit_distance("a", "abcdefgh", 2), 3);
	assert_int_equal(jf_edit_distance("abcdefgh", "", 1), 2);
	assert_int_equal(jf_edit_distance("resources", "version", 2), 3);
}

static void test_util__array_push_get(void **state)
{
	(void)state;
	typedef JF_ARRAY(int) int_array;
	int_array a = { 0 };
	assert_null(a.items);
	assert_int_equal(a.size, 0);
	for (int i = 0; i < 1000; i++) {
		jf_array_push(&a, i * 3);
		assert_int_equal(a.size, (size_t)i + 1);
		assert_true(a.cap >= a.size);
	}
	for (size_t i = 0; i < a.size; i++)
		assert_int_equal(*jf_array_get(&a, i), (int)i * 3);
	assert_int_equal(*jf_array_last(&a), 999 * 3);
	*jf_array_get(&a, 10) = -1;
	assert_int_equal(a.items[10], -1);
	/* grow reserves room without changing the size */
	size_t size = a.size;
	jf_array_grow(&a, 5000);
	assert_int_equal(a.size, size);
	assert_true(a.cap >= size + 5000);
	assert_int_equal(a.items[999], 999 * 3);
	jf_array_release(&a);
	assert_null(a.items);
	assert_int_equal(a.size, 0);
	assert_int_equal(a.cap, 0);

	/* Structs, and pushing after a release. */
	typedef struct {
		const char *name;
		int n;
	} pair;
	JF_ARRAY(pair) ps = { 0 };
	pair p1 = { "a", 1 }, p2 = { "b", 2 };
	jf_array_push(&ps, p1);
	jf_array_push(&ps, p2);
	assert_string_equal(jf_array_get(&ps, 1)->name, "b");
	assert_int_equal(jf_array_get(&ps, 0)->n, 1);
	jf_array_release(&ps);
	jf_array_push(&ps, p2);
	assert_int_equal(ps.size, 1);
	assert_string_equal(jf_array_last(&ps)->name, "b");
	jf_array_release(&ps);
}

/* An out-of-bounds jf_array_get is a bug: the process aborts (checked in a child). */
static void test_util__array_get_out_of_bounds_aborts(void **state)
{
	(void)state;
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		signal(SIGABRT, SIG_DFL); /* whatever the harness installed */
		FILE *devnull = freopen("/dev/null", "w", stderr);
		(void)devnull;
		JF_ARRAY(int) a = { 0 };
		jf_array_push(&a, 1);
		int v = *jf_array_get(&a, 1);
		_exit(v == 12345 ? 3 : 0); /* not reached */
	}
	int status = 0;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGABRT);
}

static void test_util__str_helpers(void **state)
{
	(void)state;
	assert_true(jf_str_starts("python3", "python"));
	assert_true(jf_str_starts("x", ""));
	assert_false(jf_str_starts("py", "python"));
	assert_true(jf_str_ends("train.py", ".py"));
	assert_true(jf_str_ends(".py", ".py"));
	assert_false(jf_str_ends("py", ".py"));
	assert_false(jf_str_ends("train.pyc", ".py"));
	char *d = jf_xstrndup("abcdef", 3);
	assert_string_equal(d, "abc");
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_util__buf_fresh_is_empty_string),
		cmocka_unit_test(test_util__buf_add_keeps_nul),
		cmocka_unit_test(test_util__buf_addf),
		cmocka_unit_test(test_util__buf_detach_resets),
		cmocka_unit_test(test_util__json_plain_and_quotes),
		cmocka_unit_test(test_util__json_control_chars),
		cmocka_unit_test(test_util__json_utf8_kept),
		cmocka_unit_test(test_util__json_invalid_utf8),
		cmocka_unit_test(test_util__gh_message_data),
		cmocka_unit_test(test_util__gh_property_value),
		cmocka_unit_test(test_util__uri_path),
		cmocka_unit_test(test_util__edit_distance),
		cmocka_unit_test(test_util__edit_distance_cap),
		cmocka_unit_test(test_util__array_push_get),
		cmocka_unit_test(test_util__array_get_out_of_bounds_aborts),
		cmocka_unit_test(test_util__str_helpers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
