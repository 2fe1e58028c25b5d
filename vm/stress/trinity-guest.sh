#!/bin/sh
# The guest side of make trinity (vm/stress/trinity.sh): Debian's trinity as nobody for
# trinity.calls system calls (the kernel command line), then one record line for the
# host, "trinity-record CALLS EXIT", and the labtest summary with the boot's nonce.
calls=20000
# shellcheck disable=SC2013 # the command line is words, not lines
for arg in $(cat /proc/cmdline); do
	case "$arg" in trinity.calls=*) calls=${arg#trinity.calls=} ;; esac
done
# trinity wants a writable folder of its own, and refuses to fuzz as root
mkdir -p /tmp/trinity
chown 65534:65534 /tmp/trinity
cd /tmp/trinity || exit 1
# no socket fds: trinity crashes making its socket cache on a kernel without INET
/tests/nobody /usr/bin/trinity -q -N "$calls" -C 2 --disable-fds=sockets >/tmp/trinity.out 2>&1
rc=$?
tail -15 /tmp/trinity.out
ran=$(sed -n 's/.*Ran \([0-9][0-9]*\) syscalls.*/\1/p' /tmp/trinity.out | tail -1)
printf 'trinity-record\t%s\t%s\n' "${ran:-0}" "$rc"
echo "labtest: 1 passed, 0 failed, nonce=$LABTEST_NONCE"
