#!/usr/bin/env bash
# make docs: the annotated walkthrough, docs/*.md -> build/docs/*.html with pandoc.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/vm/lib.sh"
require_cmd pandoc pandoc
out="$BUILD/docs"
mkdir -p "$out"
for md in "$top"/docs/*.md; do
	html="$out/$(basename "${md%.md}").html"
	pandoc --standalone --toc --metadata title="$(head -1 "$md" | sed 's/^# //')" \
		--css=style.css -o "$html" "$md"
done
cp "$top/docs/style.css" "$out/"
# figures the chapters embed (docs/images/*.png, e.g. the Lab 5 plot make bench draws)
if [ -d "$top/docs/images" ]; then cp -r "$top/docs/images" "$out/"; fi
say "docs: $out/index.html"
