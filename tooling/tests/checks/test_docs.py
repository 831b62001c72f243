"""Every number in a table of README.md and docs/ has a committed result behind it: tables of results are blocks that
`./perflab ab --tables` regenerates from docs/results/<name>/result.json, and they must match what it would write;
any other table holding a digit must say why it is not a measurement (<!-- not measured: ... -->)."""
import pathlib

import pytest

from perflab.checks import doclint
from perflab.render import publishing
from perflab.results import store


@pytest.mark.parametrize("path", publishing.DOCS, ids=lambda p: str(p.relative_to(store.ROOT)))
def test_result_blocks_match_their_committed_results(path):
    text = path.read_text()
    for block in publishing.blocks(text):
        expected = publishing.render_block(block.group("name"), block.group("view"))
        assert block.group("body") == expected, (
            f"{path.name}: the block results:{block.group('name')} differs from docs/results/{block.group('name')}: "
            "run ./perflab ab --tables")


@pytest.mark.parametrize("path", publishing.DOCS, ids=lambda p: str(p.relative_to(store.ROOT)))
def test_no_table_holds_a_number_without_a_result(path):
    assert publishing.unbacked_tables(path) == []


def test_the_checker_catches_an_unbacked_table(tmp_path, monkeypatch):
    monkeypatch.setattr(store, "ROOT", tmp_path)
    monkeypatch.setattr(publishing, "ROOT", tmp_path)
    doc = tmp_path / "x.md"
    doc.write_text("| a | b |\n|---|---|\n| p95 | 12 ms |\n\n<!-- not measured: ports -->\n| port |\n|---|\n| 8080 |\n")
    assert publishing.unbacked_tables(doc) == ["x.md:1: | a | b |"]


# ---- mechanical checks (tooling/perflab/checks/doclint.py): each rule over every page, and each rule shown to catch a bad case ----

def _page_id(path):
    return str(path.relative_to(store.ROOT))


def test_the_checked_pages_are_the_readme_docs_and_the_walkthroughs_never_the_results():
    root = store.ROOT
    expected = {root / "README.md", *(root / "docs").glob("*.md"), *(root / "docs" / "walkthroughs").glob("*.md")}
    assert set(publishing.DOCS) >= expected
    assert not [p for p in publishing.DOCS if (root / "docs" / "results") in p.parents]


@pytest.mark.parametrize("path", publishing.DOCS, ids=_page_id)
def test_no_internal_issue_task_or_stop_numbers(path):
    assert doclint.internal_numbers(path.read_text()) == [], (
        f"{_page_id(path)}: internal numbers mean nothing to a reader; say what happened instead")


@pytest.mark.parametrize("path", publishing.DOCS, ids=_page_id)
def test_no_link_points_outside_the_repository(path):
    assert doclint.external_links(path.read_text()) == [], (
        f"{_page_id(path)}: http(s) links point outside the repository (an address to type goes in `code`)")


@pytest.mark.parametrize("path", publishing.DOCS, ids=_page_id)
def test_every_relative_link_and_image_resolves(path):
    assert doclint.broken_links(path) == []


def test_the_readme_is_short():
    lines = doclint.line_count(store.ROOT / "README.md")
    assert lines <= doclint.README_MAX_LINES, f"README.md has {lines} lines; at most {doclint.README_MAX_LINES}"


def test_the_docs_fit_their_word_budget():
    pages = doclint.counted_pages(store.ROOT)
    words = doclint.word_count(pages)
    assert words <= doclint.DOCS_MAX_WORDS, (
        f"cat docs/*.md docs/*/*.md | wc -w = {words:,} words; at most {doclint.DOCS_MAX_WORDS:,}: "
        + ", ".join(f"{p.relative_to(store.ROOT)} {doclint.word_count([p]):,}" for p in pages))


def test_the_page_list_takes_walkthroughs_and_leaves_results_out(tmp_path):
    for name in ("README.md", "docs/a.md", "docs/walkthroughs/wallet.md", "docs/results/wallet/REPORT.md",
                 "docs/results/x.md"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x\n")
    assert [str(p.relative_to(tmp_path)) for p in doclint.pages(tmp_path)] == [
        "README.md", "docs/a.md", "docs/walkthroughs/wallet.md"]
    assert [str(p.relative_to(tmp_path)) for p in doclint.counted_pages(tmp_path)] == [
        "docs/a.md", "docs/walkthroughs/wallet.md"]


def test_the_internal_number_check_catches_each_form():
    text = ("Fixed in issue 31.\nSee #34, then stop 37\nand Task 12.\n"
            "Fine: [step 2](#2-compare-before-and-after), [data](wallet.md#data-set), &#34;, seed 004, 3 stops.\n")
    assert doclint.internal_numbers(text) == ["line 1: issue 31", "line 2: #34", "line 2: stop 37", "line 3: Task 12"]


def test_the_external_link_check_catches_links_and_leaves_code_alone():
    text = ("[docs](https://example.org/x) and <http://example.org>\n"
            "![img](http://example.org/a.png)\n"
            "Typed, not linked: `curl http://127.0.0.1:8080/actuator/health`\n"
            "```sh\ncurl https://example.org\n```\n")
    assert doclint.external_links(text) == [
        "line 1: https://example.org/x", "line 1: http://example.org", "line 2: http://example.org/a.png"]


def test_the_link_check_catches_a_missing_file_and_an_escape(tmp_path):
    (tmp_path / "docs" / "walkthroughs").mkdir(parents=True)
    (tmp_path / "docs" / "glossary.md").write_text("# Glossary\n")
    (tmp_path / "docs" / "img.png").write_bytes(b"")
    page = tmp_path / "docs" / "walkthroughs" / "wallet.md"
    page.write_text("[knob](../glossary.md#knob) ![shot](../img.png) [readme](/docs/glossary.md) [top](#quick-path)\n"
                    "[gone](../gone.md#x) ![none](missing.png)\n"
                    "[out](../../../etc/passwd) <img src=\"../nope.svg\">\n"
                    "`[in code](nowhere.md)`\n\n[ref]: ../missing-ref.md\n")
    assert doclint.broken_links(page, tmp_path) == [
        "line 2: ../gone.md#x (no such file: docs/gone.md)",
        "line 2: missing.png (no such file: docs/walkthroughs/missing.png)",
        "line 3: ../../../etc/passwd (points outside the repository)",
        "line 3: ../nope.svg (no such file: docs/nope.svg)",
        "line 6: ../missing-ref.md (no such file: docs/missing-ref.md)"]


def test_the_length_checks_count_as_wc_does(tmp_path):
    long = tmp_path / "README.md"
    long.write_text("line\n" * (doclint.README_MAX_LINES + 1))
    assert doclint.line_count(long) == doclint.README_MAX_LINES + 1 > doclint.README_MAX_LINES
    a, b = tmp_path / "a.md", tmp_path / "b.md"
    a.write_text("one two\tthree\n| a | b |\n")
    b.write_text("four\n\nfive — six\n")
    assert doclint.word_count([a, b]) == 8 + 4  # `| a | b |` is five words to wc, the em dash one
