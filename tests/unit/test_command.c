/* test_command.c - unit tests of command resolution (scripts, cd, launchers, variables) through linting */
#include "helpers.h"

/* Writes a code file of the job. */
static void put(th_fixture *f, const char *rel, const char *text)
{
	th_put(f->dir, rel, text);
}

/* Writes job.yaml (`image` and the optional workdir, then `rest`) and lints it. */
static void lint_job(th_fixture *f, const char *workdir, const char *rest)
{
	jf_buf spec = JF_BUF_INIT;
	jf_buf_adds(&spec, "image: python:3.11\n");
	if (workdir)
		jf_buf_addf(&spec, "workdir: %s\n", workdir);
	jf_buf_adds(&spec, rest);
	char *path = th_write(f->dir, "job.yaml", spec.buf);
	jf_buf_release(&spec);
	int rc = jf_linter_lint(f->linter, path);
	if (rc != 0)
		fail_msg("jf_linter_lint: %d: %s", rc, jf_linter_error(f->linter));
	free(path);
}

/* Asserts that there are `n` JF102, printing every diagnostic when not. */
static void expect_jf102(const th_fixture *f, size_t n)
{
	if (th_count(f->linter, "JF102") != n) {
		th_dump(f->linter);
		fail_msg("%zu JF102, expected %zu", th_count(f->linter, "JF102"), n);
	}
}

/* The only JF102: it names `name` ("... 'DIR/<name>' does not exist") in file `file`. */
static const jf_diag *the_jf102(const th_fixture *f, const char *name, const char *file)
{
	expect_jf102(f, 1);
	const jf_diag *d = th_find(f->linter, "JF102", 0);
	char *quoted = jf_xasprintf("/%s' does not exist", name);
	if (!strstr(d->message, quoted))
		fail_msg("JF102 message \"%s\" does not name '%s'", d->message, name);
	free(quoted);
	if (!jf_str_ends(d->src->path, file))
		fail_msg("JF102 in %s, expected in %s", d->src->path, file);
	return d;
}

/* The text a diagnostic underlines. */
static void assert_underlines(const jf_diag *d, const char *text)
{
	size_t n = strlen(text);
	if (d->span.end - d->span.start != n || memcmp(d->src->data + d->span.start, text, n))
		fail_msg("underlines \"%.*s\", expected \"%s\"", (int)(d->span.end - d->span.start),
		         d->src->data + d->span.start, text);
}

static void test_command__script_present(void **state)
{
	th_fixture *f = *state;
	put(f, "train.py", "print('hi')\n");
	lint_job(f, NULL, "command: python train.py\n");
	expect_jf102(f, 0);
	assert_int_equal(f->linter->report.diags.size, 0);
}

static void test_command__script_missing(void **state)
{
	th_fixture *f = *state;
	lint_job(f, NULL, "command: python train.py --epochs 3\n");
	const jf_diag *d = the_jf102(f, "train.py", "job.yaml");
	th_assert_at(d, 2, 17);
	assert_underlines(d, "train.py");
}

static void test_command__workdir_present(void **state)
{
	th_fixture *f = *state;
	put(f, "train.py", "print('hi')\n");
	lint_job(f, "/workspace", "command: python /workspace/train.py\n");
	expect_jf102(f, 0);
}

static void test_command__cd_then_script_present(void **state)
{
	th_fixture *f = *state;
	put(f, "src/train.py", "print('hi')\n");
	lint_job(f, "/workspace", "command: cd src && python train.py\n");
	expect_jf102(f, 0);
}

static void test_command__cd_then_script_missing(void **state)
{
	th_fixture *f = *state;
	put(f, "train.py", "print('hi')\n"); /* at the top, not in src/ */
	lint_job(f, "/workspace", "command: cd src && python train.py\n");
	const jf_diag *d = the_jf102(f, "src/train.py", "job.yaml");
	th_assert_at(d, 3, 27);
	assert_underlines(d, "train.py");
	/* A note shows where the container resolves it. */
	assert_int_equal(d->related.size, 1);
	assert_non_null(strstr(d->related.items[0].message, "/workspace/src/train.py"));
}

static void test_command__subshell_cd_does_not_leak(void **state)
{
	th_fixture *f = *state;
	put(f, "train.py", "print('hi')\n");
	lint_job(f, "/workspace", "command: (cd src && echo hi) && python train.py\n");
	expect_jf102(f, 0);
}

static void test_command__launch_script_default_variable(void **state)
{
	th_fixture *f = *state;
	put(f, "run.sh", "#!/bin/bash\n"
	                 "set -e\n"
	                 "python ${ENTRY:-main.py} \"$@\"\n");
	lint_job(f, "/workspace", "command: bash run.sh\n");
	const jf_diag *d = the_jf102(f, "main.py", "run.sh");
	th_assert_at(d, 3, 8);
	assert_underlines(d, "${ENTRY:-main.py}");
}

static void test_command__launch_script_job_env_wins(void **state)
{
	th_fixture *f = *state;
	put(f, "run.sh", "python ${ENTRY:-main.py}\n");
	put(f, "real.py", "print('hi')\n");
	lint_job(f, "/workspace", "env: {ENTRY: real.py}\ncommand: bash run.sh\n");
	expect_jf102(f, 0);
}

static void test_command__launch_script_missing(void **state)
{
	th_fixture *f = *state;
	lint_job(f, NULL, "command: bash scripts/run.sh\n");
	const jf_diag *d = the_jf102(f, "scripts/run.sh", "job.yaml");
	assert_non_null(strstr(d->message, "launch script"));
}

