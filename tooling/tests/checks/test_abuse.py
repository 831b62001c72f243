import email.utils
import io
import json
import unittest

from perflab.checks import abuse_judges
from perflab.checks.abuse_judges import Answer

LOCKED = 3599


def pin_run(*answers):
    return [Answer(*a) for a in answers]


class RetryAfterTest(unittest.TestCase):

    def test_delta_seconds_and_http_dates_are_seconds(self):
        now = 1_800_000_000
        date = email.utils.formatdate(now + 90, usegmt=True)

        self.assertEqual(abuse_judges.retry_after_seconds("7"), 7.0)
        self.assertEqual(abuse_judges.retry_after_seconds(" 3600 "), 3600.0)
        self.assertAlmostEqual(abuse_judges.retry_after_seconds(date, now=now), 90.0)
        self.assertEqual(abuse_judges.retry_after_seconds(email.utils.formatdate(now - 5, usegmt=True), now=now), 0.0)

    def test_absent_or_malformed_values_are_none(self):
        for value in (None, "", "-1", "1.5", "soon", "٣", "Mon, 99 Foo 2026 00:00:00 GMT"):
            with self.subTest(value=value):
                self.assertIsNone(abuse_judges.retry_after_seconds(value))


class GuardStepTest(unittest.TestCase):

    def test_a_refusal_is_guessed_again_a_short_backoff_waited_out_a_long_one_stops(self):
        self.assertEqual(abuse_judges.guard_step(Answer(403, "wrong-pin"), 403), ("guess", 0))
        self.assertEqual(abuse_judges.guard_step(Answer(401, "bad-credentials"), 401), ("guess", 0))
        self.assertEqual(abuse_judges.guard_step(Answer(429, "too-many-pin-failures", 2.0), 403), ("wait", 2.0))
        self.assertEqual(abuse_judges.guard_step(Answer(429, "too-many-pin-failures", 10.0), 403), ("wait", 10.0))
        self.assertEqual(abuse_judges.guard_step(Answer(429, "too-many-pin-failures", 11.0), 403), ("stop", 0))

    def test_a_429_without_retry_after_or_another_answer_stops(self):
        for answer in (Answer(429, "too-many-pin-failures"), Answer(201), Answer(401, "invalid-token"), Answer("no answer")):
            with self.subTest(answer=answer):
                self.assertEqual(abuse_judges.guard_step(answer, 403), ("stop", 0))


class JudgeGuessingTest(unittest.TestCase):

    def judge(self, answers, limit=5):
        return {name: (ok, figure) for name, ok, figure in
                abuse_judges.judge_guessing(answers, 403, "too-many-pin-failures", limit)}

    def test_the_contracts_sequence_passes(self):
        answers = pin_run((403, "wrong-pin"), (403, "wrong-pin"), (403, "wrong-pin"), (429, "too-many-pin-failures", 1),
                          (403, "wrong-pin"), (429, "too-many-pin-failures", 2), (403, "wrong-pin"),
                          (429, "too-many-pin-failures", LOCKED))

        verdict = self.judge(answers)

        self.assertEqual([ok for ok, _ in verdict.values()], [True, True])
        self.assertEqual(verdict["at most 5 guesses answered 403"][1], "5 of 8 answers 403")
        self.assertIn("Retry-After 1, 2, 3599 s", verdict["then 429 too-many-pin-failures with Retry-After"][1])

    def test_a_sixth_wrong_pin_fails(self):
        answers = pin_run(*[(403, "wrong-pin")] * 6, (429, "too-many-pin-failures", LOCKED))

        ok, figure = self.judge(answers)["at most 5 guesses answered 403"]

        self.assertFalse(ok)
        self.assertEqual(figure, "6 of 7 answers 403")

    def test_no_guard_at_all_fails_both_checks(self):
        verdict = self.judge(pin_run(*[(403, "wrong-pin")] * 15))

        self.assertEqual([ok for ok, _ in verdict.values()], [False, False])

    def test_a_429_without_retry_after_or_that_never_locks_fails(self):
        no_header = pin_run((403, "wrong-pin"), (429, "too-many-pin-failures"))
        never_locks = pin_run((403, "wrong-pin"), (429, "too-many-pin-failures", 2))

        self.assertFalse(self.judge(no_header)["then 429 too-many-pin-failures with Retry-After"][0])
        self.assertIn("did not lock", self.judge(never_locks)["then 429 too-many-pin-failures with Retry-After"][1])

    def test_an_answer_no_guard_gives_is_named(self):
        answers = pin_run((403, "wrong-pin"), (401, "invalid-token"), (429, "too-many-pin-failures", LOCKED))

        ok, figure = self.judge(answers)["at most 5 guesses answered 403"]

        self.assertFalse(ok)
        self.assertIn("unexpected: 401 invalid-token", figure)

    def test_a_login_backoff_then_the_lock_passes(self):
        answers = pin_run(*[(401, "bad-credentials")] * 3, (429, "too-many-login-failures", 1),
                          (401, "bad-credentials"), (429, "too-many-login-failures", 2), (401, "bad-credentials"),
                          (429, "too-many-login-failures", 897))

        verdict = abuse_judges.judge_guessing(answers, 401, "too-many-login-failures", 5)

        self.assertTrue(all(ok for _, ok, _ in verdict), verdict)


