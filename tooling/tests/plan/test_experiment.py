import pytest

from perflab.plan import experiment as experiments

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


def test_a_smoke_may_run_on_another_machine_profile():
    e = experiments.load("wallet")
    assert e["machine"] == "seed-004-pool"
    assert experiments.apply_smoke(e)["machine"] == "unlimited" and "machine" not in e["load"]


def test_a_smoke_warms_its_apps_at_once_and_does_not_wait_for_them_to_settle_unless_its_table_says_so():
    e = experiments.load("route")
    assert "settle" not in e["load"] and "warmup_together" not in e["load"]
    load = experiments.apply_smoke(e)["load"]
    assert load["settle"] == "0s" and load["warmup_together"] is True
    e = experiments.load("route")
    e["smoke"].update(settle="5s", warmup_together=False)
    load = experiments.apply_smoke(e)["load"]
    assert load["settle"] == "5s" and load["warmup_together"] is False


def test_chosen_variants_survive_the_smokes_own_choice():
    e = experiments.load("cold-start")
    experiments.only_variants(e, ["platform, warm-up off, JIT", "platform, warm-up on, JIT"])
    experiments.apply_smoke(e)
    assert [v["label"] for v in e["variants"]] == ["platform, warm-up off, JIT", "platform, warm-up on, JIT"]


BASE = """
[[variant]]
label = "before"
[[variant]]
label = "after"
{variant}
[load]
script = "k6/transfer.js"
{load}
[[mechanism]]
name = "statements per transfer"
metric = "m"
{rest}
"""


def load_text(tmp_path, monkeypatch, variant="", load="", rest=""):
    monkeypatch.setattr(experiments, "DIR", tmp_path)
    (tmp_path / "t.toml").write_text(BASE.format(variant=variant, load=load, rest=rest))
    return experiments.load("t")


WRITEUP = '[[writeup]]\nvariant = "after"\nstage = "(2) batched"\nsource = "004.md, 2단계"\nfigures = {figures}\n'


def test_a_writeup_names_a_variant_a_source_and_known_figures(tmp_path, monkeypatch):
    e = load_text(tmp_path, monkeypatch, rest=WRITEUP.format(figures='{ mean = 498, p95 = 1966, "statements per transfer" = 12 }'))
    assert e["writeup"][0]["figures"]["p95"] == 1966
    with pytest.raises(SystemExit, match=r"t.toml: \[\[writeup\]\] 1 \(\(2\) batched\) figures 'p96': use run metrics \(avg, p50"):
        load_text(tmp_path, monkeypatch, rest=WRITEUP.format(figures="{ p96 = 1 }"))
    with pytest.raises(SystemExit, match=r"variant = 'later'; one of before, after"):
        load_text(tmp_path, monkeypatch, rest=WRITEUP.replace('"after"', '"later"').format(figures="{ p95 = 1 }"))
    with pytest.raises(SystemExit, match=r"needs source ="):
        load_text(tmp_path, monkeypatch, rest=WRITEUP.replace('source = "004.md, 2단계"\n', "").format(figures="{ p95 = 1 }"))
    with pytest.raises(SystemExit, match=r"figures 'p95': a number each"):
        load_text(tmp_path, monkeypatch, rest=WRITEUP.format(figures='{ p95 = "1,966" }'))


@pytest.mark.parametrize("why", ['""', '"two\\nlines"', '"' + "x" * (experiments.WHY_MAX + 1) + '"', "3"])
def test_a_writeups_why_is_one_line_of_text(tmp_path, monkeypatch, why):
    e = load_text(tmp_path, monkeypatch, rest=WRITEUP.format(figures="{ p95 = 1 }") + 'why = "the link is slower"\n')
    assert e["writeup"][0]["why"] == "the link is slower"
    with pytest.raises(SystemExit, match=r"\[\[writeup\]\] 1 \(\(2\) batched\) why = .*: one line"):
        load_text(tmp_path, monkeypatch, rest=WRITEUP.format(figures="{ p95 = 1 }") + f"why = {why}\n")


