/* cmd_triage.c - `jobfix triage`: what ended a failed job, from its log */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "jobfix/jobfix.h"

static void print_help(void)
{
	printf("usage: jobfix triage [options] LOG...\n\n"
	       "Reads the log of a job that failed (a file, - for standard input; gzip too)\n"
	       "and says what ended it: the failure message and its line in the log, its\n"
	       "failure category, whether a retry can help (no: it fails the same way again;\n"
	       "yes: a fault of the platform; maybe), the stage it died in, the time into the\n"
	       "log, and the innermost frame of the job's own code. With --job, the job is\n"
	       "linted too, and the frame and the finding that reports the failure before\n"
	       "the job runs are named.\n\n"
	       "options:\n"
	       "  --format FORMAT  text (default), json, or sarif (with --job)\n"
	       "  --job SPEC       the job that wrote the log (any format jobfix reads)\n"
	       "  --exit-code      exit 0 when a retry may help, 1 when it cannot, 2 when the\n"
	       "                   logs do not tell (for a retry policy or an epilog)\n"
	       "  --config FILE    the config for linting --job, instead of .jobfix.yaml\n"
	       "  --no-config      read no config file\n"
	       "  -v, --verbose    also say how each failure line was chosen (the pattern, or\n"
	       "                   why none matched), and which checks of the --job lint were\n"
	       "                   skipped\n"
	       "  -h, --help       show this help\n\n"
	       "Without --exit-code: 0 when every log was read, 2 when one could not be.\n"
	       "docs/triage.md tells more.\n");
}

int cmd_triage(int argc, char **argv)
{
	const char *job = NULL;
	cmd_config_args config_args = { 0 };
	int exit_code = 0, verbose = 0;
	jf_format format = JF_FORMAT_TEXT;
	const char **logs = calloc((size_t)argc, sizeof(char *));
	size_t nlogs = 0;
	if (!logs) {
		fputs("jobfix: error: out of memory\n", stderr);
		return JF_EXIT_ERROR;
	}
	int rc = JF_EXIT_OK;
	for (int i = 1; i < argc && rc == JF_EXIT_OK; i++) {
		const char *a = argv[i], *v;
		int missing = 0;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			print_help();
			free(logs);
			return finish_stdout(JF_EXIT_OK);
		} else if (cmd_config_arg(argc, argv, &i, &config_args, &missing)) {
			continue;
		} else if (!strcmp(a, "--exit-code")) {
			exit_code = 1;
		} else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			verbose = 1;
		} else if ((v = option_value(argc, argv, &i, "--format", &missing))) {
			if (!strcmp(v, "text"))
				format = JF_FORMAT_TEXT;
			else if (!strcmp(v, "json"))
				format = JF_FORMAT_JSON;
			else if (!strcmp(v, "sarif"))
				format = JF_FORMAT_SARIF;
			else
				rc = usage_error("triage ", "unknown format '%s' (text, json, sarif)", v);
		} else if ((v = option_value(argc, argv, &i, "--job", &missing))) {
			job = v;
		} else if (missing || (a[0] == '-' && a[1])) {
			rc = cmd_bad_option("triage ", a, missing);
		} else {
			logs[nlogs++] = a;
		}
	}
	if (rc == JF_EXIT_OK && !nlogs)
		rc = usage_error("triage ", "no LOG: name the log files, or - for standard input");
	if (rc == JF_EXIT_OK && format == JF_FORMAT_SARIF && !job)
		rc = usage_error("triage ", "--format sarif needs --job: SARIF places results in code");
	if (rc == JF_EXIT_OK)
		rc = cmd_config_args_check("triage ", &config_args);
	if (rc == JF_EXIT_OK && (config_args.path || config_args.none) && !job)
		rc = usage_error("triage ", "--config and --no-config are for linting --job");
	size_t stdin_logs = 0;
	for (size_t i = 0; i < nlogs; i++)
		stdin_logs += !strcmp(logs[i], "-");
	if (rc == JF_EXIT_OK && stdin_logs > 1)
		rc = usage_error("triage ", "standard input (-) can be read only once");
	if (rc != JF_EXIT_OK) {
		free(logs);
		return rc;
	}
	jf_triage *t = jf_triage_new();
	int read_rc = JF_EXIT_OK;
	for (size_t i = 0; i < nlogs; i++)
		if (jf_triage_read(t, logs[i]) < 0) {
			fprintf(stderr, "jobfix: error: %s\n", jf_triage_error(t));
			read_rc = JF_EXIT_ERROR;
		}
	if (job) {
		cmd_formats to = { format == JF_FORMAT_TEXT ? JF_FORMAT_TEXT : JF_FORMAT_JSON, -1, NULL,
			           JF_FORMAT_TEXT };
		const char *no_overrides[] = { NULL };
		jf_config *config = cmd_load_config(&config_args, no_overrides, &to,
		                                    "the job was not linted");
		if (!config) {
			jf_triage_free(t);
			free(logs);
			return finish_stdout(JF_EXIT_ERROR);
		}
		jf_options opts = JF_OPTIONS_INIT;
		opts.config = config;
		jf_linter *l = jf_linter_new(&opts);
		if (jf_triage_link(t, l, job) < 0) {
			fprintf(stderr, "jobfix: error: %s\n", jf_linter_error(l));
			read_rc = JF_EXIT_ERROR;
		}
		if (jf_triage_write(t, stdout, format) < 0)
			read_rc = JF_EXIT_ERROR;
		for (size_t i = 0; verbose && jf_linter_skipped(l, i); i++)
			fprintf(stderr, "jobfix: skipped %s\n", jf_linter_skipped(l, i));
		jf_linter_free(l);
		jf_config_free(config);
	} else if (jf_triage_write(t, stdout, format) < 0) {
		read_rc = JF_EXIT_ERROR;
	}
	const char *basis;
	for (size_t i = 0; verbose && (basis = jf_triage_line_basis(t, i)); i++)
		fprintf(stderr, "jobfix: %s\n", basis);
	rc = exit_code ? jf_triage_verdict(t) : read_rc;
	jf_triage_free(t);
	free(logs);
	return finish_stdout(rc);
}
