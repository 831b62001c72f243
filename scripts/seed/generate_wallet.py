#!/usr/bin/env python3
"""Writes the wallet seed as tab-separated files for LOAD DATA LOCAL INFILE. Deterministic: the same
arguments give the same bytes. Python 3 standard library only.

usage: generate_wallet.py OUT_DIR [members] [transfers]
  members    wallets and members (100000): login user{n}, phone 010 + n in 8 digits, balance 1,000,000.00
  transfers  seeded transfers (500000): two history rows and four ledger rows each (1M and 2M rows)
"""
import os
import sys
import time

out = sys.argv[1]
members = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
transfers = int(sys.argv[3]) if len(sys.argv) > 3 else 500_000
os.makedirs(out, exist_ok=True)
started = time.time()
BANK_ASSET, BANK_PAYABLE = 1, 2  # ids from V3__wallet.sql
EPOCH = 1767225600  # 2026-01-01T00:00:00Z


def progress(what):
    print(f"  generated {what} ({time.time() - started:.1f}s)", flush=True)


with open(os.path.join(out, "member.tsv"), "w") as f:
    f.writelines(f"{n}\tuser{n}\tUser {n}\t010{n:08d}\n" for n in range(1, members + 1))
with open(os.path.join(out, "wallet.tsv"), "w") as f:
    f.writelines(f"{n}\t{n}\t1000000.00\n" for n in range(1, members + 1))
progress(f"{members} members and wallets")

with open(os.path.join(out, "history.tsv"), "w") as history, open(os.path.join(out, "ledger.tsv"), "w") as ledger:
    h = lines_h = 0
    hist, led = [], []
    for t in range(1, transfers + 1):
        sender = (t * 7919) % members + 1
        receiver = (sender - 1 + 1 + (t * 104729) % (members - 1)) % members + 1
        cents = 100_000 + (t * 31337) % 9_900_000  # 1,000.00 .. 99,999.99
        amount = f"{cents // 100}.{cents % 100:02d}"
        s_before = 100_000_000 + (t * 7) % 50_000_000
        r_before = 100_000_000 + (t * 13) % 50_000_000
        fmt = lambda c: f"{c // 100}.{c % 100:02d}"
        group = f"00000000-0000-4000-8000-{t:012d}"
        ts = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(EPOCH + t * 30))
        hist.append(f"{2 * t - 1}\t{group}\t{sender}\t{sender}\tTRANSFER_OUT\t{amount}\t{fmt(s_before)}\t{fmt(s_before - cents)}"
                    f"\t{receiver}\tUser {receiver}\tSUCCESS\t{ts}\n")
        hist.append(f"{2 * t}\t{group}\t{receiver}\t{receiver}\tTRANSFER_IN\t{amount}\t{fmt(r_before)}\t{fmt(r_before + cents)}"
                    f"\t{sender}\tUser {sender}\tSUCCESS\t{ts}\n")
        base = 4 * (t - 1)
        led.append(f"{base + 1}\t{group}\t{sender}\t{BANK_PAYABLE}\t{amount}\t0.00\t{ts}\n")
        led.append(f"{base + 2}\t{group}\t{sender}\t{BANK_ASSET}\t0.00\t{amount}\t{ts}\n")
        led.append(f"{base + 3}\t{group}\t{receiver}\t{BANK_ASSET}\t{amount}\t0.00\t{ts}\n")
        led.append(f"{base + 4}\t{group}\t{receiver}\t{BANK_PAYABLE}\t0.00\t{amount}\t{ts}\n")
        if t % 50_000 == 0:
            history.writelines(hist)
            ledger.writelines(led)
            hist, led = [], []
            progress(f"{t} of {transfers} transfers")
    history.writelines(hist)
    ledger.writelines(led)
progress(f"{2 * transfers} history rows and {4 * transfers} ledger rows")
