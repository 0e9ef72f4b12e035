/* embed.c - finding a file among those compiled into the binary */
#include <string.h>

#include "core/embed.h"

const jf_embedded *jf_embedded_data_find(const char *path)
{
	for (size_t i = 0; i < jf_embedded_data_count; i++)
		if (!strcmp(jf_embedded_data[i].path, path))
			return &jf_embedded_data[i];
	return NULL;
}
