/* cmd_config.c - the config of a command: .jobfix.yaml found or named, the command line's overrides */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "exit.h"

int cmd_color_for(int color, int fd)
{
	if (color >= 0)
		return color;
	const char *no = getenv("NO_COLOR");
	return isatty(fd) && !(no && *no);
}

jf_config *cmd_load_config(const char *path, int no_config, const char *const *overrides,
                           jf_format format, int color, const char *consequence)
{
	jf_config *c = jf_config_new();
	char *found = NULL;
	if (!no_config && !path)
		path = found = jf_config_find(NULL);
	if (path)
		jf_config_load(c, path);
	free(found);
	for (size_t i = 0; overrides[i]; i += 2)
		jf_config_set(c, overrides[i], overrides[i + 1]);
	jf_config_resolve(c);
	size_t n = jf_config_error_count(c);
	if (!n)
		return c;
	/* JSON goes to stdout, where a CI step parses it; text to stderr. */
	FILE *out = format == JF_FORMAT_JSON ? stdout : stderr;
	jf_config_write_errors(c, out, format, cmd_color_for(color, fileno(out)));
	fprintf(stderr, "jobfix: error: %zu error%s in jobfix's configuration: %s\n", n,
	        n == 1 ? "" : "s", consequence);
	jf_config_free(c);
	return NULL;
}
