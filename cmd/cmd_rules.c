/* cmd_rules.c - `jobfix rules`: the table of every rule */
#include <stdio.h>
#include <string.h>

#include "exit.h"
#include "jobfix/jobfix.h"

int cmd_rules(int argc, char **argv)
{
	const char *config_path = NULL, *overrides[3] = { NULL };
	int no_config = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			printf("usage: jobfix rules [--rules-dir DIR] [--config FILE | --no-config]\n\n"
			       "Lists every rule: id, name, severity, category, summary; with the rules\n"
			       "of the config's rules folder (or of --rules-dir DIR) among them.\n");
			return finish_stdout(JF_EXIT_OK);
		}
		if (!strcmp(a, "--no-config")) {
			no_config = 1;
		} else if ((!strcmp(a, "--rules-dir") || !strcmp(a, "--config")) && i + 1 < argc) {
			if (!strcmp(a, "--config")) {
				config_path = argv[++i];
			} else {
				overrides[0] = "rules-dir";
				overrides[1] = argv[++i];
			}
		} else if (!strcmp(a, "--rules-dir") || !strcmp(a, "--config")) {
			return usage_error("rules ", "option '%s' needs a value", a);
		} else {
			return usage_error("rules ", "unexpected argument '%s'", a);
		}
	}
	if (config_path && no_config)
		return usage_error("rules ", "--config and --no-config exclude each other");
	jf_config *config = cmd_load_config(config_path, no_config, overrides, JF_FORMAT_TEXT, -1,
	                                    "no rule was listed");
	if (!config)
		return finish_stdout(JF_EXIT_ERROR);
	size_t n = jf_rules_count();
	if (n == 0) {
		fprintf(stderr, "jobfix: error: the rule table is broken\n");
		jf_config_free(config);
		return JF_EXIT_ERROR;
	}
	printf("%-6s %-34s %-8s %-22s %s\n", "ID", "NAME", "SEVERITY", "CATEGORY", "SUMMARY");
	for (size_t i = 0; i < n; i++) {
		const jf_rule_info *r = jf_rules_get(i);
		printf("%-6s %-34s %-8s %-22s %s\n", r->id, r->name, jf_severity_name(r->severity),
		       r->category, r->summary);
	}
	jf_config_free(config);
	return finish_stdout(JF_EXIT_OK);
}
