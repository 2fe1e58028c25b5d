/*
 * cachemiss_calls (the Lab 7 challenge's hidden test): which system calls block?
 * /sys/kernel/debug/fibrils/cachemiss_calls has a line "nr N inline I moved M" for each
 * system call number N that cachemiss mode has run inline, in increasing order of N: I
 * calls ran on the submitter's stack, and M of them blocked and so moved the user
 * context. Writing 0 starts over. Counted, never timed:
 *
 *   1. after a write of 0 the file is empty;
 *   2. 20 getpid() and 4 sched_yield() (which schedules but does not block):
 *      "nr 20 inline 20 moved 0" and "nr 158 inline 4 moved 0";
 *   3. 3 reads of an empty pipe (each completed by a write afterwards) and 5 reads of a
 *      pipe that already holds the byte: "nr 3 inline 8 moved 3", and the moves the
 *      file counts are the moves /sys/kernel/debug/fibrils/cachemiss counts; the three
 *      lines, read's (3), getpid's (20) and sched_yield's (158), come in that order;
 *   4. in fibril mode (kernel.asys_cachemiss=0) no call runs inline: nothing is added;
 *   5. a write of 0 empties it again; anything else is refused with EINVAL.
 * Nothing else in the guest submits asys calls while a test runs.
 */
#include <fcntl.h>
#include "labtest.h"
#include "asys_test.h"
#include "cachemiss.h"

#define CALLS_FILE "/sys/kernel/debug/fibrils/cachemiss_calls"
#define NR_CALLS_MAX 64

struct call_count {
	long nr, inline_calls, moved;
};

static struct call_count counts[NR_CALLS_MAX];
static int nr_counts;
static int ok;	/* a REQUIRE condition with side effects, evaluated once before it */

/* read_calls(): the file's lines into counts[]; 0, or -1 when a line does not parse. */
static int read_calls(void)
{
	FILE *f = fopen(CALLS_FILE, "r");
	char line[128];
	int ret = 0;

	nr_counts = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f) && nr_counts < NR_CALLS_MAX) {
		struct call_count *c = &counts[nr_counts];

		if (sscanf(line, "nr %ld inline %ld moved %ld", &c->nr, &c->inline_calls,
			   &c->moved) != 3) {
			printf("  a line that is not \"nr N inline I moved M\": %s", line);
			ret = -1;
			break;
		}
		nr_counts++;
	}
	fclose(f);
	return ret;
}

/* The line of system call nr, or NULL. */
static struct call_count *line_of(long nr)
{
	int i;

	for (i = 0; i < nr_counts; i++)
		if (counts[i].nr == nr)
			return &counts[i];
	return NULL;
}

/* One read of one byte of fd, submitted; asys_submit's value. */
static long submit_read(int fd, char *byte, unsigned long cookie)
{
	unsigned long args[3] = { fd, (unsigned long)byte, 1 };
	int err;

	return asys_submit1(SYS_read, cookie, args, 3, &err);
}

