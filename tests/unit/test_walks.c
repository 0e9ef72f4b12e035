/* test_walks.c - each Python file of a lint is walked once, whatever the checks ask of it */
#include "helpers.h"
#include "python/pyfacts.h"

/* Lints `path`, then asserts that it read `files` Python files and walked each once. */
static void expect_walks(const char *path, size_t files)
{
	jf_linter *l = jf_linter_new(NULL);
	int rc = jf_linter_lint(l, path);
	if (rc != 0)
		fail_msg("jf_linter_lint(%s): %d: %s", path, rc, jf_linter_error(l));
	if (l->python_files != files || l->python_walks != files)
		fail_msg("%s: %zu Python files walked %zu times, expected %zu walked once each", path,
		         l->python_files, l->python_walks, files);
	jf_linter_free(l);
}

static void test_walks__demo_job(void **state)
{
	(void)state;
	char *job = jf_xasprintf("%s/demo/job.yaml", getenv("JF_FIXTURES"));
	/* train.py, model/__init__.py, model/cifar.py */
	expect_walks(job, 3);
	free(job);
}

/* A job whose files every Python check reads: a local launcher wrapping the
 * entry script, modules with argparse, absl and click, paths, env reads,
 * TensorFlow sessions, imports under `if __name__`, relative imports. */
static char *put_multi_file_job(const th_fixture *f)
{
	th_put(f->dir, "job.yaml",
	       "image: {name: registry.example.com/t:1, user: \"1000\", python: \"3.8\", "
	       "manifest: packages.txt}\n"
	       "workdir: /workspace\n"
	       "inputs: {data: /mnt/data}\n"
	       "outputs: {out: /mnt/out}\n"
	       "resources: {gpus: 2}\n"
	       "command: bash run.sh --lr 0.1\n");
	th_put(f->dir, "packages.txt", "tensorflow==1.15.5\nnumpy==1.26.4\n");
	th_put(f->dir, "run.sh",
	       "set -u\n"
	       "python launch.py --nproc 2 train.py \"$@\"\n"
	       "python -m pkg.tool --out /mnt/out/x\n");
	th_put(f->dir, "launch.py",
	       "import argparse\n"
	       "p = argparse.ArgumentParser()\n"
	       "p.add_argument('--nproc', type=int)\n"
	       "p.add_argument('training_script')\n"
	       "p.add_argument('training_script_args', nargs=argparse.REMAINDER)\n"
	       "args = p.parse_args()\n");
	th_put(f->dir, "train.py",
	       "import os, sys\n"
	       "import tensorflow as tf\n"
	       "from pkg import model\n"
	       "from pkg.opts import add_args\n"
	       "import argparse\n"
	       "p = argparse.ArgumentParser()\n"
	       "add_args(p)\n"
	       "args = p.parse_args()\n"
	       "def run(a):\n"
	       "    x := 1 if False else 0\n"
	       "    return open(os.path.join(a.data, 'x.csv')).read()\n"
	       "sess = tf.Session()\n"
	       "sess.run(model.build(args.lr))\n"
	       "print(os.environ['RANK'], run(args))\n"
	       "if __name__ == '__main__':\n"
	       "    import pkg.extra\n");
	th_put(f->dir, "pkg/__init__.py", "from . import model\n");
	th_put(f->dir, "pkg/model.py",
	       "import tensorflow as tf\n"
	       "def build(lr):\n"
	       "    with tf.variable_scope('m'):\n"
	       "        return tf.get_variable('w', [1]) * lr\n");
	th_put(f->dir, "pkg/opts.py",
	       "def add_args(p):\n"
	       "    p.add_argument('--lr', type=float)\n"
	       "    p.add_argument('--data', default='/home/me/data')\n");
	th_put(f->dir, "pkg/extra.py", "import click\n@click.command()\ndef main():\n    pass\n");
	th_put(f->dir, "pkg/tool.py",
	       "from absl import app, flags\n"
	       "flags.DEFINE_string('out', None, 'where')\n"
	       "FLAGS = flags.FLAGS\n"
	       "def main(argv):\n"
	       "    print(FLAGS.out)\n"
	       "app.run(main)\n");
	return jf_xasprintf("%s/job.yaml", f->dir);
}

static void test_walks__multi_file_job(void **state)
{
	char *job = put_multi_file_job(*state);
	/* launch.py, train.py, pkg/tool.py, pkg/__init__.py, pkg/model.py, pkg/opts.py,
	 * pkg/extra.py */
	expect_walks(job, 7);
	free(job);
}

