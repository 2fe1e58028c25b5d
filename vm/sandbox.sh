#!/usr/bin/env bash
# vm/sandbox.sh [--ro PATH]... DIR -- COMMAND...: run COMMAND where it can harm
# nothing but DIR, and read the PATHs it needs (the grader's build script, the tree).
# Used for what a hand-in controls: its kernel's Makefiles and Kconfig run commands.
#  - Debian's bubblewrap: the whole machine read-only, DIR read-write, a private /tmp,
#    no network, its own pid/ipc/uts namespaces, killed with its parent;
#  - as nobody (root sets the sandbox up, then setpriv drops every privilege), so even
#    files the read-only view shows cannot be read when only root may (/etc/shadow);
#  - ccache read-only at /tmp/ccache: hits speed a hand-in's build up, and nothing it
#    compiles can enter the cache the reference kernels are built from.
# bubblewrap rather than a container or a VM: it is one Debian package, needs no daemon,
# and makes exactly these guarantees (see bwrap(1)).
#
# The grader's files keep their paths inside, wherever the repository is. Two things
# would hide them: the private /tmp (a clone under /tmp) and a folder on the way that
# nobody may not enter (a home of mode 0700). Each DIR and PATH under /tmp is bound
# back into the private /tmp; for a folder nobody cannot enter, a fresh tmpfs goes over
# it and the paths below it are bound back, so nobody passes through and sees only those.
#
# Exit status: COMMAND's; 125 when the sandbox could not be set up or cannot read a PATH
# (the grader's failure, never the hand-in's: vm/kernel/kernel.sh checks this first).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/vm/lib.sh"

ro=()
while [ "${1:-}" = --ro ]; do
	[ $# -ge 2 ] || die "usage: $0 [--ro PATH]... DIR -- COMMAND..."
	ro+=("$(cd "$2" 2>/dev/null && pwd || echo "$2")")
	shift 2
done
if [ $# -lt 3 ] || [ "$2" != -- ]; then die "usage: $0 [--ro PATH]... DIR -- COMMAND..."; fi
dir=$(cd "$1" && pwd)
shift 2
require_cmd bwrap bubblewrap
require_cmd setpriv util-linux
ccache_dir=$(ccache -k cache_dir 2>/dev/null || echo "$HOME/.cache/ccache")
mkdir -p "$ccache_dir"

as_nobody=0
if [ "$(id -u)" = 0 ]; then as_nobody=1; fi
# blocked_folder PATH: the highest folder on PATH's way down from / that nobody may not
# enter: PATH itself too when it is a folder (a repository made in a 0700 folder, as
# make release's is: its entries are bound back one by one, below); nothing when there
# is none or the sandbox keeps this user.
blocked_folder() {
	local path=$1 prefix='' part
	[ "$as_nobody" = 1 ] || return 0
	local IFS=/
	for part in ${path#/}; do
		prefix="$prefix/$part"
		[ "$prefix" != "$path" ] || [ -d "$path" ] || return 0
		if ! setpriv --reuid=nobody --regid=nogroup --clear-groups test -x "$prefix" 2>/dev/null; then
			echo "$prefix"
			return 0
		fi
	done
}

# (Binds come after the mounts that would hide them: the private /tmp first, then a
# tmpfs over each blocked folder, then the paths, DIR last and read-write.)
sandbox=(bwrap --ro-bind / / --dev /dev --proc /proc --perms 1777 --tmpfs /tmp)
covered=" " folders=()
for path in "${ro[@]}" "$dir"; do
	case "$path" in
	/tmp/*) hidden_by=/tmp ;;
	*) hidden_by=$(blocked_folder "$path") ;;
	esac
	[ -n "$hidden_by" ] || continue
	if [[ "$covered" != *" $hidden_by "* ]]; then
		[ "$hidden_by" = /tmp ] || sandbox+=(--perms 0755 --tmpfs "$hidden_by")
		covered="$covered$hidden_by "
	fi
	[ "$path" != "$hidden_by" ] || continue
	# the folders between the tmpfs and the path, made where nobody may enter them
	# (bwrap would make them 0700)
	rest=${path#"$hidden_by"/} folder=$hidden_by
	while [[ "$rest" == */* ]]; do
		folder="$folder/${rest%%/*}" rest=${rest#*/}
		folders+=(--perms 0755 --dir "$folder")
	done
done
sandbox+=("${folders[@]}")
for path in "${ro[@]}"; do
	[ -e "$path" ] || { warn "sandbox: $path does not exist"; exit 125; }
	if [[ "$covered" == *" $path "* ]]; then
		# a tmpfs lies over PATH itself, which nobody may not enter: its entries come back
		for entry in "$path"/* "$path"/.[!.]*; do
			[ ! -e "$entry" ] || sandbox+=(--ro-bind "$entry" "$entry")
		done
	else
		sandbox+=(--ro-bind "$path" "$path")
	fi
done
sandbox+=(--ro-bind "$ccache_dir" /tmp/ccache --bind "$dir" "$dir" --setenv CCACHE_DIR /tmp/ccache
	--setenv CCACHE_READONLY 1 --setenv CCACHE_TEMPDIR /tmp/ccache-tmp --setenv HOME /tmp
	--unshare-ipc --unshare-pid --unshare-net --unshare-uts --unshare-cgroup-try --die-with-parent)
if [ "$as_nobody" = 1 ]; then
	chown -R nobody:nogroup "$dir"
	sandbox+=(-- setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all --)
else
	sandbox+=(--unshare-user-try --)
fi

# First the sandbox alone: it starts, writes DIR and reads every PATH and COMMAND. A failure here is
# the grader's (where it runs, how it was installed), and says what it could not reach.
# shellcheck disable=SC2016 # the script is the sandbox's, its arguments follow
if ! "${sandbox[@]}" /bin/sh -c '
	touch "$1/.sandbox-can-write" && rm -f "$1/.sandbox-can-write" || { echo "cannot write $1" >&2; exit 1; }
	shift
	for p; do
		test -r "$p" || { echo "cannot read $p" >&2; exit 1; }
		[ ! -d "$p" ] || test -x "$p" || { echo "cannot enter $p" >&2; exit 1; }
	done' sh "$dir" "${ro[@]}" "$(case "$1" in /*) echo "$1" ;; *) command -v "$1" ;; esac)" 2>"$dir/.sandbox-setup.err"; then
	warn "sandbox: it cannot be set up here ($(tail -1 "$dir/.sandbox-setup.err" 2>/dev/null)): the grader's failure, not the hand-in's"
	exit 125
fi
rm -f "$dir/.sandbox-setup.err"
exec "${sandbox[@]}" "$@"
