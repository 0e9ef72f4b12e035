/* cmd_rules.c - `jobfix rules`: the table of every rule */
#include <stdio.h>
#include <string.h>

#include "exit.h"
#include "jobfix/jobfix.h"

int cmd_rules(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: jobfix rules\n\nLists every rule: id, name, severity, category, "
			       "summary.\n");
			return finish_stdout(JF_EXIT_OK);
		}
		return usage_error("rules ", "unexpected argument '%s'", argv[i]);
	}
	size_t n = jf_rules_count();
	if (n == 0) {
		fprintf(stderr, "jobfix: error: the rule table is broken\n");
		return JF_EXIT_ERROR;
	}
	printf("%-6s %-34s %-8s %-22s %s\n", "ID", "NAME", "SEVERITY", "CATEGORY", "SUMMARY");
	for (size_t i = 0; i < n; i++) {
		const jf_rule_info *r = jf_rules_get(i);
		printf("%-6s %-34s %-8s %-22s %s\n", r->id, r->name, jf_severity_name(r->severity),
		       r->category, r->summary);
	}
	return finish_stdout(JF_EXIT_OK);
}
