"""tooling/perflab/plan/duet.py and the duet's round (procedures.duet_round): what a duet leaves out, what it refuses, and that every
variant's run starts after every reset and runs at the same time as the others."""
import threading

import pytest

from perflab.plan import duet
from perflab.plan import experiment as experiments
from perflab.measure import procedures


def wallet_fixed():
    return experiments.load("wallet-fixed")


def test_the_shared_processes_mechanisms_are_left_out_with_the_checks_on_them():
    e = wallet_fixed()
    e["check"] = [{"side": "candidate", "mechanism": "MariaDB CPU per transfer (ms)", "op": "<", "value": 1},
                  {"side": "candidate", "mechanism": "statements per transfer", "op": "==", "value": 5}]
    left_out = duet.prepare(e)
    assert "MariaDB CPU per transfer (ms)" in left_out and "MariaDB commands per transfer" in left_out
    assert "statements per transfer" not in left_out and "app CPU per transfer (ms)" not in left_out
    assert not any(duet.shared(m) for m in e["mechanism"])
    assert [c["mechanism"] for c in e["check"]] == ["statements per transfer"]
    assert not set(left_out) & set(e["primary"].get("mechanisms", []))


def test_what_a_duet_cannot_run_is_named():
    e = wallet_fixed()
    with pytest.raises(SystemExit, match="already share one app"):
        duet.check(dict(e, interleave=True))
    with pytest.raises(SystemExit, match="open or closed"):
        duet.check(dict(e, load={**e["load"], "shape": "capacity"}))
    with pytest.raises(SystemExit, match="fault"):
        duet.check(dict(e, fault={"link": "mariadb", "toxic": {}}))
    with pytest.raises(SystemExit, match="primary metric"):
        duet.check(dict(e, primary={"metric": "MariaDB CPU per transfer (ms)"}))


def test_a_duets_runs_start_after_every_reset_and_run_at_once(monkeypatch):
    events, running, overlapped = [], set(), threading.Event()
    monkeypatch.setattr(procedures, "reset", lambda ctx, v: events.append(("reset", v["label"])))

    def run(ctx, app, variant, round_no, load, cell, together):
        together.wait()
        events.append(("run", variant["label"]))
        running.add(variant["label"])
        if running == {"a", "b"}:
            overlapped.set()
        assert overlapped.wait(5), "the other variant's run did not start meanwhile"
        return {"variant": variant["label"], "round": round_no}

    monkeypatch.setattr(procedures, "measured_run", run)
    runs = procedures.duet_round(None, [("app-a", {"label": "a"}), ("app-b", {"label": "b"})], 3, {}, {})
    assert [r["variant"] for r in runs] == ["a", "b"] and all(r["round"] == 3 for r in runs)
    assert [e[0] for e in events[:2]] == ["reset", "reset"] and overlapped.is_set()
