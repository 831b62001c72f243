#!/usr/bin/env python3
"""Offline validation of perflab's Kubernetes manifests, on what `kustomize build` renders.

For every target (by default each overlay, each example and the k6 load kustomization):
  * built-in kinds against the Kubernetes OpenAPI schemas bundled by kubernetes-validate (strict: an unknown
    field fails, as `kubectl apply --validate=strict` does);
  * custom resources (the k6 operator's TestRun, the Prometheus operator's ServiceMonitor) against the
    openAPIV3Schema of their CRD, vendored in crd/ and checked by SHA-256; strict in the same way;
  * what no schema sees: every ConfigMap and Secret a workload refers to is rendered with the keys it names
    (kustomize renames hashed ones), an HPA's target requests what it scales on, the preset's Spring profiles
    exist, every Grafana dashboard, stub mapping and k6 file of the repository is in its ConfigMap unchanged,
    and every import of every k6 script resolves inside the TestRun's volume;
  * the deployment's security (docs/deployment-security.md): no app secret is committed (the Secret
    perflab-secrets is user-supplied: referenced, never rendered), a NetworkPolicy lets only the app's pods reach
    MariaDB, Redis and WireMock, and Redis requires a password.

Usage: validate.py --kustomize BIN [--kubernetes-version 1.33] [TARGET ...]   (TARGET: a kustomization directory)
Exit code 0 when every target passes, 1 otherwise; one line per target, one per problem.
"""
from __future__ import annotations

import argparse
import copy
import hashlib
import json
import posixpath
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import jsonschema
import kubernetes_validate
import yaml

K8S_DIR = Path(__file__).resolve().parent
ROOT = K8S_DIR.parent
DEFAULT_KUBERNETES_VERSION = "1.33"

# the vendored CRDs (crd/README.md says where each comes from): an edit by hand must fail, not change the check
CRD_SHA256 = {
    "k6.io_testruns.yaml": "d4df597bb94d210bcb9368dd4faf81da25c08194e240da98e4df8887563be185",
    "monitoring.coreos.com_servicemonitors.yaml": "a99047972c9dd7679ce2050b9968e8a08773492e671b3e17abd476d42aa78a32",
}

# Secrets the user creates before applying (docs/deployment-security.md), never rendered from the repository:
# name -> the keys a workload may refer to. A reference to one passes the reference check; rendering one fails.
USER_SUPPLIED_SECRETS = {
    "perflab-secrets": {"perflab.security.jwt.secret", "perflab.security.hash.secret", "spring.data.redis.password",
                        "member-password", "member-pin", "admin-login", "admin-password",
                        "perflab.login.auth-api.warmup.password", "perflab.security.admin.ids",
                        "spring.ssl.bundle.pem.auth-api.truststore.certificate"},
    "wiremock-tls": {"auth-api.p12", "password"},
}

# Names under which a secret of the app would be committed: as a config-tree key or as an environment variable.
APP_SECRET_KEYS = {"perflab.security.jwt.secret", "perflab.security.hash.secret", "spring.data.redis.password",
                   "PERFLAB_SECURITY_JWT_SECRET", "PERFLAB_SECURITY_HASH_SECRET", "SPRING_DATA_REDIS_PASSWORD"}

# The backing services only the app's pods may reach: workload name -> the port its NetworkPolicy must allow.
APP_ONLY = {"mariadb": 3306, "redis": 6379, "wiremock": 8443}

IMPORT = re.compile(r"""^\s*import\s[^'"]*?from\s+['"](\.{1,2}/[^'"]+)['"]""", re.MULTILINE)


def default_targets() -> list[Path]:
    dirs = sorted(p for p in (K8S_DIR / "overlays").iterdir() if p.is_dir())
    dirs += sorted(p for p in (K8S_DIR / "examples").iterdir() if p.is_dir())
    return dirs + [K8S_DIR / "load"]