def test_against_names_another_variant(tmp_path, monkeypatch):
    e = load_text(tmp_path, monkeypatch, variant='[[variant]]\nlabel = "control"\nagainst = "after"\nexpect = "any"')
    assert e["variants"][2]["against"] == "after"
    with pytest.raises(SystemExit, match=r"variant 'control' against = 'afterwards'; name another variant: before, after, control"):
        load_text(tmp_path, monkeypatch, variant='[[variant]]\nlabel = "control"\nagainst = "afterwards"')


def test_a_ramp_rises_on_an_open_load_and_needs_an_slo(tmp_path, monkeypatch):
    slo = "[slo]\np95_ms = 300\nerror_rate = 0.01\n"
    e = load_text(tmp_path, monkeypatch, load='ramp = [200, 400, 600]\nstep = "20s"',
                  rest=slo + '[primary]\nmetric = "p95"\nalso = ["breaking_rate"]\n')
    assert e["primary"]["also"] == ["breaking_rate"]
    with pytest.raises(SystemExit, match=r"\[load\] ramp needs \[slo\] p95_ms"):
        load_text(tmp_path, monkeypatch, load="ramp = [200, 400]")
    with pytest.raises(SystemExit, match=r"\[load\] ramp = \[400, 200\]; an open load's arrival rates per stage, rising"):
        load_text(tmp_path, monkeypatch, load="ramp = [400, 200]", rest=slo)
    with pytest.raises(SystemExit, match=r"\[primary\] also names 'breaking_rate'; a run metric of this load"):
        load_text(tmp_path, monkeypatch, rest='[primary]\nmetric = "p95"\nalso = ["breaking_rate"]\n')


@pytest.mark.parametrize("name", [n for n in experiments.names() if "wallet" in n])
def test_littles_law_is_scaled_by_the_ramps_peak(name):
    """'pool needed at the peak (Little's law)' is the connection time per transfer times the peak rate: its scale
    is the ramp's peak, and it changes with it."""
    e = experiments.load(name)
    for m in e.get("mechanism", []):
        if "Little's law" in m["name"]:
            assert m["scale"] == max(e["load"]["ramp"]), f"{name}: {m['name']} scale {m['scale']}, ramp peak {max(e['load']['ramp'])}"


def test_an_unknown_estimator_is_refused_with_the_known_ones(tmp_path, monkeypatch):
    monkeypatch.setattr(experiments, "DIR", tmp_path)
    (tmp_path / "t.toml").write_text('estimator = "geometric mean of ratios"\n' + BASE.format(variant="", load="", rest=""))
    assert experiments.load("t")["estimator"] == "geometric mean of ratios"
    (tmp_path / "t.toml").write_text('estimator = "mean"\n' + BASE.format(variant="", load="", rest=""))
    with pytest.raises(SystemExit, match="estimator 'mean'; one of 'ratio of medians'"):
        experiments.load("t")


@pytest.mark.parametrize("name", [n for n in experiments.names() if experiments.load(n).get("load", {}).get("script")
                                  == "k6/transfer.js"])
def test_a_smokes_transfer_warm_up_lasts_its_warmup(name):
    """k6/transfer.js bounds a run by DURATION only in MODE=fixed; in its default ramp mode it runs 100-500/s for
    100 s whatever the warm-up's duration (the wallet's smoke once warmed each app up that long)."""
    from perflab.measure import procedures
    e = experiments.apply_smoke(experiments.load(name))
    if e["load"].get("warmup"):
        env = procedures.k6_env(e["load"], e["variants"][0], DURATION=e["load"]["warmup"], **e["load"].get("warmup_env", {}))
        assert env.get("MODE") == "fixed", f"{name}: the smoke's warm-up runs MODE={env.get('MODE', 'ramp (default)')}"


SMOKE_SENDERS = 40  # k6/transfer.js logs each sender in during setup: about 20 ms of CPU each on this machine


@pytest.mark.parametrize("name", [n for n in experiments.names() if experiments.load(n).get("load", {}).get("script")
                                  == "k6/transfer.js"])
