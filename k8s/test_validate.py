"""validate.py passes the real manifests and fails each kind of broken one.

Each broken case is a small kustomization in a temporary directory that takes a real overlay (or the load
kustomization) and breaks one thing with a patch, so what is validated is still kustomize's rendered output.
Run through k8s/validate.sh (it pins kustomize and sets KUSTOMIZE), or: KUSTOMIZE=... pytest k8s/test_validate.py
"""
import json
import os
import textwrap
from pathlib import Path

import pytest

import validate

KUSTOMIZE = os.environ.get("KUSTOMIZE", "kustomize")
K8S = Path(validate.__file__).resolve().parent


@pytest.fixture(scope="module")
def crds():
    return validate.load_crds()


def relative(tmp_path: Path, path: Path) -> str:
    """kustomize refuses absolute roots: the path from the temporary kustomization to a file of the repository."""
    return os.path.relpath(path, tmp_path)


def broken(tmp_path: Path, base: str, body: str) -> Path:
    (tmp_path / "kustomization.yaml").write_text(
        f"apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"
        f"resources:\n  - {relative(tmp_path, K8S / base)}\n" + textwrap.dedent(body))
    return tmp_path


def patched(tmp_path: Path, base: str, kind: str, name: str, *ops: dict) -> Path:
    """base with JSON patch operations applied to one resource."""
    return broken(tmp_path, base, f"patches:\n  - target: {{kind: {kind}, name: {name}}}\n"
                                  f"    patch: '{json.dumps(list(ops))}'\n")


def problems(target: Path, crds) -> str:
    report = validate.validate(target, KUSTOMIZE, crds, validate.DEFAULT_KUBERNETES_VERSION)
    return "\n".join(report.problems)


def test_every_overlay_example_and_the_load_pass(capsys):
    assert validate.main(["--kustomize", KUSTOMIZE]) == 0
    out = capsys.readouterr().out
    for target in ["overlays/before", "overlays/after", "overlays/wallet-before", "overlays/wallet-after", "load"]:
        assert f"ok   {target}:" in out


def test_a_deployment_with_replicas_three_fails(tmp_path, crds):
    target = patched(tmp_path, "overlays/after", "Deployment", "perflab",
                     {"op": "add", "path": "/spec/replicas", "value": "three"})
    found = problems(target, crds)
    assert "Deployment perflab: spec.replicas: 'three' is not of type 'integer'" in found


def test_a_testrun_with_parallelism_x_fails_against_the_crd(tmp_path, crds):
    target = patched(tmp_path, "load", "TestRun", "perflab-load",
                     {"op": "replace", "path": "/spec/parallelism", "value": "x"})
    assert "TestRun perflab-load: spec.parallelism: 'x' is not of type 'integer' (CRD schema)" in problems(target, crds)


def test_a_misspelt_testrun_field_fails(tmp_path, crds):
    target = patched(tmp_path, "load", "TestRun", "perflab-load",
                     {"op": "move", "from": "/spec/parallelism", "path": "/spec/paralelism"})
    found = problems(target, crds)
    assert "'paralelism' was unexpected" in found
    assert "'parallelism' is a required property" in found


def test_a_k6_library_file_left_out_of_the_volume_fails(tmp_path, crds):
    target = patched(tmp_path, "load", "TestRun", "perflab-load",
                     {"op": "remove", "path": "/spec/runner/volumes/0/projected/sources/1/configMap/items/1"})
    found = problems(target, crds)
    assert "k6/lib/route-auth.js is not mounted at /scripts/lib/route-auth.js" in found
    assert "/scripts/routes.js imports ./lib/route-auth.js, which resolves to /scripts/lib/route-auth.js" in found


def test_a_workload_referring_to_a_missing_config_map_fails(tmp_path, crds):
    target = patched(tmp_path, "overlays/before", "Deployment", "perflab",
                     {"op": "replace", "path": "/spec/template/spec/containers/0/envFrom/0/configMapRef/name",
                      "value": "perflab-knobs"})
    assert "Deployment perflab: refers to ConfigMap perflab-knobs" in problems(target, crds)


def test_a_missing_secret_key_fails(tmp_path, crds):
    target = patched(tmp_path, "overlays/before", "StatefulSet", "mariadb",
                     {"op": "replace", "path": "/spec/template/spec/containers/0/env/2/valueFrom/secretKeyRef/key",
                      "value": "DB_USER"})
    assert "StatefulSet mariadb: refers to key DB_USER of Secret perflab-credentials-" in problems(target, crds)


def test_an_hpa_on_cpu_without_a_cpu_request_fails(tmp_path, crds):
    target = patched(tmp_path, "overlays/after", "Deployment", "perflab",
                     {"op": "remove", "path": "/spec/template/spec/containers/0/resources/requests/cpu"})
    assert "HorizontalPodAutoscaler perflab: scales on cpu, but container app" in problems(target, crds)


def test_testrun_arguments_that_start_with_the_script_fail(tmp_path, crds):
    target = patched(tmp_path, "load", "TestRun", "perflab-load",
                     {"op": "replace", "path": "/spec/arguments", "value": "transfer.js -e RATE=10"})
    assert "the k6 arguments start with 'transfer.js'" in problems(target, crds)


def test_a_preset_naming_no_spring_profile_fails(tmp_path, crds):
    target = broken(tmp_path, "overlays/wallet-after", """
        configMapGenerator:
          - name: perflab-config
            behavior: merge
            literals:
              - SPRING_PROFILES_ACTIVE=wallet-fast
        """)
    assert "SPRING_PROFILES_ACTIVE names 'wallet-fast'" in problems(target, crds)


def test_a_dashboard_left_out_fails(tmp_path, crds):
    target = broken(tmp_path, "overlays/after", f"""
        configMapGenerator:
          - name: perflab-dashboards
            behavior: replace
            options:
              disableNameSuffixHash: true
              labels:
                grafana_dashboard: "1"
            files:
              - {relative(tmp_path, K8S.parent / 'grafana/dashboards/perflab-http.json')}
        """)
    found = problems(target, crds)
    assert "grafana/dashboards/perflab-jvm.json is missing" in found
    assert "perflab-http.json" not in found


def test_a_kind_without_a_schema_fails(tmp_path, crds):
    (tmp_path / "podmonitor.yaml").write_text(
        "apiVersion: monitoring.coreos.com/v1\nkind: PodMonitor\nmetadata:\n  name: perflab\nspec: {}\n")
    (tmp_path / "kustomization.yaml").write_text(
        f"resources:\n  - {relative(tmp_path, K8S / 'overlays/after')}\n  - podmonitor.yaml\n")
    target = tmp_path
    assert "PodMonitor perflab: no schema" in problems(target, crds)


def test_an_edited_crd_is_refused(monkeypatch):
    monkeypatch.setitem(validate.CRD_SHA256, "k6.io_testruns.yaml", "0" * 64)
    with pytest.raises(SystemExit, match="k6.io_testruns.yaml changed"):
        validate.load_crds()
