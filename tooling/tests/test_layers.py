"""The package's modules in layers, each importing only its own layer or the ones below, at the top of the module and
inside functions alike, and never in a circle. Every module of the package (tooling/perflab, its stage folders and
commands/ included) has its layer declared here, by its dotted name under perflab: a new module without one fails,
naming it. And no test module imports another: the builders they share are conftest.py's fixtures."""
import ast
import pathlib

import pytest

from perflab.paths import ROOT

PACKAGE = ROOT / "tooling" / "perflab"
TESTS = ROOT / "tooling" / "tests"
NAME = "perflab"

# bottom to top
LAYERS = {
    # what a result holds (typed, versioned, migrated), where it is stored, how its values read, and the statistics:
    # importing nothing above; stats sits here because measurement summarizes each run with it (summarize,
    # steady_state), and ramp (a ramped run's stages) with it
    1: ("model", ["paths", "results.records", "results.schema", "results.store", "results.units", "analyse.stats",
                  "analyse.stats_calibration", "analyse.ramp", "analyse.phases"]),
    2: ("configuration", ["plan.experiment", "plan.interleave", "plan.duet", "plan.setting"]),  # experiments/*.toml -> an experiment;
    # a [setting] rule applied to a pilot's figure (plan.setting)
    # the apps (a commit's build: refs), load balancers, proxies, load, secrets, CPU limits (machine); .env, the
    # services and the lab's processes (labenv); the data sets' loaders; compose's override files from the machine and
    # network profiles (compose_settings); the stack, the app instances and the transfer clients the suites run against
    # (chaos_lab, chaos_clients)
    3: ("lab control", ["lab.labenv", "lab.foreground", "lab.machine", "lab.pinning", "lab.appctl", "lab.aotcache",
                        "lab.lbctl", "lab.scrape", "lab.launcher", "lab.lb", "lab.network", "lab.labsecrets", "measure.k6io",
                        "measure.prom", "lab.refs", "lab.datasets.seedlib", "lab.datasets.seedclone",
                        "lab.datasets.innodb_locks", "lab.datasets.seed_wallet", "lab.datasets.seed_wallet_redis",
                        "lab.datasets.seed_route", "lab.compose_settings", "lab.composelab", "checks.chaos_lab",
                        "checks.chaos_clients",
                        "measure.runwindow"]),
    # one run: its window, its load shape, its profile; lab.seam: the seam the runner reaches the lab through
    4: ("measurement", ["measure.app_metrics", "lab.seam", "measure.procedures", "measure.jfr", "measure.jfr_diff",
                        "measure.flame"]),
    # every variant against the baseline, the because sentence, checks, verdict; lifetimes planned from a pilot
    5: ("analysis", ["analyse.comparison", "analyse.writeup", "plan.lifetimes"]),
    # text, tables, SVG, report.html (and its picture); what compose's lab costs, from docker's output, and the
    # newcomer check's timings (the pages' steps read, its records), in tables
    6: ("rendering", ["checks.compose_resources", "checks.newcomer_steps", "checks.newcomer_report", "render.report", "render.report_sections", "render.report_views", "render.charts_svg",
                      "render.charts_ratio", "render.charts_load", "render.charts_start", "render.charts_bars",
                      "render.charts", "render.html_page", "render.screenshot"]),
    7: ("publishing", ["render.publishing", "checks.doclint"]),  # reports, charts and the docs' tables from stored results
    # what ./perflab and CI run
    8: ("suites", ["runner", "plan.planner", "measure.preparation", "measure.cells", "checks.chaos", "checks.abuse",
                   "checks.abuse_judges", "checks.abuse_lab", "checks.abuse_attacks", "checks.contract",
                   "checks.newcomer", "checks.promql_check",
                   "lab.datasets.seeding", "lab.labup"]),
    # the command line: cli's registry and one module per command (commands/), each calling the layers below
    9: ("commands", ["cli", "__main__", *[f"commands.{p.stem}" for p in sorted((PACKAGE / "commands").glob("*.py"))
                                          if p.stem != "__init__"]]),
}
DYNAMIC = {"__import__", "import_module"}  # importing a module by a name in a string hides it from this check
COMPUTED = "<computed>"  # what import_module(f"commands.{name}") imports: no reader can tell


