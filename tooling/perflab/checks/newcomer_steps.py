"""The newcomer check's reading of the pages (tooling/perflab/checks/newcomer.py): the steps of the README's `## Quick start` and of
each walkthrough's `## Quick path` (a `### ` heading ending in `— about N s`, one ```sh block, an `Expect:` line of
backticked strings), the pages in their order, and the order their steps run in."""
import dataclasses
import pathlib
import re

README = "README"
WALKTHROUGHS = ["wallet", "routes", "login", "slow-dependency", "cold-start"]
FIRST_INSIGHT_PAGE = "wallet"
NOT_TIMED = "(not timed for the first insight)"
Lines = list[tuple[int, str]]  # (line number, line) of a section


DURATION = re.compile(r"\s+—\s+about\s+(\d+(?:\.\d+)?)\s*(s|min)\s*$")


LOOSE_DURATION = re.compile(r"about\s+\d+(?:\.\d+)?\s*(?:s|secs?|seconds?|mins?|minutes?)\s*$", re.I)


FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)")


CODE_SPAN = re.compile(r"(`+)(?!`)(.+?)(?<!`)\1(?!`)")


class DocFormatError(Exception):
    """A page whose quick steps do not follow the format: the message names the page and the heading."""


@dataclasses.dataclass
class Step:
    page: str
    title: str
    command: str
    stated: float  # seconds
    expect: list[str]
    timed: bool = True
    line: int = 0


def seconds(number: str, unit: str) -> float:
    return float(number) * (60 if unit == "min" else 1)


def section_lines(text: str, section: str) -> Lines | None:
    """(line number, line) of `## SECTION` up to the next heading of level 1 or 2, code blocks kept whole; None when
    the page has no such section."""
    lines = text.splitlines()
    fence, start = None, None
    for index, line in enumerate(lines):
        opener = FENCE.match(line)
        if fence:
            if opener and opener.group(1)[0] == fence[0] and len(opener.group(1)) >= len(fence) and not opener.group(2):
                fence = None
            continue
        if opener:
            fence = opener.group(1)
            continue
        if re.match(r"^#{1,2}\s", line):
            if start is not None:
                return [(n + 1, lines[n]) for n in range(start, index)]
            if line.strip() == f"## {section}":
                start = index + 1
    return None if start is None else [(n + 1, lines[n]) for n in range(start, len(lines))]


def backticked(paragraph: str) -> list[str]:
    """The code spans of a paragraph, as CommonMark reads them (one space trimmed each side of a padded span)."""
    spans = []
    for match in CODE_SPAN.finditer(paragraph):
        body = match.group(2)
        if len(body) > 2 and body.startswith(" ") and body.endswith(" ") and body.strip():
            body = body[1:-1]
        spans.append(body)
    return spans


def step_error(page: str, heading: str | None, why: str) -> DocFormatError:
    return DocFormatError(f"{page}: step '{heading}': {why}")


def heading_step(heading: str, page: str, number: int) -> Step | None:
    """The step a `### ` heading opens (its title, stated duration, whether it is timed), or None for a heading of
    prose; DocFormatError for a duration written another way."""
    bare = heading.replace(NOT_TIMED, " ").strip()
    duration = DURATION.search(bare)
    if duration:
        return Step(page=page, title=re.sub(r"\s+", " ", bare[:duration.start()]).strip(), command="",
                    stated=seconds(*duration.groups()), expect=[], timed=NOT_TIMED not in heading, line=number)
    if LOOSE_DURATION.search(bare):
        raise step_error(page, heading, "write its duration as ' — about N s' or ' — about N min', with an em dash")
    return None


def fenced_block(lines: Lines, start: int, page: str) -> tuple[str, list[str], int]:
    """The code block whose fence opens at lines[start]: (its info string, its lines, the index after its closing
    fence); DocFormatError when it is not closed."""
    number, line = lines[start]
    opener = FENCE.match(line)
    assert opener is not None  # the caller found the fence
    info, i = opener.group(2), start + 1
    body: list[str] = []
    while i < len(lines):
        closer = FENCE.match(lines[i][1])
        if closer and closer.group(1)[0] == opener.group(1)[0] and len(closer.group(1)) >= len(opener.group(1)) \
                and not closer.group(2):
            return info, body, i + 1
        body.append(lines[i][1])
        i += 1
    raise DocFormatError(f"{page}: the code block at line {number} is not closed")


def check_block_place(page: str, heading: str | None, stage: str | None, info: str, number: int) -> None:
    """DocFormatError for a code block where a step has none: another than ```sh after a step's heading, a second
    block, or an ```sh block of no step."""
    if stage == "block":
        if info != "sh":
            raise step_error(page, heading,
                             f"its block must be ```sh (one bash -e from the clone's root), not ```{info}")
    elif stage == "expect":
        raise step_error(page, heading, "more than one code block; a step has exactly one ```sh block")
    elif info == "sh" and stage == "done":
        raise step_error(page, heading, "a second ```sh block after its Expect: line")
    elif info == "sh":
        raise DocFormatError(f"{page}: the ```sh block at line {number} belongs to no step: give it its own "
                             "'### ' heading ending in ' — about N s'")


