#!/usr/bin/env bash
# vm/grade/sandbox.sh DIR -- COMMAND...: run COMMAND where it can harm nothing but DIR.
# Used for what a hand-in controls: its kernel's Makefiles and Kconfig run commands.
#  - Debian's bubblewrap: the whole machine read-only, DIR read-write, a private /tmp,
#    no network, its own pid/ipc/uts namespaces, killed with its parent;
#  - as nobody (root sets the sandbox up, then setpriv drops every privilege), so even
#    files the read-only view shows cannot be read when only root may (/etc/shadow);
#  - ccache read-only at /tmp/ccache: hits speed a hand-in's build up, and nothing it
#    compiles can enter the cache the reference kernels are built from.
# bubblewrap rather than a container or a VM: it is one Debian package, needs no daemon,
# and makes exactly these guarantees (see bwrap(1)).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

if [ $# -lt 3 ] || [ "$2" != -- ]; then die "usage: $0 DIR -- COMMAND..."; fi
dir=$(cd "$1" && pwd)
shift 2
require_cmd bwrap bubblewrap
require_cmd setpriv util-linux
ccache_dir=$(ccache -k cache_dir 2>/dev/null || echo "$HOME/.cache/ccache")
mkdir -p "$ccache_dir"

# (DIR is bound last: a DIR under /tmp must not vanish under the private /tmp.)
sandbox=(bwrap --ro-bind / / --dev /dev --proc /proc
	--perms 1777 --tmpfs /tmp --ro-bind "$ccache_dir" /tmp/ccache --bind "$dir" "$dir" --setenv CCACHE_DIR /tmp/ccache
	--setenv CCACHE_READONLY 1 --setenv CCACHE_TEMPDIR /tmp/ccache-tmp --setenv HOME /tmp
	--unshare-ipc --unshare-pid --unshare-net --unshare-uts --unshare-cgroup-try --die-with-parent)
if [ "$(id -u)" = 0 ]; then
	chown -R nobody:nogroup "$dir"
	sandbox+=(-- setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all --)
else
	sandbox+=(--unshare-user-try --)
fi
exec "${sandbox[@]}" "$@"
