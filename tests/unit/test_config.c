/* test_config.c - unit tests of the config: discovery, loading, errors with positions, selection, overrides */
#include "helpers.h"

#include "rules/config.h"

typedef struct {
	char *dir;
	char *path; /* <dir>/.jobfix.yaml */
	jf_config *config;
	jf_linter *linter;
} fixture;

static int setup(void **state)
{
	fixture *f = jf_xcalloc(1, sizeof(*f));
	f->dir = th_mkdtemp();
	f->path = jf_xasprintf("%s/.jobfix.yaml", f->dir);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	fixture *f = *state;
	jf_linter_free(f->linter);
	jf_config_free(f->config);
	th_rmtree(f->dir);
	free(f->dir);
	free(f->path);
	free(f);
	return 0;
}

static void dump_errors(const jf_config *c)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	jf_config_write_errors(c, m, JF_FORMAT_CONCISE, 0);
	fclose(m);
	print_message("%s", text);
	free(text);
}

/* Writes `text` as the config, loads and resolves it; returns resolve's result. */
static int load(fixture *f, const char *text)
{
	th_put(f->dir, ".jobfix.yaml", text);
	jf_config_free(f->config);
	f->config = jf_config_new();
	int rc = jf_config_load(f->config, f->path);
	int rc2 = jf_config_resolve(f->config);
	return rc ? rc : rc2;
}

static void load_ok(fixture *f, const char *text)
{
	if (load(f, text) != 0) {
		dump_errors(f->config);
		fail_msg("the config has errors");
	}
}

/* The text of error `i` in concise form: "file:line:col: error: message". */
static char *error_line(const jf_config *c, size_t i)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	jf_config_write_errors(c, m, JF_FORMAT_CONCISE, 0);
	fclose(m);
	char *line = text;
	for (size_t k = 0; k < i && line; k++) {
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
	}
	char *out = line ? jf_xstrndup(line, strcspn(line, "\n")) : jf_xstrdup("");
	free(text);
	return out;
}

/* Asserts the config has `n` errors and error `i` reads `expect` after the folder. */
static void expect_error(fixture *f, size_t n, size_t i, const char *expect)
{
	if (jf_config_error_count(f->config) != n) {
		dump_errors(f->config);
		fail_msg("%zu errors, expected %zu", jf_config_error_count(f->config), n);
	}
	char *line = error_line(f->config, i);
	const char *rest = jf_str_starts(line, f->dir) ? line + strlen(f->dir) + 1 : line;
	if (strcmp(rest, expect))
		fail_msg("error %zu is\n  %s\nexpected\n  %s", i, rest, expect);
	free(line);
}

static void lint(fixture *f, const char *rel)
{
	jf_linter_free(f->linter);
	jf_options opts = JF_OPTIONS_INIT;
	opts.config = f->config;
	f->linter = jf_linter_new(&opts);
	char *path = jf_xasprintf("%s/%s", f->dir, rel);
	int rc = jf_linter_lint(f->linter, path);
	if (rc != 0)
		fail_msg("lint %s: %d %s", rel, rc, jf_linter_error(f->linter));
	free(path);
}

static void expect_count(fixture *f, const char *id, size_t n)
{
	if (th_count(f->linter, id) != n) {
		th_dump(f->linter);
		fail_msg("%zu %s, expected %zu", th_count(f->linter, id), id, n);
	}
}

/* A job whose files have findings of JF101 (Path Not Found, error), JF104
 * (Permission Denied, error) and JF305 (Type Mismatch, warning). */
static void write_job(fixture *f)
{
	th_put(f->dir, "job.yaml",
	       "image: {name: team/train:1, user: \"1000\"}\n"
	       "env: {PYTHONNOUSERSITE: \"1\"}\n"
	       "workdir: /workspace\n"
	       "command: |\n"
	       "  pip install fairseq\n"
	       "  python train.py\n");
	th_put(f->dir, "train.py",
	       "import argparse\n"
	       "p = argparse.ArgumentParser()\n"
	       "p.add_argument('--fast', type=bool)\n"
	       "p.parse_args()\n"
	       "open('/home/me/data.txt')\n");
	th_put(f->dir, "tools/prep.py", "open('/home/me/raw.txt')\n");
}

