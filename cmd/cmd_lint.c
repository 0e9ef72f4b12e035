/* cmd_lint.c - `jobfix lint`: lint job specs and files, print the findings */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "jobfix/jobfix.h"

/* `lead` and the formats, "text (default), concise, ... or github (...)",
 * wrapped at 80 columns under the text after `lead`. */
static void print_formats(const char *lead)
{
	char words[512];
	size_t n = 0;
	jf_format f;
	const char *name;
	for (size_t i = 0; n < sizeof words && (name = jf_format_name_at(i, &f)); i++) {
		const char *sep = !i ? "" : jf_format_name_at(i + 1, NULL) ? ", " : " or ";
		const char *summary = i == 0 ? "default" : jf_format_summary(f);
		n += (size_t)snprintf(words + n, sizeof words - n, summary ? "%s%s (%s)" : "%s%s",
		                      sep, name, summary);
	}
	size_t indent = strlen(lead), col = indent;
	fputs(lead, stdout);
	char *rest;
	for (char *w = strtok_r(words, " ", &rest); w; w = strtok_r(NULL, " ", &rest)) {
		if (col > indent && col + 1 + strlen(w) > 80) {
			printf("\n%*s", (int)indent, "");
			col = indent;
		}
		col += (size_t)printf("%s%s", col > indent ? " " : "", w);
	}
	putchar('\n');
}

static void print_help(void)
{
	printf("usage: jobfix lint [options] [PATH...]\n"
	       "       jobfix lint [options] --staged\n"
	       "       jobfix lint [options] --staged-files [FILE...]\n\n"
	       "PATH is a job file of any format jobfix reads (docs/jobs.md), told by its\n"
	       "content, or a Python (*.py) or shell (*.sh) file linted alone with the rules\n"
	       "that need no job. Without PATH, every job file found in the current folder\n"
	       "and below it: jobfix.yaml, job.yaml, *.job.yaml, the config's `jobs`, and\n"
	       "YAML and batch scripts whose content is a job of another format (hidden\n"
	       "folders, node_modules and `exclude` skipped).\n\n"
	       "options:\n"
	       "  --staged            lint what git has staged for the next commit: the staged\n"
	       "                      job specs, the jobs that read a staged file, the other\n"
	       "                      staged Python and shell files alone (runs git; works\n"
	       "                      from the repository's top)\n"
	       "  --staged-files      the same for the files given as arguments (pre-commit)\n");
	print_formats("  --format FORMAT     ");
	printf("  --fix               write the exact replacements the findings offer into the\n"
	       "                      files (inside the job's code folder), then lint again\n"
	       "  --diff              print those replacements as a unified diff and change\n"
	       "                      nothing (exit 1 when there are some)\n"
	       "  --output FILE       also write the findings to FILE (stdout keeps --format)\n"
	       "  --output-format FORMAT\n"
	       "                      the format of FILE; by default from its name: *.sarif\n"
	       "                      sarif, *.json json, *.txt text\n"
	       "  --fail-on SEVERITY  exit 1 on findings of at least error, warning (default)\n"
	       "                      or note\n"
	       "  --select RULES      run only these rules: comma-separated ids (JF101), names,\n"
	       "                      id prefixes (JF1) or categories (\"Path Not Found\")\n"
	       "  --ignore RULES      do not run these rules (wins over --select)\n"
	       "  --rules-dir DIR     add the query rules in DIR/python/ and DIR/bash/\n"
	       "  --config FILE       read this config instead of looking for .jobfix.yaml\n"
	       "  --no-config         read no config file\n"
	       "  --statistics        print how many findings of each rule and category\n"
	       "                      instead of the findings\n"
	       "  --color WHEN        auto (default: when stdout is a terminal and NO_COLOR is\n"
	       "                      unset), always or never\n"
	       "  -j, --threads N     lint up to N files and jobs at once, and parse a job's\n"
	       "                      modules on N threads (default: one per core); the\n"
	       "                      output is the same for every N\n"
	       "  --no-cache          lint everything anew: neither use nor keep the fact\n"
	       "                      cache ($XDG_CACHE_HOME/jobfix or ~/.cache/jobfix)\n"
	       "  -q, --quiet         print no summary line\n"
	       "  -v, --verbose       also say which checks were skipped for want of facts\n"
	       "                      (an unknown image), and how to enable them, and which\n"
	       "                      YAML files were found that are no job file\n"
	       "  -h, --help          show this help\n\n"
	       "The options override the config file, .jobfix.yaml in the current folder or\n"
	       "the nearest folder above it (docs/config.md).\n\n"
	       "exit status: 0 nothing at or above --fail-on, 1 findings, 2 jobfix could not\n"
	       "do its job (bad options or config, unreadable path, output not written)\n");
}

