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


# ---------------------------------------------------------------------------------------------- security

def test_the_user_supplied_secret_is_referenced_and_never_rendered(tmp_path, crds):
    docs = validate.render(KUSTOMIZE, K8S / "overlays/after")
    assert not [d for d in docs if d["kind"] == "Secret" and d["metadata"]["name"].startswith("perflab-secrets")]
    deployment = next(d for d in docs if d["kind"] == "Deployment" and d["metadata"]["name"] == "perflab")
    assert ("Secret", "perflab-secrets", None) in set(validate.referenced(deployment["spec"]["template"]["spec"]))
    assert problems(K8S / "overlays/after", crds) == ""


def test_an_undocumented_key_of_the_user_supplied_secret_fails(tmp_path, crds):
    target = patched(tmp_path, "overlays/after", "StatefulSet", "redis",
                     {"op": "replace", "path": "/spec/template/spec/containers/0/env/0/valueFrom/secretKeyRef/key",
                      "value": "redis-password"})
    assert ("StatefulSet redis: refers to key redis-password of the user-supplied Secret perflab-secrets"
            in problems(target, crds))


def test_a_missing_secret_that_is_not_user_supplied_still_fails(tmp_path, crds):
    target = patched(tmp_path, "overlays/after", "Deployment", "perflab",
                     {"op": "replace", "path": "/spec/template/spec/volumes/0/secret/secretName",
                      "value": "perflab-secretz"})
    assert "Deployment perflab: refers to Secret perflab-secretz" in problems(target, crds)


def test_a_committed_user_supplied_secret_fails(tmp_path, crds):
    target = broken(tmp_path, "overlays/after", """
        secretGenerator:
          - name: perflab-secrets
            literals:
              - perflab.security.jwt.secret=committed-committed-committed-committed
        """)
    found = problems(target, crds)
    assert "renders the user-supplied Secret perflab-secrets" in found
    assert "carries perflab.security.jwt.secret" in found


def test_a_committed_jwt_secret_in_the_credentials_fails(tmp_path, crds):
    target = broken(tmp_path, "overlays/after", """
        secretGenerator:
          - name: perflab-credentials
            behavior: merge
            literals:
              - PERFLAB_SECURITY_JWT_SECRET=perflab-dev-secret-change-me-0123456789abcdef
        """)
    assert "carries PERFLAB_SECURITY_JWT_SECRET" in problems(target, crds)


@pytest.mark.parametrize("overlay", sorted(p.name for p in (K8S / "overlays").iterdir() if p.is_dir()))
def test_every_overlay_closes_mariadb_and_redis_to_all_but_the_app(overlay, crds):
    docs = validate.render(KUSTOMIZE, K8S / "overlays" / overlay)
    policies = {d["metadata"]["name"]: d for d in docs if d["kind"] == "NetworkPolicy"}
    assert {"perflab", "mariadb", "redis", "wiremock"} <= set(policies)
    report = validate.Report(overlay)
    validate.check_network_policies(docs, report)
    validate.check_redis_password(docs, report)
    assert report.problems == []


@pytest.mark.parametrize("policy, workload", [("redis", "StatefulSet redis"), ("perflab", "Deployment perflab")])
def test_a_missing_network_policy_fails(tmp_path, crds, policy, workload):
    target = broken(tmp_path, "overlays/after", f"""
        patches:
          - patch: |-
              $patch: delete
              apiVersion: networking.k8s.io/v1
              kind: NetworkPolicy
              metadata:
                name: {policy}
        """)
    assert f"{workload}: no NetworkPolicy selects its pods" in problems(target, crds)


def test_a_network_policy_open_to_every_pod_fails(tmp_path, crds):
    target = patched(tmp_path, "overlays/after", "NetworkPolicy", "mariadb",
                     {"op": "replace", "path": "/spec/ingress/0/from/0/podSelector", "value": {}})
    found = problems(target, crds)
    assert "NetworkPolicy mariadb: admits more than the app's pods to mariadb" in found
    assert "StatefulSet mariadb: no NetworkPolicy admits the app's pods on port 3306" in found


def test_a_network_policy_open_to_another_namespace_fails(tmp_path, crds):
    target = patched(tmp_path, "overlays/after", "NetworkPolicy", "redis",
                     {"op": "add", "path": "/spec/ingress/0/from/-", "value": {"namespaceSelector": {}}})
    assert "NetworkPolicy redis: admits more than the app's pods to redis" in problems(target, crds)


def test_a_network_policy_on_the_wrong_port_fails(tmp_path, crds):
    target = patched(tmp_path, "overlays/after", "NetworkPolicy", "redis",
                     {"op": "replace", "path": "/spec/ingress/0/ports/0/port", "value": 6380})
    assert "StatefulSet redis: no NetworkPolicy admits the app's pods on port 6379" in problems(target, crds)


def test_redis_without_requirepass_fails(tmp_path, crds):
    target = patched(tmp_path, "overlays/after", "StatefulSet", "redis",
                     {"op": "replace", "path": "/spec/template/spec/containers/0/command",
                      "value": ["redis-server", "--save", "", "--appendonly", "no"]})
    assert "StatefulSet redis: container redis runs without requirepass" in problems(target, crds)


def test_the_managed_services_component_removes_the_policies_with_the_services(crds):
    docs = validate.render(KUSTOMIZE, K8S / "examples/after-managed")
    names = {(d["kind"], d["metadata"]["name"]) for d in docs}
    assert not {("StatefulSet", "mariadb"), ("StatefulSet", "redis"),
                ("NetworkPolicy", "mariadb"), ("NetworkPolicy", "redis")} & names
    assert ("NetworkPolicy", "wiremock") in names
    assert problems(K8S / "examples/after-managed", crds) == ""
