#!/usr/bin/env bash
# make docs: the annotated walkthrough, docs/*.md -> build/docs/*.html with pandoc, and its
# figures, docs/figures/*.dot -> build/docs/figures/*.svg with Graphviz.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"
require_cmd pandoc pandoc
require_cmd dot graphviz
out="$BUILD/docs"
mkdir -p "$out/figures"
shopt -s nullglob
for dot in "$top"/docs/figures/*.dot; do
	dot -Tsvg -o "$out/figures/$(basename "${dot%.dot}").svg" "$dot"
done
shopt -u nullglob
for md in "$top"/docs/*.md; do
	html="$out/$(basename "${md%.md}").html"
	# The page's "# Title" line becomes pandoc's title block (it was shown twice when the
	# heading stayed in the body too).
	title=$(head -1 "$md" | sed 's/^# //')
	tail -n +2 "$md" | pandoc --standalone --toc --from markdown --metadata title="$title" \
		--css=style.css -o "$html"
done
cp "$top/docs/style.css" "$out/"
# figures the chapters embed (docs/images/*.png, e.g. the Lab 5 plot make bench draws)
if [ -d "$top/docs/images" ]; then cp -r "$top/docs/images" "$out/"; fi
say "docs: $out/index.html"