def render(kustomize: str, target: Path) -> list[dict]:
    try:
        result = subprocess.run([kustomize, "build", "--load-restrictor", "LoadRestrictionsNone", str(target)],
                                capture_output=True, text=True)
    except FileNotFoundError:
        raise SystemExit(f"validate: no kustomize at '{kustomize}' (k8s/validate.sh installs it)")
    if result.returncode != 0:
        raise RenderError(result.stderr.strip() or f"kustomize exited {result.returncode}")
    return [doc for doc in yaml.safe_load_all(result.stdout) if doc]


class RenderError(Exception):
    pass


# ---------------------------------------------------------------------------------------------- schemas

def strict(schema: dict) -> dict:
    """The CRD schema with unknown fields forbidden wherever the CRD lists its fields (the API server prunes
    them, and `kubectl --validate=strict` rejects them: a misspelt `paralelism` must not pass)."""
    schema = copy.deepcopy(schema)

    def walk(node):
        if isinstance(node, dict):
            if ("properties" in node and "additionalProperties" not in node
                    and not node.get("x-kubernetes-preserve-unknown-fields")):
                node["additionalProperties"] = False
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    return schema


def load_crds() -> dict[tuple[str, str], dict]:
    """(apiVersion, kind) -> a strict JSON schema, from every vendored CRD whose digest is the pinned one."""
    schemas = {}
    for name, digest in CRD_SHA256.items():
        path = K8S_DIR / "crd" / name
        actual = hashlib.sha256(path.read_bytes()).hexdigest()
        if actual != digest:
            raise SystemExit(f"validate: {path} changed (sha256 {actual}, pinned {digest}); see crd/README.md")
        crd = yaml.safe_load(path.read_text())
        group, kind = crd["spec"]["group"], crd["spec"]["names"]["kind"]
        for version in crd["spec"]["versions"]:
            if version.get("served"):
                schemas[(f"{group}/{version['name']}", kind)] = strict(version["schema"]["openAPIV3Schema"])
    return schemas


def where(error: jsonschema.ValidationError) -> str:
    return ".".join(str(part) for part in error.absolute_path) or "(top level)"


@dataclass
class Report:
    target: str
    problems: list[str] = field(default_factory=list)
    builtin: int = 0
    custom: int = 0

    def add(self, doc: dict | None, message: str):
        name = f"{doc.get('kind')} {doc.get('metadata', {}).get('name')}: " if doc else ""
        self.problems.append(f"{name}{message}")


def check_schemas(docs: list[dict], crds: dict, kubernetes_version: str, report: Report):
    for doc in docs:
        key = (doc.get("apiVersion"), doc.get("kind"))
        if key in crds:
            report.custom += 1
            errors = sorted(jsonschema.Draft7Validator(crds[key]).iter_errors(doc), key=lambda e: list(e.path))
            for error in errors:
                report.add(doc, f"{where(error)}: {error.message} (CRD schema)")
            continue
        report.builtin += 1
        try:
            kubernetes_validate.validate(doc, kubernetes_version, strict=True)
        except kubernetes_validate.ValidationError as error:
            report.add(doc, f"{where(error)}: {error.message} (Kubernetes {kubernetes_version} schema)")
        except kubernetes_validate.SchemaNotFoundError as error:
            report.add(doc, f"no schema: {error.message}; vendor its CRD in k8s/crd/ if it is a custom resource")


# ---------------------------------------------------------------------------------------------- references

def pod_specs(doc: dict):
    spec = doc.get("spec") or {}
    if doc.get("kind") in ("Deployment", "StatefulSet", "DaemonSet", "Job"):
        yield (spec.get("template") or {}).get("spec") or {}
    elif doc.get("kind") == "TestRun":
        for part in ("runner", "initializer", "starter"):
            if part in spec:
                yield spec[part]


