#!/usr/bin/env python3
"""Writes a deterministic campus-like route graph as TSV files for LOAD DATA (python3 stdlib only).

Each university is a jittered grid of intersections (some grid edges missing, like buildings in the way)
joined by walkways; every walkway is a chain of short routes through degree-2 nodes, and dead-end spurs lead
to building entrances. The chain lengths are scaled so that each university has exactly ROUTES routes.
usage: generate_route.py OUT_DIR UNIV_IDS ROUTES   (e.g. generate_route.py /tmp/route 1,2,3 50000)
"""
import math
import random
import sys

CAUTION = ["CURB", "CRACK", "SLOPE", "RUBBLE", "ETC"]
DANGER = ["CURB", "STAIRS", "SLOPE", "ETC"]
NAMES = {1: "Hanbit University", 2: "Saebyeok University", 3: "Nuri University"}
EARTH_M = 6_371_000.0


def metres(a, b):
    lat1, lng1, lat2, lng2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lng2 - lng1) / 2) ** 2
    return 2 * EARTH_M * math.asin(math.sqrt(h))


def university(univ, routes_wanted, node_out, route_out):
    rnd = random.Random(1000 + univ)
    # the campus of seed 001 (50,000 routes) is a 40 x 40 grid with 600 spurs; a small data set gets a smaller
    # grid, since every walkway needs at least one route
    side = 40 if routes_wanted >= 10_000 else max(3, int(math.sqrt(routes_wanted / 6)))
    spurs = 600 if routes_wanted >= 10_000 else routes_wanted // 20
    base = (37.45 + univ * 0.05, 126.95 + univ * 0.05)
    step_lat = 30 / 111_320.0  # about 30 m between intersections
    step_lng = step_lat / math.cos(math.radians(base[0]))
    next_node = [univ * 10_000_000]

    def new_node(pos):
        next_node[0] += 1
        node_out.write(f"{next_node[0]}\t{univ}\t{pos[0]!r}\t{pos[1]!r}\n")
        return next_node[0]

    grid = {}
    for r in range(side):
        for c in range(side):
            pos = (base[0] + (r + rnd.uniform(-0.2, 0.2)) * step_lat, base[1] + (c + rnd.uniform(-0.2, 0.2)) * step_lng)
            grid[(r, c)] = (new_node(pos), pos)
    walkways = []  # (from intersection, to position or intersection, weight)
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
        sys.exit(f"generate_route.py: {routes_wanted} routes cannot cover the {len(walkways)} walkways of university {univ}")
    total = sum(w for _, _, w in walkways)
    lengths = [max(1, round(w * routes_wanted / total)) for _, _, w in walkways]
    i = 0
    while sum(lengths) != routes_wanted:  # settle the rounding, one route at a time
        diff = routes_wanted - sum(lengths)
        if diff > 0:
            lengths[i % len(lengths)] += 1
        elif lengths[i % len(lengths)] > 1:
            lengths[i % len(lengths)] -= 1
        i += 1
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
            route_out.write(f"{next_route}\t{univ}\t{prev_id}\t{cur_id}\t{metres(prev_pos, cur_pos)!r}\t{caution}\t{danger}\n")
            prev_id, prev_pos = cur_id, cur_pos
    return next_node[0] - univ * 10_000_000, next_route - univ * 10_000_000


def main():
    out, univs, routes = sys.argv[1], [int(u) for u in sys.argv[2].split(",")], int(sys.argv[3])
    with open(f"{out}/university.tsv", "w") as u_out, open(f"{out}/node.tsv", "w") as n_out, \
            open(f"{out}/route.tsv", "w") as r_out:
        for univ in univs:
            nodes, made = university(univ, routes, n_out, r_out)
            u_out.write(f"{univ}\t{NAMES.get(univ, f'University {univ}')}\n")
            print(f"  university {univ}: {nodes} nodes, {made} routes", flush=True)


if __name__ == "__main__":
    main()
