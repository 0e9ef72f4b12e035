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
	       "  --coverage          also print what each job's checks covered: whether the\n"
	       "                      arguments of each entry script and the job's imports\n"
	       "                      were checked, the checks given up and why, and the\n"
	       "                      totals (text after the findings; json: a \"coverage\"\n"
	       "                      member, which --statistics in json also has; sarif:\n"
	       "                      in the run's properties)\n"
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

/* calloc(), or abort after saying so. */
static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);
	if (!p) {
		fputs("jobfix: error: out of memory\n", stderr);
		abort();
	}
	return p;
}

/* What to lint. */
typedef enum {
	MODE_PATHS,        /* the PATHs; without any, the jobs found from the current folder */
	MODE_STAGED,       /* what git has staged */
	MODE_STAGED_FILES, /* the PATHs are the changed files */
} lint_mode;

/* The options of `jobfix lint`. The strings are argv's, or copies in `owned`. */
typedef struct {
	bool help; /* -h: print the help, nothing else */
	lint_mode mode;
	char **paths; /* NULL-terminated; for --staged, into staged_buf */
	size_t npaths;
	cmd_config_args config;
	/* The config's overrides: key, value pairs for jf_config_set(),
	 * NULL-terminated: each --allow-outside, then (add_overrides())
	 * select, ignore, rules-dir. */
	const char **overrides;
	size_t noverrides;
	const char *select, *ignore, *rules_dir;
	jf_format format;
	const char *output; /* --output FILE, or NULL */
	jf_format output_format;
	const char *output_format_name; /* as given, or NULL: from the name of FILE */
	jf_severity fail_on;
	bool fail_on_given; /* else the config's fail-on wins */
	int color;          /* 1 always, 0 never, -1 auto */
	unsigned threads;   /* 0: one per core */
	bool statistics, coverage, fix, diff, no_cache, quiet, verbose;
	char **owned; /* the copies --staged makes of the paths the options name */
	size_t nowned;
	char *staged_buf; /* the staged files' names */
} lint_options;

#define LINT_OPTIONS_INIT                                                                   \
	{ .format = JF_FORMAT_TEXT, .output_format = JF_FORMAT_TEXT, .fail_on = JF_SEV_WARNING, \
	  .color = -1 }

static void release_options(lint_options *o)
{
	for (size_t i = 0; i < o->nowned; i++)
		free(o->owned[i]);
	free(o->owned);
	free(o->staged_buf);
	free(o->paths);
	free(o->overrides);
}

/* Sets the option without a value `a` in `o`; false when `a` is none. */
static bool take_flag(lint_options *o, const char *a)
{
	bool *flag = NULL;
	if (!strcmp(a, "-q") || !strcmp(a, "--quiet"))
		flag = &o->quiet;
	else if (!strcmp(a, "-v") || !strcmp(a, "--verbose"))
		flag = &o->verbose;
	else if (!strcmp(a, "--statistics"))
		flag = &o->statistics;
	else if (!strcmp(a, "--coverage"))
		flag = &o->coverage;
	else if (!strcmp(a, "--no-cache"))
		flag = &o->no_cache;
	else if (!strcmp(a, "--fix"))
		flag = &o->fix;
	else if (!strcmp(a, "--diff"))
		flag = &o->diff;
	if (flag)
		*flag = true;
	return flag != NULL;
}

#define NOT_TAKEN (-1)

/*
 * Takes the option with a value at argv[*i] into `o` (then *i moves past its
 * value): JF_EXIT_OK, or JF_EXIT_ERROR after the usage error of a value it
 * does not take. NOT_TAKEN for another argument, with *missing set when it
 * is such an option without its value.
 */