/* With no tree kept and one thread (no file parsed ahead), the gather, the
 * rule queries' matches and the checks hold only the trees one file needs at
 * once (train.py's options defined in pkg/opts.py; an I/O path through a
 * default there), not the job's: what they keep across files is text. */
static void test_walks__few_trees_at_once(void **state)
{
	char *job = put_multi_file_job(*state);
	jf_linter *kept = jf_linter_new(NULL);
	assert_int_equal(jf_linter_lint(kept, job), 0);
	assert_int_equal(kept->python_trees_peak, 7);
	setenv("JOBFIX_TREE_BUDGET", "0", 1);
	jf_linter *released = jf_linter_new(&(jf_options){ .version = 2, .threads = 1 });
	unsetenv("JOBFIX_TREE_BUDGET");
	assert_int_equal(jf_linter_lint(released, job), 0);
	if (released->python_trees_peak > 2)
		fail_msg("%zu trees kept at once with no tree kept", released->python_trees_peak);
	/* Each file walked by the gather and by the checks' one pass over the
	 * files, and a few times more as another file's definitions: not once per
	 * check. */
	if (released->python_walks > 4 * released->python_files)
		fail_msg("%zu walks of %zu files with no tree kept", released->python_walks,
		         released->python_files);
	assert_int_equal(released->report.diags.size, kept->report.diags.size);
	jf_linter_free(kept);
	jf_linter_free(released);
	free(job);
}

/* A Python file linted alone is not walked: its rule queries look around their matches. */
static void test_walks__file_alone(void **state)
{
	th_fixture *f = *state;
	th_put(f->dir, "t.py",
	       "import tensorflow as tf\n"
	       "w = tf.Variable(1)\n"
	       "sess = tf.Session()\n"
	       "sess.run(w)\n");
	char *path = jf_xasprintf("%s/t.py", f->dir);
	jf_linter *l = jf_linter_new(NULL);
	assert_int_equal(jf_linter_lint(l, path), 0);
	assert_int_equal(l->python_files, 1);
	assert_int_equal(l->python_walks, 0);
	/* The finding that needed the file's calls is there all the same. */
	assert_int_equal(th_count(l, "JF202"), 1);
	jf_linter_free(l);
	free(path);
}

/* With no tree kept (JOBFIX_TREE_BUDGET=0), each file is released once its
 * facts are gathered and parsed and walked again when a check asks: more
 * walks, the same findings. */
static void test_walks__released_trees(void **state)
{
	(void)state;
	char *job = jf_xasprintf("%s/demo/job.yaml", getenv("JF_FIXTURES"));
	jf_linter *kept = jf_linter_new(NULL);
	assert_int_equal(jf_linter_lint(kept, job), 0);
	setenv("JOBFIX_TREE_BUDGET", "0", 1);
	jf_linter *released = jf_linter_new(NULL);
	unsetenv("JOBFIX_TREE_BUDGET");
	assert_int_equal(jf_linter_lint(released, job), 0);
	assert_int_equal(released->python_files, 3);
	assert_true(released->python_walks > 3);
	assert_int_equal(released->report.diags.size, kept->report.diags.size);
	assert_true(kept->report.diags.size > 0);
	for (size_t i = 0; i < kept->report.diags.size; i++) {
		assert_ptr_equal(released->report.diags.items[i].rule,
		                 kept->report.diags.items[i].rule);
		assert_string_equal(released->report.diags.items[i].message,
		                    kept->report.diags.items[i].message);
		assert_int_equal(released->report.diags.items[i].span.start,
		                 kept->report.diags.items[i].span.start);
	}
	jf_linter_free(kept);
	jf_linter_free(released);
	free(job);
}

/* A job of twelve imported modules of 100 kB each (fewer than
 * JF_READ_AHEAD, small enough to parse well within the parse's time limit
 * under a sanitizer), each opening with `head`. */
static char *put_big_modules(th_fixture *f, const char *head, const char *train_tail,
                             const char *train_args)
{
	char *yaml = jf_xasprintf("image: {name: registry.example.com/t:1, python: \"3.10\"}\n"
	                          "workdir: /workspace\n"
	                          "command: python train.py%s\n",
	                          train_args);
	th_put(f->dir, "job.yaml", yaml);
	free(yaml);
	jf_buf train = JF_BUF_INIT;
	for (int m = 0; m < 12; m++) {
		jf_buf_addf(&train, "import mod%d\n", m);
		jf_buf mod = JF_BUF_INIT;
		jf_buf_adds(&mod, head);
		for (int i = 0; mod.len < 100000; i++)
			jf_buf_addf(&mod, "def f%d(x):\n    return x + %d\n", i, i);
		char *name = jf_xasprintf("mod%d.py", m);
		th_put(f->dir, name, mod.buf);
		free(name);
		jf_buf_release(&mod);
	}
	jf_buf_adds(&train, "import os\nprint(os.environ['UNSET_VAR'])\n");
	jf_buf_adds(&train, train_tail);
	th_put(f->dir, "train.py", train.buf);
	jf_buf_release(&train);
	return jf_xasprintf("%s/job.yaml", f->dir);
}

