"""The abuse suite's judgement, pure: a Retry-After in seconds, what a guesser does after each answer, the checks
of a guessing run, of guesses sent at once, of slow readers and of a spoofed X-Forwarded-For, each (name, ok,
figure); and the verdicts of a run, PASS/FAIL lines as they come, counted at the end (the contract suite's too)."""
import email.utils
import sys
import time
from dataclasses import dataclass
from typing import IO, Any, Iterable

Check = tuple[str, bool, str]  # a check's name, whether it passed, and its figure

WAIT_LIMIT = 10.0        # a Retry-After up to this many seconds is waited out; a longer one means locked


def retry_after_seconds(value: str | None, now: float | None = None) -> float | None:
    """A Retry-After header in seconds: delta-seconds or an HTTP date (RFC 9110); None when absent or malformed."""
    if value is None:
        return None
    value = value.strip()
    if value.isascii() and value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when is None or when.tzinfo is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


@dataclass
class Answer:
    """One HTTP answer as a check needs it."""
    status: int | str  # an int, or "no answer"
    code: str | None = None
    retry_after: float | None = None
    body: Any = None  # the parsed JSON, the text, or (no answer) the error
    where: str = ""


def describe(answer: Answer) -> str:
    return f"{answer.status} {answer.code or ''}".strip()


def guard_step(answer: Answer, refused: int, wait_limit: float = WAIT_LIMIT) -> tuple[str, float]:
    """What a guesser does after `answer`: ("guess", 0) again at once after a `refused` (a wrong guess), ("wait", s)
    then guess again, or ("stop", 0): locked (a 429 whose Retry-After is missing or longer than wait_limit) or an
    answer no guard gives."""
    if answer.status == refused:
        return "guess", 0
    if answer.status == 429 and answer.retry_after is not None and answer.retry_after <= wait_limit:
        return "wait", answer.retry_after
    return "stop", 0


def judge_guessing(answers: list[Answer], refused: int, refused_code: str, limit: int,
                   wait_limit: float = WAIT_LIMIT) -> list[Check]:
    """The checks of a guessing run: (name, ok, figure) for at most `limit` answers `refused` (e.g. 403 wrong-pin),
    nothing else but them and 429 `refused_code` with a Retry-After, and a last answer that is such a 429 locking
    (Retry-After over wait_limit)."""
    wrong = sum(1 for a in answers if a.status == refused)
    guarded = [a for a in answers if a.status == 429 and a.code == refused_code]
    other = [describe(a) for a in answers if a not in guarded and a.status != refused]
    last = answers[-1] if answers else None
    locked = bool(last and last in guarded and last.retry_after is not None and last.retry_after > wait_limit)
    return [
        (f"at most {limit} guesses answered {refused}", 1 <= wrong <= limit and not other,
         f"{wrong} of {len(answers)} answers {refused}" + (f"; unexpected: {', '.join(other)}" if other else "")),
        (f"then 429 {refused_code} with Retry-After", bool(guarded) and all(a.retry_after is not None for a in guarded)
         and locked, f"{len(guarded)} answers 429, Retry-After " + ", ".join(
             "none" if a.retry_after is None else f"{a.retry_after:.0f}" for a in guarded) + " s"
         + ("" if locked else "; the last answer did not lock the guesser out")),
    ]


def statuses(answers: list[Answer]) -> dict[int | str, int]:
    """How many answers had each status, e.g. {403: 5, 429: 115}."""
    counts: dict[int | str, int] = {}
    for answer in answers:
        counts[answer.status] = counts.get(answer.status, 0) + 1
    return counts


def judge_burst(answers: list[Answer], refused: int, refused_code: str, limit: int) -> list[Check]:
    """The checks of guesses sent at once: (name, ok, figure) for 1..`limit` answers `refused` and every other answer
    a 429 `refused_code` with a Retry-After."""
    counts = statuses(answers)
    checked = counts.get(refused, 0)
    others = [a for a in answers if a.status != refused]
    guarded = all(a.status == 429 and a.code == refused_code and a.retry_after is not None for a in others)
    return [(f"{len(answers)} guesses at once: at most {limit} answered {refused}, the rest 429 {refused_code}",
             1 <= checked <= limit and guarded,
             ", ".join(f"{n} x {status}" for status, n in sorted(counts.items(), key=lambda kv: str(kv[0])))
             + ("" if guarded else "; not all the others are a 429 " + refused_code + " with Retry-After"))]