static int take_value(int argc, char **argv, int *i, lint_options *o, int *missing)
{
	const char *a = argv[*i], *v;
	if ((v = option_value(argc, argv, i, "--threads", missing)) ||
	    (v = option_value(argc, argv, i, "-j", missing)) ||
	    (!strncmp(a, "-j", 2) && a[2] && (v = a + 2))) {
		if (parse_threads(v, &o->threads) < 0)
			return usage_error("lint ", "-j needs a number of threads from 1 to %d, not '%s'",
			                   MAX_THREADS, v);
	} else if ((v = option_value(argc, argv, i, "--format", missing))) {
		if (jf_format_from_name(v, &o->format) < 0)
			return usage_error("lint ", "unknown format '%s' (%s)", v, format_names());
	} else if ((v = option_value(argc, argv, i, "--output-format", missing))) {
		if (jf_format_from_name(v, &o->output_format) < 0)
			return usage_error("lint ", "unknown format '%s' (%s)", v, format_names());
		o->output_format_name = v;
	} else if ((v = option_value(argc, argv, i, "--output", missing))) {
		o->output = v;
	} else if ((v = option_value(argc, argv, i, "--fail-on", missing))) {
		o->fail_on_given = true;
		if (!strcmp(v, "error"))
			o->fail_on = JF_SEV_ERROR;
		else if (!strcmp(v, "warning"))
			o->fail_on = JF_SEV_WARNING;
		else if (!strcmp(v, "note"))
			o->fail_on = JF_SEV_NOTE;
		else
			return usage_error("lint ", "unknown severity '%s' (error, warning, note)", v);
	} else if ((v = option_value(argc, argv, i, "--color", missing))) {
		if (!strcmp(v, "auto"))
			o->color = -1;
		else if (!strcmp(v, "always"))
			o->color = 1;
		else if (!strcmp(v, "never"))
			o->color = 0;
		else
			return usage_error("lint ", "unknown color mode '%s' (auto, always, never)", v);
	} else if ((v = option_value(argc, argv, i, "--select", missing))) {
		o->select = v;
	} else if ((v = option_value(argc, argv, i, "--ignore", missing))) {
		o->ignore = v;
	} else if ((v = option_value(argc, argv, i, "--rules-dir", missing))) {
		o->rules_dir = v;
	} else if ((v = option_value(argc, argv, i, "--allow-outside", missing))) {
		o->overrides[o->noverrides++] = "allow-outside";
		o->overrides[o->noverrides++] = v;
	} else {
		return NOT_TAKEN;
	}
	return JF_EXIT_OK;
}

/* The options that exclude each other or need another, and the format of
 * --output FILE told by its name: JF_EXIT_OK, or JF_EXIT_ERROR after the
 * usage error. */
static int check_options(lint_options *o)
{
	if (o->mode == MODE_STAGED && o->npaths)
		return usage_error("lint ", "--staged asks git for the files: no PATH (pass files "
		                            "with --staged-files FILE...)");
	if (o->fix && o->diff)
		return usage_error("lint ", "--fix and --diff exclude each other (--diff shows what "
		                            "--fix would write)");
	if ((o->fix || o->diff) && o->mode != MODE_PATHS)
		return usage_error("lint ", "--fix and --diff take paths, not --staged");
	if (cmd_config_args_check("lint ", &o->config) != JF_EXIT_OK)
		return JF_EXIT_ERROR;
	if (o->output_format_name && !o->output)
		return usage_error("lint ", "--output-format needs --output FILE");
	if (o->output && !o->output_format_name &&
	    jf_format_from_file_name(o->output, &o->output_format) < 0)
		return usage_error("lint ",
		                   "cannot tell the format of '%s' from its name (*.sarif, *.json, "
		                   "*.txt): give --output-format (%s)",
		                   o->output, format_names());
	return JF_EXIT_OK;
}

/*
 * Reads the command line into `o`, which starts as LINT_OPTIONS_INIT and is
 * released with release_options() whatever this returns: JF_EXIT_OK (with
 * o->help set at -h, the options after it unread), or JF_EXIT_ERROR after a
 * usage error.
 */
static int parse_options(int argc, char **argv, lint_options *o)
{
	o->overrides = xcalloc(2 * (size_t)argc + 8, sizeof *o->overrides);
	o->paths = xcalloc((size_t)argc + 1, sizeof *o->paths);
	bool only_paths = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int missing = 0, rc;
		if (only_paths || a[0] != '-' || !a[1]) {
			o->paths[o->npaths++] = argv[i];
		} else if (!strcmp(a, "--")) {
			only_paths = true;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			o->help = true;
			return JF_EXIT_OK;
		} else if (take_flag(o, a) || cmd_config_arg(argc, argv, &i, &o->config, &missing)) {
			continue;
		} else if (!strcmp(a, "--staged") || !strcmp(a, "--staged-files")) {
			lint_mode m = !strcmp(a, "--staged") ? MODE_STAGED : MODE_STAGED_FILES;
			if (o->mode != MODE_PATHS && o->mode != m)
				return usage_error("lint ", "--staged and --staged-files exclude each other");
			o->mode = m;
		} else if ((rc = take_value(argc, argv, &i, o, &missing)) != NOT_TAKEN) {
			if (rc != JF_EXIT_OK)
				return rc;
		} else {
			return cmd_bad_option("lint ", a, missing);
		}
	}
	return check_options(o);
}

