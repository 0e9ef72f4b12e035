/* test_triage.c - data/triage.yaml, the prefilter, cleaning a log line, reading a log */
#define _GNU_SOURCE /* strcasestr, memmem */
#include "helpers.h"

#include <stdio.h>
#include <unistd.h>

#include "core/embed.h"
#include "triage/analyze.h"
#include "triage/log.h"
#include "triage/patterns.h"

static void test_data_is_well_formed(void **state)
{
	(void)state;
	const jf_triage_table *t = jf_triage_table_get();
	if (t->error)
		fail_msg("%s", t->error);
	assert_true(t->npatterns >= 150);
	assert_int_equal(t->ncategories, 22);
	/* a pattern with no literal runs on every line: keep them few */
	assert_true(t->nunfiltered <= 10);
	void *md = jf_triage_match_data_new();
	char buf[4096];
	for (size_t i = 0; i < t->npatterns; i++) {
		const jf_triage_pattern *p = &t->patterns[i];
		/* the example, cleaned as a log line is, is matched, through the prefilter too */
		jf_log_line ln;
		size_t len = strlen(p->example);
		assert_true(len < sizeof buf);
		jf_log_clean(p->example, len, buf, &ln);
		if (!jf_triage_pattern_matches(p, ln.text, ln.len, md))
			fail_msg("data/triage.yaml:%u: %s does not match its example", p->line, p->id);
		bool held = !p->literals;
		for (char **l = p->literals; l && *l; l++)
			held = held || strcasestr(ln.text, *l);
		if (!held)
			fail_msg("data/triage.yaml:%u: %s: no literal of it in its example", p->line, p->id);
		if (strncmp(p->source, "https://", 8))
			fail_msg("data/triage.yaml:%u: %s: the source is no URL", p->line, p->id);
		if (p->cause && !strstr(" CPE DE IPS ED APIM ", p->cause))
			fail_msg("data/triage.yaml:%u: %s: unknown cause %s", p->line, p->id, p->cause);
	}
	jf_triage_match_data_free(md);
}

/* `why` read back is the whole value the file holds: the text after "why: " (and a quote),
 * ended by the value's end, not cut at a comma of a {...} mapping. */
static void expect_whole_why(const jf_embedded *f, const char *why, const char *what)
{
	char key[512];
	int n = snprintf(key, sizeof key, "why: %s", why);
	assert_true(n > 0 && (size_t)n < sizeof key);
	const char *data = (const char *)f->data, *end = data + f->len;
	/* plain, "double-quoted", 'single-quoted' (a quote written twice) */
	for (int form = 0; form < 3; form++) {
		if (form == 1)
			snprintf(key, sizeof key, "why: \"%s", why);
		if (form == 2) {
			size_t k = (size_t)snprintf(key, sizeof key, "why: '");
			for (const char *c = why; *c && k + 3 < sizeof key; c++)
				k += (size_t)snprintf(key + k, sizeof key - k, *c == '\'' ? "''" : "%c", *c);
		}
		size_t k = strlen(key);
		for (const char *at = data; (at = memmem(at, (size_t)(end - at), key, k)); at++)
			if (at + k == end || strchr(form == 0 ? "\n" : form == 1 ? "\"" : "'", at[k]))
				return;
	}
	fail_msg("data/triage.yaml: the why of %s is read as '%s', not the whole value", what, why);
}

static void test_whys_are_whole(void **state)
{
	(void)state;
	const jf_triage_table *t = jf_triage_table_get();
	const jf_embedded *f = jf_embedded_data_find("triage.yaml");
	assert_non_null(f);
	for (size_t i = 0; i < t->ncategories; i++) {
		expect_whole_why(f, t->categories[i].why, t->categories[i].name);
		/* Unknown says the log does not tell: a retry may or may not help */
		if (!strcmp(t->categories[i].name, "Unknown"))
			assert_int_equal(t->categories[i].retry, JF_RETRY_MAYBE);
	}
	for (size_t i = 0; i < t->npatterns; i++) {
		const jf_triage_pattern *p = &t->patterns[i];
		if (p->why)
			expect_whole_why(f, p->why, p->id);
		else if (p->retry != p->category->retry)
			fail_msg("data/triage.yaml:%u: %s: another retry than its category's, no why",
			         p->line, p->id);
	}
}

static void expect_literal(const char *re, const char *want)
{
	char *got = jf_triage_literal(re);
	if (!want)
		assert_null(got);
	else if (!got || strcmp(got, want))
		fail_msg("literal of '%s': '%s', expected '%s'", re, got ? got : "(none)", want);
	free(got);
}

