#!/usr/bin/env bash
# vm/stress/deb-root.sh PACKAGE PROGRAM ROOT: put Debian's PACKAGE for i386 and exactly the
# i386 shared libraries its PROGRAM (/usr/bin/NAME) needs into the tree ROOT, which a
# caller packs as a second initramfs archive (vm/stress/stress.sh: stress-ng;
# vm/stress/trinity.sh: trinity).
#   - the .debs are downloaded with `apt-get download` into build/debs (like the guest's
#     busybox), never installed on the host;
#   - the libraries are the NEEDED closure of PROGRAM, resolved with objdump -p over the
#     extracted .debs; a library no downloaded .deb has sends us one level further down
#     the Depends of the .debs we have.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

require_cmd objdump binutils
require_cmd dpkg-deb dpkg
pkg=${1:?usage: vm/stress/deb-root.sh PACKAGE PROGRAM ROOT} program=${2:?no program} root=${3:?no root}
debs="$BUILD/debs"
x="$root.extract"
mkdir -p "$debs"

if [ -x "$root$program" ] && [ "$root$program" -nt "$top/vm/stress/deb-root.sh" ]; then
	exit 0
fi
dpkg --print-foreign-architectures | grep -qx i386 ||
	die "the i386 architecture is not enabled. Run 'make deps' (it runs dpkg --add-architecture i386 and apt-get update)."

# fetch PKG...: download the .debs of PKG:i386 we do not have yet.
fetch() {
	local p want=()
	for p in "$@"; do
		compgen -G "$debs/${p%%:*}_*_i386.deb" >/dev/null || compgen -G "$debs/${p%%:*}_*_all.deb" >/dev/null ||
			want+=("$p")
	done
	[ "${#want[@]}" -eq 0 ] && return 0
	say "downloading ${want[*]}"
	(cd "$debs" && apt-get -q -o APT::Sandbox::User=root download "${want[@]}" >/dev/null) ||
		die "apt-get download ${want[*]} failed. Run 'make deps' (apt-get update with the i386 architecture)."
}

# depends PKG: the i386 packages PKG depends on.
depends() {
	apt-cache depends --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces \
		--no-enhances "$1" 2>/dev/null | awk '$1 == "Depends:" || $1 == "PreDepends:" { print $2 }' |
		grep -v '^<' | sed 's/:i386$//; s/$/:i386/' | sort -u
}

have=("$pkg:i386")
fetch "${have[@]}"
rm -rf "$x" "$root"
mkdir -p "$x" "$root$(dirname "$program")" "$root/lib/i386-linux-gnu"
dpkg-deb -x "$(compgen -G "$debs/${pkg}_*_i386.deb" | head -1)" "$x"
[ -f "$x$program" ] || die "Debian's $pkg for i386 has no $program"

# find SONAME: the library file in the extracted tree, or nothing.
find_lib() {
	local d
	for d in lib/i386-linux-gnu usr/lib/i386-linux-gnu lib; do
		[ -e "$x/$d/$1" ] && { echo "$x/$d/$1"; return 0; }
	done
	return 0
}

# closure: the NEEDED closure of PROGRAM, one "SONAME PATH" line per library; PATH is
# empty for a library that no extracted .deb has (yet).
closure() {
	local queue=("$x$program") seen=" " f so lib
	while [ "${#queue[@]}" -gt 0 ]; do
		f=${queue[0]}
		queue=("${queue[@]:1}")
		for so in $(objdump -p "$f" | awk '$1 == "NEEDED" { print $2 }'); do
			case "$seen" in *" $so "*) continue ;; esac
			seen+="$so "
			lib=$(find_lib "$so")
			echo "$so $lib"
			[ -z "$lib" ] || queue+=("$lib")
		done
	done
}

level=0 frontier=("${have[@]}")
while :; do
	mapfile -t missing < <(closure | awk 'NF == 1 { print $1 }')
	[ "${#missing[@]}" -eq 0 ] && break
	level=$((level + 1))
	[ "$level" -le 4 ] || die "$pkg needs ${missing[*]}, which no .deb of its Depends (4 levels) has"
	next=()
	for p in "${frontier[@]}"; do
		while read -r d; do
			case " ${have[*]} " in *" $d "*) ;; *) have+=("$d"); next+=("$d") ;; esac
		done < <(depends "$p")
	done
	[ "${#next[@]}" -gt 0 ] || die "$pkg needs ${missing[*]} and its Depends have nothing more"
	fetch "${next[@]}"
	for p in "${next[@]}"; do
		deb=$(compgen -G "$debs/${p%%:*}_*_i386.deb" | head -1 || true)
		[ -n "$deb" ] || deb=$(compgen -G "$debs/${p%%:*}_*_all.deb" | head -1 || true)
		[ -n "$deb" ] && dpkg-deb -x "$deb" "$x"
	done
	frontier=("${next[@]}")
done

# copy the closure (the files behind the sonames) and the loader named by PT_INTERP
cp -L "$x$program" "$root$program"
n=0
while read -r so lib; do
	cp -L "$lib" "$root/lib/i386-linux-gnu/$so"
	n=$((n + 1))
done < <(closure)
interp=$(readelf -l "$x$program" | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
[ "$interp" = /lib/ld-linux.so.2 ] || die "$program's loader is '$interp', expected /lib/ld-linux.so.2"
cp -L "$x/lib/ld-linux.so.2" "$root/lib/ld-linux.so.2"
touch "$root$program"
say "${root#"$top"/}: $pkg $(dpkg-deb -f "$(compgen -G "$debs/${pkg}_*_i386.deb" | head -1)" Version), $n libraries, $(du -sh "$root" | cut -f1)"
