"""The route data set of seed 001: universities 1, 2 and 3 with 50,000 routes each (a campus-like graph), and the
cold-start data set (seed 000), which adds two small universities to the wallet data set.

  ./perflab seed route [--db NAME] [--univs 1,2,3] [--routes 50000] [ensure|load|reset|verify|check|status]

  ensure (default) cheap check (each university has its routes, at this generator's precision); if not: create and migrate the database
         when needed (the app in migrate-only mode), then load. What ./perflab up runs.
  load   replace the universities' nodes and routes with the generated ones (deterministic: fixed random seeds)
         and bump route_version so that no cache keeps serving an older copy (about 10 s)
  reset  nothing to do: transfers never touch routes (there for one interface across data sets)
  verify exit 0 only when every university has its routes
  check, status  the routes per university; one line, loaded or not

--db: the database (default PERFLAB_DB_NAME, perflab). --univs and --routes (also PERFLAB_ROUTE_UNIVS and
PERFLAB_ROUTE_ROUTES): which universities and how many routes each (a bare number is --routes).

  ./perflab seed coldstart [--db NAME] [--redis-db N] [ensure|load|reset|verify|check|status]

What ./perflab ab cold-start and ./perflab aot build read, in one database so that one app serves the whole mix:
the wallet data set with the UNIQUE index (the `after` side) and two small universities, 11 and 12, with 500
routes each (COLD_UNIVS, COLD_ROUTES). --db: default PERFLAB_COLD_DB, else perflab_wallet_after (the wallet A/B's
`after` database, which already holds the wallet data set). Every action goes to both parts; `reset` resets the
wallet part. Extra options (--redis-db N, --members N, --transfers N) go to the wallet part.
"""
import math
import pathlib
import random
import re
import sys
import tempfile
from collections.abc import Callable
from typing import TextIO

from perflab.lab.datasets import seed_wallet
from perflab.lab.datasets import seedlib

USAGE = "usage: ./perflab seed route [--db NAME] [--univs 1,2,3] [--routes N] [ensure|load|reset|verify|check|status]"
OPTIONS = {"--db": "--db needs a name", "--univs": "--univs needs ids", "--routes": "--routes needs a number"}
COLD_USAGE = ("usage: ./perflab seed coldstart [--db NAME] [--redis-db N] [--members N] [--transfers N] "
              "[ensure|load|reset|verify|check|status]")
COLD_WALLET_OPTIONS = ("--redis-db", "--members", "--transfers")  # the wallet part's, passed on
COLD_OPTIONS = {"--db": "--db needs a name", **{name: seed_wallet.OPTIONS[name] for name in COLD_WALLET_OPTIONS}}

# ---- the graph: each university a jittered grid of intersections (some grid edges missing, like buildings in the
# way) joined by walkways; every walkway is a chain of short routes through degree-2 nodes, and dead-end spurs lead
# to building entrances. The chain lengths are scaled so that each university has exactly ROUTES routes. ----

CAUTION = ["CURB", "CRACK", "SLOPE", "RUBBLE", "ETC"]
DANGER = ["CURB", "STAIRS", "SLOPE", "ETC"]
NAMES = {1: "Hanbit University", 2: "Saebyeok University", 3: "Nuri University"}
EARTH_M = 6_371_000.0
# Positions as a map app stores them, to 6 decimals (about 0.1 m), and distances to the centimetre: a cached batch of
# 2,500 routes is then about 460 KB in JSON, not the 580 KB that 17 significant digits made (the write-up shows about
# 300 KB; its field names are not known). `present` reloads a data set of the older precision.
POSITION_DECIMALS = 6
DISTANCE_DECIMALS = 2
Position = tuple[float, float]  # latitude, longitude
Node = tuple[int, Position]  # id, position


def metres(a: Position, b: Position) -> float:
    lat1, lng1, lat2, lng2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lng2 - lng1) / 2) ** 2
    return 2 * EARTH_M * math.asin(math.sqrt(h))