/* Discovery */

static void test_config__find_walks_up(void **state)
{
	fixture *f = *state;
	th_put(f->dir, "a/b/c/keep", "");
	char *start = jf_xasprintf("%s/a/b/c", f->dir);
	assert_null(jf_config_find(start));
	th_put(f->dir, ".jobfix.yaml", "");
	char *found = jf_config_find(start);
	assert_non_null(found);
	assert_string_equal(found, f->path);
	free(found);
	th_put(f->dir, "a/b/.jobfix.yaml", "");
	found = jf_config_find(start);
	char *expect = jf_xasprintf("%s/a/b/.jobfix.yaml", f->dir);
	assert_string_equal(found, expect);
	free(expect);
	free(found);
	free(start);
}

static void test_config__find_stops_at_git(void **state)
{
	fixture *f = *state;
	th_put(f->dir, ".jobfix.yaml", "");
	th_put(f->dir, "repo/.git/HEAD", "ref: refs/heads/main\n");
	th_put(f->dir, "repo/src/keep", "");
	char *start = jf_xasprintf("%s/repo/src", f->dir);
	assert_null(jf_config_find(start)); /* the repository's top is the last folder searched */
	th_put(f->dir, "repo/.jobfix.yaml", "");
	char *found = jf_config_find(start);
	char *expect = jf_xasprintf("%s/repo/.jobfix.yaml", f->dir);
	assert_string_equal(found, expect);
	free(expect);
	free(found);
	/* A worktree's .git is a file: it counts too. */
	th_rmtree(found = jf_xasprintf("%s/repo", f->dir));
	free(found);
	th_put(f->dir, "wt/.git", "gitdir: /elsewhere\n");
	th_put(f->dir, "wt/src/keep", "");
	free(start);
	start = jf_xasprintf("%s/wt/src", f->dir);
	assert_null(jf_config_find(start));
	free(start);
}

static void test_config__find_relative(void **state)
{
	fixture *f = *state;
	th_put(f->dir, ".jobfix.yaml", "");
	th_put(f->dir, "x/y/keep", "");
	char *old = getcwd(NULL, 0);
	char *sub = jf_xasprintf("%s/x/y", f->dir);
	assert_int_equal(chdir(sub), 0);
	char *found = jf_config_find(NULL);
	assert_int_equal(chdir(old), 0);
	assert_non_null(found);
	assert_string_equal(found, "../../.jobfix.yaml");
	free(found);
	free(sub);
	free(old);
}

/* Loading */

static void test_config__every_key(void **state)
{
	fixture *f = *state;
	th_put(f->dir, "rules/python/.keep", "");
	load_ok(f, "# jobfix's config\n"
	           "select: [JF1, hard-coded-local-path, \"Type Mismatch\"]\n"
	           "ignore: [JF104]\n"
	           "severity: {JF101: warning, JF305: note}\n"
	           "exclude: [build/, \"**/*_pb2.py\"]\n"
	           "per-file-ignores:\n"
	           "  \"tests/**\": [JF101]\n"
	           "jobs: [\"jobs/*/job.yaml\", train.yaml]\n"
	           "rules-dir: rules\n"
	           "fail-on: error\n");
	assert_string_equal(jf_config_path(f->config), f->path);
	assert_string_equal(jf_config_dir(f->config), f->dir);
	assert_string_equal(jf_config_job_pattern(f->config, 0), "jobs/*/job.yaml");
	assert_string_equal(jf_config_job_pattern(f->config, 1), "train.yaml");
	assert_null(jf_config_job_pattern(f->config, 2));
	jf_severity s = JF_SEV_NOTE;
	assert_true(jf_config_fail_on(f->config, &s));
	assert_int_equal(s, JF_SEV_ERROR);
	const jf_rule *jf101 = th_rule("JF101"), *jf104 = th_rule("JF104");
	const jf_rule *jf305 = th_rule("JF305"), *jf201 = th_rule("JF201");
	assert_true(jf_config__enabled(f->config, jf101));
	assert_false(jf_config__enabled(f->config, jf104)); /* ignore wins over select */
	assert_true(jf_config__enabled(f->config, jf305));  /* by category */
	assert_false(jf_config__enabled(f->config, jf201)); /* not selected */
	assert_int_equal(jf_config__severity(f->config, jf101), JF_SEV_WARNING);
	assert_int_equal(jf_config__severity(f->config, jf305), JF_SEV_NOTE);
	assert_int_equal(jf_config__severity(f->config, jf104), JF_SEV_ERROR);
}