def check_step_closed(page: str, heading: str | None, stage: str | None) -> None:
    """DocFormatError when the step under `heading` ends without its block or its Expect: line."""
    if stage == "block":
        raise step_error(page, heading, "no ```sh block after its heading")
    if stage == "expect":
        raise step_error(page, heading, "no 'Expect:' line after its ```sh block (one or more `backticked` strings "
                                        "the output must hold)")


def paragraph_at(lines: Lines, start: int) -> tuple[str, int]:
    """The paragraph that begins at lines[start], its lines joined with spaces, and the index after it."""
    paragraph, i = [lines[start][1]], start + 1
    while i < len(lines) and lines[i][1].strip() and not lines[i][1].startswith("#") and not FENCE.match(lines[i][1]):
        paragraph.append(lines[i][1])
        i += 1
    return " ".join(paragraph), i


def parse_steps(text: str, page: str, section: str) -> list[Step]:
    """The steps of `## SECTION` in a page, in order; DocFormatError naming the page and the heading when a step
    misses its duration, its one `sh` block or its Expect: line, or when the page has no step at all."""
    lines = section_lines(text, section)
    if lines is None:
        raise DocFormatError(f"{page}: no '## {section}' section")
    steps: list[Step] = []
    current: Step | None = None
    stage: str | None = None  # what the current heading waits for: "block", "expect"; or "done", "prose"
    heading: str | None = None
    i = 0
    while i < len(lines):
        number, line = lines[i]
        if line.startswith("### "):
            check_step_closed(page, heading, stage)
            heading = line[4:].strip()
            current = heading_step(heading, page, number)
            stage = "block" if current else "prose"
            i += 1
        elif FENCE.match(line):
            info, body, i = fenced_block(lines, i, page)
            check_block_place(page, heading, stage, info, number)
            if stage == "block":
                assert current is not None  # stage "block" follows a step's heading
                current.command, stage = "\n".join(body).strip("\n"), "expect"
        elif not line.strip():
            i += 1
        elif stage == "expect":
            if not line.startswith("Expect:"):
                raise step_error(page, heading, "the line after its ```sh block must start with 'Expect:', not "
                                                f"{line.strip()[:60]!r}")
            paragraph, i = paragraph_at(lines, i)
            assert current is not None  # stage "expect" follows a step's block
            current.expect = backticked(paragraph)
            if not current.expect:
                raise step_error(page, heading, "its Expect: line holds no `backticked` string")
            steps.append(current)
            stage = "done"
        else:
            if stage == "block" and line.startswith("Expect:"):
                raise step_error(page, heading, "an Expect: line before its ```sh block")
            i += 1
    check_step_closed(page, heading, stage)
    if not steps:
        raise DocFormatError(f"{page}: '## {section}' holds no step (a '### ' heading ending in ' — about N s')")
    return steps


def page_files(root: pathlib.Path | str) -> list[tuple[str, pathlib.Path, str]]:
    """[(page, path, section)]: the README first, then the walkthroughs (WALKTHROUGHS' order, any other after)."""
    root = pathlib.Path(root)
    folder = root / "docs" / "walkthroughs"
    names = [n for n in WALKTHROUGHS if (folder / f"{n}.md").exists()]
    names += sorted(p.stem for p in folder.glob("*.md") if p.stem not in WALKTHROUGHS)
    return [(README, root / "README.md", "Quick start")] + [(n, folder / f"{n}.md", "Quick path") for n in names]


def load_pages(root: pathlib.Path | str, only: str | None = None) -> dict[str, list[Step]]:
    """{page: [Step]} in page_files' order; --only keeps one page."""
    pages = {}
    for page, path, section in page_files(root):
        if only and page != only:
            continue
        pages[page] = parse_steps(path.read_text(), page, section)
    if only and only not in pages:
        raise SystemExit(f"no page {only!r}; pages: {', '.join(p for p, _, _ in page_files(root))}")
    return pages


def plan(pages: dict[str, list[Step]]) -> list[Step]:
    """The order the steps run in: the README's timed steps, the wallet walkthrough (the first insight), the
    README's other steps, then every other walkthrough."""
    readme = pages.get(README, [])
    order = [s for s in readme if s.timed] + pages.get(FIRST_INSIGHT_PAGE, []) + [s for s in readme if not s.timed]
    for page, steps in pages.items():
        if page not in (README, FIRST_INSIGHT_PAGE):
            order += steps
    return order


def docker_plan(pages: dict[str, list[Step]]) -> list[Step]:
    """The steps the Docker column runs: plan's order without the README's steps that are not timed (its tests,
    which take Testcontainers with a Docker engine: not a walkthrough's path)."""
    return [s for s in plan(pages) if s.page != README or s.timed]
