/* test_project.c - unit tests of the reading of a local project's metadata (pyproject.toml, setup.cfg, setup.py) */
#include "helpers.h"

#include "job/project.h"

/* The project as lines: "requires: a, b", "unknown: why", "script name=module [file]", "root rel". */
static char *describe(const char *dir, const jf_project *p)
{
	jf_buf b = JF_BUF_INIT;
	jf_buf_addf(&b, "metadata: %s\nrequires:", p->metadata ? p->metadata : "-");
	for (size_t i = 0; i < p->requires.size; i++)
		jf_buf_addf(&b, " %s;", p->requires.items[i]);
	jf_buf_addf(&b, "\nunknown: %s\n", p->unknown ? p->unknown : "-");
	size_t n = strlen(dir);
	for (size_t i = 0; i < p->scripts.size; i++) {
		const jf_console_script *s = &p->scripts.items[i];
		jf_buf_addf(&b, "script %s=%s %s\n", s->name, s->module, s->file ? s->file + n + 1 : "-");
	}
	for (size_t i = 0; i < p->roots.size; i++)
		jf_buf_addf(&b, "root %s\n", p->roots.items[i] + n);
	return jf_buf_detach(&b, NULL);
}

static char *read_project(const char *dir, const char *extras)
{
	jf_project p;
	jf_project_read(dir, extras, &p);
	char *s = describe(dir, &p);
	jf_project_release(&p);
	return s;
}

static void test_project__pep621(void **state)
{
	(void)state;
	char *dir = th_mkdtemp();
	th_put(dir, "pyproject.toml",
	       "[build-system]\nrequires = [\"setuptools\"]\n\n"
	       "[project]\nname = \"mypkg\"\n"
	       "dependencies = [\n  \"torch>=2.0\",  # the model\n  'einops',\n  \"\"\"numpy\"\"\",\n]\n"
	       "[project.optional-dependencies]\ndev = [\"pytest\"]\n"
	       "[project.scripts]\nmypkg-train = \"mypkg.cli:main\"\n\"my-eval\" = \"mypkg.eval:run\"\n"
	       "[tool.setuptools.packages.find]\nwhere = [\"src\"]\n");
	th_put(dir, "src/mypkg/__init__.py", "");
	th_put(dir, "src/mypkg/cli.py", "def main(): pass\n");
	char *s = read_project(dir, "dev");
	assert_string_equal(s, "metadata: pyproject.toml\nrequires: torch>=2.0; einops; numpy; pytest;\n"
	                       "unknown: -\nscript mypkg-train=mypkg.cli src/mypkg/cli.py\n"
	                       "script my-eval=mypkg.eval -\nroot \nroot /src\n");
	free(s);
	th_rmtree(dir);
	free(dir);
}

static void test_project__pep621_dynamic(void **state)
{
	(void)state;
	char *dir = th_mkdtemp();
	th_put(dir, "pyproject.toml", "[project]\nname = \"x\"\ndynamic = [\"dependencies\", \"version\"]\n"
	                              "[tool.setuptools.dynamic]\ndependencies = {file = [\"requirements.txt\"]}\n");
	th_put(dir, "requirements.txt", "# pinned\ntimm==0.9.2\n--extra-index-url https://x\n\nscipy\n");
	char *s = read_project(dir, NULL);
	assert_string_equal(s, "metadata: pyproject.toml\nrequires: timm==0.9.2; scipy;\nunknown: -\nroot \n");
	free(s);
	th_put(dir, "pyproject.toml", "[project]\nname = \"x\"\ndynamic = [\"dependencies\"]\n");
	s = read_project(dir, NULL);
	assert_string_equal(s, "metadata: pyproject.toml\nrequires:\nunknown: its dependencies are dynamic "
	                       "(computed by the build backend)\nroot \n");
	free(s);
	th_rmtree(dir);
	free(dir);
}

