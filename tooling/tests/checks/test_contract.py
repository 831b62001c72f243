"""The contract suite's pure parts: the description's validation, the Schemathesis command line and its report."""
from pathlib import Path

from perflab.checks import contract

JUNIT = """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="schemathesis" tests="3" failures="2" errors="0">
<testcase name="PUT /api/members/me/phone"><failure type="failure" message="1. Test Case ID: 8fn3dh">1. Test Case ID: 8fn3dh

- ST201 Schema-violating request accepted

    Invalid data should have been rejected
</failure></testcase>
<testcase name="POST /api/transfers"><failure type="failure" message="x">1. Test Case ID: a

- ST102 Server error on undeclared request Content-Type

2. Test Case ID: b

- ST202 Schema-valid request rejected
</failure></testcase>
<testcase name="GET /api/auth/me"/>
</testsuite></testsuites>"""


def minimal(paths):
    return {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": paths}


def test_a_report_s_failures_are_one_line_per_operation_and_check():
    assert contract.findings(JUNIT) == [
        "POST /api/transfers: ST102 Server error on undeclared request Content-Type",
        "POST /api/transfers: ST202 Schema-valid request rejected",
        "PUT /api/members/me/phone: ST201 Schema-violating request accepted",
    ]


def test_a_report_without_failures_has_no_findings():
    assert contract.findings('<testsuites><testsuite><testcase name="GET /x"/></testsuite></testsuites>') == []


def test_a_description_that_refers_to_a_missing_schema_is_refused_by_name():
    document = minimal({"/x": {"get": {"responses": {"400": {"description": "problem", "content": {
        "application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}}}}})
    problems = contract.description_problems(document)
    assert problems and any("Problem" in p for p in problems)


def test_a_valid_description_has_no_problems():
    document = minimal({"/x": {"get": {"responses": {"200": {"description": "ok"}}}}})
    assert contract.description_problems(document) == []


def test_the_command_runs_every_check_with_the_role_s_token_seed_and_report(tmp_path: Path):
    command = contract.schemathesis_command("st", "http://127.0.0.1:8200", contract.Role("admin", "T0K"), 7, 42,
                                            tmp_path)
    assert command[:3] == ["st", "--config-file", str(contract.CONFIG)]
    assert command[command.index("--checks") + 1] == "all"
    assert command[command.index("--header") + 1] == "Authorization: Bearer T0K"
    assert command[command.index("--max-examples") + 1] == "7" and command[command.index("--seed") + 1] == "42"
    assert command[command.index("--report-junit-path") + 1] == str(tmp_path / "admin.xml")
    assert "http://127.0.0.1:8200/v3/api-docs" in command


def test_the_configuration_turns_no_check_off():
    text = contract.CONFIG.read_text()
    assert "enabled = false" not in text and "exclude-checks" not in text
