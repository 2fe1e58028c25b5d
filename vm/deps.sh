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

if [ "${#missing[@]}" -eq 0 ]; then
	echo "deps: all ${#pkgs[@]} packages are installed"
	exit 0
fi

# busybox-static:i386 needs the i386 architecture known to dpkg.
if ! dpkg --print-foreign-architectures | grep -qx i386; then
	echo "deps: adding the i386 architecture (dpkg --add-architecture i386)"
	$sudo dpkg --add-architecture i386
fi

echo "deps: installing ${missing[*]}"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
