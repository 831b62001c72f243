#!/usr/bin/env python3
"""Prints the SQL expression of a wallet's keyed PIN hash, as the app's Pins computes it:
HMAC-SHA256(hash secret, SHA-256("perflab-pin:" + member_id + ":" + PIN)) in lower-case hex, written with SHA2() alone
(MariaDB has no HMAC): the key's inner and outer pads (RFC 2104) are computed here and passed as hex.

usage: pin_hash_sql.py MEMBER_ID_COLUMN_OR_NUMBER PIN
The hash secret is the app's: PERFLAB_SECURITY_HASH_SECRET, else the file perflab.security.hash.secret in
PERFLAB_SECRETS_DIR (default .perflab/secrets, relative to the repository), written by stack/secrets.sh.
"""
import hashlib
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROPERTY = "perflab.security.hash.secret"


def hash_secret():
    value = os.environ.get("PERFLAB_SECURITY_HASH_SECRET")
    if value:
        return value.encode()
    directory = Path(os.environ.get("PERFLAB_SECRETS_DIR", ".perflab/secrets"))
    path = directory / PROPERTY if directory.is_absolute() else ROOT / directory / PROPERTY
    if not path.is_file():
        sys.exit(f"perflab: no hash secret in {path} (run stack/secrets.sh, or set PERFLAB_SECURITY_HASH_SECRET)")
    return path.read_bytes().rstrip(b"\n")


def pads(key):
    if len(key) > 64:
        key = hashlib.sha256(key).digest()
    key = key.ljust(64, b"\0")
    return bytes(b ^ 0x36 for b in key).hex(), bytes(b ^ 0x5C for b in key).hex()


def expression(member_id_expr, pin, key):
    inner, outer = pads(key)
    unkeyed = f"SHA2(CONCAT('perflab-pin:', {member_id_expr}, ':{pin}'), 256)"
    return f"SHA2(CONCAT(UNHEX('{outer}'), UNHEX(SHA2(CONCAT(UNHEX('{inner}'), {unkeyed}), 256))), 256)"


def main(argv):
    if len(argv) != 3 or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.]*|\d+", argv[1]) or not re.fullmatch(r"\d{4,8}", argv[2]):
        sys.exit("usage: pin_hash_sql.py MEMBER_ID_COLUMN PIN")
    print(expression(argv[1], argv[2], hash_secret()))


if __name__ == "__main__":
    main(sys.argv)