static void expect_literals(const char *re, const char *want)
{
	char **got = jf_triage_literals(re);
	char joined[256] = "";
	for (char **l = got; l && *l; l++)
		snprintf(joined + strlen(joined), sizeof joined - strlen(joined), "%s%s",
		         l == got ? "" : "|", *l);
	if (!want ? got != NULL : strcmp(joined, want))
		fail_msg("literals of '%s': '%s', expected '%s'", re, got ? joined : "(none)",
		         want ? want : "(none)");
	jf_triage_literals_free(got);
}

static void test_literal(void **state)
{
	(void)state;
	expect_literals("Killed by signal", "killed by signal");
	expect_literals("CUDA backend failed|Backend .cuda. failed to init", "cuda backend failed| failed to init");
	expect_literals("(?<![\\w])(?:TracerBoolError|ConcretizationTypeError)\\b",
	                "tracerboolerror|concretizationtypeerror");
	expect_literals("(?i)(?:exceeded mem usage|TERM_MEMLIMIT)", "exceeded mem usage|term_memlimit");
	expect_literals("ab|cdefgh", NULL);             /* an alternative with no literal */
	expect_literals("x(?:abcdef|ghijkl)?y", NULL);  /* an optional group */
	expect_literal("CUDA out of memory\\. Tried", "cuda out of memory. tried");
	expect_literal("(?i)resource.?exhausted: Out of memory", "exhausted: out of memory");
	expect_literal("a|bcdefgh", NULL);                  /* top-level alternation */
	expect_literal("(?:abc|def)ghij klm", "ghij klm");  /* a group is skipped */
	expect_literal("Errors?: the thing", ": the thing"); /* "s?" may be absent */
	expect_literal("x+yyyy", "xyyyy");                  /* x+: at least one x */
	expect_literal("abc\\d+defg", "defg");
	expect_literal("\\x41BCDEFG", NULL); /* escapes not told apart: give up */
	expect_literal("[abc]{2,}", NULL);
	expect_literal("ab{0,3}cdef", "cdef");
	expect_literal("\\QA.B*C\\E", "a.b*c");
}

typedef struct {
	uint32_t ids[16];
	size_t n;
} found_ids;

static bool collect(void *data, uint32_t id, size_t at)
{
	(void)at;
	found_ids *f = data;
	f->ids[f->n++] = id;
	return f->n < 16;
}

static void test_keyset(void **state)
{
	(void)state;
	jf_keyset *k = jf_keyset_new();
	char key[16];
	for (uint32_t i = 0; i < 200; i++) { /* enough to rehash */
		snprintf(key, sizeof key, "key%04u", i);
		jf_keyset_add(k, key, i);
	}
	jf_keyset_add(k, "key0007x", 1000); /* the same gram as key0007 */
	found_ids f = { 0 };
	const char *text = "a KEY0007X and key0199 and key";
	jf_keyset_scan(k, text, strlen(text), collect, &f);
	assert_int_equal(f.n, 3);
	assert_int_equal(f.ids[0], 7);
	assert_int_equal(f.ids[1], 1000);
	assert_int_equal(f.ids[2], 199);
	f.n = 0;
	jf_keyset_scan(k, "key", 3, collect, &f); /* shorter than a gram */
	assert_int_equal(f.n, 0);
	jf_keyset_free(k);
}

static jf_log_line clean(const char *raw, char *buf)
{
	jf_log_line ln;
	jf_log_clean(raw, strlen(raw), buf, &ln);
	return ln;
}

static void expect_clean(const char *raw, const char *text, const char *rank)
{
	char buf[1024];
	jf_log_line ln = clean(raw, buf);
	if (ln.len != strlen(text) || memcmp(ln.text, text, ln.len))
		fail_msg("'%s' cleaned to '%.*s', expected '%s'", raw, (int)ln.len, ln.text, text);
	assert_string_equal(ln.rank, rank);
}