#define MAX_THREADS 256

/* The N of -j N: 1 to MAX_THREADS. */
static int parse_threads(const char *v, unsigned *out)
{
	char *end;
	errno = 0;
	long n = strtol(v, &end, 10);
	if (!*v || *end || errno || n < 1 || n > MAX_THREADS)
		return -1;
	*out = (unsigned)n;
	return 0;
}

/* The names of the formats, for usage messages: "text, concise, json, sarif, github". */
static const char *format_names(void)
{
	static char names[128];
	size_t n = 0;
	const char *name;
	for (size_t i = 0; n < sizeof names && (name = jf_format_name_at(i, NULL)); i++)
		n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", i ? ", " : "", name);
	return names;
}

typedef struct {
	jf_linter *linter;
	jf_format format;
} findings_to;

static int write_findings(void *data, FILE *f)
{
	const findings_to *t = data;
	return jf_linter_write(t->linter, f, t->format, 0);
}

/* What to lint. */
typedef enum {
	MODE_PATHS,        /* the PATHs; without any, the jobs found from the current folder */
	MODE_STAGED,       /* what git has staged */
	MODE_STAGED_FILES, /* the PATHs are the changed files */
} lint_mode;

/* Frees the overrides, and the values of the first `owned` (pairs) that are copies. */
static void free_overrides(const char **overrides, size_t owned)
{
	for (size_t i = 1; i < owned; i += 2)
		free((char *)overrides[i]);
	free(overrides);
}

/* `path` made absolute against the current folder (before --staged moves to
 * the repository's top); NULL stays NULL. Caller frees. */
static char *absolute(const char *path)
{
	if (!path)
		return NULL;
	if (path[0] == '/')
		return strdup(path);
	char *cwd = getcwd(NULL, 0);
	size_t n = (cwd ? strlen(cwd) : 1) + strlen(path) + 2;
	char *out = malloc(n);
	if (out)
		snprintf(out, n, "%s/%s", cwd ? cwd : ".", path);
	free(cwd);
	return out;
}

/* Moves to the top of the repository that holds the current folder. */
static bool to_repository_top(void)
{
	static const char *const args[] = { "rev-parse", "--show-toplevel", NULL };
	char *top = cmd_git_line(args, "--staged needs a git repository");
	if (!top)
		return false;
	bool ok = chdir(top) == 0;
	if (!ok)
		fprintf(stderr, "jobfix: error: cannot enter '%s': %s\n", top, strerror(errno));
	free(top);
	return ok;
}

/* The staged files (added, copied, modified, renamed), relative to the
 * repository's top, which is the current folder; NULL-terminated, in one
 * allocation with *buf. NULL after printing why. */
static char **staged_files(char **buf)
{
	static const char *const args[] = { "diff", "--cached", "--name-only", "--diff-filter=ACMR",
		                            "-z", NULL };
	cmd_git_result r;
	*buf = NULL;
	if (cmd_git(args, &r) != 0) {
		fprintf(stderr, "jobfix: error: cannot run git: %s\n", strerror(errno));
		return NULL;
	}
	if (r.status != 0) {
		fprintf(stderr, "jobfix: error: cannot list the staged files: %s\n",
		        *r.err ? r.err : "git failed");
		cmd_git_result_release(&r);
		return NULL;
	}
	size_t n = 0;
	for (size_t i = 0; i < r.out_len; i++)
		n += r.out[i] == '\0';
	char **list = calloc(n + 2, sizeof(char *));
	if (!list) {
		fputs("jobfix: error: out of memory\n", stderr);
		abort();
	}
	size_t k = 0;
	for (size_t i = 0; i < r.out_len; i += strlen(r.out + i) + 1)
		if (r.out[i])
			list[k++] = r.out + i;
	*buf = r.out;
	free(r.err);
	return list;
}