def test_a_transfer_smoke_logs_in_few_senders_and_keeps_its_load_env(name):
    """Every k6 run of a transfer smoke (warm-up, primer, round) logs its senders in first: 200 of them cost 5 s a
    run. The smoke's env adds to the file's [load] env, so that its MODE and REVERSE_RATE stay."""
    from perflab.measure import procedures
    full = experiments.load(name)
    e = experiments.apply_smoke(experiments.load(name))
    env = procedures.k6_env(e["load"], e["variants"][0])
    assert int(env["SENDERS"]) <= SMOKE_SENDERS, f"{name}: the smoke logs {env['SENDERS']} senders in"
    for key, value in full["load"].get("env", {}).items():
        if key != "SENDERS":
            assert env[key] == value, f"{name}: the smoke dropped [load] env {key}"


def test_a_linear_ramp_needs_one_positive_segment_per_stage_and_a_known_kind(tmp_path, monkeypatch):
    slo = "[slo]\np95_ms = 300\n"
    linear = 'ramp = [100, 200]\nramp_kind = "linear"\n'
    e = load_text(tmp_path, monkeypatch, load=linear + 'segments = ["60s", "2m"]\nfall = "30s"', rest=slo)
    assert e["load"]["segments"] == ["60s", "2m"]
    with pytest.raises(SystemExit, match=r"t.toml: \[load\] ramp_kind = 'steps'; one of 'plateaus', 'linear'"):
        load_text(tmp_path, monkeypatch, load='ramp = [100, 200]\nramp_kind = "steps"', rest=slo)
    with pytest.raises(SystemExit, match=r"ramp_kind = \"linear\" needs segments = .*one climb per stage of ramp \(2\); got None"):
        load_text(tmp_path, monkeypatch, load=linear, rest=slo)
    with pytest.raises(SystemExit, match=r"one climb per stage of ramp \(2\); got \['60s'\]"):
        load_text(tmp_path, monkeypatch, load=linear + 'segments = ["60s"]', rest=slo)
    with pytest.raises(SystemExit, match=r"\[load\] segments '0s': a positive duration each"):
        load_text(tmp_path, monkeypatch, load=linear + 'segments = ["60s", "0s"]', rest=slo)
    with pytest.raises(SystemExit, match=r"\[load\] fall '-5s': a positive duration each"):
        load_text(tmp_path, monkeypatch, load=linear + 'segments = ["60s", "60s"]\nfall = "-5s"', rest=slo)
    with pytest.raises(SystemExit, match=r"\[load\] ramp_kind needs \[load\] ramp"):
        load_text(tmp_path, monkeypatch, load='ramp_kind = "linear"')


SETTING = '[setting]\nrule = "peak = 3 / the pilot\'s time"\npilot = "{pilot}"\npilot_metric = "{metric}"\nconnections = {connections}\nfractions = {fractions}\n'


def test_a_setting_names_a_pilot_a_mechanism_and_a_fraction_per_stage(tmp_path, monkeypatch):
    (tmp_path / "p.toml").write_text(BASE.format(variant="", load="", rest=""))
    ramped = 'ramp = [100, 200]\n'
    def setting(pilot="p", metric="statements per transfer", connections="3", fractions="[0.5, 1.0]"):
        return "[slo]\np95_ms = 300\n" + SETTING.format(pilot=pilot, metric=metric, connections=connections, fractions=fractions)
    assert load_text(tmp_path, monkeypatch, load=ramped, rest=setting())["setting"]["connections"] == 3
    with pytest.raises(SystemExit, match=r"\[setting\] pilot = 'q'; the experiment the rule reads"):
        load_text(tmp_path, monkeypatch, load=ramped, rest=setting(pilot="q"))
    with pytest.raises(SystemExit, match=r"\[setting\] pilot_metric = 'pool'; the name of a \[\[mechanism\]\] of this file"):
        load_text(tmp_path, monkeypatch, load=ramped, rest=setting(metric="pool"))
    with pytest.raises(SystemExit, match=r"\[setting\] connections = 0; a positive number"):
        load_text(tmp_path, monkeypatch, load=ramped, rest=setting(connections="0"))
    with pytest.raises(SystemExit, match=r"\[setting\] connections = '3'; a positive number"):
        load_text(tmp_path, monkeypatch, load=ramped, rest=setting(connections='"3"'))
    with pytest.raises(SystemExit, match=r"\[setting\] fractions = \[1.0\]; one fraction of the peak in \(0, 1\] per stage"):
        load_text(tmp_path, monkeypatch, load=ramped, rest=setting(fractions="[1.0]"))
    with pytest.raises(SystemExit, match=r"\[setting\] 'peak'; its keys are rule, pilot, pilot_metric, connections, fractions"):
        load_text(tmp_path, monkeypatch, load=ramped, rest=setting() + "peak = 231\n")