def keys_without_ttl(ttls: dict[str, int]) -> list[str]:
    """The keys whose PTTL (ms; -1 no TTL, -2 gone) says they would never expire."""
    return sorted(key for key, ttl in ttls.items() if ttl == -1)


class Verdicts:
    """The checks of a run: PASS/FAIL lines as they come, and the count at the end."""

    def __init__(self, out: IO[str] | None = None) -> None:
        self.results: list[dict[str, Any]] = []
        self.out = out or sys.stdout

    def add(self, scope: str, name: str, ok: object, figure: str) -> None:
        self.results.append({"scope": scope, "check": name, "ok": bool(ok), "figure": figure})
        print(f"{'PASS' if ok else 'FAIL'} [{scope}] {name}: {figure}", file=self.out, flush=True)

    def extend(self, scope: str, checks: Iterable[Check]) -> None:
        for name, ok, figure in checks:
            self.add(scope, name, ok, figure)

    def error(self, scope: str, error: BaseException) -> None:
        """A scenario that could not run to its end is one FAIL, not a crash of the suite."""
        self.add(scope, "the scenario ran to its end", False, f"{type(error).__name__}: {error}")

    @property
    def passed(self) -> int:
        return sum(1 for r in self.results if r["ok"])

    @property
    def failed(self) -> int:
        return len(self.results) - self.passed

    def summary(self) -> str:
        return f"{self.passed} passed, {self.failed} failed"


SLOW_BOUND = 10.0            # issue 46: another member's read answers in under 10 s


def slow_request(path: str, host: str, port: int, token: str) -> bytes:
    """A route GET as a slow reader sends it on a raw socket: HTTP/1.1, keep-alive, the member's Bearer token."""
    return (f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAuthorization: Bearer {token}\r\n"
            "Accept: application/json\r\n\r\n").encode("ascii")


def judge_slow_readers(stalled: int, readers: int, other: Answer, other_seconds: float, third: Answer,
                       health: Answer, bound: float = SLOW_BOUND) -> list[Check]:
    """The checks of a slow-readers run: every reader's answer began and stalled, another member's read was 200 within
    `bound` seconds, a member's read beyond its limit was 429 too-many-route-reads with Retry-After, health answered
    UP meanwhile."""
    status = health.body.get("status") if isinstance(health.body, dict) else health.status
    return [
        (f"{readers} slow readers' answers began (the server is writing to them)", stalled == readers,
         f"{stalled} of {readers} status lines read"),
        (f"another member's route read answers 200 in under {bound:.0f} s", other.status == 200
         and other_seconds < bound, f"{describe(other)} after {other_seconds:.1f} s"),
        ("a member's read beyond its limit is 429 too-many-route-reads with Retry-After",
         third.status == 429 and third.code == "too-many-route-reads" and third.retry_after is not None,
         f"{describe(third)}, Retry-After {third.retry_after}"),
        ("health answers UP while they read", status == "UP", f"health {status}"),
    ]


ADDRESS_MAX_FAILURES = 100  # perflab.security.login-guard.max-failures-per-address


def spoofed_address(index: int) -> str:
    """The address a spoofing client claims for its index-th try (TEST-NET-3, 203.0.113.0/24, then onwards)."""
    return f"203.0.{113 + index // 250}.{1 + index % 250}"


def judge_forwarded_for(answers: list[Answer], bystander: Answer, limit: int = ADDRESS_MAX_FAILURES,
                        behind_balancer: bool = False) -> list[Check]:
    """The checks of a spoofing run: a client that names a new X-Forwarded-For address on every wrong password, each
    for another login id, is still counted under its own address (at most `limit` 401s, then 429
    too-many-login-failures); another client on the same proxy or host still logs in."""
    counts = statuses(answers)
    refused = [a for a in answers if a.status == 429 and a.code == "too-many-login-failures"]
    where = "behind the balancer" if behind_balancer else "straight to the app"
    return [
        (f"a client's own X-Forwarded-For does not spread its guesses over addresses ({where})",
         counts.get(401, 0) <= limit and bool(refused) and set(counts) <= {401, 429},
         ", ".join(f"{n} x {status}" for status, n in sorted(counts.items(), key=lambda kv: str(kv[0])))),
        (f"another client on the same {'proxy' if behind_balancer else 'host'} still logs in (200)",
         bystander.status == 200, describe(bystander)),
    ]
