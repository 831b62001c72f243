"""Every number in a table of README.md and docs/ has a committed result behind it: tables of results are blocks that
`./perflab ab --tables` regenerates from docs/results/<name>/result.json, and they must match what it would write;
any other table holding a digit must say why it is not a measurement (<!-- not measured: ... -->)."""
import pathlib

import pytest

import results


@pytest.mark.parametrize("path", results.DOCS, ids=lambda p: str(p.relative_to(results.ROOT)))
def test_result_blocks_match_their_committed_results(path):
    text = path.read_text()
    for block in results.blocks(text):
        expected = results.render_block(block.group("name"), block.group("view"))
        assert block.group("body") == expected, (
            f"{path.name}: the block results:{block.group('name')} differs from docs/results/{block.group('name')}: "
            "run ./perflab ab --tables")


@pytest.mark.parametrize("path", results.DOCS, ids=lambda p: str(p.relative_to(results.ROOT)))
def test_no_table_holds_a_number_without_a_result(path):
    assert results.unbacked_tables(path) == []


def test_the_checker_catches_an_unbacked_table(tmp_path, monkeypatch):
    monkeypatch.setattr(results, "ROOT", tmp_path)
    doc = tmp_path / "x.md"
    doc.write_text("| a | b |\n|---|---|\n| p95 | 12 ms |\n\n<!-- not measured: ports -->\n| port |\n|---|\n| 8080 |\n")
    assert results.unbacked_tables(doc) == ["x.md:1: | a | b |"]