def route_counts(weights: list[float], routes_wanted: int) -> list[int]:
    """How many routes each walkway gets: in proportion to its weight, at least one, `routes_wanted` in all."""
    total = sum(weights)
    lengths = [max(1, round(w * routes_wanted / total)) for w in weights]
    i = 0
    while sum(lengths) != routes_wanted:  # settle the rounding, one route at a time
        diff = routes_wanted - sum(lengths)
        if diff > 0:
            lengths[i % len(lengths)] += 1
        elif lengths[i % len(lengths)] > 1:
            lengths[i % len(lengths)] -= 1
        i += 1
    return lengths


def university(univ: int, routes_wanted: int, node_out: TextIO, route_out: TextIO) -> tuple[int, int]:
    """Writes one university's nodes and routes; returns (nodes, routes). Stops when the routes are too few."""
    rnd = random.Random(1000 + univ)
    # the campus of seed 001 (50,000 routes) is a 40 x 40 grid with 600 spurs; a small data set gets a smaller
    # grid, since every walkway needs at least one route
    side = 40 if routes_wanted >= 10_000 else max(3, int(math.sqrt(routes_wanted / 6)))
    spurs = 600 if routes_wanted >= 10_000 else routes_wanted // 20
    base = (37.45 + univ * 0.05, 126.95 + univ * 0.05)
    step_lat = 30 / 111_320.0  # about 30 m between intersections
    step_lng = step_lat / math.cos(math.radians(base[0]))
    next_node = [univ * 10_000_000]

    def new_node(pos: Position) -> int:
        next_node[0] += 1
        node_out.write(f"{next_node[0]}\t{univ}\t{pos[0]:.{POSITION_DECIMALS}f}\t{pos[1]:.{POSITION_DECIMALS}f}\n")
        return next_node[0]

    grid: dict[tuple[int, int], Node] = {}
    for r in range(side):
        for c in range(side):
            pos = (base[0] + (r + rnd.uniform(-0.2, 0.2)) * step_lat, base[1] + (c + rnd.uniform(-0.2, 0.2)) * step_lng)
            grid[(r, c)] = (new_node(pos), pos)
    walkways: list[tuple[Node, tuple[int | None, Position], float]] = []  # (from, to position or intersection, weight)
    for r in range(side):
        for c in range(side):
            for dr, dc in ((0, 1), (1, 0)):
                if r + dr < side and c + dc < side and rnd.random() > 0.12:
                    walkways.append((grid[(r, c)], grid[(r + dr, c + dc)], rnd.uniform(8, 26)))
    for _ in range(spurs):  # spurs to building entrances: end in a dead end
        start = grid[(rnd.randrange(side), rnd.randrange(side))]
        angle = rnd.uniform(0, 2 * math.pi)
        end_pos = (start[1][0] + math.sin(angle) * step_lat * 0.4, start[1][1] + math.cos(angle) * step_lng * 0.4)
        walkways.append((start, (None, end_pos), rnd.uniform(1, 6)))
    if len(walkways) > routes_wanted:
        sys.exit(f"perflab: {routes_wanted} routes cannot cover the {len(walkways)} walkways of university {univ}")
    lengths = route_counts([w for _, _, w in walkways], routes_wanted)
    next_route = univ * 10_000_000
    for (start, end, _), length in zip(walkways, lengths):
        a_id, a_pos = start
        b_id, b_pos = end
        bend = rnd.uniform(-0.15, 0.15)
        prev_id, prev_pos = a_id, a_pos
        for k in range(1, length + 1):
            t = k / length
            if k == length and b_id is not None:
                cur_id, cur_pos = b_id, b_pos
            else:
                off = math.sin(math.pi * t) * bend
                cur_pos = (a_pos[0] + (b_pos[0] - a_pos[0]) * t + off * step_lat,
                           a_pos[1] + (b_pos[1] - a_pos[1]) * t - off * step_lng)
                cur_id = new_node(cur_pos)
            next_route += 1
            caution = ",".join(sorted(rnd.sample(CAUTION, rnd.choice((1, 1, 2))))) if rnd.random() < 0.08 else ""
            danger = rnd.choice(DANGER) if rnd.random() < 0.03 else ""
            route_out.write(f"{next_route}\t{univ}\t{prev_id}\t{cur_id}\t{metres(prev_pos, cur_pos):.{DISTANCE_DECIMALS}f}\t{caution}\t{danger}\n")
            prev_id, prev_pos = cur_id, cur_pos
    return next_node[0] - univ * 10_000_000, next_route - univ * 10_000_000