static void test_config__empty_file_is_defaults(void **state)
{
	fixture *f = *state;
	load_ok(f, "# nothing yet\n");
	jf_severity s = JF_SEV_NOTE;
	assert_false(jf_config_fail_on(f->config, &s));
	assert_null(jf_config_job_pattern(f->config, 0));
	for (size_t i = 0; i < th_rules_size(); i++)
		assert_true(jf_config__enabled(f->config, th_rule_at(i)));
	/* No config at all: the same. */
	assert_true(jf_config__enabled(NULL, th_rule("JF101")));
	assert_false(jf_config__excluded(NULL, "x.py"));
}

static void test_config__unreadable(void **state)
{
	fixture *f = *state;
	f->config = jf_config_new();
	char *missing = jf_xasprintf("%s/missing.yaml", f->dir);
	assert_int_equal(jf_config_load(f->config, missing), JF_EIO);
	assert_int_equal(jf_config_error_count(f->config), 1);
	char *line = error_line(f->config, 0);
	assert_non_null(strstr(line, "jobfix: error: cannot read the config"));
	assert_non_null(strstr(line, "No such file or directory"));
	free(line);
	free(missing);
}

static void test_config__unknown_key(void **state)
{
	fixture *f = *state;
	assert_int_equal(load(f, "select: [JF101]\nignroe: [JF104]\nfrobnicate: 1\n"), JF_EPARSE);
	expect_error(f, 2, 0, ".jobfix.yaml:2:1: error: unknown key 'ignroe' in the config");
	expect_error(f, 2, 1, ".jobfix.yaml:3:1: error: unknown key 'frobnicate' in the config");
	/* The did-you-mean is the help. */
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	jf_config_write_errors(f->config, m, JF_FORMAT_TEXT, 0);
	fclose(m);
	assert_non_null(strstr(text, "   = help: did you mean 'ignore'?\n"));
	assert_non_null(strstr(text, "2 | ignroe: [JF104]\n  | ^^^^^^\n"));
	free(text);
}

static void test_config__wrong_types(void **state)
{
	fixture *f = *state;
	assert_int_equal(load(f, "select: JF101\n"
	                         "ignore: [[JF104]]\n"
	                         "severity: [JF101]\n"
	                         "exclude: {a: b}\n"
	                         "rules-dir: [a]\n"
	                         "jobs:\n"
	                         "per-file-ignores: {\"*.py\": JF101}\n"),
	                 JF_EPARSE);
	expect_error(f, 7, 0,
	             ".jobfix.yaml:1:9: error: 'select' must be a list of rules (ids, names, id "
	             "prefixes or categories), not 'JF101'");
	expect_error(f, 7, 1,
	             ".jobfix.yaml:2:10: error: an entry of 'ignore' must be a rule id, name, id "
	             "prefix or category, not a list");
	expect_error(f, 7, 2,
	             ".jobfix.yaml:3:11: error: 'severity' must be a mapping of rules to error, "
	             "warning or note, not a list");
	expect_error(f, 7, 3,
	             ".jobfix.yaml:4:10: error: 'exclude' must be a list of glob patterns, not a mapping");
	expect_error(f, 7, 4, ".jobfix.yaml:5:12: error: 'rules-dir' must be a folder, not a list");
	expect_error(f, 7, 5,
	             ".jobfix.yaml:6:6: error: 'jobs' must be a list of glob patterns, not empty");
	expect_error(f, 7, 6,
	             ".jobfix.yaml:7:28: error: 'per-file-ignores.*.py' must be a list of rules (ids, "
	             "names, id prefixes or categories), not 'JF101'");
}