def referenced(pod: dict):
    """(kind, name, key or None) of every ConfigMap and Secret a pod spec (or a TestRun part) refers to."""
    def items(kind, name, source):
        keys = [item["key"] for item in source.get("items") or []]
        return [(kind, name, key) for key in keys] or [(kind, name, None)]

    for volume in pod.get("volumes") or []:
        if "configMap" in volume:
            yield from items("ConfigMap", volume["configMap"]["name"], volume["configMap"])
        if "secret" in volume:
            yield from items("Secret", volume["secret"]["secretName"], volume["secret"])
        for source in (volume.get("projected") or {}).get("sources") or []:
            if "configMap" in source:
                yield from items("ConfigMap", source["configMap"]["name"], source["configMap"])
            if "secret" in source:
                yield from items("Secret", source["secret"]["name"], source["secret"])
    containers = (pod.get("containers") or []) + (pod.get("initContainers") or [])
    if "env" in pod or "envFrom" in pod:  # a TestRun part is its own single container
        containers.append(pod)
    for container in containers:
        for source in container.get("envFrom") or []:
            if "configMapRef" in source:
                yield "ConfigMap", source["configMapRef"]["name"], None
            if "secretRef" in source:
                yield "Secret", source["secretRef"]["name"], None
        for env in container.get("env") or []:
            value_from = env.get("valueFrom") or {}
            if "configMapKeyRef" in value_from:
                yield "ConfigMap", value_from["configMapKeyRef"]["name"], value_from["configMapKeyRef"]["key"]
            if "secretKeyRef" in value_from:
                yield "Secret", value_from["secretKeyRef"]["name"], value_from["secretKeyRef"]["key"]


def check_references(docs: list[dict], report: Report):
    keys = {(doc["kind"], doc["metadata"]["name"]): {*(doc.get("data") or {}), *(doc.get("binaryData") or {})}
            for doc in docs if doc.get("kind") in ("ConfigMap", "Secret")}
    for doc in docs:
        for pod in pod_specs(doc):
            for kind, name, key in referenced(pod):
                if kind == "Secret" and name in USER_SUPPLIED_SECRETS:
                    if key is not None and key not in USER_SUPPLIED_SECRETS[name]:
                        report.add(doc, f"refers to key {key} of the user-supplied Secret {name}, which documents "
                                        f"no such key (its keys: {', '.join(sorted(USER_SUPPLIED_SECRETS[name]))})")
                elif (kind, name) not in keys:
                    report.add(doc, f"refers to {kind} {name}, which the rendered output does not contain")
                elif key is not None and key not in keys[(kind, name)]:
                    report.add(doc, f"refers to key {key} of {kind} {name}, which has no such key")


def check_autoscalers(docs: list[dict], report: Report):
    """An HPA on CPU utilisation divides by the CPU request: without one on every container it never scales."""
    workloads = {(doc.get("kind"), doc["metadata"]["name"]): doc for doc in docs if "metadata" in doc}
    for hpa in (doc for doc in docs if doc.get("kind") == "HorizontalPodAutoscaler"):
        ref = hpa["spec"]["scaleTargetRef"]
        target = workloads.get((ref["kind"], ref["name"]))
        if target is None:
            report.add(hpa, f"scales {ref['kind']} {ref['name']}, which the rendered output does not contain")
            continue
        resources = {metric["resource"]["name"] for metric in hpa["spec"].get("metrics") or []
                     if metric.get("type") == "Resource"}
        for pod in pod_specs(target):
            for container in pod.get("containers") or []:
                for resource in sorted(resources):
                    if resource not in ((container.get("resources") or {}).get("requests") or {}):
                        report.add(hpa, f"scales on {resource}, but container {container['name']} of "
                                        f"{ref['kind']} {ref['name']} requests no {resource}")


# ---------------------------------------------------------------------------------------------- security

