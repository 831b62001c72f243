"""Mechanical checks of the docs (README.md, docs/*.md, docs/walkthroughs/*.md; never docs/results): one function per
rule, each returning what it found (an empty list when the page is clean), so that test_docs.py can name the page,
the line and the offending text. The rules are those of the docs' conventions:

- no internal issue, task or stop numbers (`issue 31`, `#34`, `stop 37`, `task 12`): a reader cannot look them up;
- no http(s) links: nothing points outside the repository (a URL inside inline code or a code block is no link);
- every relative link and image path resolves to a file (or folder) of the repository, anchors ignored;
- README.md has at most README_MAX_LINES lines, and docs/*.md docs/*/*.md together at most DOCS_MAX_WORDS words,
  counted as `cat docs/*.md docs/*/*.md | wc -w` counts them (docs/results excluded)."""
import pathlib
import re
import urllib.parse
from typing import Iterable, Iterator

from perflab.paths import ROOT
README_MAX_LINES = 150
# docker.md (+1,100): what the compose lab needs, its result's three tables, its troubleshooting; (+250): the A/B
# runner on Docker, what it refuses and why
DOCS_MAX_WORDS = 18_690

# `issue 31`, `issues 31`, `task 12`, `stop 37` (any case, `#` allowed before the number), and `#34` on its own: not
# an anchor (`(#2-compare-before-and-after)`, `wallet.md#data-set`) and not an HTML entity (`&#34;`)
INTERNAL_NUMBER = re.compile(r"\b(?:issues?|tasks?|stop)\s+#?\d+\b|(?<![\w&#/])#\d+(?![\w-])", re.I)
URL = re.compile(r"\bhttps?://[^\s)>\]\"'`]*", re.I)
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
CODE_SPAN = re.compile(r"(`+)(?!`)(.+?)(?<!`)\1(?!`)")
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
HTML_LINK = re.compile(r"\b(?:href|src)\s*=\s*[\"']([^\"']+)[\"']", re.I)
SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)


def pages(root: pathlib.Path | str | None = None) -> list[pathlib.Path]:
    """The pages every docs check covers: README.md, docs/*.md and docs/<folder>/*.md except docs/results."""
    root = pathlib.Path(root or ROOT)
    docs = root / "docs"
    nested = [p for p in sorted(docs.glob("*/*.md")) if p.parent.name != "results"]
    return [root / "README.md", *sorted(docs.glob("*.md")), *nested]


def prose_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number, line) of the rendered prose: fenced code blocks left out, inline code spans blanked."""
    fence: str | None = None
    for number, line in enumerate(text.splitlines(), 1):
        opener = FENCE.match(line)
        if fence is None:
            if opener:
                fence = opener.group(1)
                continue
            yield number, CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)
        elif opener and opener.group(1)[0] == fence[0] and len(opener.group(1)) >= len(fence) \
                and not line.strip().strip(fence[0]):
            fence = None


def internal_numbers(text: str) -> list[str]:
    """`line N: text` for every internal issue/task/stop number, in prose and in code alike."""
    return [f"line {number}: {match.group(0)}" for number, line in enumerate(text.splitlines(), 1)
            for match in INTERNAL_NUMBER.finditer(line)]


def external_links(text: str) -> list[str]:
    """`line N: URL` for every http(s) URL outside code: a link, an image, an autolink or a bare URL."""
    return [f"line {number}: {match.group(0)}" for number, line in prose_lines(text) for match in URL.finditer(line)]


def link_targets(text: str) -> Iterator[tuple[int, str]]:
    """(line number, target) of every Markdown link, image, reference definition and HTML href/src outside code."""
    for number, line in prose_lines(text):
        for pattern in (INLINE_LINK, REFERENCE, HTML_LINK):
            for match in pattern.finditer(line):
                yield number, match.group(1).strip("<>")


def broken_links(path: pathlib.Path | str, root: pathlib.Path | str | None = None) -> list[str]:
    """`line N: target (why)` for every relative link or image path of the page that does not resolve to a file or
    folder inside the repository; anchors (`#...`) and query strings are ignored, URLs are external_links' job."""
    path = pathlib.Path(path)
    root = pathlib.Path(root or ROOT).resolve()
    found = []
    for number, target in link_targets(path.read_text()):
        if SCHEME.match(target) or target.startswith("//"):
            continue  # http(s): external_links; mailto: and the like point at no file
        relative = urllib.parse.unquote(target.split("#", 1)[0].split("?", 1)[0])
        if not relative:
            continue  # an anchor on the same page
        resolved = (root / relative.lstrip("/")) if relative.startswith("/") else (path.parent / relative)
        resolved = resolved.resolve()
        if resolved != root and root not in resolved.parents:
            found.append(f"line {number}: {target} (points outside the repository)")
        elif not resolved.exists():
            found.append(f"line {number}: {target} (no such file: {resolved.relative_to(root)})")
    return found


def line_count(path: pathlib.Path | str) -> int:
    """Lines of the page, as `wc -l` counts them (plus a last line without its newline)."""
    text = pathlib.Path(path).read_text()
    return text.count("\n") + (1 if text and not text.endswith("\n") else 0)


def counted_pages(root: pathlib.Path | str | None = None) -> list[pathlib.Path]:
    """The pages `cat docs/*.md docs/*/*.md` reads, in its order, docs/results left out."""
    docs = pathlib.Path(root or ROOT) / "docs"
    return [*sorted(docs.glob("*.md")), *[p for p in sorted(docs.glob("*/*.md")) if p.parent.name != "results"]]


def word_count(paths: Iterable[pathlib.Path | str]) -> int:
    """Words as `cat PATHS | wc -w` counts them: runs of bytes between ASCII whitespace, over the concatenation."""
    return len(b"".join(pathlib.Path(p).read_bytes() for p in paths).split())
