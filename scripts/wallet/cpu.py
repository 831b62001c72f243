#!/usr/bin/env python3
"""CPU per transfer from /proc (python3 stdlib only), for scripts/wallet/profile.sh.

  cpu.py snap APP_PID DB_PID [DB_TID ...] > snap.json    CPU ticks of the app (total and per thread group),
                                                         of mariadbd and of the given mariadbd threads
  cpu.py diff SNAP0 SNAP1 TRANSFERS K6_JSON LABEL        one result line, then the app's CPU per thread group

Thread groups come from the thread names (/proc/<pid>/task/<tid>/comm, 15 characters): Tomcat's workers,
the JIT compilers, the garbage collector, Lettuce (Redis), Hikari, and the rest.
"""
import json
import os
import re
import sys

TCK = os.sysconf('SC_CLK_TCK')
GROUPS = [
    ('request threads (Tomcat workers)', re.compile(r'^(http-nio|tomcat-handler|virtual|ForkJoinPool)')),
    ('JIT compilers', re.compile(r'^C[12] CompilerThre')),
    ('garbage collector', re.compile(r'^(G1 |GC Thread|ZGC|Parallel GC|VM Periodic)')),
    ('Redis client (Lettuce)', re.compile(r'^lettuce')),
    ('Hikari', re.compile(r'^Hikari')),
    ('JFR', re.compile(r'^JFR')),
]


def ticks(stat_path):
    with open(stat_path) as f:
        fields = f.read().rsplit(')', 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)


def group_of(name):
    for label, pattern in GROUPS:
        if pattern.match(name):
            return label
    return 'other JVM threads'


def snap(app_pid, db_pid, db_tids):
    groups = {}
    for tid in os.listdir(f'/proc/{app_pid}/task'):
        try:
            with open(f'/proc/{app_pid}/task/{tid}/comm') as f:
                name = f.read().strip()
            t = ticks(f'/proc/{app_pid}/task/{tid}/stat')
        except OSError:
            continue  # the thread ended while we read
        groups[group_of(name)] = groups.get(group_of(name), 0) + t
    conn = {}
    for tid in db_tids:
        try:
            conn[tid] = ticks(f'/proc/{db_pid}/task/{tid}/stat')
        except OSError:
            pass
    return {'app': ticks(f'/proc/{app_pid}/stat'), 'app_groups': groups, 'db_all': ticks(f'/proc/{db_pid}/stat'),
            'db_conn': conn, 'loadavg': open('/proc/loadavg').read().split()[0]}


def diff(s0, s1, transfers, k6_json, label):
    def per(t):  # ms of CPU per transfer
        return 1e3 * t / TCK / transfers if transfers else float('nan')
    conn = sum(s1['db_conn'][t] - s0['db_conn'][t] for t in s0['db_conn'] if t in s1['db_conn'])
    dur = json.load(open(k6_json))['metrics']['http_req_duration{scenario:transfer}']
    print(f"{label}: transfers={transfers} p50={dur['med']:.1f}ms p95={dur['p(95)']:.1f}ms "
          f"cpu/transfer app={per(s1['app'] - s0['app']):.3f}ms db_conn={per(conn):.3f}ms "
          f"({len(s0['db_conn'])} threads) db_all={per(s1['db_all'] - s0['db_all']):.3f}ms "
          f"load={s0['loadavg']}->{s1['loadavg']}")
    for group in sorted(s1['app_groups'], key=lambda g: s0['app_groups'].get(g, 0) - s1['app_groups'][g]):
        print(f"    app {group}: {per(s1['app_groups'][group] - s0['app_groups'].get(group, 0)):.3f} ms/transfer")


if __name__ == '__main__':
    if sys.argv[1] == 'snap':
        json.dump(snap(sys.argv[2], sys.argv[3], sys.argv[4:]), sys.stdout)
    elif sys.argv[1] == 'diff':
        diff(json.load(open(sys.argv[2])), json.load(open(sys.argv[3])), int(float(sys.argv[4])), sys.argv[5], sys.argv[6])
    else:
        sys.exit(__doc__)
