"""./perflab abuse: the abuse suite (tooling/perflab/checks/abuse.py)."""
SYNOPSIS = "abuse [--preset wallet-before|wallet-after|both] [--instances N]"
SUMMARY = """what an attacker tries, each a PASS/FAIL check: PIN and login guessing, tokens
signed with the committed development secrets, the admin's endpoints as a member,
a tampered route cache (tooling/perflab/checks/abuse.py; its own database and port 8180)"""


def main(argv: list[str]) -> int:
    from perflab.checks import abuse
    return abuse.main(argv)