def modules(folder):
    """The modules the layers cover, by dotted name under the package: every .py file of the folder and its
    sub-folders but the tests and the packages' __init__.py."""
    folder = pathlib.Path(folder)
    found = [".".join(p.relative_to(folder).with_suffix("").parts) for p in folder.rglob("*.py")]
    return sorted(m for m in found if not m.split(".")[-1].startswith("test_")
                  and m.split(".")[-1] not in ("conftest", "__init__"))


def path_of(folder, module):
    return pathlib.Path(folder).joinpath(*module.split(".")).with_suffix(".py")


def under_package(name):
    """perflab.lab.seam -> lab.seam: a name as LAYERS spells it."""
    return name[len(NAME) + 1:] if name.startswith(NAME + ".") else name


def imported_names(node):
    """The modules an import statement may name, as LAYERS spells them: `import perflab.a.b` names a.b,
    `from perflab.a import b` names a.b when that is a module and the package a otherwise, `from x import y` names x
    and x.y."""
    if isinstance(node, ast.Import):
        return [under_package(a.name) for a in node.names]
    return [under_package(node.module)] + [under_package(f"{node.module}.{a.name}") for a in node.names]


def imports(path, names):
    """(line, module, how) for every import in the file of a module in `names`: `import x`, `from x import y`, at the
    top or inside a function, and `__import__("x")` / `importlib.import_module("x")`, marked "dynamic" (a name that
    is computed, e.g. an f-string, is COMPUTED)."""
    found = []
    for node in ast.walk(ast.parse(pathlib.Path(path).read_text(), str(path))):
        if isinstance(node, ast.Import) or (isinstance(node, ast.ImportFrom) and node.level == 0 and node.module):
            found += [(node.lineno, name, "") for name in imported_names(node)]
        elif isinstance(node, ast.Call) and (getattr(node.func, "id", None) in DYNAMIC or getattr(node.func, "attr", None) in DYNAMIC):
            if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                found.append((node.lineno, under_package(node.args[0].value), "dynamic"))
            else:
                found.append((node.lineno, COMPUTED, "dynamic"))
    return sorted({(line, name, how) for line, name, how in found if name in names or name == COMPUTED})


def violations(folder, layers=LAYERS):
    """Every breach of the layering in folder, as sentences: a module without a layer, a layer naming a module
    that is not there, a module that imports one of a higher layer, an import by a string, an import cycle."""
    layer_of = {m: n for n, (_, ms) in layers.items() for m in ms}
    present = modules(folder)
    out = [f"module {m} has no layer: declare it in LAYERS (tooling/tests/test_layers.py), in the lowest layer whose modules "
           f"are all it imports" for m in present if m not in layer_of]
    out += [f"LAYERS declares {m}, which is not in {folder}" for m in layer_of if m not in present]
    graph = {}
    for m in (m for m in present if m in layer_of):
        n = layer_of[m]
        file = path_of(folder, m).relative_to(folder)
        found = imports(path_of(folder, m), set(present) - {m})
        graph[m] = sorted({name for _, name, _ in found if name != COMPUTED})
        for line, name, how in found:
            if name == COMPUTED:
                out.append(f"module {m} imports a module by a computed name ({file}:{line}): import it by name")
            elif how:
                out.append(f"module {m} imports {name} dynamically ({file}:{line}): import it by name")
            if name in layer_of and layer_of[name] > n:
                out.append(f"module {m} (layer {n}, {layers[n][0]}) imports {name} (layer {layer_of[name]} > {n}, "
                           f"{layers[layer_of[name]][0]}) at {file}:{line}")
    out += [f"import cycle: {' -> '.join(c)}" for c in cycles(graph)]
    return out