static void test_clean(void **state)
{
	(void)state;
	expect_clean("2024-03-01T12:00:05.123Z Traceback", "Traceback", "");
	expect_clean("[rank3]: KeyError: 'x'", "KeyError: 'x'", "rank3");
	expect_clean("[default0]:  File \"a.py\", line 1", " File \"a.py\", line 1", "default0");
	expect_clean("3: RuntimeError: boom", "RuntimeError: boom", "3");
	expect_clean("[1,0]<stderr>:ValueError: v", "ValueError: v", "1,0");
	/* a second write of the rank inside the line brings its tag again */
	expect_clean("[1,19]<stderr>:RuntimeError[1,19]<stderr>:: NCCL aborted", "RuntimeError: NCCL aborted",
	             "1,19");
	expect_clean("x = a[1,2]<stdout> kept", "x = a[1,2]<stdout> kept", "");
	/* a traceback quoted as one JSON string: its escaped line breaks read as spaces */
	expect_clean("\"Reason\": \"Traceback (most recent call last):\\n  File \\\"t.py\\\"\\nKeyError: 'a'\"",
	             "\"Reason\": \"Traceback (most recent call last):    File \\\"t.py\\\"  KeyError: 'a'\"", "");
	expect_clean("File \"C:\\new\\train.py\", line 3", "File \"C:\\new\\train.py\", line 3", "");
	expect_clean("worker-1: [rank1]: OSError: x", "OSError: x", "rank1");
	expect_clean("I0301 12:00:00.123456  1234 file.cc:56] message", "message", "");
	expect_clean("2024-01-02 03:04:05,678 - INFO - hello", "INFO - hello", "");
	expect_clean("\x1b[31mERROR\x1b[0m: red", "ERROR: red", "");
	expect_clean("  0%|   | 0/10\r 50%|#  | 5/10\rKilled\r\r", "Killed", "");
	expect_clean("KeyError: 'a'", "KeyError: 'a'", ""); /* no prefix taken for a name */
	expect_clean("[INFO] kept", "[INFO] kept", "");
	char buf[128];
	jf_log_line a = clean("2024-03-01T12:00:05Z x", buf);
	jf_log_line b = clean("[2024-03-02 12:00:05,001] y", buf);
	assert_true(a.dated && b.dated);
	assert_int_equal(b.time - a.time, 86400);
	assert_int_equal(jf_days_from_civil(1970, 1, 1), 0);
	assert_int_equal(jf_days_from_civil(2000, 3, 1), 11017);
}

