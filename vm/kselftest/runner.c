/*
 * The guest side of the kernel's own selftests: runs every program of
 * /tests/kselftest/list, one at a time, each in its own process group with a
 * time limit, and prints one record a program for the host to read:
 *
 *   kselftest<TAB>NAME<TAB>RESULT<TAB>SECONDS<TAB>NONCE
 *
 * RESULT is pass (exit 0), skip (exit 4, kselftest's KSFT_SKIP), fail:N (exit N),
 * signal:N (killed by signal N), timeout (still running after the list's limit; its
 * process group is killed), timeout-unkillable (and SIGKILL did not end it within 5 s)
 * or missing (not in the initramfs). The host compares the
 * records of the stock kernel with a fibril kernel's (vm/kselftest/compare.py): the
 * verdict of a selftest is the difference, not its result on one kernel. NONCE is the
 * boot's (LABTEST_NONCE, from /init): the host reads only this boot's records.
 *
 * The list is the one vm/kselftest/build.sh writes: a header line, then
 * "name<TAB>target<TAB>timeout_s" rows. Each program runs in its own folder (execveat
 * opens the files beside it; the initramfs is writable), with the output it prints
 * passed on for the guest log, and the runner ends with the labtest summary line, so
 * that the boot's verdict is the runner's own. First it gives the guest what a
 * distribution has and busybox's /init does not: /dev/fd and a tmpfs on /dev/shm.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "labtest.h"

#define DIR "/tests/kselftest"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* pass on what the program wrote so far, without waiting for more */
static void forward(int fd)
{
	char buf[4096];
	ssize_t len;

	while ((len = read(fd, buf, sizeof(buf))) > 0)
		if (write(1, buf, len) != len)
			break;
}

/*
 * Run DIR/name for at most limit seconds; its result into result. Its output goes
 * through a pipe of the runner's, never straight to /init's: a process it leaves behind
 * in another group would hold /init's pipe open, and the guest would never end.
 */
static void run_one(const char *name, int limit, char *result, size_t n)
{
	char path[256];
	int status = 0, out[2];
	double end;
	pid_t pid, r;

	snprintf(path, sizeof(path), DIR "/%s", name);
	if (access(path, X_OK)) {
		snprintf(result, n, "missing");
		return;
	}
	if (pipe(out)) {
		snprintf(result, n, "fail:pipe");
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		setpgid(0, 0);	/* a group of its own: a timeout kills all it started */
		dup2(null, 0);
		dup2(out[1], 1);
		dup2(out[1], 2);
		close(out[0]);
		if (chdir(DIR))
			_exit(127);
		execl(path, name, (char *)NULL);
		_exit(127);
	}
	close(out[1]);
	fcntl(out[0], F_SETFL, O_NONBLOCK);
	if (pid < 0) {
		close(out[0]);
		snprintf(result, n, "fail:fork");
		return;
	}
	setpgid(pid, pid);
	end = now() + limit;
	while ((r = waitpid(pid, &status, WNOHANG)) == 0 && now() < end) {
		forward(out[0]);
		usleep(20 * 1000);
	}
	forward(out[0]);
	close(out[0]);	/* what it left behind writes into nothing now */
	if (r == 0) {
		kill(-pid, SIGKILL);
		/* a program stuck where SIGKILL cannot reach it: say so, and go on */
		end = now() + 5;
		while ((r = waitpid(pid, &status, WNOHANG)) == 0 && now() < end)
			usleep(20 * 1000);
		snprintf(result, n, r == pid ? "timeout" : "timeout-unkillable");
	} else if (r < 0) {
		snprintf(result, n, "fail:waitpid");
	} else if (WIFSIGNALED(status)) {
		snprintf(result, n, "signal:%d", WTERMSIG(status));
	} else if (WEXITSTATUS(status) == 0) {
		snprintf(result, n, "pass");
	} else if (WEXITSTATUS(status) == 4) {
		snprintf(result, n, "skip");
	} else {
		snprintf(result, n, "fail:%d", WEXITSTATUS(status));
	}
	/* what it left behind (a stopped or forked child) must not outlive it */
	kill(-pid, SIGKILL);
}

int main(void)
{
	FILE *list = fopen(DIR "/list", "r");
	const char *nonce = getenv("LABTEST_NONCE");
	char line[512], name[128], target[64], result[32];
	int limit, ran = 0;

	REQUIRE(list != NULL, "%s/list can be read (errno %d)", DIR, errno);
	/* execveat runs scripts by /dev/fd/N; mincore and memfd want a tmpfs there */
	if (symlink("/proc/self/fd", "/dev/fd") && errno != EEXIST)
		printf("no /dev/fd (errno %d)\n", errno);
	if ((mkdir("/dev/shm", 01777) && errno != EEXIST) ||
	    mount("tmpfs", "/dev/shm", "tmpfs", 0, NULL))
		printf("no tmpfs on /dev/shm (errno %d)\n", errno);
	if (!fgets(line, sizeof(line), list))	/* the header */
		line[0] = 0;
	while (fgets(line, sizeof(line), list)) {
		double t0 = now();

		if (sscanf(line, "%127[^\t]\t%63[^\t]\t%d", name, target, &limit) != 3)
			continue;
		run_one(name, limit, result, sizeof(result));
		printf("kselftest\t%s\t%s\t%.1f\t%s\n", name, result, now() - t0,
		       nonce ? nonce : "none");
		fflush(stdout);
		ran++;
	}
	fclose(list);
	CHECK(ran > 0, "the runner ran %d selftests", ran);
	return labtest_done();
}
