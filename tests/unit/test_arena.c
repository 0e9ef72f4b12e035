/* test_arena.c - unit tests of the arena: alignment, zeroing, copies, large blocks, adoption */
#include "helpers.h"

#include <stdalign.h>

#include "core/arena.h"

static bool aligned(const void *p)
{
	return (uintptr_t)p % alignof(max_align_t) == 0;
}

/* Every allocation is aligned, zeroed and holds what is written to it,
 * across many blocks. */
static void test_arena__alloc_aligned_zeroed(void **state)
{
	(void)state;
	jf_arena a = JF_ARENA_INIT;
	unsigned char *ptrs[2000];
	for (size_t i = 0; i < 2000; i++) {
		size_t n = 1 + i % 97;
		ptrs[i] = jf_arena_alloc(&a, n);
		assert_true(aligned(ptrs[i]));
		for (size_t k = 0; k < n; k++)
			assert_int_equal(ptrs[i][k], 0);
		memset(ptrs[i], (int)(i & 0xff), n);
	}
	for (size_t i = 0; i < 2000; i++)
		for (size_t k = 0; k < 1 + i % 97; k++)
			assert_int_equal(ptrs[i][k], i & 0xff);
	jf_arena_release(&a);
	assert_null(a.blocks);
	/* Usable again after a release. */
	assert_non_null(jf_arena_alloc(&a, 8));
	jf_arena_release(&a);
}

static void test_arena__zero_size_and_calloc(void **state)
{
	(void)state;
	jf_arena a = JF_ARENA_INIT;
	void *p = jf_arena_alloc(&a, 0), *q = jf_arena_alloc(&a, 0);
	assert_non_null(p);
	assert_non_null(q);
	uint64_t *v = jf_arena_calloc(&a, 1000, sizeof(uint64_t));
	for (size_t i = 0; i < 1000; i++)
		assert_int_equal(v[i], 0);
	jf_arena_release(&a);
}

static void test_arena__strings(void **state)
{
	(void)state;
	jf_arena a = JF_ARENA_INIT;
	char *s = jf_arena_strdup(&a, "image: pytorch");
	assert_string_equal(s, "image: pytorch");
	char *t = jf_arena_strndup(&a, "workdir: /workspace", 7);
	assert_string_equal(t, "workdir");
	assert_string_equal(jf_arena_strdup(&a, ""), "");
	assert_ptr_not_equal(s, t);
	jf_arena_release(&a);
}

/* A large request gets a block of its own and leaves the current block's
 * room in use: the next small allocation follows the last one. */
static void test_arena__large_blocks_keep_room(void **state)
{
	(void)state;
	jf_arena a = JF_ARENA_INIT;
	char *small = jf_arena_alloc(&a, 16);
	char *big = jf_arena_alloc(&a, 1 << 20);
	memset(big, 1, 1 << 20);
	char *after = jf_arena_alloc(&a, 16);
	if (!jf_arena_debug())
		assert_ptr_equal(after, small + 16);
	big = jf_arena_alloc(&a, 3u << 20); /* a large block as the arena's only other */
	assert_true(aligned(big));
	assert_int_equal(big[(3u << 20) - 1], 0);
	jf_arena_release(&a);
}

/* Adopted memory is freed with the arena (the sanitizer build sees a leak otherwise). */
static void test_arena__adopt(void **state)
{
	(void)state;
	jf_arena a = JF_ARENA_INIT;
	jf_arena_adopt(&a, jf_xstrdup("taken"));
	jf_arena_adopt(&a, NULL);
	JF_ARRAY(int) ints = { 0 };
	for (int i = 0; i < 1000; i++)
		jf_array_push(&ints, i);
	jf_arena_adopt_array(&a, &ints);
	assert_int_equal(ints.size, 1000);
	assert_int_equal(ints.cap, 1000);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(ints.items[i], i);
	JF_ARRAY(int) none = { 0 };
	jf_arena_adopt_array(&a, &none);
	assert_null(none.items);
	JF_ARRAY(int) emptied = { 0 };
	jf_array_push(&emptied, 1);
	emptied.size = 0;
	jf_arena_adopt_array(&a, &emptied); /* frees the unused items */
	assert_null(emptied.items);
	jf_arena_release(&a);
}

/* The first allocation of an arena may be a large one. */
static void test_arena__large_first(void **state)
{
	(void)state;
	jf_arena a = JF_ARENA_INIT;
	char *big = jf_arena_alloc(&a, 100000);
	char *s = jf_arena_strdup(&a, "after");
	assert_string_equal(s, "after");
	assert_int_equal(big[99999], 0);
	jf_arena_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arena__alloc_aligned_zeroed),
		cmocka_unit_test(test_arena__zero_size_and_calloc),
		cmocka_unit_test(test_arena__strings),
		cmocka_unit_test(test_arena__large_blocks_keep_room),
		cmocka_unit_test(test_arena__adopt),
		cmocka_unit_test(test_arena__large_first),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
