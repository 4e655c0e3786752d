"""Check every internal link of a built HTML site: each relative href and src names a file of the site, and
each #fragment an id in that file. Links to other sites are not followed (the build has no network).

Usage: python scripts/check_links.py docs/_build/html
"""

from __future__ import annotations

import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit


class Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name in ("id", "name"):
                self.ids.add(value)
            elif (name == "href" and tag in ("a", "link")) or (name == "src" and tag in ("img", "script")):
                self.links.append(value)


def read(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8", errors="replace"))
    return page


def broken_links(site: Path) -> list[str]:
    pages = {path.resolve(): read(path) for path in site.rglob("*.html")
             if not path.relative_to(site).parts[0].startswith("_")}  # _static/: the theme's templates
    broken = []
    for path, page in pages.items():
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith(("mailto:", "javascript:", "data:")):
                continue
            target = path if not parts.path else (path.parent / unquote(parts.path)).resolve()
            if target.is_dir():
                target = target / "index.html"
            where = f"{path.relative_to(site.resolve())}: {link}"
            if not target.is_file():
                broken.append(f"{where} (no such file)")
            elif parts.fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else read(target).ids
                if unquote(parts.fragment) not in ids:
                    broken.append(f"{where} (no such anchor)")
    return broken


def main() -> None:
    site = Path(sys.argv[1])
    if not (site / "index.html").is_file():
        sys.exit(f"{site}: no index.html, build the site first")
    broken = broken_links(site)
    for line in broken:
        print("broken link:", line, file=sys.stderr)
    if broken:
        sys.exit(1)
    print(f"{len(list(site.glob('**/*.html')))} HTML files, every internal link and anchor found")


if __name__ == "__main__":
    main()
