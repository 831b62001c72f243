import pytest

import experiment as experiments

def test_only_variants_keeps_the_files_order_and_the_checks_of_the_kept_variants():
    e = experiments.load("cold-start")
    labels = [v["label"] for v in e["variants"]]
    experiments.only_variants(e, [labels[1], labels[0]])
    assert [v["label"] for v in e["variants"]] == labels[:2]
    assert all(c.get("variant") in (None, *labels[:2]) for c in e["check"])

def test_only_variants_drops_the_checks_of_variants_left_out():
    e = experiments.load("cold-start")
    experiments.apply_smoke(e)
    checked = {c["variant"] for c in e["check"]}
    others = [v["label"] for v in experiments.load("cold-start")["variants"] if v["label"] not in checked][:2]
    e = experiments.load("cold-start")
    experiments.only_variants(e, others)
    assert e["check"] == []

def test_an_unknown_variant_is_named_with_the_variants_there_are():
    e = experiments.load("wallet-fixed")
    with pytest.raises(SystemExit, match="no variant 'wallet-fast'.*wallet-before, wallet-after"):
        experiments.only_variants(e, ["wallet-before", "wallet-fast"])

def test_one_variant_is_not_a_comparison():
    e = experiments.load("wallet-fixed")
    with pytest.raises(SystemExit, match="at least two"):
        experiments.only_variants(e, ["wallet-before"])


def test_chosen_variants_survive_the_smokes_own_choice():
    e = experiments.load("cold-start")
    experiments.only_variants(e, ["platform, warm-up off, JIT", "platform, warm-up on, JIT"])
    experiments.apply_smoke(e)
    assert [v["label"] for v in e["variants"]] == ["platform, warm-up off, JIT", "platform, warm-up on, JIT"]
