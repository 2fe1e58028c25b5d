/*
 * asys_kmemleak: kmemleak sees what a pending call's stack points to.
 *
 * kmemleak reports an object as leaked when, after a scan, nothing it scans points to
 * it. It scans every task's stack (task->stack), but a call pending on a fibril keeps
 * its locals on the fibril's own stack, a page-allocator block kmemleak knows nothing
 * of: what only that stack points to looks leaked once it is older than the scan's
 * minimum age (5 s), and the guest log's "unreferenced object" fails the boot.
 *
 * poll() keeps its first 30 or so pollfds in an array on its stack and kmalloc()s the
 * rest, linked from that array: an asys poll() on 200 empty pipes, pending for 6 s,
 * holds a kmalloc'ed block that only its fibril's stack points to. The test then
 * triggers two scans (a new object is only reported from its second), reads
 * /sys/kernel/debug/kmemleak, ends the poll with one byte and collects it. The
 * kernel must scan fibril stacks (register them with kmemleak) for no report.
 */
#include <fcntl.h>
#include <poll.h>
#include "labtest.h"
#include "asys_test.h"

#define KMEMLEAK "/sys/kernel/debug/kmemleak"
#define NPIPES 200

static int ok;	/* a REQUIRE condition with side effects, evaluated once before it */

static int kmemleak_cmd(const char *cmd)
{
	int fd = open(KMEMLEAK, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, cmd, strlen(cmd));
	close(fd);
	return n == (ssize_t)strlen(cmd) ? 0 : -1;
}

/* How many objects kmemleak reports; prints the first lines of the report. */
static int kmemleak_reports(void)
{
	char line[256];
	int reports = 0, shown = 0;
	FILE *f = fopen(KMEMLEAK, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, "unreferenced object"))
			reports++;
		if (shown++ < 24)
			printf("  %s", line);
	}
	fclose(f);
	return reports;
}

int main(void)
{
	static struct pollfd pfd[NPIPES];
	static int wr[NPIPES];
	struct asys_completion c;
	unsigned long args[3];
	struct asys_input req;
	int i, reports, p[2];

	asys_watchdog(120);
	ok = asys_present();
	REQUIRE(ok, "this kernel has asys_submit (system call 451)");
	ok = access(KMEMLEAK, W_OK) == 0;
	REQUIRE(ok, "%s is there (CONFIG_DEBUG_KMEMLEAK)", KMEMLEAK);
	/* what earlier tests left is theirs: forget it, report only what comes now */
	ok = kmemleak_cmd("clear") == 0;
	REQUIRE(ok, "kmemleak: clear");

	for (i = 0; i < NPIPES && pipe(p) == 0; i++) {
		pfd[i].fd = p[0];
		pfd[i].events = POLLIN;
		wr[i] = p[1];
	}
	REQUIRE(i == NPIPES, "%d pipes (%d made)", NPIPES, i);
	args[0] = (unsigned long)pfd;
	args[1] = NPIPES;
	args[2] = (unsigned long)-1;	/* no timeout */
	asys_req(&req, SYS_poll, 7, args, 3);
	ok = asys_submit(&req, 1) == 1;
	REQUIRE(ok, "submit poll() on %d empty pipes", NPIPES);

	asys_watchdog_step = "kmemleak scans with the poll pending";
	sleep(6);	/* older than kmemleak's minimum age (5 s) */
	ok = kmemleak_cmd("scan") == 0 && kmemleak_cmd("scan") == 0;
	REQUIRE(ok, "kmemleak: scan, twice, with the poll pending for 6 s");
	reports = kmemleak_reports();
	CHECK(reports == 0,
	      "no object reported leaked while the poll was pending (%d reported; a report means the fibril's stack went unscanned)",
	      reports);

	asys_watchdog_step = "the poll ends";
	ok = write(wr[NPIPES / 2], "x", 1) == 1;
	REQUIRE(ok, "write a byte to pipe %d", NPIPES / 2);
	CHECK(asys_await_completion(&c) == 1 && c.cookie == 7 && c.return_code == 1,
	      "the poll completed: one pipe ready (return code %ld)", (long)c.return_code);
	if (reports > 0)
		kmemleak_cmd("clear");	/* reported once is enough: not again in the boot's last scan */
	return labtest_done();
}
