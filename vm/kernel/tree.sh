#!/usr/bin/env bash
# Extract Debian's linux-source-6.1 into build/src as a git repository whose first commit,
# tagged "pristine", is the untouched Debian tree; "base" is where labs start. Every lab tree is a worktree of it.
# Usage: vm/kernel/tree.sh            (idempotent: does nothing when build/src is ready)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

src="$BUILD/src"
tested=$(cat "$top/vm/kernel/TESTED_VERSION")
tarball=/usr/src/linux-source-6.1.tar.xz

require_pkg linux-source-6.1
installed=$(dpkg-query -W -f='${Version}' linux-source-6.1)
if [ "$installed" != "$tested" ]; then
	# A grade on another kernel than the one the series and its tests were checked on
	# is not the same grade: refuse, unless asked for on purpose.
	[ "${ALLOW_UNTESTED:-0}" = 1 ] ||
		die "linux-source-6.1 $installed is installed; the series was tested against $tested." \
			"Install that version (apt-get install linux-source-6.1=$tested), or run with" \
			"ALLOW_UNTESTED=1 to build on $installed anyway."
	warn "ALLOW_UNTESTED=1: building on linux-source-6.1 $installed, not the tested $tested"
fi

if git -C "$src" rev-parse -q --verify refs/tags/base >/dev/null 2>&1; then
	# The pristine commit records the version the tree was extracted from: a package
	# upgraded since then must not go unnoticed behind an old tree.
	made_from=$(git -C "$src" log -1 --format=%s refs/tags/pristine | sed -n 's/^Debian linux-source-6.1 \(.*\), pristine$/\1/p')
	[ "$made_from" = "$installed" ] ||
		die "build/src was made from linux-source-6.1 $made_from, but $installed is installed:" \
			"remove build/src (or make distclean) and run again"
	exit 0
fi

say "extracting $tarball into $src (once; about a minute)"
rm -rf "$src" "$BUILD/linux-source-6.1"
mkdir -p "$BUILD"
tar -xf "$tarball" -C "$BUILD"
mv "$BUILD/linux-source-6.1" "$src"

say "recording the pristine tree as a git commit (tag: pristine)"
# Fixed dates: the pristine and base commits get the same hashes on every machine.
export GIT_AUTHOR_DATE="2007-01-30T13:39:42Z" GIT_COMMITTER_DATE="2007-01-30T13:39:42Z"
git -C "$src" init -q -b pristine
git -C "$src" config user.name "fibrils lab"
git -C "$src" config user.email "lab@fibrils.invalid"
git -C "$src" config gc.auto 0
# Debian's .gitignore ignores every top-level entry ("/*"), so -f is needed to
# record the tree, and the "base" commit drops that block so that new files a
# student creates (kernel/fibril.c, ...) show in git status and in handin.
git -C "$src" add -A -f
git -C "$src" commit -q -m "Debian linux-source-6.1 $installed, pristine"
git -C "$src" tag pristine
sed -i '/^# Debian packaging: ignore everything/,$d' "$src/.gitignore"
sed -i '${/^#$/d}' "$src/.gitignore"
git -C "$src" commit -q -a -m "lab base: stop ignoring the top-level tree (Debian .gitignore)"
git -C "$src" tag base