static void test_config__bad_values(void **state)
{
	fixture *f = *state;
	assert_int_equal(load(f, "severity:\n"
	                         "  JF101: fatal\n"
	                         "fail-on: never\n"
	                         "exclude: [\"[abc\"]\n"
	                         "select: [JF101]\n"
	                         "select: [JF102]\n"),
	                 JF_EPARSE);
	expect_error(f, 4, 0,
	             ".jobfix.yaml:2:10: error: the severity of 'JF101' must be error, warning or "
	             "note, not 'fatal'");
	expect_error(f, 4, 1,
	             ".jobfix.yaml:3:10: error: 'fail-on' must be error, warning or note, not 'never'");
	expect_error(f, 4, 2,
	             ".jobfix.yaml:4:11: error: bad pattern '[abc': '[' without a closing ']'");
	expect_error(f, 4, 3, ".jobfix.yaml:6:1: error: key 'select' is given twice");
}

static void test_config__unknown_rules(void **state)
{
	fixture *f = *state;
	assert_int_equal(load(f, "select: [JF1, hard-coded-local-pth, JF9]\n"
	                         "ignore: [path not found]\n"
	                         "severity: {JF999: note}\n"
	                         "per-file-ignores: {\"*.py\": [JF30]}\n"),
	                 JF_EPARSE);
	expect_error(f, 4, 0, ".jobfix.yaml:1:15: error: unknown rule 'hard-coded-local-pth'");
	expect_error(f, 4, 1, ".jobfix.yaml:1:37: error: unknown rule 'JF9'");
	expect_error(f, 4, 2, ".jobfix.yaml:2:10: error: unknown rule 'path not found'");
	expect_error(f, 4, 3, ".jobfix.yaml:3:12: error: unknown rule 'JF999'");
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	jf_config_write_errors(f->config, m, JF_FORMAT_TEXT, 0);
	fclose(m);
	assert_non_null(strstr(text, "did you mean 'hard-coded-local-path'?"));
	assert_non_null(strstr(text, "did you mean 'Path Not Found'?"));
	free(text);
}

static void test_config__bad_yaml(void **state)
{
	fixture *f = *state;
	assert_int_equal(load(f, "select: [JF101\nignore: [JF104]\n"), JF_EPARSE);
	assert_int_equal(jf_config_error_count(f->config), 1);
	char *line = error_line(f->config, 0);
	assert_non_null(strstr(line, ".jobfix.yaml:2:7: error: did not find expected ',' or ']'"));
	free(line);
	/* The construct libyaml was reading is a related note. */
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	jf_config_write_errors(f->config, m, JF_FORMAT_TEXT, 0);
	fclose(m);
	assert_non_null(strstr(text, "   = note: "));
	assert_non_null(strstr(text, ".jobfix.yaml:1:9: while parsing a flow sequence\n"));
	free(text);
	assert_int_equal(load(f, "- JF101\n"), JF_EPARSE);
	expect_error(f, 1, 0,
	             ".jobfix.yaml:1:1: error: the config must be a mapping of keys to values, not a list");
	/* A NUL byte: not YAML text. */
	free(th_write_n(f->dir, ".jobfix.yaml", "select: [a\0b]\n", 14));
	jf_config_free(f->config);
	f->config = jf_config_new();
	assert_int_equal(jf_config_load(f->config, f->path), JF_EPARSE);
	expect_error(f, 1, 0,
	             ".jobfix.yaml:1:11: error: the config holds a NUL byte: it is not a YAML text file");
}

