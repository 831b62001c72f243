"""The Dockerfile's seed stage copies every module of ab/ that seeding.py imports, directly or through another: a
module left out fails compose's seed service at its first import (ModuleNotFoundError), which only a compose run
would show."""
import ast
import pathlib
import re

AB = pathlib.Path(__file__).resolve().parent
DOCKERFILE = AB.parent / "Dockerfile"


def ab_imports(module: str) -> set[str]:
    """The modules of ab/ that `module` imports anywhere in its file."""
    present = {p.stem for p in AB.glob("*.py")}
    found = set()
    for node in ast.walk(ast.parse((AB / f"{module}.py").read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found & present


def closure(module: str) -> set[str]:
    seen, todo = set(), [module]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(ab_imports(name))
    return seen


def seed_stage_copies(dockerfile: str) -> set[str]:
    """The ab/ modules the `seed` stage COPYs (its COPY lines may continue with a backslash)."""
    stage = dockerfile[dockerfile.index("AS seed"):]
    stage = stage[:stage.index("\nFROM ")] if "\nFROM " in stage else stage
    return set(re.findall(r"ab/([A-Za-z_][A-Za-z0-9_]*)\.py", stage.replace("\\\n", " ")))


def test_the_seed_image_holds_every_module_seeding_imports():
    missing = closure("seeding") - seed_stage_copies(DOCKERFILE.read_text())
    assert not missing, f"Dockerfile's seed stage lacks {sorted(missing)}: add them to its COPY of ab/"


def test_the_check_sees_a_module_left_out():
    copied = seed_stage_copies(DOCKERFILE.read_text()) - {"seedclone"}
    assert "seedclone" in closure("seeding") - copied