/* Whether `a` and `b` are one file. */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/* Whether `path` lies in a folder that finding the jobs skips: a hidden one
 * or node_modules. */
static bool in_skipped_folder(const char *path)
{
	for (const char *seg = path; *seg;) {
		size_t n = strcspn(seg, "/");
		if (!seg[n])
			break; /* the file's own name */
		if ((seg[0] == '.' && !(n == 1 || (n == 2 && seg[1] == '.'))) ||
		    (n == 12 && !strncmp(seg, "node_modules", 12)))
			return true;
		seg += n + 1;
	}
	return false;
}

static bool is_regular_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Lints `path`; false when jobfix could not (the error printed). */
static void print_error(void *data, const char *path, const char *message)
{
	(void)data;
	(void)path;
	fprintf(stderr, "jobfix: error: %s\n", message);
}

/* Lints `paths` (on the linter's threads); false when one could not be linted. */
static bool lint_each(jf_linter *l, const char *const *paths, size_t n)
{
	return jf_linter_lint_all(l, paths, n, print_error, NULL) >= 0;
}

/* Lints the jobs found from the current folder; false when jobfix could not. */
static bool lint_discovered(jf_linter *l, const jf_config *config, int verbose)
{
	char **jobs, **skipped = NULL;
	size_t n, nskipped = 0;
	if (jf_discover(config, ".", &jobs, &n, verbose ? &skipped : NULL, &nskipped) < 0) {
		fprintf(stderr, "jobfix: error: cannot search the current folder: %s\n",
		        strerror(errno));
		return false;
	}
	for (size_t i = 0; i < nskipped; i++)
		fprintf(stderr, "jobfix: skipped %s: %s\n", skipped[i],
		        skipped[i][strlen(skipped[i]) - 1] == '/'
		                ? "a folder that cannot be read, or a link out of the repository"
		                : "a YAML file that is no job file");
	jf_paths_free(skipped);
	if (!n) {
		char *cwd = getcwd(NULL, 0);
		fprintf(stderr, "jobfix: no job files found under %s\n", cwd ? cwd : ".");
		free(cwd);
	}
	bool ok = lint_each(l, (const char *const *)jobs, n);
	jf_paths_free(jobs);
	return ok;
}

/*
 * Lints what the changed `files` touch: each job spec among them; each job
 * found from the current folder that reads one of them (a script, an entry
 * script, a module), or every job when the config file itself changed; and
 * the changed Python and shell files that no linted job read, alone. Files
 * that are not there (deleted) count for nothing; a file the config
 * excludes is not linted, but a job that reads it is. False when jobfix
 * could not do its job.
 */
static bool lint_changed(jf_linter *l, const jf_config *config, char **files, size_t n)
{
	const char **specs = calloc(n + 1, sizeof(char *)), **scripts = calloc(n + 1, sizeof(char *));
	if (!specs || !scripts) {
		fputs("jobfix: error: out of memory\n", stderr);
		abort();
	}
	size_t nspecs = 0, nscripts = 0;
	bool config_changed = false, ok = true;
	const char *config_file = jf_config_path(config);
	for (size_t i = 0; i < n; i++) {
		if (!is_regular_file(files[i]))
			continue;
		if (config_file && same_file(files[i], config_file))
			config_changed = true;
		switch (jf_file_kind_of(config, files[i])) {
		case JF_FILE_JOB:
			/* The job specs that finding the jobs would find. */
			if (!in_skipped_folder(files[i]))
				specs[nspecs++] = files[i];
			break;
		case JF_FILE_PYTHON:
		case JF_FILE_SHELL:
			scripts[nscripts++] = files[i];
			break;
		default:
			break;
		}
	}
	/* Only a changed script or config can touch a job that is not itself changed. */
	if (nscripts || config_changed) {
		char **jobs;
		size_t njobs;
		if (jf_discover_jobs(config, ".", &jobs, &njobs) < 0) {
			fprintf(stderr, "jobfix: error: cannot search the current folder: %s\n",
			        strerror(errno));
			ok = false;
			njobs = 0;
			jobs = NULL;
		}
		/* The jobs that are not themselves changed specs (those come after). */
		size_t kept = 0;
		for (size_t i = 0; i < njobs; i++) {
			bool changed = false;
			for (size_t k = 0; k < nspecs && !changed; k++)
				changed = same_file(jobs[i], specs[k]);
			if (!changed)
				jobs[kept++] = jobs[i];
			else
				free(jobs[i]);
		}
		if (jobs)
			jobs[kept] = NULL;
		jf_linter_restrict(l, config_changed ? NULL : scripts);
		ok &= lint_each(l, (const char *const *)jobs, kept);
		jf_linter_restrict(l, NULL);
		jf_paths_free(jobs);
	}
	ok &= lint_each(l, specs, nspecs);
	/* The changed scripts no linted job read, alone. */
	size_t alone = 0;
	for (size_t i = 0; i < nscripts; i++)
		if (!jf_linter_has_read(l, scripts[i]))
			scripts[alone++] = scripts[i];
	ok &= lint_each(l, scripts, alone);
	free(specs);
	free(scripts);
	return ok;
}

