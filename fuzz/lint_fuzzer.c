/* lint_fuzzer.c - end to end: the first byte picks a job spec, a Python or a shell
 * file, or the entry script of a fixed job with every image fact known; the
 * rest is its text. Lints it in a scratch folder that also holds a small
 * Python entry script and launch script, and renders every format and the
 * statistics. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "jobfix/jobfix.h"

char fuzz_dir[64];

static void setup(void)
{
	fuzz_make_dir();
	fuzz_put_str("train.py", "import tensorflow as tf\nfrom model import net\n"
	                    "for i in range(2):\n    with tf.variable_scope('t'):\n"
	                    "        w = tf.get_variable('w', [1])\n"
	                    "with tf.Session() as sess:\n    sess.run(w)\n"
	                    "open('/home/me/x.txt')\n");
	fuzz_put_str("model.py", "import os\nx = os.path.join('/Users/me', 'y')\n");
	fuzz_put_str("run.sh", "#!/bin/bash\ncd /workspace\npip install x\npython -u train.py \"$@\"\n");
	/* A job whose image, Python, user, env and mounts are all known, so the
	 * checks of imports, paths, environment and syntax all evaluate entry.py. */
	fuzz_put_str("entry.yaml", "version: 1\nimage: {name: r.example.com/t:1, user: \"1000\", "
	                      "python: \"3.8\", manifest: packages.txt}\nworkdir: /workspace\n"
	                      "env: {DATA_DIR: /mnt/data}\ninputs: {data: /mnt/data}\n"
	                      "outputs: {out: /mnt/out}\ncommand: bash entry.sh --data /mnt/data/x\n");
	fuzz_put_str("entry.sh", "#!/bin/bash\nset -u\nexport RUN=1\npython entry.py \"$@\" --out \"$OUT\"\n");
	fuzz_put_str("packages.txt", "numpy==1.24.0\ntorch==1.9.0\n");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "job.yaml", "input.py", "input.sh", "entry.py" };
	if (!fuzz_dir[0])
		setup();
	if (size < 1)
		return 0;
	const char *name = names[data[0] % 4];
	fuzz_put(name, data + 1, size - 1);
	char path[128];
	snprintf(path, sizeof path, "%s/%s", fuzz_dir, data[0] % 4 == 3 ? "entry.yaml" : name);

	jf_linter *l = jf_linter_new(NULL);
	jf_linter_lint(l, path);
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	/* Every format, text in color by a bit of the input; the statistics in one
	 * format the input picks. */
	jf_format fmt;
	size_t n = 0;
	for (; jf_format_name_at(n, &fmt); n++)
		jf_linter_write(l, f, fmt, fmt == JF_FORMAT_TEXT && (data[0] & 0x10));
	if (jf_format_name_at((size_t)(data[0] >> 5) % n, &fmt))
		jf_linter_write_statistics(l, f, fmt);
	fclose(f);
	free(out);
	jf_linter_free(l);
	return 0;
}
