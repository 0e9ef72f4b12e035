/* parse_only.c - the limit tools/bench.sh measures jobfix against: each file read and parsed
 * with the tree-sitter and the grammars jobfix is built with, and nothing else
 *
 *   jobfix-parse-only FILE...   (.sh and .bash files as bash, the others as Python)
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

#include "read_file.h"

const TSLanguage *tree_sitter_python(void);
const TSLanguage *tree_sitter_bash(void);

int main(int argc, char **argv)
{
	TSParser *python = ts_parser_new(), *bash = ts_parser_new();
	ts_parser_set_language(python, tree_sitter_python());
	ts_parser_set_language(bash, tree_sitter_bash());
	int rc = 0;
	for (int i = 1; i < argc; i++) {
		size_t len;
		char *data = read_file(argv[i], &len);
		if (!data) {
			rc = 1;
			continue;
		}
		const char *dot = strrchr(argv[i], '.');
		bool sh = dot && (!strcmp(dot, ".sh") || !strcmp(dot, ".bash"));
		TSTree *tree = ts_parser_parse_string(sh ? bash : python, NULL, data, (uint32_t)len);
		ts_tree_delete(tree);
		free(data);
	}
	ts_parser_delete(python);
	ts_parser_delete(bash);
	return rc;
}