class VerdictsTest(unittest.TestCase):

    def test_counts_and_prints_each_check_and_the_closing_line(self):
        out = io.StringIO()
        verdicts = abuse_judges.Verdicts(out)

        verdicts.add("wallet-after pin", "the right PIN is refused too", True, "429")
        verdicts.extend("wallet-after login", [("another user still logs in (200)", False, "user4243: 429")])
        verdicts.error("wallet-after cache", RuntimeError("Redis: WRONGTYPE"))

        self.assertEqual((verdicts.passed, verdicts.failed), (1, 2))
        self.assertEqual(verdicts.summary(), "1 passed, 2 failed")
        self.assertEqual(out.getvalue().splitlines(), [
            "PASS [wallet-after pin] the right PIN is refused too: 429",
            "FAIL [wallet-after login] another user still logs in (200): user4243: 429",
            "FAIL [wallet-after cache] the scenario ran to its end: RuntimeError: Redis: WRONGTYPE"])
        self.assertEqual(json.loads(json.dumps(verdicts.results))[1]["ok"], False)


if __name__ == "__main__":
    unittest.main()


class BurstTest(unittest.TestCase):

    def test_at_most_the_limit_checked_and_the_rest_guarded_429s_pass(self):
        answers = [Answer(403, "wrong-pin")] * 5 + [Answer(429, "too-many-pin-failures", 1.0)] * 115

        (name, ok, figure), = abuse_judges.judge_burst(answers, 403, "too-many-pin-failures", 5)

        self.assertTrue(ok, figure)
        self.assertEqual(figure, "5 x 403, 115 x 429")
        self.assertEqual(abuse_judges.statuses(answers), {403: 5, 429: 115})

    def test_more_checked_than_the_limit_none_checked_or_an_unguarded_answer_fail(self):
        for answers in ([Answer(403, "wrong-pin")] * 6 + [Answer(429, "too-many-pin-failures", 1.0)] * 114,
                        [Answer(429, "too-many-pin-failures", 1.0)] * 120,
                        [Answer(403, "wrong-pin")] * 5 + [Answer(503, "auth-api-unavailable", 1.0)],
                        [Answer(403, "wrong-pin")] * 5 + [Answer(429, "too-many-pin-failures", None)]):
            with self.subTest(answers=abuse_judges.statuses(answers)):
                (_, ok, _), = abuse_judges.judge_burst(answers, 403, "too-many-pin-failures", 5)
                self.assertFalse(ok)


class KeysWithoutTtlTest(unittest.TestCase):

    def test_only_a_key_without_ttl_is_named(self):
        self.assertEqual(abuse_judges.keys_without_ttl({"guess:a:fails": 3_599_000, "guess:b:fails": -1,
                                                 "guess:c:block": -2, "guess:d:fails": -1}),
                         ["guess:b:fails", "guess:d:fails"])
        self.assertEqual(abuse_judges.keys_without_ttl({}), [])


class SlowReadersTest(unittest.TestCase):

    def judge(self, stalled=6, other=Answer(200), seconds=0.4, third=Answer(429, "too-many-route-reads", 1.0),
              health=Answer(200, body={"status": "UP"})):
        return {name: ok for name, ok, _ in abuse_judges.judge_slow_readers(stalled, 6, other, seconds, third, health)}

    def test_a_fast_answer_beside_six_stalled_readers_passes_every_check(self):
        self.assertTrue(all(self.judge().values()), self.judge())

    def test_the_measured_stall_fails(self):
        checks = self.judge(seconds=58.8)

        self.assertFalse(checks["another member's route read answers 200 in under 10 s"])

    def test_a_refused_or_missing_answer_fails_however_fast(self):
        for other in (Answer(503, "routes-busy"), Answer("no answer")):
            with self.subTest(other=other):
                self.assertFalse(self.judge(other=other)["another member's route read answers 200 in under 10 s"])

    def test_readers_that_never_began_or_a_third_read_served_fail(self):
        self.assertFalse(self.judge(stalled=4)["6 slow readers' answers began (the server is writing to them)"])
        for third in (Answer(200), Answer(429, "too-many-route-reads"), Answer(429, "too-many-pin-failures", 1.0)):
            with self.subTest(third=third):
                self.assertFalse(self.judge(third=third)[
                    "a member's read beyond its limit is 429 too-many-route-reads with Retry-After"])

    def test_the_raw_request_carries_the_path_host_and_token(self):
        request = abuse_judges.slow_request("/api/universities/12/routes", "127.0.0.1", 8181, "a.b.c")

        self.assertTrue(request.startswith(b"GET /api/universities/12/routes HTTP/1.1\r\nHost: 127.0.0.1:8181\r\n"))
        self.assertIn(b"\r\nAuthorization: Bearer a.b.c\r\n", request)
        self.assertTrue(request.endswith(b"\r\n\r\n"))


class ForwardedForTest(unittest.TestCase):

    def test_a_spoofer_refused_at_its_address_limit_and_a_bystander_let_in_pass(self):
        answers = [Answer(401, "bad-credentials")] * 60 + [Answer(429, "too-many-login-failures", 2.0)]

        checks = abuse_judges.judge_forwarded_for(answers, Answer(200, None), limit=100)

        self.assertEqual([ok for _, ok, _ in checks], [True, True])

    def test_a_spoofer_never_refused_or_over_the_limit_or_a_bystander_locked_out_fail(self):
        never = [Answer(401, "bad-credentials")] * 110
        over = [Answer(401, "bad-credentials")] * 101 + [Answer(429, "too-many-login-failures", 2.0)]
        for answers, bystander, failing in ((never, Answer(200, None), 0), (over, Answer(200, None), 0),
                                            (over[-2:], Answer(429, "too-many-login-failures", 1.0), 1)):
            with self.subTest(failing=failing, tries=len(answers)):
                checks = abuse_judges.judge_forwarded_for(answers, bystander, limit=100)
                self.assertFalse(checks[failing][1])

    def test_each_try_claims_another_address(self):
        addresses = {abuse_judges.spoofed_address(i) for i in range(600)}
        self.assertEqual(len(addresses), 600)
        self.assertEqual(abuse_judges.spoofed_address(0), "203.0.113.1")