def test_the_wallets_smoke_runs_short_plateaus_and_its_full_run_the_linear_ramp():
    from perflab.analyse import ramp
    e = experiments.load("wallet")
    assert ramp.is_linear(e["load"]) and ramp.total_seconds(e["load"]) == 4 * 60 + 120 + 30
    smoke = experiments.apply_smoke(experiments.load("wallet"))["load"]
    assert not ramp.is_linear(smoke) and ramp.total_seconds(smoke) < 30


def pilot_seconds_per_transfer(pilot: str, metric: str) -> float | None:
    """The published pilot's figure for the rule (setting.figure, the runner's own reader), or None before it is
    published."""
    from perflab.plan import setting
    from perflab.results import store
    published = store.published(pilot)
    return None if published is None else setting.figure(published, metric)


@pytest.mark.parametrize("name", [n for n in experiments.names() if experiments.load(n).get("setting", {}).get("pilot")])
def test_a_ramp_chosen_by_a_rule_is_the_rules_from_the_published_pilot(name):
    """A [setting] writes how the ramp was chosen before the run: once its pilot's result is committed, the file's
    ramp is the rule applied to the pilot's figure (and the Little's-law scale follows the peak, above)."""
    from perflab.analyse import ramp
    e = experiments.load(name)
    setting = e["setting"]
    measured = pilot_seconds_per_transfer(setting["pilot"], setting["pilot_metric"])
    if measured is None:
        pytest.skip(f"{name}: its pilot {setting['pilot']!r} is not published yet (docs/results/{setting['pilot']}/result.json)")
    assert e["load"]["ramp"] == ramp.targets_from_rule(setting, measured), (
        f"{name}: the rule on the pilot's {measured:.4f} s per transfer gives {ramp.targets_from_rule(setting, measured)}")


def test_the_login_case_studys_link_is_its_rules_from_the_figures_written_before_the_run():
    """login-keepalive's [setting]: the link's latency each way is what the write-up's warmed-pool login leaves once
    perflab's own time (measured before the setting, less the old link's round trip) is taken out, rounded to the
    proxy's whole ms; its network profile carries that latency on the auth link and nothing else."""
    from perflab.lab import network
    e = experiments.load("login-keepalive")
    i = e["setting"]["inputs"]
    link = round((i["target_ms"] - (i["measured_ms"] - 2 * i["measured_link_ms"])) / 2)
    assert link == i["link_ms"] == 90
    [profile] = e["network"]["profiles"]
    assert network.profile(profile) == {"auth": {"latency_ms": link}}


@pytest.mark.parametrize("name", [n for n in experiments.names()
                                  if experiments.load(n).get("load", {}).get("warmup_env", {}).get("MODE") == "ramp"])
def test_a_warm_up_ramp_of_the_transfer_script_lasts_the_warm_up(name):
    """k6/transfer.js in MODE=ramp runs its own length, len(RAMP) x (RISE + STEP) seconds, whatever DURATION the
    runner passes: a warm-up set longer than its ramp would end early (a pilot then measured a JIT still compiling)."""
    from perflab.analyse import ramp
    load = experiments.load(name)["load"]
    env = load["warmup_env"]
    assert load["script"] == "k6/transfer.js"
    lasts = len(env["RAMP"].split(",")) * (int(env.get("RISE", 5)) + int(env.get("STEP", 15)))
    assert lasts == ramp.seconds(load["warmup"]), f"{name}: warm-up {load['warmup']}, its ramp lasts {lasts} s"
