/* cmd_show.c - `jobfix show`: what jobfix understood of each job file */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "jobfix/jobfix.h"

static void print_help(void)
{
	printf("usage: jobfix show [--format text|json] [--config FILE | --no-config] FILE...\n\n"
	       "Shows what jobfix understands of each job file, of any format: the format,\n"
	       "the image and what is known of it, the code folder, workdir, env, mounts\n"
	       "(read-only or writable), nodes, GPUs and processes per node, the command,\n"
	       "and the entry scripts it runs with their arguments, each with the place it\n"
	       "comes from. Nothing is checked: `jobfix lint` reports problems.\n\n"
	       "options:\n"
	       "  --format FORMAT  text (default) or json\n"
	       "  --config FILE    read this config instead of looking for .jobfix.yaml\n"
	       "  --no-config      read no config file\n"
	       "  -h, --help       show this help\n");
}

int cmd_show(int argc, char **argv)
{
	cmd_config_args config_args = { 0 };
	jf_format format = JF_FORMAT_TEXT;
	const char **files = calloc((size_t)argc, sizeof(char *));
	size_t nfiles = 0;
	if (!files) {
		fputs("jobfix: error: out of memory\n", stderr);
		return JF_EXIT_ERROR;
	}
	int rc = JF_EXIT_OK;
	for (int i = 1; i < argc && rc == JF_EXIT_OK; i++) {
		const char *a = argv[i], *v;
		int missing = 0;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			print_help();
			free(files);
			return finish_stdout(JF_EXIT_OK);
		} else if (cmd_config_arg(argc, argv, &i, &config_args, &missing)) {
			continue;
		} else if ((v = option_value(argc, argv, &i, "--format", &missing))) {
			if (!strcmp(v, "text") || !strcmp(v, "json"))
				format = !strcmp(v, "json") ? JF_FORMAT_JSON : JF_FORMAT_TEXT;
			else
				rc = usage_error("show ", "unknown format '%s' (text, json)", v);
		} else if (missing || (a[0] == '-' && a[1])) {
			rc = cmd_bad_option("show ", a, missing);
		} else {
			files[nfiles++] = a;
		}
	}
	if (rc == JF_EXIT_OK && !nfiles)
		rc = usage_error("show ", "no FILE: name the job files to show");
	if (rc == JF_EXIT_OK)
		rc = cmd_config_args_check("show ", &config_args);
	if (rc != JF_EXIT_OK) {
		free(files);
		return rc;
	}
	cmd_formats to = { JF_FORMAT_TEXT, -1, NULL, JF_FORMAT_TEXT };
	const char *no_overrides[] = { NULL };
	jf_config *config = cmd_load_config(&config_args, no_overrides, &to,
	                                    "no job was shown");
	if (!config) {
		free(files);
		return finish_stdout(JF_EXIT_ERROR);
	}
	jf_options opts = JF_OPTIONS_INIT;
	opts.config = config;
	jf_linter *l = jf_linter_new(&opts);
	for (size_t i = 0; i < nfiles; i++)
		if (jf_linter_show(l, files[i]) < 0) {
			fprintf(stderr, "jobfix: error: %s\n", jf_linter_error(l));
			rc = JF_EXIT_ERROR;
		}
	if (jf_linter_write_shown(l, stdout, format) < 0)
		rc = JF_EXIT_ERROR;
	jf_linter_free(l);
	jf_config_free(config);
	free(files);
	return finish_stdout(rc);
}