static void test_config__json_errors(void **state)
{
	fixture *f = *state;
	assert_int_equal(load(f, "selet: [JF101]\n"), JF_EPARSE);
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	jf_config_write_errors(f->config, m, JF_FORMAT_JSON, 0);
	fclose(m);
	char *expect = jf_xasprintf("{\n"
	                            "  \"version\": 1,\n"
	                            "  \"diagnostics\": [],\n"
	                            "  \"config_errors\": [\n"
	                            "    {\n"
	                            "      \"file\": \"%s\",\n"
	                            "      \"line\": 1,\n"
	                            "      \"column\": 1,\n"
	                            "      \"end_line\": 1,\n"
	                            "      \"end_column\": 6,\n"
	                            "      \"message\": \"unknown key 'selet' in the config\",\n"
	                            "      \"help\": \"did you mean 'select'?\",\n"
	                            "      \"related\": []\n"
	                            "    }\n"
	                            "  ]\n"
	                            "}\n",
	                            f->path);
	assert_string_equal(text, expect);
	free(expect);
	free(text);
}

/* The command line's overrides */

static void test_config__overrides(void **state)
{
	fixture *f = *state;
	th_put(f->dir, ".jobfix.yaml", "select: [JF101]\nignore: [JF102]\nfail-on: note\n");
	f->config = jf_config_new();
	assert_int_equal(jf_config_load(f->config, f->path), 0);
	assert_int_equal(jf_config_set(f->config, "select", "JF3, JF102 ,missing-script"), 0);
	assert_int_equal(jf_config_set(f->config, "ignore", "JF306"), 0);
	assert_int_equal(jf_config_set(f->config, "fail-on", "error"), 0);
	assert_int_equal(jf_config_resolve(f->config), 0);
	/* --select replaces the file's select, --ignore its ignore. */
	assert_false(jf_config__enabled(f->config, th_rule("JF101")));
	assert_true(jf_config__enabled(f->config, th_rule("JF102")));
	assert_true(jf_config__enabled(f->config, th_rule("JF302")));
	assert_false(jf_config__enabled(f->config, th_rule("JF306")));
	jf_severity s;
	assert_true(jf_config_fail_on(f->config, &s));
	assert_int_equal(s, JF_SEV_ERROR);
}

static void test_config__override_errors(void **state)
{
	fixture *f = *state;
	f->config = jf_config_new();
	assert_int_equal(jf_config_set(f->config, "select", "JF101,,JF102"), JF_ERROR);
	assert_int_equal(jf_config_set(f->config, "ignore", "JF10x"), 0);
	assert_int_equal(jf_config_set(f->config, "fail-on", "fatal"), JF_ERROR);
	assert_int_equal(jf_config_set(f->config, "rules-dir", "/no/such/folder"), 0);
	assert_int_equal(jf_config_resolve(f->config), JF_EPARSE);
	expect_error(f, 4, 0, "jobfix: error: an empty rule in --select 'JF101,,JF102'");
	expect_error(f, 4, 1,
	             "jobfix: error: unknown severity 'fatal' in --fail-on (error, warning, note)");
	expect_error(f, 4, 2,
	             "jobfix: error: the rules folder '/no/such/folder' of --rules-dir does not exist");
	expect_error(f, 4, 3, "jobfix: error: unknown rule 'JF10x' in --ignore");
}

/* Selection in a lint */