def generate(out: str | pathlib.Path, univs: list[int], routes: int) -> None:
    """Writes university.tsv, node.tsv and route.tsv for LOAD DATA in `out`, one progress line a university."""
    out = pathlib.Path(out)
    with open(out / "university.tsv", "w") as u_out, open(out / "node.tsv", "w") as n_out, \
            open(out / "route.tsv", "w") as r_out:
        for univ in univs:
            nodes, made = university(univ, routes, n_out, r_out)
            u_out.write(f"{univ}\t{NAMES.get(univ, f'University {univ}')}\n")
            print(f"  university {univ}: {nodes} nodes, {made} routes", flush=True)


# ---- SQL ----

def present_sql(univs: str, routes: str, precise: bool = True) -> str:
    """The cheap check: how many of the universities have their routes, at this generator's precision unless
    `precise` is False (a count and one pass over the distances each: an older data set, with distances of 17
    digits, counts as missing)."""
    scale = 10 ** DISTANCE_DECIMALS
    precision = f" AND MAX(ABS(distance * {scale} - ROUND(distance * {scale}))) < 1e-6" if precise else ""
    return (f"SELECT COUNT(*) FROM (SELECT univ_id FROM route WHERE univ_id IN ({univs}) GROUP BY univ_id\n"
            f"    HAVING COUNT(*) = {routes}{precision}) AS complete")


def delete_sql(univs: str) -> str:
    return ("SET SESSION foreign_key_checks = 0, unique_checks = 0;\n"
            f"DELETE FROM route WHERE univ_id IN ({univs});\n"
            f"DELETE FROM node WHERE univ_id IN ({univs});\n")


def load_sql(work: str | pathlib.Path) -> str:
    """Loads the generated files; a university already there gets its route_version bumped."""
    work = pathlib.Path(work)
    return ("SET SESSION foreign_key_checks = 0, unique_checks = 0;\n"
            "CREATE TEMPORARY TABLE seed_university (id BIGINT PRIMARY KEY, name VARCHAR(100));\n"
            f"LOAD DATA LOCAL INFILE {seedlib.sql_string(work / 'university.tsv')} INTO TABLE seed_university "
            "FIELDS TERMINATED BY '\\t' (id, name);\n"
            "INSERT INTO university (id, name, route_version) SELECT id, name, 1 FROM seed_university\n"
            "  ON DUPLICATE KEY UPDATE name = VALUES(name), route_version = route_version + 1;\n"
            f"LOAD DATA LOCAL INFILE {seedlib.sql_string(work / 'node.tsv')} INTO TABLE node "
            "FIELDS TERMINATED BY '\\t' (id, univ_id, lat, lng);\n"
            f"LOAD DATA LOCAL INFILE {seedlib.sql_string(work / 'route.tsv')} INTO TABLE route "
            "FIELDS TERMINATED BY '\\t'\n"
            "  (id, univ_id, node1_id, node2_id, distance, caution_factors, danger_factors);\n"
            "ANALYZE TABLE university, node, route;\n")


def check_sql(univs: str) -> str:
    return ("SELECT CONCAT('university ', u.id, ' (', u.name, '): ', COUNT(r.id), ' routes, version ', u.route_version)\n"
            f"    FROM university u LEFT JOIN route r ON r.univ_id = u.id WHERE u.id IN ({univs}) GROUP BY u.id ORDER BY u.id")


# ---- the actions ----

