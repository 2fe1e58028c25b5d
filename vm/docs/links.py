#!/usr/bin/env python3
"""links.py DOCS_DIR: every link and image of every page of the built docs must resolve.

A relative href or src must name a file under DOCS_DIR, and a #fragment an id in the page
it names; a link may not leave DOCS_DIR (a reader of the built docs has nothing else).
Web addresses (http, https, mailto) are listed, not fetched: the check runs offline.
Prints one line per problem and exits 1 if there was any.
"""
import os
import sys
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids = set()
        self.refs = []  # (tag, attribute, value)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("name"):
            self.ids.add(attrs["name"])
        for attr in ("href", "src"):
            if attrs.get(attr) is not None and tag in ("a", "img", "link", "script", "object", "embed"):
                self.refs.append((tag, attr, attrs[attr]))


def parse(path):
    page = Page()
    with open(path, encoding="utf-8") as f:
        page.feed(f.read())
    return page


def main(root):
    root = os.path.realpath(root)
    pages = sorted(p for p in os.listdir(root) if p.endswith(".html"))
    parsed = {p: parse(os.path.join(root, p)) for p in pages}
    problems = 0
    web = set()
    for name, page in parsed.items():
        for tag, attr, value in page.refs:
            url = urlsplit(value)
            if url.scheme in ("http", "https", "mailto"):
                web.add(value)
                continue
            if url.scheme:
                print(f"{name}: <{tag} {attr}=\"{value}\">: a {url.scheme}: address in the docs")
                problems += 1
                continue
            target = os.path.realpath(os.path.join(root, unquote(url.path))) if url.path else os.path.join(root, name)
            if not target.startswith(root + os.sep):
                print(f"{name}: <{tag} {attr}=\"{value}\">: leads outside the built docs")
                problems += 1
                continue
            if not os.path.isfile(target):
                print(f"{name}: <{tag} {attr}=\"{value}\">: no such file")
                problems += 1
                continue
            if url.fragment:
                other = parsed.get(os.path.relpath(target, root))
                if other is not None and unquote(url.fragment) not in other.ids:
                    print(f"{name}: <{tag} {attr}=\"{value}\">: no id \"{url.fragment}\" in {os.path.relpath(target, root)}")
                    problems += 1
    print(f"links: {len(pages)} pages, {sum(len(p.refs) for p in parsed.values())} links and images, "
          f"{len(web)} web addresses (not fetched), {problems} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