def cycles(graph):
    """One path per import cycle of the graph ({module: [modules it imports]}), each from its smallest name."""
    found = set()

    def walk(path):
        for nxt in graph.get(path[-1], []):
            if nxt == path[0]:
                found.add(tuple(path + [nxt]))
            elif nxt not in path and nxt > path[0]:
                walk(path + [nxt])
    for start in sorted(graph):
        walk([start])
    return sorted(found)


def test_every_module_imports_only_its_own_layer_or_lower_ones_and_none_in_a_circle():
    assert violations(PACKAGE) == []


def write(folder, files):
    for name, text in files.items():
        (folder / f"{name}.py").write_text(text)


# the modules that start, seed and limit a lab's parts: the runner and the run shapes reach them through lab.py only
LAB_PARTS = {"lab.launcher", "lab.appctl", "lab.aotcache", "lab.lbctl", "lab.labenv"}  # machine: its profiles are the plan's data
THROUGH_THE_SEAM = ("runner", "plan.planner", "measure.preparation", "measure.cells", "measure.procedures")  # the runner and the stages it calls


def test_the_runner_and_the_run_shapes_reach_the_lab_only_through_the_seam():
    """Issue 47: one interface (tooling/perflab/lab/seam.py) the runner uses to start and stop apps, run data commands and hold
    MariaDB, so that another lab (Docker compose) is another implementation, not edits across the runner."""
    found = [f"{module}:{line} imports {name}: go through lab/seam.py" for module in THROUGH_THE_SEAM
             for line, name, _ in imports(path_of(PACKAGE, module), LAB_PARTS)]
    assert found == []


def exec_calls(folder):
    """`file:line calls os.execX` for every call of os.exec* (a program run in place of the command) in the modules
    of folder, and `file:line imports os.execX` for every import of one."""
    found = []
    for module in modules(folder):
        path = path_of(folder, module)
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr.startswith("exec") \
                    and getattr(node.func.value, "id", None) == "os":
                found.append((path, node.lineno, f"calls os.{node.func.attr}"))
            elif isinstance(node, ast.ImportFrom) and node.module == "os":
                found += [(path, node.lineno, f"imports os.{a.name}") for a in node.names if a.name.startswith("exec")]
    return [f"{path.relative_to(folder)}:{line} {what}" for path, line, what in sorted(found)]


def test_no_module_runs_a_program_in_place_of_its_process():
    """One process tree per command: a ./perflab command runs a program as its child (tooling/perflab/lab/foreground.py) and returns
    its exit code, never replaces itself with it (os.exec*)."""
    assert exec_calls(PACKAGE) == [], "run the program as a child: foreground.run(argv)"


def test_the_checker_catches_an_os_exec_call_and_import(tmp_path):
    (tmp_path / "commands").mkdir()
    write(tmp_path, {"low": "import os\n\n\ndef go():\n    os.execvp('tail', ['tail'])\n", "test_low": "import os\nos.execv('x', [])\n"})
    write(tmp_path / "commands", {"__init__": "", "go": "from os import execv, path\nimport os\nos.execve('x', [], {})\n"})
    assert exec_calls(tmp_path) == ["commands/go.py:1 imports os.execv", "commands/go.py:3 calls os.execve",
                                    "low.py:5 calls os.execvp"]


def test_the_checker_catches_an_import_of_a_higher_layer_even_inside_a_function(tmp_path):
    write(tmp_path, {"low": "import os\n\n\ndef f():\n    import high\n    return high\n", "high": "import low\n",
                     "test_low": "import high\n"})
    layers = {1: ("bottom", ["low"]), 2: ("top", ["high"])}
    assert violations(tmp_path, layers) == ["module low (layer 1, bottom) imports high (layer 2 > 1, top) at low.py:5",
                                            "import cycle: high -> low -> high"]


def test_the_checker_catches_a_from_import_and_an_import_by_a_string(tmp_path):
    write(tmp_path, {"low": "from high import thing\nX = __import__('high').thing\n", "high": "thing = 1\n"})
    found = violations(tmp_path, {1: ("bottom", ["low"]), 2: ("top", ["high"])})
    assert found == ["module low (layer 1, bottom) imports high (layer 2 > 1, top) at low.py:1",
                     "module low imports high dynamically (low.py:2): import it by name",
                     "module low (layer 1, bottom) imports high (layer 2 > 1, top) at low.py:2"]


