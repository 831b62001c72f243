import base64
import hashlib
import hmac
import json
import threading
import unittest
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from perflab.checks import chaos
from perflab.checks import chaos_clients
from perflab.checks import chaos_lab


class ScriptedApp(BaseHTTPRequestHandler):
    """Answers POST /api/transfers from a script of (status, body, headers), and remembers the keys it saw."""
    script = []
    keys = []

    def do_POST(self):
        self.rfile.read(int(self.headers["Content-Length"]))
        ScriptedApp.keys.append(self.headers["Idempotency-Key"])
        status, body, headers = ScriptedApp.script.pop(0)
        data = json.dumps(body).encode() if body is not None else b""
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


class ClientsTest(unittest.TestCase):

    def setUp(self):
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), ScriptedApp)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        ScriptedApp.keys = []
        self.tally = chaos_clients.Tally()
        members = [{"id": 1, "phone": "099001", "token": "t1"}, {"id": 2, "phone": "099002", "token": "t2"}]
        self.clients = chaos_clients.Clients([f"http://127.0.0.1:{self.server.server_port}"], members, self.tally, 1, 10)
        self.members = members

    def tearDown(self):
        self.server.shutdown()
        self.server.server_close()

    def test_retries_with_the_same_key_until_a_definitive_answer(self):
        ScriptedApp.script = [(503, {"code": "database-unavailable"}, {"Retry-After": "0"}),
                              (500, {"code": "internal"}, {}),
                              (201, {"transferId": "t-1", "amount": 1.5}, {})]

        self.clients.transfer(self.members[0], self.members[1], Decimal("1.50"), 0.0)

        self.assertEqual(len(set(ScriptedApp.keys)), 1)
        self.assertEqual(self.tally.requests, 3)
        self.assertEqual(self.tally.server_errors, 2)
        self.assertEqual(self.tally.successes, [("t-1", 1, 2, Decimal("1.50"))])

    def test_a_2xx_without_a_transfer_id_is_a_violation_not_a_success(self):
        ScriptedApp.script = [(200, None, {})]

        self.clients.transfer(self.members[0], self.members[1], Decimal("1.00"), 0.0)

        self.assertEqual(self.tally.successes, [])
        self.assertEqual(len(self.tally.bad_2xx), 1)

    def test_a_4xx_is_definitive(self):
        ScriptedApp.script = [(409, {"code": "insufficient-funds"}, {})]

        self.clients.transfer(self.members[0], self.members[1], Decimal("1.00"), 0.0)

        self.assertEqual(self.tally.rejections, {"insufficient-funds": 1})
        self.assertEqual(self.tally.requests, 1)


class FakeStack:
    """Answers the checks' SQL from a tiny in-memory ledger."""

    def __init__(self, balances, history, ledger):
        self.balances, self.history, self.ledger = balances, history, ledger

    def sql(self, database, statement):
        if statement.startswith("SELECT SUM(balance)"):
            return [[str(sum(self.balances.values())), str(min(self.balances.values()))]]
        if "SUM(debit), 0)" in statement:
            return [[str(sum(d for _, d, _ in self.ledger)), str(sum(c for _, _, c in self.ledger))]]
        if "FROM ledger_entry GROUP BY" in statement:
            groups = {g for g, _, _ in self.ledger}
            bad = [g for g in groups if sum(d for x, d, _ in self.ledger if x == g) != sum(c for x, _, c in self.ledger if x == g)
                   or sum(1 for x, _, _ in self.ledger if x == g) != 4]
            return [[str(len(bad))]]
        if "FROM wallet_transaction GROUP BY" in statement:
            return [[str(sum(1 for g in set(self.history) if self.history.count(g) != 2))]]
        if "DISTINCT group_id FROM wallet_transaction" in statement:
            return [[g] for g in set(self.history)]
        if "DISTINCT group_id FROM ledger_entry" in statement:
            return [[g] for g in {g for g, _, _ in self.ledger}]
        if statement.startswith("SELECT member_id, balance"):
            return [[str(i), str(b)] for i, b in self.balances.items()]
        raise AssertionError(statement)


class CheckTest(unittest.TestCase):
    members = [{"id": 1}, {"id": 2}]
    ledger = [("t-1", Decimal("2.00"), 0), ("t-1", 0, Decimal("2.00")), ("t-1", Decimal("2.00"), 0), ("t-1", 0, Decimal("2.00"))]

    def test_books_that_match_what_the_clients_saw_pass(self):
        tally = chaos_clients.Tally(successes=[("t-1", 1, 2, Decimal("2.00"))])
        stack = FakeStack({1: Decimal("998.00"), 2: Decimal("1002.00")}, ["t-1", "t-1"], self.ledger)

        results = chaos.check(stack, "db", self.members, tally)

        self.assertTrue(all(ok for _, ok, _ in results), results)

    def test_a_201_whose_transfer_is_not_in_the_database_fails(self):
        tally = chaos_clients.Tally(successes=[("t-1", 1, 2, Decimal("2.00")), ("t-2", 2, 1, Decimal("1.00"))])
        stack = FakeStack({1: Decimal("998.00"), 2: Decimal("1002.00")}, ["t-1", "t-1"], self.ledger)

        failed = [name for name, ok, _ in chaos.check(stack, "db", self.members, tally) if not ok]

        self.assertIn("no 2xx without a transfer in it", failed)
        self.assertIn("each balance moved by exactly what its client saw succeed", failed)

    def test_a_transfer_with_one_history_row_fails(self):
        tally = chaos_clients.Tally(successes=[("t-1", 1, 2, Decimal("2.00"))])
        stack = FakeStack({1: Decimal("998.00"), 2: Decimal("1002.00")}, ["t-1"], self.ledger)

        failed = [name for name, ok, _ in chaos.check(stack, "db", self.members, tally) if not ok]

        self.assertEqual(failed, ["every transfer has 2 history rows"])


class ExternalCommandTest(unittest.TestCase):

    def test_the_values_are_one_word_each_and_no_shell_runs(self):
        url = "http://h:1/$(touch /tmp/x); rm -rf ~ #"

        command = chaos_lab.external_command("ssh host kill-app --index {index} --url {url}", 2, url)

        self.assertEqual(command, ["ssh", "host", "kill-app", "--index", "2", "--url", url])

    def test_a_template_that_wants_a_shell_says_so(self):
        command = chaos_lab.external_command("sh -c 'curl -fs {url}/actuator/health'", 0, "http://127.0.0.1:8181")

        self.assertEqual(command, ["sh", "-c", "curl -fs http://127.0.0.1:8181/actuator/health"])


class TokenTest(unittest.TestCase):

    def test_the_token_is_hs256_over_the_apps_claims(self):
        value = chaos_clients.token("s" * 32, 7, "chaos-7")
        head, body, signature = value.split(".")
        expected = base64.urlsafe_b64encode(hmac.new(b"s" * 32, f"{head}.{body}".encode(), hashlib.sha256).digest()).rstrip(b"=")
        claims = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))

        self.assertEqual(signature.encode(), expected)
        self.assertEqual((claims["iss"], claims["sub"], claims["login"]), ("perflab", "7", "chaos-7"))


if __name__ == "__main__":
    unittest.main()