static void test_project__poetry(void **state)
{
	(void)state;
	char *dir = th_mkdtemp();
	th_put(dir, "pyproject.toml", "[tool.poetry]\nname = \"x\"\npackages = [{ include = \"x\", from = \"lib\" }]\n"
	                              "[tool.poetry.dependencies]\npython = \"^3.10\"\ntransformers = \"^4.30\"\n"
	                              "peft = { version = \"*\", optional = true }\n"
	                              "[tool.poetry.scripts]\nx-train = \"x.train:main\"\n");
	th_put(dir, "lib/x/train.py", "");
	char *s = read_project(dir, NULL);
	assert_string_equal(s, "metadata: pyproject.toml\nrequires: transformers; peft;\nunknown: -\n"
	                       "script x-train=x.train lib/x/train.py\nroot \nroot /lib\n");
	free(s);
	th_rmtree(dir);
	free(dir);
}

static void test_project__setup_cfg_and_py(void **state)
{
	(void)state;
	char *dir = th_mkdtemp();
	th_put(dir, "setup.cfg", "[metadata]\nname = y\n\n[options]\npackage_dir =\n    =src\n"
	                         "install_requires =\n    pandas>=1.0\n    # a comment\n    pyyaml\n"
	                         "python_requires = >=3.8\n\n[options.entry_points]\nconsole_scripts =\n"
	                         "    y-run = y.main:cli\n");
	th_put(dir, "setup.py", "from setuptools import setup\nsetup()\n");
	th_put(dir, "src/y/__init__.py", "");
	char *s = read_project(dir, NULL);
	assert_string_equal(s, "metadata: setup.cfg\nrequires: pandas>=1.0; pyyaml;\nunknown: -\n"
	                       "script y-run=y.main -\nroot \nroot /src\n");
	free(s);
	/* setup.py's literal arguments, through a module-level name */
	th_put(dir, "setup.cfg", "[flake8]\nmax-line-length = 100\n");
	th_put(dir, "setup.py", "import setuptools\nREQS = ['opencv-python', \"tqdm>=4\"]\n"
	                        "setuptools.setup(\n    name='y',\n    install_requires=REQS,\n"
	                        "    extras_require={'viz': ['matplotlib']},\n"
	                        "    entry_points={'console_scripts': ['y-run=y.main:cli']},\n"
	                        "    package_dir={'': 'src'},\n)\n");
	s = read_project(dir, "viz");
	assert_string_equal(s, "metadata: setup.py\nrequires: opencv-python; tqdm>=4; matplotlib;\n"
	                       "unknown: -\nscript y-run=y.main -\nroot \nroot /src\n");
	free(s);
	/* computed requirements */
	th_put(dir, "setup.py", "from setuptools import setup\n"
	                        "setup(install_requires=open('requirements.txt').read().split())\n");
	s = read_project(dir, NULL);
	assert_string_equal(s, "metadata: setup.py\nrequires:\nunknown: setup.py computes its "
	                       "install_requires\nroot \nroot /src\n");
	free(s);
	th_rmtree(dir);
	free(dir);
}

static void test_project__nothing_to_read(void **state)
{
	(void)state;
	char *dir = th_mkdtemp();
	th_put(dir, "pyproject.toml", "[tool.black]\nline-length = 100\n");
	th_put(dir, "src/.keep", "");
	char *s = read_project(dir, NULL);
	assert_string_equal(s, "metadata: -\nrequires:\nunknown: it has no pyproject.toml, setup.cfg or "
	                       "setup.py whose metadata jobfix can read\nroot \nroot /src\n");
	free(s);
	/* a file that is not TOML at all */
	th_put(dir, "pyproject.toml", "[project\nname = = =\n\x01\x02");
	s = read_project(dir, NULL);
	assert_non_null(strstr(s, "unknown: it has no pyproject.toml"));
	free(s);
	th_rmtree(dir);
	free(dir);
}

static void test_project__split(void **state)
{
	(void)state;
	char *extras;
	char *dir = jf_project_split("./lib[dev,viz]", &extras);
	assert_string_equal(dir, "./lib");
	assert_string_equal(extras, "dev,viz");
	free(dir);
	free(extras);
	dir = jf_project_split(".", &extras);
	assert_string_equal(dir, ".");
	assert_null(extras);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_project__pep621),
		cmocka_unit_test(test_project__pep621_dynamic),
		cmocka_unit_test(test_project__poetry),
		cmocka_unit_test(test_project__setup_cfg_and_py),
		cmocka_unit_test(test_project__nothing_to_read),
		cmocka_unit_test(test_project__split),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