def check_no_committed_secrets(docs: list[dict], report: Report):
    """The app refuses a development secret, so a committed one must never be rendered: not the user-supplied
    Secrets, not a JWT or hash secret or Redis password in another Secret or ConfigMap or in a literal env value."""
    for doc in docs:
        name = (doc.get("metadata") or {}).get("name", "")
        if doc.get("kind") == "Secret":
            for supplied in USER_SUPPLIED_SECRETS:
                if re.fullmatch(rf"{re.escape(supplied)}(-[a-z0-9]{{10}})?", name):
                    report.add(doc, f"renders the user-supplied Secret {supplied}: its values would be committed; "
                                    f"the user creates it (docs/deployment-security.md)")
        if doc.get("kind") in ("Secret", "ConfigMap"):
            for key in sorted(APP_SECRET_KEYS & {*(doc.get("data") or {}), *(doc.get("stringData") or {})}):
                report.add(doc, f"carries {key}: the app's secrets come from the user's Secret perflab-secrets only")
        for pod in pod_specs(doc):
            for container in (pod.get("containers") or []) + (pod.get("initContainers") or []):
                for env in container.get("env") or []:
                    if env.get("name") in APP_SECRET_KEYS and "value" in env:
                        report.add(doc, f"container {container['name']} sets {env['name']} to a literal value: "
                                        f"the app's secrets come from the user's Secret perflab-secrets only")


def selects(selector: dict | None, labels: dict) -> bool:
    """Whether a label selector (matchLabels, matchExpressions In/NotIn/Exists/DoesNotExist) selects labels."""
    selector = selector or {}
    if any(labels.get(k) != v for k, v in (selector.get("matchLabels") or {}).items()):
        return False
    for expression in selector.get("matchExpressions") or []:
        key, operator, values = expression["key"], expression["operator"], expression.get("values") or []
        if ((operator == "In" and labels.get(key) not in values) or (operator == "NotIn" and labels.get(key) in values)
                or (operator == "Exists" and key not in labels) or (operator == "DoesNotExist" and key in labels)):
            return False
    return True


def pod_labels(doc: dict) -> dict:
    return (((doc.get("spec") or {}).get("template") or {}).get("metadata") or {}).get("labels") or {}


def check_network_policies(docs: list[dict], report: Report):
    """The app's pods are selected by a NetworkPolicy of type Ingress. MariaDB, Redis and WireMock, when rendered, are
    selected by a NetworkPolicy of type Ingress (so every
    ingress not allowed is denied) whose every rule admits only pods of the app, from the same namespace, and
    the service's port is among what it admits. Pods of other workloads (k6, the services themselves) must not match."""
    workloads = [doc for doc in docs if doc.get("kind") in ("Deployment", "StatefulSet", "DaemonSet")]
    app = next((doc for doc in workloads if doc["metadata"]["name"] == "perflab"), None)
    others = [pod_labels(doc) for doc in workloads if doc is not app]
    policies = [doc for doc in docs if doc.get("kind") == "NetworkPolicy"]
    if app is not None and not any(selects(policy["spec"].get("podSelector"), pod_labels(app))
                                   and "Ingress" in (policy["spec"].get("policyTypes") or ["Ingress"])
                                   for policy in policies):
        report.add(app, "no NetworkPolicy selects its pods: any pod in the cluster can send it logins and transfers "
                        "from an address of its choosing (base/app/networkpolicy.yaml)")
    for workload in workloads:
        name = workload["metadata"]["name"]
        if name not in APP_ONLY:
            continue
        labels, port = pod_labels(workload), APP_ONLY[name]
        covering = [policy for policy in policies if selects(policy["spec"].get("podSelector"), labels)
                    and "Ingress" in (policy["spec"].get("policyTypes") or ["Ingress"])]
        if not covering:
            report.add(workload, f"no NetworkPolicy selects its pods: anything in the cluster can reach port {port}; "
                                 f"only the app's pods may (base/{name}/networkpolicy.yaml)")
            continue
        admitted = False
        for policy in covering:
            for rule in policy["spec"].get("ingress") or []:
                peers = rule.get("from") or []
                wide = not peers or any(
                    set(peer) != {"podSelector"} or app is None or not selects(peer["podSelector"], pod_labels(app))
                    or not (peer["podSelector"].get("matchLabels") or peer["podSelector"].get("matchExpressions"))
                    or any(selects(peer["podSelector"], other) for other in others)
                    for peer in peers)
                if wide:
                    report.add(policy, f"admits more than the app's pods to {name}: every ingress rule must name only "
                                       f"a podSelector that selects the Deployment perflab's pods and no other workload's")
                ports = rule.get("ports") or []
                if not ports or any(p.get("port") in (port, workload_port_name(workload, port)) for p in ports):
                    admitted = admitted or not wide
        if not admitted:
            report.add(workload, f"no NetworkPolicy admits the app's pods on port {port}")