static void test_config__select_by_id_name_category_prefix(void **state)
{
	fixture *f = *state;
	write_job(f);
	static const struct {
		const char *config;
		size_t jf101, jf104, jf305;
	} cases[] = {
		{ "select: [JF101]\n", 1, 0, 0 },
		{ "select: [pip-install-without-user]\n", 0, 1, 0 },
		{ "select: [\"Type Mismatch\"]\n", 0, 0, 1 },
		{ "select: [JF1]\n", 1, 1, 0 },
		{ "select: [JF]\n", 1, 1, 1 },
		{ "ignore: [JF3, Permission Denied]\n", 1, 0, 0 },
		{ "select: [JF1]\nignore: [JF101]\n", 0, 1, 0 },
		{ "select: []\n", 0, 0, 0 },
		{ "", 1, 1, 1 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		load_ok(f, cases[i].config);
		lint(f, "job.yaml");
		print_message("config: %s", cases[i].config);
		expect_count(f, "JF101", cases[i].jf101);
		expect_count(f, "JF104", cases[i].jf104);
		expect_count(f, "JF305", cases[i].jf305);
	}
}

static void test_config__severity_override(void **state)
{
	fixture *f = *state;
	write_job(f);
	load_ok(f, "severity:\n  JF1: note\n  JF104: warning\n  Type Mismatch: error\n");
	lint(f, "job.yaml");
	assert_int_equal(th_find(f->linter, "JF101", 0)->severity, JF_SEV_NOTE);
	assert_int_equal(th_find(f->linter, "JF104", 0)->severity, JF_SEV_WARNING); /* later wins */
	assert_int_equal(th_find(f->linter, "JF305", 0)->severity, JF_SEV_ERROR);
	assert_int_equal(jf_linter_count(f->linter, JF_SEV_ERROR), 1);
}

static void test_config__exclude_patterns(void **state)
{
	fixture *f = *state;
	load_ok(f, "exclude: [\"gen_*.py\", \"/top.py\", build/, \"a/**/z.py\", \"data\"]\n");
	static const struct {
		const char *rel;
		bool excluded;
	} cases[] = {
		{ "gen_x.py", true },        { "src/gen_x.py", true },  /* a name: at any depth */
		{ "src/x.py", false },       { "top.py", true },        /* anchored */
		{ "src/top.py", false },     { "build/x.py", true },    /* a folder */
		{ "src/build/x.py", true },  { "build", false },        /* folders only */
		{ "a/z.py", true },          { "a/b/c/z.py", true },
		{ "b/a/z.py", false },       { "data/x/y.py", true },
		{ "database.py", false },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char *p = jf_xasprintf("%s/%s", f->dir, cases[i].rel);
		if (jf_config__excluded(f->config, p) != cases[i].excluded)
			fail_msg("'%s' should%s be excluded", cases[i].rel, cases[i].excluded ? "" : " not");
		free(p);
	}
	/* Outside the config's folder no pattern applies. */
	assert_false(jf_config__excluded(f->config, "/elsewhere/gen_x.py"));
}

static void test_config__exclude_in_a_lint(void **state)
{
	fixture *f = *state;
	write_job(f);
	load_ok(f, "exclude: [train.py, tools/]\n");
	/* A file the job reaches: its findings are dropped, the others stay. */
	lint(f, "job.yaml");
	expect_count(f, "JF101", 0);
	expect_count(f, "JF305", 0);
	expect_count(f, "JF104", 1);
	/* A file named for the lint: not linted at all. */
	lint(f, "tools/prep.py");
	assert_int_equal(f->linter->report.diags.size, 0);
	lint(f, "train.py");
	assert_int_equal(f->linter->report.diags.size, 0);
	/* The job spec itself. */
	load_ok(f, "exclude: [\"*.yaml\"]\n");
	lint(f, "job.yaml");
	assert_int_equal(f->linter->report.diags.size, 0);
}

static void test_config__per_file_ignores(void **state)
{
	fixture *f = *state;
	write_job(f);
	load_ok(f, "per-file-ignores:\n"
	           "  \"*.py\": [JF305]\n"
	           "  tools/**: [hard-coded-local-path]\n");
	lint(f, "job.yaml");
	expect_count(f, "JF305", 0);
	expect_count(f, "JF101", 1); /* train.py is not under tools/ */
	lint(f, "tools/prep.py");
	expect_count(f, "JF101", 0);
	char *in_tools = jf_xasprintf("%s/tools/x.py", f->dir);
	char *at_top = jf_xasprintf("%s/x.py", f->dir);
	assert_false(jf_config__active(f->config, th_rule("JF101"), in_tools));
	assert_true(jf_config__active(f->config, th_rule("JF101"), at_top));
	assert_true(jf_config__active(f->config, th_rule("JF102"), in_tools));
	free(in_tools);
	free(at_top);
}

static void test_config__rules_dir_rule_fires(void **state)
{
	fixture *f = *state;
	th_put(f->dir, "rules/python/X101-print-call.scm",
	       "; id: X101\n; name: print-call\n; severity: warning\n; category: Illegal Argument\n"
	       "; summary: a call of print\n; message: print called\n; help: use logging\n"
	       "\n((call function: (identifier) @_f) @finding (#eq? @_f \"print\"))\n");
	th_put(f->dir, "train.py", "print('hi')\nx = 1\n");
	load_ok(f, "rules-dir: rules\n");
	lint(f, "train.py");
	expect_count(f, "X101", 1);
	const jf_diag *d = th_find(f->linter, "X101", 0);
	th_assert_at(d, 1, 1);
	assert_string_equal(d->message, "print called");
	/* Selection and severity apply to it like to any rule. */
	load_ok(f, "rules-dir: rules\nselect: [X1]\nseverity: {print-call: error}\n");
	lint(f, "train.py");
	expect_count(f, "X101", 1);
	assert_int_equal(th_find(f->linter, "X101", 0)->severity, JF_SEV_ERROR);
	/* Without the folder in the config the rule does not run, and cannot be named. */
	load_ok(f, "");
	lint(f, "train.py");
	expect_count(f, "X101", 0);
	assert_int_equal(load(f, "select: [X101]\n"), JF_EPARSE);
	expect_error(f, 1, 0, ".jobfix.yaml:1:10: error: unknown rule 'X101'");
}

static void test_config__rules_dir_errors(void **state)
{
	fixture *f = *state;
	th_put(f->dir, "myrules/bash/Y1-a.scm", "; id: Y1\n; name: a\n; severity: bad\n");
	assert_int_equal(load(f, "rules-dir: nowhere\n"), JF_EPARSE);
	/* Shown as it is found from the current folder: here, through the config's absolute path. */
	char *expect = jf_xasprintf(".jobfix.yaml:1:12: error: the rules folder '%s/nowhere' does "
	                            "not exist",
	                            f->dir);
	expect_error(f, 1, 0, expect);
	free(expect);
	assert_int_equal(load(f, "rules-dir: myrules\n"), JF_EPARSE);
	expect_error(f, 1, 0, "myrules/bash/Y1-a.scm:1:1: error: the header has no 'category' (it "
	                      "needs id, name, severity, category, summary, message and help)");
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_config__find_walks_up),
		T(test_config__find_stops_at_git),
		T(test_config__find_relative),
		T(test_config__every_key),
		T(test_config__empty_file_is_defaults),
		T(test_config__unreadable),
		T(test_config__unknown_key),
		T(test_config__wrong_types),
		T(test_config__bad_values),
		T(test_config__unknown_rules),
		T(test_config__bad_yaml),
		T(test_config__json_errors),
		T(test_config__overrides),
		T(test_config__override_errors),
		T(test_config__select_by_id_name_category_prefix),
		T(test_config__severity_override),
		T(test_config__exclude_patterns),
		T(test_config__exclude_in_a_lint),
		T(test_config__per_file_ignores),
		T(test_config__rules_dir_rule_fires),
		T(test_config__rules_dir_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
