#!/usr/bin/env python3
"""Reads what one wallet A/B run left behind and prints one result line (python3 stdlib only).

  report.py RUN_DIR SIDE MODE

RUN_DIR holds k6.json (k6 --summary-export), metrics-before.txt and metrics-after.txt (the app's
/actuator/prometheus before and after the measured run) and pending.txt (hikaricp_connections_pending,
sampled every 0.5 s during the run).
"""
import json
import os
import re
import sys

run_dir, side, mode = sys.argv[1], sys.argv[2], sys.argv[3]
LINE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+([0-9.eE+-]+|NaN)$')


def metrics(path):
    out = {}
    with open(path) as f:
        for line in f:
            m = LINE.match(line.strip())
            if m:
                key = m.group(1) + (m.group(2) or '')
                out[key] = out.get(key, 0.0) + float(m.group(3))
    return out


def total(snapshot, name, must=()):
    return sum(v for k, v in snapshot.items()
               if (k == name or k.startswith(name + '{')) and all(s in k for s in must))


before = metrics(os.path.join(run_dir, 'metrics-before.txt'))
after = metrics(os.path.join(run_dir, 'metrics-after.txt'))


def delta(name, *must):
    return total(after, name, must) - total(before, name, must)


def ratio(a, b):
    return a / b if b else float('nan')


created = delta('perflab_wallet_transfer_statements_count', 'outcome="created"')
statements = ratio(delta('perflab_wallet_transfer_statements_sum', 'outcome="created"'), created)
hold_ms = 1000 * ratio(delta('hikaricp_connections_usage_seconds_sum'), delta('hikaricp_connections_usage_seconds_count'))
# per transfer, not per checkout: short checkouts outside the transaction would otherwise hide the difference
conn_per_transfer_ms = 1000 * ratio(delta('hikaricp_connections_usage_seconds_sum'), created)
acquire_ms = 1000 * ratio(delta('hikaricp_connections_acquire_seconds_sum'), delta('hikaricp_connections_acquire_seconds_count'))
locks = delta('perflab_wallet_lock_failures_total')
hits = delta('cache_gets_total', 'result="hit"')
misses = delta('cache_gets_total', 'result="miss"')
pending = [float(x) for x in open(os.path.join(run_dir, 'pending.txt')).read().split() if x]
pending_max = max(pending) if pending else float('nan')
pending_avg = sum(pending) / len(pending) if pending else float('nan')
k6 = json.load(open(os.path.join(run_dir, 'k6.json')))['metrics']
common = (f"statements/transfer={statements:.2f} conn_ms_per_transfer={conn_per_transfer_ms:.1f} "
          f"conn_hold_avg={hold_ms:.2f}ms acquire_avg={acquire_ms:.2f}ms "
          f"pending_max={pending_max:.0f} pending_avg={pending_avg:.2f} lock_failures={locks:.0f} "
          f"cache_hit_ratio={ratio(hits, hits + misses):.2f}")

if mode == 'fixed':
    d = k6.get('http_req_duration{scenario:transfer}', k6['http_req_duration'])
    failed = k6['http_req_failed']['value']
    print(f"{side}: p50={d['med']:.1f}ms p95={d['p(95)']:.1f}ms p99={d['p(99)']:.1f}ms max={d['max']:.0f}ms "
          f"failed={100 * failed:.2f}% reqs/s={k6['http_reqs']['rate']:.0f} "
          f"dropped={k6.get('dropped_iterations', {}).get('count', 0)} {common}")
else:
    steps = sorted(int(k[len('http_req_duration{step:'):-1]) for k in k6
                   if k.startswith('http_req_duration{step:') and k[len('http_req_duration{step:'):-1].isdigit())
    sustained, cells, broken = 0, [], False
    for s in steps:
        d = k6[f'http_req_duration{{step:{s}}}']
        f = k6.get(f'http_req_failed{{step:{s}}}', {}).get('value', 0)
        ok = d['p(95)'] < 300 and f < 0.01
        cells.append(f"{s}:{d['p(95)']:.0f}ms/{100 * f:.1f}%{'' if ok else '!'}")
        if ok and not broken:
            sustained = s
        broken = broken or not ok
    print(f"{side}: max_sustainable={sustained}/s  p95/failed per step: {' '.join(cells)}  {common}")