def workload_port_name(workload: dict, port: int) -> str | None:
    for pod in pod_specs(workload):
        for container in pod.get("containers") or []:
            for p in container.get("ports") or []:
                if p.get("containerPort") == port:
                    return p.get("name")
    return None


def check_redis_password(docs: list[dict], report: Report):
    """The lab's Redis, when rendered, runs with requirepass (its command or arguments)."""
    for doc in docs:
        if doc.get("kind") == "StatefulSet" and doc["metadata"]["name"] == "redis":
            for pod in pod_specs(doc):
                for container in pod.get("containers") or []:
                    if container.get("name") != "redis":
                        continue
                    line = " ".join((container.get("command") or []) + (container.get("args") or []))
                    if "requirepass" not in line:
                        report.add(doc, "container redis runs without requirepass: Redis must require the password "
                                        "of the user's Secret perflab-secrets (key spring.data.redis.password)")


# ---------------------------------------------------------------------------------------------- the repository

def spring_profiles() -> set[str]:
    resources = ROOT / "src" / "main" / "resources"
    profiles = {p.stem.removeprefix("application-") for p in resources.glob("application-*.yml")}
    for path in resources.rglob("*.yml"):
        for expression in re.findall(r"on-profile:\s*(.+)", path.read_text()):
            profiles.update(part.strip().strip("'\"") for part in re.split(r"[|&,()!]", expression) if part.strip())
    return profiles


def config_map(docs: list[dict], name: str) -> dict | None:
    for doc in docs:
        # kustomize's generators append a 10-character hash unless disableNameSuffixHash is set
        if doc.get("kind") == "ConfigMap" and re.fullmatch(rf"{re.escape(name)}(-[a-z0-9]{{10}})?",
                                                          doc["metadata"]["name"]):
            return doc
    return None


def check_profiles(docs: list[dict], report: Report):
    config = config_map(docs, "perflab-config")
    if config is None:
        return
    known = spring_profiles()
    active = (config.get("data") or {}).get("SPRING_PROFILES_ACTIVE", "")
    for profile in filter(None, (part.strip() for part in active.split(","))):
        if profile not in known:
            report.add(config, f"SPRING_PROFILES_ACTIVE names '{profile}', which no application*.yml defines "
                               f"(known: {', '.join(sorted(known))})")


def check_files_in(docs: list[dict], report: Report, name: str, directory: Path, pattern: str):
    """Every file of the repository directory is a key of the ConfigMap, with the file's exact content."""
    config = config_map(docs, name)
    if config is None:
        return
    data = config.get("data") or {}
    for path in sorted(directory.glob(pattern)):
        if path.name not in data:
            report.add(config, f"{path.relative_to(ROOT)} is missing: list it in the configMapGenerator")
        elif data[path.name] != path.read_text():
            report.add(config, f"{path.name} differs from {path.relative_to(ROOT)}")


def check_dashboards(docs: list[dict], report: Report):
    check_files_in(docs, report, "perflab-dashboards", ROOT / "grafana" / "dashboards", "*.json")
    config = config_map(docs, "perflab-dashboards")
    if config is not None and config["metadata"].get("labels", {}).get("grafana_dashboard") != "1":
        report.add(config, "lacks the label grafana_dashboard: \"1\" that Grafana's sidecar looks for")