/* With no tree kept and two threads, the files a loop is about to read are
 * parsed again ahead, but not more than JF_READ_AHEAD_BYTES of source at once
 * beyond the first: the twelve modules, whose I/O calls' paths (argparse
 * values) the pass evaluates from their trees, are not all named. */
static void test_walks__read_ahead_bounded(void **state)
{
	char *job = put_big_modules(*state, "def load(args):\n    return open(args.data).read()\n",
	                            "", "");
	setenv("JOBFIX_TREE_BUDGET", "67108864", 1);
	jf_linter *kept = jf_linter_new(&(jf_options){ .version = 2, .threads = 2 });
	unsetenv("JOBFIX_TREE_BUDGET");
	assert_int_equal(jf_linter_lint(kept, job), 0);
	setenv("JOBFIX_TREE_BUDGET", "0", 1);
	jf_linter *released = jf_linter_new(&(jf_options){ .version = 2, .threads = 2 });
	unsetenv("JOBFIX_TREE_BUDGET");
	assert_int_equal(jf_linter_lint(released, job), 0);
	assert_int_equal(released->python_files, 13);
	if (released->python_ahead_peak < 100000 || released->python_ahead_peak > JF_READ_AHEAD_BYTES)
		fail_msg("%zu bytes parsed ahead at once (at most %u expected)",
		         released->python_ahead_peak, JF_READ_AHEAD_BYTES);
	assert_int_equal(kept->python_ahead_peak, 0); /* every tree kept: nothing parsed again */
	assert_int_equal(released->report.diags.size, kept->report.diags.size);
	jf_linter_free(kept);
	jf_linter_free(released);
	free(job);
}

/* With no tree kept, a module whose records answer every check (imports,
 * names of the API data, environment reads, argparse definitions, I/O calls
 * whose paths the file decides, but no rule query's match) is walked once,
 * by the gather: the pass does not parse it again. */
static void test_walks__records_only(void **state)
{
	char *job = put_big_modules(*state,
	                            "import numpy as np\n"
	                            "import yaml\n"
	                            "import os\n"
	                            "X = np.float(os.environ['MOD_VAR'])\n"
	                            "def add_args(parser):\n"
	                            "    parser.add_argument('--lr', type=float)\n"
	                            "DATA = 'data/train.csv'\n"
	                            "def load():\n"
	                            "    return open(DATA).read()\n",
	                            "import argparse\n"
	                            "p = argparse.ArgumentParser()\n"
	                            "mod0.add_args(p)\n"
	                            "args = p.parse_args()\n",
	                            " --lr 0.1 --epochs 3");
	setenv("JOBFIX_TREE_BUDGET", "0", 1);
	jf_linter *released = jf_linter_new(&(jf_options){ .version = 2, .threads = 1 });
	unsetenv("JOBFIX_TREE_BUDGET");
	assert_int_equal(jf_linter_lint(released, job), 0);
	assert_int_equal(released->python_files, 13);
	/* No module is read again; train.py is, twice: for its command line
	 * (JF302's checks read the entry), and for the names it uses (JF120)
	 * once the folder of its own modules is known, after its first walk. */
	if (released->python_walks > released->python_files + 2)
		fail_msg("%zu walks of %zu files with no tree kept", released->python_walks,
		         released->python_files);
	assert_int_equal(th_count(released, "JF108"), 13); /* UNSET_VAR, MOD_VAR in each module */
	/* --lr is the modules', added by the add_args() that train.py calls */
	assert_int_equal(th_count(released, "JF302"), 1); /* --epochs */
	assert_int_equal(th_count(released, "JF103"), 12); /* data/train.csv, read in each module */
	jf_linter_free(released);
	free(job);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_walks__demo_job),
		cmocka_unit_test_setup_teardown(test_walks__multi_file_job, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_walks__few_trees_at_once, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_walks__file_alone, th_setup, th_teardown),
		cmocka_unit_test(test_walks__released_trees),
		cmocka_unit_test_setup_teardown(test_walks__read_ahead_bounded, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_walks__records_only, th_setup, th_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
