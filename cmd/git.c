/* git.c - running git for `lint --staged` and `hook`: no shell, output captured */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd.h"

extern char **environ;

typedef struct {
	char *data;
	size_t len, cap;
} bytes;

/* Room for `extra` more bytes and a NUL in `b`; out of memory aborts. */
static void reserve(bytes *b, size_t extra)
{
	if (b->data && b->cap - b->len >= extra)
		return;
	size_t cap = b->cap ? 2 * b->cap : 8192;
	char *p = realloc(b->data, cap + 1);
	if (!p) {
		fputs("jobfix: error: out of memory\n", stderr);
		abort();
	}
	b->data = p;
	b->cap = cap;
}

/* Reads what is available on `fd` into `b`; false at the end or on an error. */
static bool read_some(int fd, bytes *b)
{
	reserve(b, 4096);
	ssize_t n = read(fd, b->data + b->len, b->cap - b->len);
	if (n < 0 && errno == EINTR)
		return true;
	if (n <= 0)
		return false;
	b->len += (size_t)n;
	return true;
}

int cmd_git(const char *const *args, cmd_git_result *r)
{
	memset(r, 0, sizeof(*r));
	size_t n = 0;
	while (args[n])
		n++;
	char **argv = calloc(n + 2, sizeof(char *));
	int out[2] = { -1, -1 }, err[2] = { -1, -1 };
	if (!argv || pipe(out) != 0 || pipe(err) != 0) {
		int e = errno;
		free(argv);
		for (int i = 0; i < 2; i++) {
			if (out[i] >= 0)
				close(out[i]);
			if (err[i] >= 0)
				close(err[i]);
		}
		errno = e;
		return -1;
	}
	argv[0] = (char *)"git";
	for (size_t i = 0; i < n; i++)
		argv[i + 1] = (char *)args[i];
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addclose(&fa, out[0]);
	posix_spawn_file_actions_addclose(&fa, err[0]);
	posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, err[1], STDERR_FILENO);
	posix_spawn_file_actions_addclose(&fa, out[1]);
	posix_spawn_file_actions_addclose(&fa, err[1]);
	pid_t pid;
	int rc = posix_spawnp(&pid, "git", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	free(argv);
	close(out[1]);
	close(err[1]);
	if (rc != 0) {
		close(out[0]);
		close(err[0]);
		errno = rc;
		return -1;
	}
	bytes o = { 0 }, e = { 0 };
	struct pollfd fds[2] = { { out[0], POLLIN, 0 }, { err[0], POLLIN, 0 } };
	int open_fds = 2;
	while (open_fds > 0) {
		if (poll(fds, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int i = 0; i < 2; i++) {
			if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (!read_some(fds[i].fd, i ? &e : &o)) {
				close(fds[i].fd);
				fds[i].fd = -1;
				open_fds--;
			}
		}
	}
	for (int i = 0; i < 2; i++)
		if (fds[i].fd >= 0)
			close(fds[i].fd);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	r->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
	reserve(&o, 0);
	reserve(&e, 0);
	r->out = o.data;
	r->out_len = o.len;
	r->out[o.len] = '\0';
	r->err = e.data;
	r->err[e.len] = '\0';
	/* git's message without its trailing newline. */
	while (e.len && (r->err[e.len - 1] == '\n' || r->err[e.len - 1] == '\r'))
		r->err[--e.len] = '\0';
	return 0;
}

void cmd_git_result_release(cmd_git_result *r)
{
	free(r->out);
	free(r->err);
	memset(r, 0, sizeof(*r));
}

char *cmd_git_line(const char *const *args, const char *what)
{
	cmd_git_result r;
	if (cmd_git(args, &r) != 0) {
		fprintf(stderr, "jobfix: error: %s: cannot run git: %s\n", what, strerror(errno));
		return NULL;
	}
	if (r.status != 0) {
		fprintf(stderr, "jobfix: error: %s: %s\n", what,
		        *r.err ? r.err : "git failed");
		cmd_git_result_release(&r);
		return NULL;
	}
	char *line = r.out;
	line[strcspn(line, "\n")] = '\0';
	r.out = NULL;
	cmd_git_result_release(&r);
	return line;
}
