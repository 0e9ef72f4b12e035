/* build_fuzzer.c - the readers of what builds a job's image: the first byte
 * picks a Dockerfile, a requirements file, a conda environment file, the
 * arguments of a pip install, or a local project's pyproject.toml, setup.cfg
 * or setup.py; the rest is its text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "job/dockerfile.h"
#include "job/pip.h"
#include "job/project.h"

char fuzz_dir[64];

static const char *const files[] = { "Dockerfile", "requirements.txt", "environment.yml",
	                             "pyproject.toml", "setup.cfg", "setup.py", "extra.txt" };

static void setup(void)
{
	fuzz_make_dir();
	/* What `-r extra.txt` and `-c extra.txt` in the input find. */
	fuzz_put_str("extra.txt", "numpy==1.26.4\n-r requirements.txt\n");
}

static void on_item(const jf_pip_item *item, void *data)
{
	(void)item;
	(*(size_t *)data)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!fuzz_dir[0])
		setup();
	if (size < 1)
		return 0;
	for (size_t i = 0; i < 6; i++) {
		char path[128];
		snprintf(path, sizeof path, "%s/%s", fuzz_dir, files[i]);
		unlink(path);
	}
	char *text = malloc(size);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	size_t items = 0;
	char path[128];
	switch (data[0] % 5) {
	case 0: {
		fuzz_put("Dockerfile", data + 1, size - 1);
		snprintf(path, sizeof path, "%s/Dockerfile", fuzz_dir);
		jf_dockerfile df;
		jf_dockerfile_read(path, "Dockerfile", fuzz_dir, &df);
		(void)jf_dockerfile_why(&df);
		jf_dockerfile_release(&df);
		break;
	}
	case 1:
		fuzz_put("requirements.txt", data + 1, size - 1);
		snprintf(path, sizeof path, "%s/requirements.txt", fuzz_dir);
		jf_pip_requirements_file(path, on_item, &items);
		jf_pip_requirements(text, on_item, &items);
		break;
	case 2:
		fuzz_put("environment.yml", data + 1, size - 1);
		snprintf(path, sizeof path, "%s/environment.yml", fuzz_dir);
		jf_conda_environment(path, on_item, &items);
		break;
	case 3: {
		/* The words of a pip install, split at blanks. */
		const char *words[64];
		size_t n = 0;
		for (char *w = strtok(text, " \t\n"); w && n < 64; w = strtok(NULL, " \t\n"))
			words[n++] = w;
		jf_pip_install_args(words, n, data[0] & 8, on_item, &items);
		break;
	}
	default: {
		fuzz_put(files[3 + (data[0] >> 3) % 3], data + 1, size - 1);
		jf_project p;
		jf_project_read(fuzz_dir, data[0] & 0x80 ? "dev,test" : NULL, &p);
		jf_project_release(&p);
		break;
	}
	}
	free(text);
	return 0;
}
