#!/usr/bin/env bash
# make docs-check: the built docs, in a real browser. Builds them (vm/docs/build.sh), then
# fails on a broken link or image (vm/docs/links.py), on fewer than five SVG figures in
# the Lab 2-4 chapters, and on a page that headless Chromium cannot load or that shows
# no title, too little text or an image that did not load (vm/docs/harness.html).
# Keeps a screenshot of each page in build/docs/screenshots/.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"
require_cmd chromium chromium
require_cmd curl curl

"$top/vm/docs/build.sh"
docs="$BUILD/docs"
shots="$docs/screenshots"
rm -rf "$shots"
mkdir -p "$shots"
failed=0

python3 "$top/vm/docs/links.py" "$docs" || failed=1

figures=$(cat "$docs"/lab2.html "$docs"/lab3.html "$docs"/lab4.html | { grep -o '<img src="figures/[^"]*\.svg"' || true; } | wc -l)
if [ "$figures" -lt 5 ]; then
	echo "docs-check: $figures SVG figures in the Lab 2-4 chapters, at least 5 expected"
	failed=1
else
	echo "figures: $figures SVG figures in the Lab 2-4 chapters"
fi

# The harness and the docs, served together (one origin, so the harness may look into
# the pages it loads) by a web server of our own on a free loopback port.
root=$(mktemp -d)
ln -s "$docs" "$root/docs"
cp "$top/vm/docs/harness.html" "$root/"
port=$(free_port)
python3 -m http.server --bind 127.0.0.1 --directory "$root" "$port" >"$root/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -rf "$root"' EXIT
for _ in $(seq 50); do
	curl -fs -o /dev/null "http://127.0.0.1:$port/harness.html" && break
	sleep 0.1
done

browser() {
	# --no-sandbox: Chromium's sandbox refuses to run as root (CI runs as root)
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
		--no-first-run --user-data-dir="$root/profile" "$@" 2>>"$root/chromium.log"
}

mapfile -t pages < <(cd "$docs" && ls -- *.html)
# One browser a page: Chromium's virtual time, which makes --dump-dom wait for the
# harness, did not stretch reliably over several pages in one run.
for page in "${pages[@]}"; do
	if ! browser --virtual-time-budget=30000 --dump-dom \
		"http://127.0.0.1:$port/harness.html?pages=$page" >"$root/dom-$page"; then
		echo "$page: FAIL: Chromium failed:"
		tail -3 "$root/chromium.log"
		failed=1
	fi
done
python3 - "$root" "${pages[@]}" <<'PY' || failed=1
import html, json, os, re, sys
root = sys.argv[1]
bad = 0
for page in sys.argv[2:]:
    path = os.path.join(root, "dom-" + page)
    dom = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
    m = re.search(r'<pre id="result">(.*?)</pre>', dom, re.S)
    results = json.loads(html.unescape(m.group(1))) if m and m.group(1).strip() else []
    r = results[0] if results else None
    why = []
    if r is None:
        why.append("the browser never reported it")
    elif not r["loaded"]:
        why.append("did not load within 8 s")
    else:
        if not r["title"]:
            why.append("no title")
        if r["text"] < 300:
            why.append(f"only {r['text']} characters of text")
        broken = [i["src"] for i in r["images"] if not i["loaded"]]
        if broken:
            why.append("images that did not load: " + ", ".join(broken))
    if why:
        bad += 1
        print(f"{page}: FAIL: " + "; ".join(why))
    else:
        print(f"{page}: ok: \"{r['title']}\", {r['text']} characters, {r['headings']} headings, "
              f"{len(r['images'])} images")
sys.exit(1 if bad else 0)
PY

for page in "${pages[@]}"; do
	shot="$shots/${page%.html}.png"
	browser --hide-scrollbars --window-size=1280,1600 --screenshot="$shot" \
		"http://127.0.0.1:$port/docs/$page" >/dev/null || true
	if [ ! -s "$shot" ]; then
		echo "$page: FAIL: no screenshot"
		failed=1
	fi
done
echo "screenshots: $(find "$shots" -name '*.png' | wc -l) in $shots"

if [ "$failed" -ne 0 ]; then die "docs-check failed (see above)"; fi
say "docs-check: every page renders, every link and image resolves"
