"""The Dockerfile's seed stage copies every module of the tooling package that the data sets' loader
(perflab.lab.datasets.seeding) imports, directly or through another, and the package files around each: a module left
out fails compose's seed service at its first import (ModuleNotFoundError), which only a compose run would show."""
import ast
import pathlib
import re

from perflab.paths import ROOT

TOOLING = ROOT / "tooling"
DOCKERFILE = ROOT / "Dockerfile"


def file_of(module: str) -> pathlib.Path | None:
    """perflab.a.b -> tooling/perflab/a/b.py (or its package's __init__.py); None when it is not the package's."""
    base = TOOLING.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def package_imports(module: str) -> set[str]:
    """The modules of the package that `module` imports anywhere in its file (`from perflab.x import y` names
    perflab.x.y when that is a module, else perflab.x)."""
    found = set()
    for node in ast.walk(ast.parse(file_of(module).read_text())):  # type: ignore[union-attr]
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found |= {f"{node.module}.{a.name}" if file_of(f"{node.module}.{a.name}") else node.module for a in node.names}
    return {m for m in found if m.split(".")[0] == "perflab" and file_of(m)}


def closure(module: str) -> set[pathlib.Path]:
    """The files `module` needs: its own, those of what it imports, directly or not, and every package's __init__.py
    on their paths."""
    seen, todo = set(), [module]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(package_imports(name))
            parts = name.split(".")
            todo.extend(".".join(parts[:i]) for i in range(1, len(parts)))
    return {file_of(m) for m in seen}  # type: ignore[misc]


def seed_stage_copies(dockerfile: str) -> set[pathlib.Path]:
    """The files of tooling/ the `seed` stage COPYs (a folder: every .py file in it; COPY lines may continue with a
    backslash)."""
    stage = dockerfile[dockerfile.index("AS seed"):]
    stage = stage[:stage.index("\nFROM ")] if "\nFROM " in stage else stage
    copied = set()
    for source in re.findall(r"(tooling/[\w/.]+)", stage.replace("\\\n", " ")):
        path = ROOT / source
        copied |= set(path.glob("*.py")) if source.endswith("/") else {path}
    return copied


def test_the_seed_image_holds_every_module_seeding_imports():
    missing = closure("perflab.lab.datasets.seeding") - seed_stage_copies(DOCKERFILE.read_text())
    assert not missing, f"Dockerfile's seed stage lacks {sorted(str(p.relative_to(ROOT)) for p in missing)}"


def test_the_check_sees_a_module_left_out():
    copied = seed_stage_copies(DOCKERFILE.read_text()) - {TOOLING / "perflab" / "lab" / "labsecrets.py"}
    assert TOOLING / "perflab" / "lab" / "labsecrets.py" in closure("perflab.lab.datasets.seeding") - copied


def test_the_seed_stage_runs_the_loader_as_a_module_of_the_copied_package():
    stage = DOCKERFILE.read_text()[DOCKERFILE.read_text().index("AS seed"):]
    assert 'ENTRYPOINT ["python3", "-m", "perflab.lab.datasets.seeding"]' in stage
    assert "PYTHONPATH=/opt/perflab/tooling" in stage