static void test_command__unknown_variable_is_silent(void **state)
{
	th_fixture *f = *state;
	lint_job(f, NULL, "command: python $SCRIPT && python ${DIR}/x.py && python *.py\n");
	expect_jf102(f, 0);
}

static void test_command__git_clone_produces(void **state)
{
	th_fixture *f = *state;
	lint_job(f, "/workspace",
	         "command: git clone https://x/repo.git && python repo/train.py\n");
	expect_jf102(f, 0);
}

static void test_command__git_clone_other_folder(void **state)
{
	th_fixture *f = *state;
	/* Cloned into `code/`: `repo/` is still not there. */
	lint_job(f, "/workspace",
	         "command: git clone --depth 1 https://x/repo.git code && python repo/train.py\n");
	the_jf102(f, "repo/train.py", "job.yaml");
}

static void test_command__torchrun_options(void **state)
{
	th_fixture *f = *state;
	put(f, "train.py", "print('hi')\n");
	lint_job(f, NULL, "command: torchrun --nproc_per_node 8 --master_port 1234 train.py --lr 1\n");
	expect_jf102(f, 0);
}

static void test_command__torchrun_missing(void **state)
{
	th_fixture *f = *state;
	put(f, "train.py", "print('hi')\n");
	lint_job(f, NULL,
	         "command: torchrun --standalone --nproc_per_node 8 --master_port 1234 trian.py\n");
	const jf_diag *d = the_jf102(f, "trian.py", "job.yaml");
	assert_underlines(d, "trian.py");
}

static void test_command__torch_distributed_launch(void **state)
{
	th_fixture *f = *state;
	lint_job(f, NULL,
	         "command: python -m torch.distributed.launch --nproc_per_node=2 missing.py\n");
	const jf_diag *d = the_jf102(f, "missing.py", "job.yaml");
	assert_underlines(d, "missing.py");
}

static void test_command__torch_distributed_launch_present(void **state)
{
	th_fixture *f = *state;
	put(f, "train.py", "print('hi')\n");
	lint_job(f, NULL,
	         "command: python -m torch.distributed.launch --nproc_per_node=2 train.py\n");
	expect_jf102(f, 0);
}

static void test_command__mpirun(void **state)
{
	th_fixture *f = *state;
	lint_job(f, NULL, "command: mpirun -np 4 -x NCCL_DEBUG=INFO python missing.py\n");
	const jf_diag *d = the_jf102(f, "missing.py", "job.yaml");
	th_assert_at(d, 2, 49);
	assert_underlines(d, "missing.py");
}

static void test_command__mpirun_present(void **state)
{
	th_fixture *f = *state;
	put(f, "train.py", "print('hi')\n");
	lint_job(f, NULL,
	         "command: mpirun -np 4 --allow-run-as-root -mca btl ^openib -x A=1 python train.py\n");
	expect_jf102(f, 0);
}

static void test_command__python_module_is_not_a_script(void **state)
{
	th_fixture *f = *state;
	lint_job(f, NULL, "command: python -m pkg.train --data x.py && python -c 'import x.py'\n");
	expect_jf102(f, 0);
}

static void test_command__block_scalar_position(void **state)
{
	th_fixture *f = *state;
	put(f, "src/other.py", "print('hi')\n");
	lint_job(f, "/workspace",
	         "command: |\n"
	         "  echo start\n"
	         "  cd src\n"
	         "  python   missing.py --lr 1\n"
	         "resources: {gpus: 1}\n");
	const jf_diag *d = the_jf102(f, "src/missing.py", "job.yaml");
	th_assert_at(d, 6, 12);
	assert_underlines(d, "missing.py");
}

static void test_command__block_scalar_utf8_before(void **state)
{
	th_fixture *f = *state;
	lint_job(f, NULL,
	         "command: |-\n"
	         "    echo \"d\xc3\xa9marrage \xe2\x82\xac\"\n"
	         "    echo \xc3\xa9 && python missing.py\n");
	const jf_diag *d = the_jf102(f, "missing.py", "job.yaml");
	/* Columns count characters: "é" is one. */
	th_assert_at(d, 4, 22);
	assert_underlines(d, "missing.py");
}

static void test_command__escaped_command_points_at_value(void **state)
{
	th_fixture *f = *state;
	/* A double-quoted value with an escape is not the file's bytes: the finding is
	 * reported at the whole value. */
	lint_job(f, NULL, "command: \"python \\\"missing.py\\\"\"\n");
	const jf_diag *d = the_jf102(f, "missing.py", "job.yaml");
	th_assert_at(d, 2, 10);
	assert_int_equal(d->src->data[d->span.start], '"');
}

#define T(name) cmocka_unit_test_setup_teardown(name, th_setup, th_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_command__script_present),
		T(test_command__script_missing),
		T(test_command__workdir_present),
		T(test_command__cd_then_script_present),
		T(test_command__cd_then_script_missing),
		T(test_command__subshell_cd_does_not_leak),
		T(test_command__launch_script_default_variable),
		T(test_command__launch_script_job_env_wins),
		T(test_command__launch_script_missing),
		T(test_command__unknown_variable_is_silent),
		T(test_command__git_clone_produces),
		T(test_command__git_clone_other_folder),
		T(test_command__torchrun_options),
		T(test_command__torchrun_missing),
		T(test_command__torch_distributed_launch),
		T(test_command__torch_distributed_launch_present),
		T(test_command__mpirun),
		T(test_command__mpirun_present),
		T(test_command__python_module_is_not_a_script),
		T(test_command__block_scalar_position),
		T(test_command__block_scalar_utf8_before),
		T(test_command__escaped_command_points_at_value),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