def test_the_checker_catches_an_import_by_a_computed_name_and_sees_the_commands_package(tmp_path):
    (tmp_path / "commands").mkdir()
    write(tmp_path, {"low": "", "cli": "import importlib\n\n\ndef module(n):\n    return importlib.import_module(f'commands.{n}')\n"})
    write(tmp_path / "commands", {"__init__": "", "go": "from commands import stop\nimport low\n", "stop": "from commands import go\n"})
    layers = {1: ("bottom", ["low"]), 2: ("top", ["cli", "commands.go", "commands.stop"])}
    assert violations(tmp_path, layers) == [
        "module cli imports a module by a computed name (cli.py:5): import it by name",
        "import cycle: commands.go -> commands.stop -> commands.go"]


def test_a_module_without_a_layer_is_named(tmp_path):
    write(tmp_path, {"low": "", "newcomer_module": "import low\n"})
    assert violations(tmp_path, {1: ("bottom", ["low", "gone"])}) == [
        "module newcomer_module has no layer: declare it in LAYERS (tooling/tests/test_layers.py), in the lowest layer whose "
        "modules are all it imports", f"LAYERS declares gone, which is not in {tmp_path}"]


def test_imports_of_the_same_or_a_lower_layer_pass(tmp_path):
    write(tmp_path, {"a": "import json\n", "b": "import a\n", "c": "import a\nimport b\n\n\ndef f():\n    import b\n"})
    assert violations(tmp_path, {1: ("one", ["a"]), 2: ("two", ["b", "c"])}) == []


@pytest.mark.parametrize("name", modules(PACKAGE))
def test_each_module_has_exactly_one_layer(name):
    assert sum(name in ms for _, ms in LAYERS.values()) == 1


def imports_of_tests(folder):
    """Every import of a test module (or of conftest) by a test module of folder, as file:line sentences: the tests
    share builders through conftest's fixtures, never by importing each other."""
    folder = pathlib.Path(folder)
    tests = sorted(folder.rglob("test_*.py"))
    names = {p.stem for p in tests} | {"conftest"}
    return [f"{p.name}:{line} imports the test module {name}{' dynamically' if how else ''}: share it through a fixture "
            "of conftest.py" for p in tests for line, name, how in imports(p, names) if name != COMPUTED]


def test_no_test_module_imports_another():
    found = imports_of_tests(TESTS)
    assert not found, "\n".join(found)


def test_the_checker_catches_a_test_module_importing_another_at_the_top_inside_a_function_and_by_a_string(tmp_path):
    write(tmp_path, {"test_a": "import json\nimport report\n", "report": "",
                     "test_b": "from test_a import x\n\n\ndef test_x():\n    import test_a\n    __import__('conftest')\n"})
    assert imports_of_tests(tmp_path) == [
        "test_b.py:1 imports the test module test_a: share it through a fixture of conftest.py",
        "test_b.py:5 imports the test module test_a: share it through a fixture of conftest.py",
        "test_b.py:6 imports the test module conftest dynamically: share it through a fixture of conftest.py"]


def test_the_checker_reads_the_package_s_imports_by_their_dotted_names(tmp_path):
    (tmp_path / "lab").mkdir()
    (tmp_path / "plan").mkdir()
    write(tmp_path / "lab", {"__init__": "", "seam": "from perflab.plan.experiment import load\n"})
    write(tmp_path / "plan", {"__init__": "", "experiment": "from perflab.lab import seam\n"})
    layers = {1: ("bottom", ["plan.experiment"]), 2: ("top", ["lab.seam"])}
    assert violations(tmp_path, layers) == [
        "module plan.experiment (layer 1, bottom) imports lab.seam (layer 2 > 1, top) at plan/experiment.py:1",
        "import cycle: lab.seam -> plan.experiment -> lab.seam"]
