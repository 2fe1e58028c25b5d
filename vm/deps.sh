#!/usr/bin/env bash
# Install every Debian package the labs need. Idempotent: installs only what is missing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi

mapfile -t pkgs < <(grep -v '^[[:space:]]*\(#\|$\)' "$here/packages.txt")

missing=()
for p in "${pkgs[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
		missing+=("$p")
	fi
done

debdir="${BUILD:-$here/../build}/debs" # BUILD: as vm/lib.sh says
have_busybox() { ls "$debdir"/busybox-static_*_i386.deb >/dev/null 2>&1; }

if [ "${#missing[@]}" -eq 0 ] && have_busybox; then
	echo "deps: all ${#pkgs[@]} packages are installed; the i386 busybox is in build/debs"
	exit 0
fi

# The guest's busybox is Debian's busybox-static for i386: downloaded and extracted
# into the initramfs, never installed over the host's busybox. apt needs the i386
# architecture to see it.
if ! dpkg --print-foreign-architectures | grep -qx i386; then
	echo "deps: adding the i386 architecture (dpkg --add-architecture i386)"
	$sudo dpkg --add-architecture i386
fi
# A mirror mid-sync fails the refresh ("File has unexpected size") while the package
# lists already there still name what is needed: go on with them, and let install or
# download say so if they do not.
if ! $sudo apt-get update -q; then
	echo "deps: warning: apt-get update failed (above); going on with the package lists this machine has" >&2
fi

if [ "${#missing[@]}" -gt 0 ]; then
	echo "deps: installing ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

if ! have_busybox; then
	mkdir -p "$debdir"
	(cd "$debdir" && apt-get -o APT::Sandbox::User=root download busybox-static:i386)
fi