/* Lints what the command line names; false when jobfix could not do its job on some of it. */
static bool run_lints(jf_linter *l, jf_config *config, lint_mode mode, char **paths, int npaths,
                      int verbose)
{
	bool failed = false;
	if (mode != MODE_PATHS)
		failed = !lint_changed(l, config, paths, (size_t)npaths);
	else if (!npaths)
		failed = !lint_discovered(l, config, verbose);
	if (mode == MODE_PATHS && npaths)
		failed |= !lint_each(l, (const char *const *)paths, (size_t)npaths);
	return !failed;
}

int cmd_lint(int argc, char **argv)
{
	jf_format format = JF_FORMAT_TEXT;
	jf_severity fail_on = JF_SEV_WARNING;
	int fail_on_given = 0, statistics = 0;
	jf_format output_format = JF_FORMAT_TEXT;
	const char *output = NULL, *output_format_name = NULL;
	int color = -1, quiet = 0, verbose = 0, npaths = 0, fix = 0, diff = 0;
	unsigned threads = 0; /* one per core */
	char *cache_dir = NULL;
	lint_mode mode = MODE_PATHS;
	cmd_config_args config_args = { 0 };
	/* The overrides: key, value pairs for jf_config_set(), NULL-terminated:
	 * each --allow-outside, select, ignore, rules-dir. */
	const char **overrides = calloc(2 * (size_t)argc + 8, sizeof *overrides);
	size_t k = 0;
	const char *select = NULL, *ignore = NULL, *rules_dir = NULL;
	char **paths = calloc((size_t)argc + 1, sizeof(char *));
	int only_paths = 0, no_cache = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		int missing = 0;
		if (only_paths || a[0] != '-' || !a[1]) {
			paths[npaths++] = argv[i];
		} else if (!strcmp(a, "--")) {
			only_paths = 1;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			free(paths);
			free(overrides);
			print_help();
			return finish_stdout(JF_EXIT_OK);
		} else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
			quiet = 1;
		} else if (!strcmp(a, "--statistics")) {
			statistics = 1;
		} else if (cmd_config_arg(argc, argv, &i, &config_args, &missing)) {
			continue;
		} else if (!strcmp(a, "--no-cache")) {
			no_cache = 1;
		} else if (!strcmp(a, "--fix")) {
			fix = 1;
		} else if (!strcmp(a, "--diff")) {
			diff = 1;
		} else if (!strcmp(a, "--staged") || !strcmp(a, "--staged-files")) {
			lint_mode m = !strcmp(a, "--staged") ? MODE_STAGED : MODE_STAGED_FILES;
			if (mode != MODE_PATHS && mode != m) {
				free(paths);
				free(overrides);
				return usage_error("lint ", "--staged and --staged-files exclude each other");
			}
			mode = m;
		} else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			verbose = 1;
		} else if ((v = option_value(argc, argv, &i, "--threads", &missing)) ||
		           (v = option_value(argc, argv, &i, "-j", &missing)) ||
		           (!strncmp(a, "-j", 2) && a[2] && (v = a + 2))) {
			if (parse_threads(v, &threads) < 0) {
				free(paths);
				free(overrides);
				return usage_error("lint ", "-j needs a number of threads from 1 to %d, not '%s'",
				                   MAX_THREADS, v);
			}
		} else if ((v = option_value(argc, argv, &i, "--format", &missing))) {
			if (jf_format_from_name(v, &format) < 0) {
				free(paths);
				free(overrides);
				return usage_error("lint ", "unknown format '%s' (%s)", v, format_names());
			}
		} else if ((v = option_value(argc, argv, &i, "--output-format", &missing))) {
			if (jf_format_from_name(v, &output_format) < 0) {
				free(paths);
				free(overrides);
				return usage_error("lint ", "unknown format '%s' (%s)", v, format_names());
			}
			output_format_name = v;
		} else if ((v = option_value(argc, argv, &i, "--output", &missing))) {
			output = v;
		} else if ((v = option_value(argc, argv, &i, "--fail-on", &missing))) {
			fail_on_given = 1;
			if (!strcmp(v, "error"))
				fail_on = JF_SEV_ERROR;
			else if (!strcmp(v, "warning"))
				fail_on = JF_SEV_WARNING;
			else if (!strcmp(v, "note"))
				fail_on = JF_SEV_NOTE;
			else {
				free(paths);
				free(overrides);
				return usage_error("lint ", "unknown severity '%s' (error, warning, note)", v);
			}
		} else if ((v = option_value(argc, argv, &i, "--color", &missing))) {
			if (!strcmp(v, "auto"))
				color = -1;
			else if (!strcmp(v, "always"))
				color = 1;
			else if (!strcmp(v, "never"))
				color = 0;
			else {
				free(paths);
				free(overrides);
				return usage_error("lint ", "unknown color mode '%s' (auto, always, never)", v);
			}
		} else if ((v = option_value(argc, argv, &i, "--select", &missing))) {
			select = v;
		} else if ((v = option_value(argc, argv, &i, "--ignore", &missing))) {
			ignore = v;
		} else if ((v = option_value(argc, argv, &i, "--rules-dir", &missing))) {
			rules_dir = v;
		} else if ((v = option_value(argc, argv, &i, "--allow-outside", &missing))) {
			overrides[k++] = "allow-outside";
			overrides[k++] = v;
		} else {
			free(paths);
			free(overrides);
			return cmd_bad_option("lint ", a, missing);
		}
	}
	if (mode == MODE_STAGED && npaths) {
		free(paths);
		free(overrides);
		return usage_error("lint ", "--staged asks git for the files: no PATH (pass files "
		                            "with --staged-files FILE...)");
	}
	if (fix && diff) {
		free(paths);
		free(overrides);
		return usage_error("lint ", "--fix and --diff exclude each other (--diff shows what "
		                            "--fix would write)");
	}
	if ((fix || diff) && mode != MODE_PATHS) {
		free(paths);
		free(overrides);
		return usage_error("lint ", "--fix and --diff take paths, not --staged");
	}
	if (cmd_config_args_check("lint ", &config_args) != JF_EXIT_OK) {
		free(paths);
		free(overrides);
		return JF_EXIT_ERROR;
	}
	if (output_format_name && !output) {
		free(paths);
		free(overrides);
		return usage_error("lint ", "--output-format needs --output FILE");
	}
	if (output && !output_format_name && jf_format_from_file_name(output, &output_format) < 0) {
		free(paths);
		free(overrides);
		return usage_error("lint ",
		                   "cannot tell the format of '%s' from its name (*.sarif, *.json, "
		                   "*.txt): give --output-format (%s)",
		                   output, format_names());
	}
	/* --staged works from the repository's top: the paths the options name
	 * are the current folder's. */
	char *abs_config = NULL, *abs_rules_dir = NULL, *abs_output = NULL, *staged_buf = NULL;
	size_t allowed_owned = 0; /* overrides[0..allowed_owned) hold copies made here */
	if (mode == MODE_STAGED) {
		config_args.path = abs_config = absolute(config_args.path);
		rules_dir = abs_rules_dir = absolute(rules_dir);
		for (size_t a = 0; a < k; a += 2) /* only --allow-outside so far */
			overrides[a + 1] = absolute(overrides[a + 1]);
		allowed_owned = k;
		output = abs_output = absolute(output);
		char **staged = to_repository_top() ? staged_files(&staged_buf) : NULL;
		if (!staged) {
			free(paths);
			free(abs_config);
			free(abs_rules_dir);
			free(abs_output);
			free_overrides(overrides, allowed_owned);
			return JF_EXIT_ERROR;
		}
		free(paths);
		paths = staged;
		for (npaths = 0; paths[npaths]; npaths++)
			;
	}
	if (select) {
		overrides[k++] = "select";
		overrides[k++] = select;
	}
	if (ignore) {
		overrides[k++] = "ignore";
		overrides[k++] = ignore;
	}
	if (rules_dir) {
		overrides[k++] = "rules-dir";
		overrides[k++] = rules_dir;
	}
	cmd_formats to = { format, color, output, output_format };
	jf_config *config =
		cmd_load_config(&config_args, overrides, &to, "nothing was linted");
	int rc = JF_EXIT_ERROR;
	if (!config)
		goto cleanup;
	jf_severity from_file;
	if (!fail_on_given && jf_config_fail_on(config, &from_file))
		fail_on = from_file;
	color = cmd_color_for(color, STDOUT_FILENO);
	jf_options opts = JF_OPTIONS_INIT;
	opts.config = config;
	opts.threads = threads;
	/* --fix rewrites files between its two lints: both run anew. */
	cache_dir = no_cache || fix || diff ? NULL : jf_cache_dir();
	opts.cache_dir = cache_dir;
	jf_linter *l = jf_linter_new(&opts);
	/* jobfix could not do its job */
	bool failed = !run_lints(l, config, mode, paths, npaths, verbose);
	if (diff || fix) {
		size_t fixes;
		int files = jf_linter_fix(l, stdout, fix, &fixes);
		if (files < 0) {
			fprintf(stderr, "jobfix: error: %s\n", jf_linter_error(l));
			failed = true;
		} else if (!quiet && (diff || files)) {
			fprintf(stderr, "jobfix: %s %zu finding%s in %d file%s\n",
			        diff ? "--fix would fix" : "fixed", fixes, fixes == 1 ? "" : "s", files,
			        files == 1 ? "" : "s");
		}
		if (diff) {
			rc = failed ? JF_EXIT_ERROR : files > 0 ? JF_EXIT_FINDINGS : JF_EXIT_OK;
			jf_linter_free(l);
			jf_config_free(config);
			goto cleanup;
		}
		if (files > 0) { /* what is left: lint the fixed files again */
			jf_linter_free(l);
			l = jf_linter_new(&opts);
			failed |= !run_lints(l, config, mode, paths, npaths, verbose);
		}
	}
	int written = statistics ? jf_linter_write_statistics(l, stdout, format)
	                         : jf_linter_write(l, stdout, format, color);
	if (written < 0)
		failed = true;
	fflush(stdout); /* before FILE, which may be stdout too */
	findings_to findings = { l, output_format };
	if (output && jf_linter_has_read(l, output)) {
		fprintf(stderr, "jobfix: error: cannot write '%s': it is a file the lint read\n",
		        output);
		failed = true;
	} else if (output && cmd_write_file(output, write_findings, &findings) < 0) {
		failed = true;
	}
	for (size_t i = 0; verbose && jf_linter_skipped(l, i); i++)
		fprintf(stderr, "jobfix: skipped %s\n", jf_linter_skipped(l, i));
	size_t failing = jf_linter_count(l, fail_on);
	if (!quiet && format == JF_FORMAT_TEXT) {
		size_t e = jf_linter_count(l, JF_SEV_ERROR);
		size_t w = jf_linter_count(l, JF_SEV_WARNING) - e;
		size_t n = jf_linter_count(l, JF_SEV_NOTE) - e - w;
		if (e + w + n)
			fprintf(stderr, "jobfix: %zu error%s, %zu warning%s, %zu note%s\n", e,
			        e == 1 ? "" : "s", w, w == 1 ? "" : "s", n, n == 1 ? "" : "s");
	}
	rc = failed ? JF_EXIT_ERROR : failing ? JF_EXIT_FINDINGS : JF_EXIT_OK;
	jf_linter_free(l);
	jf_config_free(config);
cleanup:
	free(cache_dir);
	free(paths);
	free_overrides(overrides, allowed_owned);
	free(staged_buf);
	free(abs_config);
	free(abs_rules_dir);
	free(abs_output);
	return finish_stdout(rc);
}
