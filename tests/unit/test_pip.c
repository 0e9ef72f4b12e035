/* test_pip.c - unit tests of the reading of pip/conda install arguments, requirements and conda environment files */
#include "helpers.h"

#include "job/pip.h"

/* Each item as one line: "name==version [conda]", "-r path", "project path", "?" (unknown). */
static void collect(const jf_pip_item *it, void *data)
{
	jf_buf *b = data;
	switch (it->kind) {
	case JF_PIP_NAMED:
		jf_buf_addf(b, "%s%s%s%s@%zu\n", it->name, it->version ? "==" : "",
		            it->version ? it->version : "", it->conda ? " conda" : "", it->word);
		break;
	case JF_PIP_REQUIREMENTS:
		jf_buf_addf(b, "-r %s@%zu\n", it->path, it->word);
		break;
	case JF_PIP_PROJECT:
		jf_buf_addf(b, "project %s@%zu\n", it->path, it->word);
		break;
	case JF_PIP_UNKNOWN:
		jf_buf_addf(b, "?@%zu\n", it->word);
		break;
	}
}

static void test_pip__install_args(void **state)
{
	(void)state;
	const char *words[] = { "--no-cache-dir", "torch==2.1.0", "-r", "req.txt", "-e", ".",
		                "--index-url", "https://x", "git+https://x/y.git", NULL, "peft[dev]>=0.5" };
	jf_buf b = JF_BUF_INIT;
	jf_pip_install_args(words, sizeof words / sizeof *words, true, collect, &b);
	assert_string_equal(b.buf, "torch==2.1.0@1\n-r req.txt@3\nproject .@5\n?@8\n?@9\npeft@10\n");
	jf_buf_release(&b);
}

static void test_pip__conda_install_args(void **state)
{
	(void)state;
	const char *words[] = { "-y", "-c", "pytorch", "pytorch=2.1.0", "python=3.10", "conda-forge::numpy",
		                "--file", "specs.txt" };
	jf_buf b = JF_BUF_INIT;
	jf_pip_install_args(words, sizeof words / sizeof *words, false, collect, &b);
	assert_string_equal(b.buf, "torch==2.1.0 conda@3\npython==3.10@4\nnumpy conda@5\n?@7\n");
	jf_buf_release(&b);
}

static void test_pip__requirements_file_follows_r(void **state)
{
	(void)state;
	char *dir = th_mkdtemp();
	th_put(dir, "reqs/base.txt", "# base\ntransformers==4.36.2  # pinned\n-r more/extra.txt\n");
	th_put(dir, "reqs/more/extra.txt", "accelerate\n-e ../pkg\n-r /abs/elsewhere.txt\n-r gone.txt\n");
	char *path = jf_xasprintf("%s/reqs/base.txt", dir);
	jf_buf b = JF_BUF_INIT;
	jf_pip_requirements_file(path, collect, &b);
	assert_string_equal(b.buf, "transformers==4.36.2@0\naccelerate@0\nproject ../pkg@0\n?@0\n?@0\n");
	jf_buf_release(&b);
	free(path);
	th_rmtree(dir);
	free(dir);
}

static void test_pip__conda_environment(void **state)
{
	(void)state;
	char *dir = th_mkdtemp();
	const char *env = "name: train\n"
	                  "channels: [conda-forge]\n"
	                  "dependencies:\n"
	                  "  - python=3.10\n"
	                  "  - pip\n"
	                  "  - pytorch::pytorch=2.1.2\n"
	                  "  - numpy 1.26.* py310_0\n"
	                  "  - pip:\n"
	                  "    - wandb==0.16.0\n"
	                  "    - -r requirements.txt\n";
	th_put(dir, "environment.yml", env);
	th_put(dir, "requirements.txt", "tqdm\n");
	char *path = jf_xasprintf("%s/environment.yml", dir);
	jf_buf b = JF_BUF_INIT;
	assert_true(jf_conda_environment(path, collect, &b));
	char *want = jf_xasprintf("python==3.10@%td\npip@%td\ntorch==2.1.2 conda@%td\nnumpy conda@%td\n"
	                          "wandb==0.16.0@%td\ntqdm@%td\n",
	                          strstr(env, "python=") - env, strstr(env, "pip\n") - env,
	                          strstr(env, "pytorch::") - env, strstr(env, "numpy") - env,
	                          strstr(env, "wandb") - env, strstr(env, "-r ") - env);
	assert_string_equal(b.buf, want);
	free(want);
	jf_buf_release(&b);
	free(path);
	th_rmtree(dir);
	free(dir);
}

static void test_pip__conda_environment_refuses_others(void **state)
{
	(void)state;
	char *dir = th_mkdtemp();
	th_put(dir, "job.yml", "command: python train.py\n");
	th_put(dir, "bad.yml", "dependencies: [\n");
	jf_buf b = JF_BUF_INIT;
	const char *names[] = { "job.yml", "bad.yml", "missing.yml" };
	for (size_t i = 0; i < 3; i++) {
		char *path = jf_xasprintf("%s/%s", dir, names[i]);
		assert_false(jf_conda_environment(path, collect, &b));
		free(path);
	}
	assert_int_equal(b.len, 0);
	jf_buf_release(&b);
	th_rmtree(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pip__install_args),
		cmocka_unit_test(test_pip__conda_install_args),
		cmocka_unit_test(test_pip__requirements_file_follows_r),
		cmocka_unit_test(test_pip__conda_environment),
		cmocka_unit_test(test_pip__conda_environment_refuses_others),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
