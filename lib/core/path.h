/* path.h - lexical path helpers (no file system access) */
#ifndef JF_PATH_H
#define JF_PATH_H

#include <stdbool.h>

/** `p` with "." and ".." folded and repeated slashes removed; caller frees. */
char *jf_path_normalize(const char *p);
/** `rel` joined to `dir` (or `rel` itself when absolute), normalized; caller frees. */
char *jf_path_join(const char *dir, const char *rel);
/** The folder part of `p` ("" when it has none); caller frees. */
char *jf_path_dirname(const char *p);
/** When `path` is `dir` or below it: the rest ("" or "a/b"); else NULL. Borrowed from `path`. */
const char *jf_path_under(const char *path, const char *dir);
/** Whether a regular file / a directory exists at `p` on this machine. */
bool jf_path_is_file(const char *p);
bool jf_path_is_dir(const char *p);

/**
 * Whether `path` (a relative path with '/' separators) matches the glob
 * `pattern` as a whole. Within one segment `*` matches any run of characters,
 * `?` one byte, `[abc]`, `[a-z]` and `[!a]` one byte of a set, `\x` the
 * character x; none of them matches '/'. A segment that is exactly `**`
 * matches any number of segments, none included. An unclosed '[' is an
 * ordinary character.
 */
bool jf_path_glob(const char *pattern, const char *path);
/** NULL when `pattern` is a valid glob, else what is wrong with it (static text). */
const char *jf_path_glob_error(const char *pattern);

#endif
