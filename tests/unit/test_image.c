/* test_image.c - the image catalog, manifests, versions and the module data */
#include "helpers.h"

#include "env/image.h"
#include "env/pymodules.h"

/* Resolves a job that names only its image. */
static jf_image *resolve(const char *ref)
{
	jf_job job;
	memset(&job, 0, sizeof job);
	job.image.ref.value = (char *)ref;
	return jf_image_resolve(&job, NULL);
}

static void test_catalog_is_well_formed(void **state)
{
	(void)state;
	jf_error err = JF_ERROR_INIT;
	if (jf_image_catalog_check(&err))
		fail_msg("%s", jf_error_message(&err));
}

static void test_catalog_matches(void **state)
{
	(void)state;
	jf_image *img = resolve("pytorch/pytorch:2.1.0-cuda12.1-cudnn8-runtime");
	assert_non_null(img->catalog);
	assert_int_equal(img->py_major, 3);
	assert_int_equal(img->py_minor, 10);
	const char *v = NULL;
	assert_int_equal(jf_image_has_package(img, "torch", &v), JF_YES);
	assert_string_equal(v, "2.1.0");
	assert_int_equal(jf_image_has_package(img, "pandas", NULL), JF_NO);
	assert_int_equal(jf_image_has_package(img, "some-unlisted-package", NULL), JF_UNKNOWN);
	assert_false(jf_image_user_is_nonroot(img));
	jf_image_free(img);

	/* Docker Hub prefixes are dropped; the python images list every package. */
	img = resolve("docker.io/library/python:3.12.4-slim-bookworm");
	assert_non_null(img->catalog);
	assert_int_equal(img->py_minor, 12);
	assert_true(img->packages_complete);
	assert_int_equal(jf_image_has_package(img, "torch", NULL), JF_NO);
	assert_int_equal(jf_image_has_package(img, "pip", NULL), JF_YES);
	jf_image_free(img);

	img = resolve("nvcr.io/nvidia/pytorch:24.01-py3");
	assert_non_null(img->catalog);
	assert_int_equal(img->py_minor, 10);
	jf_image_free(img);

	/* Unknown images, unknown tags and floating tags say nothing. */
	const char *unknown[] = { "registry.example.com/team/train:7", "pytorch/pytorch:latest",
		                  "pytorch/pytorch", "python:3", "localhost:5000/python:3.11" };
	for (size_t i = 0; i < sizeof unknown / sizeof *unknown; i++) {
		img = resolve(unknown[i]);
		if (img->catalog)
			fail_msg("'%s' matched %s", unknown[i], img->catalog);
		assert_false(jf_image_known(img));
		jf_image_free(img);
	}
}

static void test_version_cmp(void **state)
{
	(void)state;
	assert_true(jf_version_cmp("1.10", "1.9") > 0);
	assert_true(jf_version_cmp("1.9.1", "1.10") < 0);
	assert_int_equal(jf_version_cmp("2.1.0", "2.1"), 0);
	assert_int_equal(jf_version_cmp("2.1.0+cu121", "2.1.0"), 0);
	assert_true(jf_version_cmp("2.2.0a0+81ea7a4", "2.2.0") < 0);
	assert_true(jf_version_cmp("2.2.0a0", "2.1.9") > 0);
	assert_true(jf_version_cmp("1.0.post1", "1.0") == 0);
}

static void test_dist_names(void **state)
{
	(void)state;
	assert_true(jf_dist_name_eq("PyYAML", 6, "pyyaml"));
	assert_true(jf_dist_name_eq("scikit_learn", 12, "scikit-learn"));
	assert_true(jf_dist_name_eq("zope.interface", 14, "zope-interface"));
	assert_false(jf_dist_name_eq("torch", 5, "torchvision"));
}

static void test_modules(void **state)
{
	(void)state;
	const jf_stdlib_module *m = jf_stdlib_find("distutils");
	assert_non_null(m);
	assert_int_equal(m->removed_minor, 12);
	m = jf_stdlib_find("tomllib");
	assert_non_null(m);
	assert_int_equal(m->added_minor, 11);
	assert_int_equal(m->removed_minor, -1);
	m = jf_stdlib_find("urllib2");
	assert_non_null(m);
	assert_int_equal(m->removed_minor, 0);
	assert_null(jf_stdlib_find("numpy"));

	const char *const *d = jf_import_distributions("sklearn.model_selection");
	assert_non_null(d);
	assert_string_equal(d[0], "scikit-learn");
	d = jf_import_distributions("cv2");
	assert_non_null(d);
	assert_string_equal(d[0], "opencv-python");
	assert_null(jf_import_distributions("torch"));
	assert_null(jf_import_distributions("sklearnx"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_catalog_is_well_formed),
		cmocka_unit_test(test_catalog_matches),
		cmocka_unit_test(test_version_cmp),
		cmocka_unit_test(test_dist_names),
		cmocka_unit_test(test_modules),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