class Route:
    def __init__(self, lab: seedlib.Lab, univs: str, routes: str) -> None:
        self.lab, self.univs, self.routes = lab, univs, routes
        self.what = f"universities {univs}, {routes} routes each"

    def present(self, precise: bool = True) -> bool:
        return self.lab.value(present_sql(self.univs, self.routes, precise)) == str(len(self.univs.split(",")))

    def ensure(self) -> None:
        if self.lab.schema_current() and self.present():
            self.lab.say(f"route data set: in place in {self.lab.db} ({self.what})")
            return
        if self.lab.schema_current() and self.present(precise=False):
            self.lab.say(f"route data set: in {self.lab.db} at an older precision (distances of 17 digits, not "
                         f"{DISTANCE_DECIMALS} decimals); reloading it (once)")
        else:
            self.lab.say(f"route data set: not in {self.lab.db}; loading it (once)")
        self.load()

    def load(self) -> None:
        lab = self.lab
        lab.ensure_migrated()
        with tempfile.TemporaryDirectory() as work:
            lab.say(f"[1/3] generating the graphs: universities {self.univs}, {self.routes} routes each (python3)")
            generate(work, [int(u) for u in self.univs.split(",")], int(self.routes))
            lab.say("[2/3] deleting the universities' old nodes and routes")
            lab.sql(script=delete_sql(self.univs))
            lab.say(f"[3/3] LOAD DATA LOCAL INFILE: {seedlib.count_lines(pathlib.Path(work) / 'node.tsv')} nodes, "
                    f"{seedlib.count_lines(pathlib.Path(work) / 'route.tsv')} routes")
            lab.sql(script=load_sql(work), output=False)
        lab.say(f"route data set loaded into {lab.db}")
        self.check()

    def check(self) -> None:
        self.lab.sql("-N", "-B", "-e", check_sql(self.univs))

    def verify(self) -> int | None:
        if not self.present():
            print(f"route data in {self.lab.db}: incomplete (./perflab seed route --db {self.lab.db})", flush=True)
            return 1
        self.status()
        return None

    def reset(self) -> None:
        print("route data is never changed by a run: nothing to reset", flush=True)

    def status(self) -> None:
        db = self.lab.db
        if self.present():
            print(f"route: loaded in {db} ({self.what})", flush=True)
        else:
            print(f"route: not loaded in {db} ({self.what}: ./perflab seed route --db {db} --univs {self.univs} "
                  f"--routes {self.routes})", flush=True)


def bare_routes(arg: str, values: dict[str, str]) -> bool:
    """A bare number (anything that starts with a digit) is --routes."""
    if re.match(r"[0-9]", arg):
        values["--routes"] = arg
        return True
    return False


def main(argv: list[str]) -> int:
    """`./perflab seed route ...`: returns the exit code (raises seedlib.Exit when it stops early)."""
    values, action, _ = seedlib.parse(argv, OPTIONS, USAGE, bare=bare_routes)
    univs = values.get("--univs", seedlib.env("PERFLAB_ROUTE_UNIVS", "1,2,3"))
    routes = values.get("--routes", seedlib.env("PERFLAB_ROUTE_ROUTES", "50000"))
    if not re.fullmatch(r"[0-9]+(,[0-9]+)*", univs) or not re.fullmatch(r"[0-9]+", routes):
        seedlib.fail(USAGE, 2)
    seedlib.load_env()
    route = Route(seedlib.Lab(values.get("--db") or seedlib.env("PERFLAB_DB_NAME", "perflab")), univs, routes)
    seedlib.require_services("mariadb")
    actions: dict[str, Callable[[], int | None]] = {
        "ensure": route.ensure, "load": route.load, "reset": route.reset, "check": route.check,
        "verify": route.verify, "status": route.status}
    return actions[action]() or 0


def coldstart(argv: list[str]) -> int:
    """`./perflab seed coldstart ...`: the wallet part, then (when it succeeded) the route part."""
    values, action, wallet_args = seedlib.parse(argv, COLD_OPTIONS, COLD_USAGE, forward=COLD_WALLET_OPTIONS)
    db = values.get("--db", seedlib.env("PERFLAB_COLD_DB", "perflab_wallet_after"))
    code = seedlib.run(seed_wallet.main, ["--db", db, "--index", "unique", *wallet_args, action])
    if code:
        return code
    return seedlib.run(main, ["--db", db, "--univs", seedlib.env("COLD_UNIVS", "11,12"),
                              "--routes", seedlib.env("COLD_ROUTES", "500"), action])