static char *write_log(const char *text, size_t len)
{
	char *path = strdup("/tmp/jobfix-triage-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
	return path;
}

static jf_triage_result analyze(const char *text)
{
	char *path = write_log(text, strlen(text));
	jf_triage_result r;
	jf_triage_analyze(path, &r);
	unlink(path);
	free(path);
	return r;
}

static void test_root_of_interleaved_ranks(void **state)
{
	(void)state;
	jf_triage_result r = analyze(
		"[rank1]: Traceback (most recent call last):\n"
		"[rank0]: Traceback (most recent call last):\n"
		"[rank1]:   File \"/work/train.py\", line 10, in <module>\n"
		"[rank0]:   File \"/work/train.py\", line 10, in <module>\n"
		"[rank1]:   File \"/work/train.py\", line 7, in evaluate\n"
		"[rank0]:   File \"/work/model.py\", line 3, in forward\n"
		"[rank1]: KeyError: 'label'\n"
		"[rank0]: KeyError: 'label'\n"
		"torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n");
	assert_null(r.error);
	assert_true(r.found);
	assert_int_equal(r.line, 7);
	assert_string_equal(r.category->name, "Key Not Found");
	assert_true(r.has_frame);
	assert_string_equal(r.frame.file, "/work/train.py"); /* rank1's own frames */
	assert_int_equal(r.frame.line, 7);
	assert_string_equal(r.stage, "evaluation");
	jf_triage_result_release(&r);
}

static void test_oom_before_runtime_error(void **state)
{
	(void)state;
	jf_triage_result r = analyze(
		"2024-01-01 10:00:00 epoch 1 step 100 loss 2.3\n"
		"2024-01-01 11:30:00 epoch 2 step 200 loss 2.1\n"
		"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n"
		"RuntimeError: NCCL communicator was aborted on rank 0.\n");
	assert_string_equal(r.category->name, "GPU Out of Memory");
	assert_int_equal(r.retry, JF_RETRY_NO);
	assert_int_equal(r.line, 3);
	assert_string_equal(r.stage, "training");
	assert_string_equal(r.progress, "epoch 2, step 200");
	assert_int_equal(r.elapsed, 5400);
	jf_triage_result_release(&r);
}

static void test_explaining_line(void **state)
{
	(void)state;
	jf_triage_result r = analyze(
		"Warning: dataset folder /data/coco does not exist\n"
		"Traceback (most recent call last):\n"
		"  File \"train.py\", line 5, in <module>\n"
		"TypeError: 'NoneType' object is not subscriptable\n");
	assert_string_equal(r.category->name, "Path Not Found");
	assert_int_equal(r.line, 1);
	assert_true(r.has_frame);
	assert_string_equal(r.frame.file, "train.py");
	jf_triage_result_release(&r);
	/* alone, it is no failure */
	r = analyze("Warning: dataset folder /data/coco does not exist\nall done\n");
	assert_false(r.found);
	assert_string_equal(r.category->name, "Unknown");
	jf_triage_result_release(&r);
}

static void test_unknown_exception(void **state)
{
	(void)state;
	jf_triage_result r = analyze(
		"Traceback (most recent call last):\n"
		"  File \"/opt/conda/lib/python3.10/site-packages/lib/x.py\", line 5, in f\n"
		"    g()\n"
		"mylib.errors.WeirdThing: something odd\n");
	assert_true(r.found);
	assert_null(r.pattern);
	assert_string_equal(r.category->name, "Unknown");
	assert_string_equal(r.message, "mylib.errors.WeirdThing: something odd");
	assert_false(r.has_frame); /* only a library frame */
	jf_triage_result_release(&r);
}

/* A log no pattern knows still gives its failure line: an exception line of its own (a
 * launcher's wrapper line tells less), else the last line with an error word that is not a
 * warning's or a progress bar's. */
static void test_line_without_pattern(void **state)
{
	(void)state;
	jf_triage_result r = analyze(
		"epoch 3 step 40 loss 1.2\n"
		"mylib.WeirdStateException: `devices` selected 8 but only 2 are available\n"
		"ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 "
		"(pid: 12) of binary: /usr/bin/python\n");
	assert_true(r.found);
	assert_null(r.pattern);
	assert_int_equal(r.basis, JF_BASIS_EXCEPTION);
	assert_int_equal(r.line, 2);
	assert_string_equal(r.category->name, "Unknown");
	assert_int_equal(r.retry, JF_RETRY_MAYBE);
	jf_triage_result_release(&r);
	r = analyze("Downloading shards: 100%|####| 2/2 [00:10<00:00, 5.00s/it] error\n"
	            "UserWarning: this call will fail in a future release\n"
	            "launcher: the job step ended unsuccessfully on node-7\n"
	            "--fail-fast given: stopping\n"
	            "wandb: Synced 5 files\n");
	assert_true(r.found);
	assert_int_equal(r.basis, JF_BASIS_ERROR_WORD);
	assert_int_equal(r.line, 3);
	jf_triage_result_release(&r);
	/* an IDE's paste: the exception's name, then its message on the next line */
	r = analyze("Exception has occurred: FileNotFoundError\n"
	            "[Errno 2] No such file or directory: 'data/train.json'\n"
	            "  File \"/work/train.py\", line 3, in <module>\n");
	assert_non_null(r.pattern);
	assert_string_equal(r.category->name, "Path Not Found");
	assert_int_equal(r.line, 2);
	assert_string_equal(r.message, "FileNotFoundError: [Errno 2] No such file or directory: 'data/train.json'");
	jf_triage_result_release(&r);
	r = analyze("UserWarning: this call will fail in a future release\nall done\n");
	assert_false(r.found);
	assert_int_equal(r.basis, JF_BASIS_NONE);
	jf_triage_result_release(&r);
}

static void test_bad_input(void **state)
{
	(void)state;
	char *path = write_log("ok\nnot \0 text\n", 14);
	jf_triage_result r;
	jf_triage_analyze(path, &r);
	assert_non_null(r.error);
	assert_non_null(strstr(r.error, "2:5: a NUL byte"));
	jf_triage_result_release(&r);
	unlink(path);
	free(path);
	jf_triage_analyze("/nonexistent/log", &r);
	assert_non_null(strstr(r.error, "cannot open"));
	jf_triage_result_release(&r);
	jf_triage_analyze("/tmp", &r);
	assert_non_null(strstr(r.error, "is a folder"));
	jf_triage_result_release(&r);
	/* invalid UTF-8 and control characters are not quoted as they are */
	r = analyze("KeyError: '\xff\xfe\x01x'");
	assert_string_equal(r.message, "KeyError: '\xef\xbf\xbd\xef\xbf\xbd x'");
	jf_triage_result_release(&r);
	r = analyze("");
	assert_false(r.found);
	assert_int_equal(r.lines, 0);
	jf_triage_result_release(&r);
}

static void test_library_files(void **state)
{
	(void)state;
	assert_true(jf_triage_library_file("/usr/lib/python3.10/site-packages/torch/nn/x.py"));
	assert_true(jf_triage_library_file("/opt/conda/lib/python3.10/runpy.py"));
	assert_true(jf_triage_library_file("<frozen runpy>"));
	assert_true(jf_triage_library_file("C:\\Python39\\Lib\\site-packages\\torch\\x.py"));
	assert_false(jf_triage_library_file("/workspace/train.py"));
	assert_false(jf_triage_library_file("train.py"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_data_is_well_formed),
		cmocka_unit_test(test_whys_are_whole),
		cmocka_unit_test(test_literal),
		cmocka_unit_test(test_keyset),
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_root_of_interleaved_ranks),
		cmocka_unit_test(test_oom_before_runtime_error),
		cmocka_unit_test(test_explaining_line),
		cmocka_unit_test(test_unknown_exception),
		cmocka_unit_test(test_line_without_pattern),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_library_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