int main(void)
{
	struct asys_completion c;
	struct call_count *getpid_line, *read_line, *yield_line;
	long moves0, moves, r;
	int p[2], i, err, submitted = 0, completed = 0;
	char byte;

	asys_watchdog(60);
	asys_watchdog_hook = cachemiss_restore;	/* a hang must not leave the mode on */
	ok = access(CALLS_FILE, F_OK) == 0;
	REQUIRE(ok, "%s exists%s", CALLS_FILE, ok ? "" : " (got no such file)");
	ok = cachemiss_on() == 0;
	REQUIRE(ok, "kernel.asys_cachemiss=1 (this kernel has cachemiss mode)");
	ok = pipe(p) == 0;
	REQUIRE(ok, "a pipe");

	asys_watchdog_step = "1: a write of 0 empties the file";
	err = write_text(CALLS_FILE, "0");
	ok = read_calls() == 0;
	CHECK(err == 0 && ok && nr_counts == 0,
	      "after writing 0 the file has no line (write errno %d; got %d lines)", err, nr_counts);

	asys_watchdog_step = "2: 20 getpid() and 4 sched_yield(), which never block";
	for (i = 0; i < 20; i++)
		submitted += asys_submit1(SYS_getpid, 100 + i, NULL, 0, &err) == 1;
	for (i = 0; i < 4; i++)
		submitted += asys_submit1(SYS_sched_yield, 150 + i, NULL, 0, &err) == 1;
	completed = asys_collect(24);
	ok = submitted == 24 && completed == 24;
	REQUIRE(ok, "20 getpid() and 4 sched_yield() submitted and completed (got %d and %d)",
		submitted, completed);
	ok = read_calls() == 0;
	getpid_line = line_of(SYS_getpid);
	CHECK(ok && getpid_line && getpid_line->inline_calls == 20 && getpid_line->moved == 0,
	      "\"nr %d inline 20 moved 0\" (got inline %ld, moved %ld)", SYS_getpid,
	      getpid_line ? getpid_line->inline_calls : -1, getpid_line ? getpid_line->moved : -1);
	yield_line = line_of(SYS_sched_yield);
	CHECK(yield_line && yield_line->inline_calls == 4 && yield_line->moved == 0,
	      "a yield is not a block: \"nr %d inline 4 moved 0\" (got inline %ld, moved %ld)",
	      SYS_sched_yield, yield_line ? yield_line->inline_calls : -1,
	      yield_line ? yield_line->moved : -1);

	asys_watchdog_step = "3: 3 reads that block, 5 that do not";
	moves0 = cachemiss_moves();
	for (i = 0; i < 3; i++) {
		r = submit_read(p[0], &byte, 200 + i);
		ok = r == 1 && write(p[1], "x", 1) == 1 && asys_await_completion(&c) == 1 &&
		     c.return_code == 1;
		REQUIRE(ok, "read %d of an empty pipe submitted (%ld) and completed by a write", i, r);
	}
	for (i = 0; i < 5; i++) {
		ok = write(p[1], "y", 1) == 1;
		r = submit_read(p[0], &byte, 300 + i);
		ok = ok && r == 1 && asys_await_completion(&c) == 1 && c.return_code == 1;
		REQUIRE(ok, "read %d of a pipe holding a byte submitted (%ld) and completed", i, r);
	}
	moves = cachemiss_moves() - moves0;
	ok = read_calls() == 0;
	read_line = line_of(SYS_read);
	CHECK(ok && read_line && read_line->inline_calls == 8 && read_line->moved == 3,
	      "\"nr %d inline 8 moved 3\" (got inline %ld, moved %ld)", SYS_read,
	      read_line ? read_line->inline_calls : -1, read_line ? read_line->moved : -1);
	CHECK(moves == 3, "the moves it counts are the ones fibrils/cachemiss counts: 3 (got %ld)",
	      moves);
	getpid_line = line_of(SYS_getpid);
	CHECK(getpid_line && getpid_line->inline_calls == 20,
	      "the getpid line is unchanged: inline 20 (got %ld)",
	      getpid_line ? getpid_line->inline_calls : -1);
	CHECK(nr_counts == 3 && counts[0].nr < counts[1].nr && counts[1].nr < counts[2].nr,
	      "three lines, read's, getpid's and sched_yield's, in increasing order of number (got %d lines: nr %ld, %ld, ...)",
	      nr_counts, nr_counts > 0 ? counts[0].nr : -1, nr_counts > 1 ? counts[1].nr : -1);

	asys_watchdog_step = "4: fibril mode runs nothing inline";
	ok = cachemiss_set(0) == 0;
	REQUIRE(ok, "kernel.asys_cachemiss=0");
	for (i = 0; i < 5; i++)
		submitted += asys_submit1(SYS_getpid, 400 + i, NULL, 0, &err) == 1;
	completed += asys_collect(5);
	ok = submitted == 29 && completed == 29;
	REQUIRE(ok, "5 more getpid() submitted and completed on fibrils (got %d and %d of 29 in all)",
		submitted, completed);
	ok = read_calls() == 0;
	getpid_line = line_of(SYS_getpid);
	CHECK(ok && getpid_line && getpid_line->inline_calls == 20,
	      "5 getpid() on fibrils add nothing: inline still 20 (got %ld)",
	      getpid_line ? getpid_line->inline_calls : -1);

	asys_watchdog_step = "5: a write of 0 starts over; anything else is EINVAL";
	err = write_text(CALLS_FILE, "0");
	ok = read_calls() == 0;
	CHECK(err == 0 && ok && nr_counts == 0,
	      "writing 0 again empties the file (write errno %d; got %d lines)", err, nr_counts);
	err = write_text(CALLS_FILE, "5");
	CHECK(err == EINVAL, "writing anything but 0 is refused with EINVAL (errno %d)", err);
	return labtest_done();
}