def mounted_files(docs: list[dict], volume: dict) -> dict[str, str]:
    """path -> content of a projected or configMap volume, as the kubelet lays it out."""
    sources = (volume.get("projected") or {}).get("sources") or [{"configMap": volume.get("configMap")}]
    files = {}
    for source in sources:
        ref = source.get("configMap")
        config = config_map(docs, ref["name"]) if ref else None
        if config is None:
            continue
        data = config.get("data") or {}
        for item in ref.get("items") or [{"key": key, "path": key} for key in data]:
            files[item["path"]] = data.get(item["key"], None)
    return files


def check_k6(docs: list[dict], report: Report):
    for run in (doc for doc in docs if doc.get("kind") == "TestRun"):
        runner = run["spec"].get("runner") or {}
        script = run["spec"].get("script") or {}
        tree = {}
        for mount in runner.get("volumeMounts") or []:
            volume = next((v for v in runner.get("volumes") or [] if v.get("name") == mount.get("name")), None)
            if volume is not None:
                for path, content in mounted_files(docs, volume).items():
                    tree[posixpath.join(mount["mountPath"], path)] = content
        args = run["spec"].get("args") or shlex.split(run["spec"].get("arguments") or "")
        if args and not args[0].startswith("-"):
            report.add(run, f"the k6 arguments start with '{args[0]}': the operator takes only k6 run's flags and "
                            f"their values, the script comes from spec.script")
        local = script.get("localFile")
        if local and local not in tree:
            report.add(run, f"script.localFile {local} is not in the runner's volumes")
        mount_root = posixpath.dirname(local) if local else "/scripts"
        for path in sorted((ROOT / "k6").rglob("*.js")):
            relative = path.relative_to(ROOT / "k6").as_posix()
            mounted = tree.get(posixpath.join(mount_root, relative))
            if mounted is None:
                report.add(run, f"k6/{relative} is not mounted at {posixpath.join(mount_root, relative)} (list it "
                                f"in load/kustomization.yaml and, under lib/, in the projected volume's items)")
            elif mounted != path.read_text():
                report.add(run, f"k6/{relative} differs from what is mounted")
        for path, content in sorted(tree.items()):
            for module in IMPORT.findall(content or ""):
                resolved = posixpath.normpath(posixpath.join(posixpath.dirname(path), module))
                if resolved not in tree:
                    report.add(run, f"{path} imports {module}, which resolves to {resolved}: not mounted")


# ---------------------------------------------------------------------------------------------- main

def validate(target: Path, kustomize: str, crds: dict, kubernetes_version: str) -> Report:
    try:
        shown = str(target.resolve().relative_to(K8S_DIR))
    except ValueError:
        shown = str(target)
    report = Report(shown)
    try:
        docs = render(kustomize, target)
    except RenderError as error:
        report.add(None, f"kustomize build failed: {error}")
        return report
    if not docs:
        report.add(None, "kustomize rendered nothing")
    check_schemas(docs, crds, kubernetes_version, report)
    check_references(docs, report)
    check_autoscalers(docs, report)
    check_profiles(docs, report)
    check_dashboards(docs, report)
    check_files_in(docs, report, "wiremock-mappings", ROOT / "wiremock" / "mappings", "*.json")
    check_files_in(docs, report, "wiremock-templates", ROOT / "wiremock" / "templates", "*.json")
    check_k6(docs, report)
    check_no_committed_secrets(docs, report)
    check_network_policies(docs, report)
    check_redis_password(docs, report)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kustomize", default="kustomize", help="the kustomize binary (k8s/validate.sh pins it)")
    parser.add_argument("--kubernetes-version", default=DEFAULT_KUBERNETES_VERSION)
    parser.add_argument("targets", nargs="*", type=Path, help="kustomization directories (default: all)")
    args = parser.parse_args(argv)
    crds = load_crds()
    failed = 0
    for target in args.targets or default_targets():
        report = validate(target, args.kustomize, crds, args.kubernetes_version)
        if report.problems:
            failed += 1
            print(f"FAIL {report.target}")
            for problem in report.problems:
                print(f"  {problem}")
        else:
            print(f"ok   {report.target}: {report.builtin} resources against Kubernetes {args.kubernetes_version}, "
                  f"{report.custom} custom resources against their CRDs")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
