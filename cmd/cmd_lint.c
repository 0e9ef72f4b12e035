/* cmd_lint.c - `jobfix lint`: lint job specs and files, print the findings */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exit.h"
#include "jobfix/jobfix.h"

#define FORMAT_NAMES "text, concise, json, sarif, github"

static void print_help(void)
{
	printf("usage: jobfix lint [options] PATH...\n\n"
	       "PATH is a job spec (*.yaml, *.yml), or a Python (*.py) or shell (*.sh) file\n"
	       "linted alone with the rules that need no job.\n\n"
	       "options:\n"
	       "  --format FORMAT     text (default), concise, json, sarif (SARIF 2.1.0) or\n"
	       "                      github (GitHub Actions annotations)\n"
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
	       "  -q, --quiet         print no summary line\n"
	       "  -h, --help          show this help\n\n"
	       "The options override the config file, .jobfix.yaml in the current folder or\n"
	       "the nearest folder above it (docs/config.md).\n\n"
	       "exit status: 0 nothing at or above --fail-on, 1 findings, 2 jobfix could not\n"
	       "do its job (bad options or config, unreadable path, output not written)\n");
}

static const struct {
	const char *name;
	jf_format format;
} formats[] = {
	{ "text", JF_FORMAT_TEXT },   { "concise", JF_FORMAT_CONCISE }, { "json", JF_FORMAT_JSON },
	{ "sarif", JF_FORMAT_SARIF }, { "github", JF_FORMAT_GITHUB },
};

/* The format named `name`; false when there is none. */
static bool format_named(const char *name, jf_format *out)
{
	for (size_t i = 0; i < sizeof formats / sizeof *formats; i++) {
		if (!strcmp(formats[i].name, name)) {
			*out = formats[i].format;
			return true;
		}
	}
	return false;
}

/* The format of an --output FILE without --output-format, from its name. */
static bool format_of_file(const char *path, jf_format *out)
{
	static const struct {
		const char *suffix;
		jf_format format;
	} suffixes[] = {
		{ ".sarif", JF_FORMAT_SARIF },
		{ ".sarif.json", JF_FORMAT_SARIF },
		{ ".json", JF_FORMAT_JSON },
		{ ".txt", JF_FORMAT_TEXT },
	};
	size_t n = strlen(path);
	for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
		size_t k = strlen(suffixes[i].suffix);
		if (n > k && !strcmp(path + n - k, suffixes[i].suffix)) {
			*out = suffixes[i].format;
			return true;
		}
	}
	return false;
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

int cmd_lint(int argc, char **argv)
{
	jf_format format = JF_FORMAT_TEXT;
	jf_severity fail_on = JF_SEV_WARNING;
	int fail_on_given = 0, statistics = 0, no_config = 0;
	jf_format output_format = JF_FORMAT_TEXT;
	const char *output = NULL, *output_format_name = NULL;
	int color = -1, quiet = 0, npaths = 0;
	const char *config_path = NULL;
	/* The overrides: key, value pairs for jf_config_set(), NULL-terminated. */
	const char *overrides[7] = { NULL };
	const char *select = NULL, *ignore = NULL, *rules_dir = NULL;
	char **paths = calloc((size_t)argc, sizeof(char *));
	int only_paths = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		int missing = 0;
		if (only_paths || a[0] != '-' || !a[1]) {
			paths[npaths++] = argv[i];
		} else if (!strcmp(a, "--")) {
			only_paths = 1;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			free(paths);
			print_help();
			return finish_stdout(JF_EXIT_OK);
		} else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
			quiet = 1;
		} else if (!strcmp(a, "--statistics")) {
			statistics = 1;
		} else if (!strcmp(a, "--no-config")) {
			no_config = 1;
		} else if ((v = option_value(argc, argv, &i, "--format", &missing))) {
			if (!format_named(v, &format)) {
				free(paths);
				return usage_error("lint ", "unknown format '%s' (%s)", v, FORMAT_NAMES);
			}
		} else if ((v = option_value(argc, argv, &i, "--output-format", &missing))) {
			if (!format_named(v, &output_format)) {
				free(paths);
				return usage_error("lint ", "unknown format '%s' (%s)", v, FORMAT_NAMES);
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
				return usage_error("lint ", "unknown color mode '%s' (auto, always, never)", v);
			}
		} else if ((v = option_value(argc, argv, &i, "--select", &missing))) {
			select = v;
		} else if ((v = option_value(argc, argv, &i, "--ignore", &missing))) {
			ignore = v;
		} else if ((v = option_value(argc, argv, &i, "--rules-dir", &missing))) {
			rules_dir = v;
		} else if ((v = option_value(argc, argv, &i, "--config", &missing))) {
			config_path = v;
		} else {
			free(paths);
			if (missing)
				return usage_error("lint ", "option '%s' needs a value", a);
			return usage_error("lint ", "unknown option '%s'", a);
		}
	}
	if (!npaths) {
		free(paths);
		return usage_error("lint ", "no PATH given");
	}
	if (config_path && no_config) {
		free(paths);
		return usage_error("lint ", "--config and --no-config exclude each other");
	}
	if (output_format_name && !output) {
		free(paths);
		return usage_error("lint ", "--output-format needs --output FILE");
	}
	if (output && !output_format_name && !format_of_file(output, &output_format)) {
		free(paths);
		return usage_error("lint ",
		                   "cannot tell the format of '%s' from its name (*.sarif, *.json, "
		                   "*.txt): give --output-format (%s)",
		                   output, FORMAT_NAMES);
	}
	size_t k = 0;
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
		cmd_load_config(config_path, no_config, overrides, &to, "nothing was linted");
	if (!config) {
		free(paths);
		return finish_stdout(JF_EXIT_ERROR);
	}
	jf_severity from_file;
	if (!fail_on_given && jf_config_fail_on(config, &from_file))
		fail_on = from_file;
	color = cmd_color_for(color, STDOUT_FILENO);
	jf_options opts = JF_OPTIONS_INIT;
	opts.config = config;
	jf_linter *l = jf_linter_new(&opts);
	bool failed = false; /* jobfix could not do its job */
	for (int i = 0; i < npaths; i++) {
		if (jf_linter_lint(l, paths[i]) < 0) {
			fprintf(stderr, "jobfix: error: %s\n", jf_linter_error(l));
			failed = true;
		}
	}
	int written = statistics ? jf_linter_write_statistics(l, stdout, format)
	                         : jf_linter_write(l, stdout, format, color);
	if (written < 0)
		failed = true;
	fflush(stdout); /* before FILE, which may be stdout too */
	findings_to findings = { l, output_format };
	if (output && cmd_write_file(output, write_findings, &findings) < 0)
		failed = true;
	size_t failing = jf_linter_count(l, fail_on);
	if (!quiet && format == JF_FORMAT_TEXT) {
		size_t e = jf_linter_count(l, JF_SEV_ERROR);
		size_t w = jf_linter_count(l, JF_SEV_WARNING) - e;
		size_t n = jf_linter_count(l, JF_SEV_NOTE) - e - w;
		if (e + w + n)
			fprintf(stderr, "jobfix: %zu error%s, %zu warning%s, %zu note%s\n", e,
			        e == 1 ? "" : "s", w, w == 1 ? "" : "s", n, n == 1 ? "" : "s");
	}
	int rc = failed ? JF_EXIT_ERROR : failing ? JF_EXIT_FINDINGS : JF_EXIT_OK;
	jf_linter_free(l);
	jf_config_free(config);
	free(paths);
	return finish_stdout(rc);
}