/* The overrides of --select, --ignore and --rules-dir, after those of
 * --allow-outside, once --staged has made --rules-dir absolute. */
static void add_overrides(lint_options *o)
{
	const char *const pairs[] = { "select", o->select, "ignore", o->ignore, "rules-dir",
		                      o->rules_dir };
	for (size_t p = 0; p < sizeof pairs / sizeof *pairs; p += 2) {
		if (!pairs[p + 1])
			continue;
		o->overrides[o->noverrides++] = pairs[p];
		o->overrides[o->noverrides++] = pairs[p + 1];
	}
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
	char **list = xcalloc(n + 2, sizeof(char *));
	size_t k = 0;
	for (size_t i = 0; i < r.out_len; i += strlen(r.out + i) + 1)
		if (r.out[i])
			list[k++] = r.out + i;
	*buf = r.out;
	free(r.err);
	return list;
}

/* `path` made absolute and kept in o->owned. */
static const char *own_absolute(lint_options *o, const char *path)
{
	return o->owned[o->nowned++] = absolute(path);
}

/* --staged: the paths the options name (the current folder's) made absolute,
 * the repository's top made the current folder, and the staged files made
 * the PATHs. JF_EXIT_ERROR after printing why. */
static int set_up_staged(lint_options *o)
{
	o->owned = xcalloc(o->noverrides / 2 + 3, sizeof *o->owned);
	o->config.path = own_absolute(o, o->config.path);
	o->rules_dir = own_absolute(o, o->rules_dir);
	for (size_t a = 0; a < o->noverrides; a += 2) /* only --allow-outside so far */
		o->overrides[a + 1] = own_absolute(o, o->overrides[a + 1]);
	o->output = own_absolute(o, o->output);
	char **staged = to_repository_top() ? staged_files(&o->staged_buf) : NULL;
	if (!staged)
		return JF_EXIT_ERROR;
	free(o->paths);
	o->paths = staged;
	for (o->npaths = 0; o->paths[o->npaths]; o->npaths++)
		;
	return JF_EXIT_OK;
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

/* Prints why a path could not be linted (jf_linter_lint_all()'s on_error). */
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
static bool lint_discovered(jf_linter *l, const jf_config *config, bool verbose)
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
	const char **specs = xcalloc(n + 1, sizeof(char *)), **scripts = xcalloc(n + 1, sizeof(char *));
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
static bool run_lints(jf_linter *l, const jf_config *config, const lint_options *o)
{
	if (o->mode != MODE_PATHS)
		return lint_changed(l, config, o->paths, o->npaths);
	if (!o->npaths)
		return lint_discovered(l, config, o->verbose);
	return lint_each(l, (const char *const *)o->paths, o->npaths);
}

/* --fix or --diff: the number of files changed (or that would be), or -1
 * after printing why. */
static int fix_findings(jf_linter *l, const lint_options *o)
{
	size_t fixes;
	int files = jf_linter_fix(l, stdout, o->fix, &fixes);
	if (files < 0)
		fprintf(stderr, "jobfix: error: %s\n", jf_linter_error(l));
	else if (!o->quiet && (o->diff || files))
		fprintf(stderr, "jobfix: %s %zu finding%s in %d file%s\n",
		        o->diff ? "--fix would fix" : "fixed", fixes, fixes == 1 ? "" : "s", files,
		        files == 1 ? "" : "s");
	return files;
}

/* The findings on stdout and in --output FILE; false when they could not be written. */
static bool write_outputs(jf_linter *l, const lint_options *o)
{
	int color = cmd_color_for(o->color, STDOUT_FILENO);
	bool ok = (o->statistics ? jf_linter_write_statistics(l, stdout, o->format)
	                         : jf_linter_write(l, stdout, o->format, color)) >= 0;
	if (o->coverage && o->format != JF_FORMAT_JSON && o->format != JF_FORMAT_SARIF) {
		/* a blank line after the tables or the concise findings (text ends with one) */
		if ((o->statistics || o->format != JF_FORMAT_TEXT) && jf_linter_count(l, JF_SEV_NOTE))
			fputc('\n', stdout);
		ok &= jf_linter_write_coverage(l, stdout, o->format) >= 0;
	}
	fflush(stdout); /* before FILE, which may be stdout too */
	findings_to findings = { l, o->output_format };
	if (o->output && jf_linter_has_read(l, o->output)) {
		fprintf(stderr, "jobfix: error: cannot write '%s': it is a file the lint read\n",
		        o->output);
		ok = false;
	} else if (o->output && cmd_write_file(o->output, write_findings, &findings) < 0) {
		ok = false;
	}
	return ok;
}

/* The summary line of the text format on stderr: "jobfix: 1 error, 2 warnings, 0 notes". */
static void print_summary(const jf_linter *l)
{
	size_t e = jf_linter_count(l, JF_SEV_ERROR);
	size_t w = jf_linter_count(l, JF_SEV_WARNING) - e;
	size_t n = jf_linter_count(l, JF_SEV_NOTE) - e - w;
	if (e + w + n)
		fprintf(stderr, "jobfix: %zu error%s, %zu warning%s, %zu note%s\n", e, e == 1 ? "" : "s",
		        w, w == 1 ? "" : "s", n, n == 1 ? "" : "s");
}

/*
 * Lints what the options name with `config`, then applies or shows the fixes
 * (--fix, --diff) and writes the findings, the skipped checks (--verbose)
 * and the summary line: the exit code.
 */
static int lint_and_report(const lint_options *o, const jf_config *config)
{
	jf_severity fail_on = o->fail_on, from_file;
	if (!o->fail_on_given && jf_config_fail_on(config, &from_file))
		fail_on = from_file;
	jf_options opts = JF_OPTIONS_INIT;
	opts.config = config;
	opts.threads = o->threads;
	/* json and sarif documents carry it; --statistics in json always */
	opts.coverage = o->coverage || (o->statistics && o->format == JF_FORMAT_JSON);
	/* --fix rewrites files between its two lints: both run anew. */
	char *cache_dir = o->no_cache || o->fix || o->diff ? NULL : jf_cache_dir();
	opts.cache_dir = cache_dir;
	jf_linter *l = jf_linter_new(&opts);
	bool failed = !run_lints(l, config, o); /* jobfix could not do its job */
	int rc;
	if (o->fix || o->diff) {
		int files = fix_findings(l, o);
		failed |= files < 0;
		if (o->diff) {
			rc = failed ? JF_EXIT_ERROR : files > 0 ? JF_EXIT_FINDINGS : JF_EXIT_OK;
			goto cleanup;
		}
		if (files > 0) { /* what is left: lint the fixed files again */
			jf_linter_free(l);
			l = jf_linter_new(&opts);
			failed |= !run_lints(l, config, o);
		}
	}
	failed |= !write_outputs(l, o);
	for (size_t i = 0; o->verbose && jf_linter_skipped(l, i); i++)
		fprintf(stderr, "jobfix: skipped %s\n", jf_linter_skipped(l, i));
	if (!o->quiet && o->format == JF_FORMAT_TEXT)
		print_summary(l);
	rc = failed ? JF_EXIT_ERROR : jf_linter_count(l, fail_on) ? JF_EXIT_FINDINGS : JF_EXIT_OK;
cleanup:
	jf_linter_free(l);
	free(cache_dir);
	return rc;
}

int cmd_lint(int argc, char **argv)
{
	lint_options o = LINT_OPTIONS_INIT;
	jf_config *config = NULL;
	cmd_formats to;
	int rc = parse_options(argc, argv, &o);
	if (rc != JF_EXIT_OK)
		goto cleanup;
	if (o.help) {
		print_help();
		goto cleanup;
	}
	if (o.mode == MODE_STAGED && (rc = set_up_staged(&o)) != JF_EXIT_OK)
		goto cleanup;
	add_overrides(&o);
	to = (cmd_formats){ o.format, o.color, o.output, o.output_format };
	config = cmd_load_config(&o.config, o.overrides, &to, "nothing was linted");
	rc = config ? lint_and_report(&o, config) : JF_EXIT_ERROR;
cleanup:
	jf_config_free(config);
	release_options(&o);
	return finish_stdout(rc);
}
