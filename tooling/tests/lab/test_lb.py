import json
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from perflab.lab import lb

# `show stat` of HAProxy 2.6 (the columns lb.py reads, in HAProxy's order among others): app-2 was killed
STAT = """# pxname,svname,qcur,scur,stot,status,chkdown,check_status,check_code,check_desc,lastchg
perflab,FRONTEND,,0,812,OPEN,,,,,
apps,app-1,0,1,400,UP,0,L7OK,200,Layer7 check passed,93
apps,app-2,0,0,405,DOWN,1,L4CON,,Layer4 connection problem,4
apps,app-3,0,0,7,UP 1/2,0,L7STS,503,Layer7 wrong status,11
apps,BACKEND,0,1,812,UP,0,,,,93
"""


class RenderTest(unittest.TestCase):

    def setUp(self):
        self.dir = Path(tempfile.mkdtemp())

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_every_instance_is_a_server_checked_on_its_readiness_probe(self):
        config = lb.write("lb", 8280, lb.parse_backends(["app-1=8281", "app-2=10.0.0.2:8282"]), self.dir).read_text()

        self.assertIn("bind 127.0.0.1:8280", config)
        self.assertIn("server app-1 127.0.0.1:8281 check source 127.0.0.2", config)
        self.assertIn("server app-2 10.0.0.2:8282 check\n", config)
        self.assertIn("option httpchk GET /actuator/health/readiness", config)
        self.assertIn("http-check expect status 200", config)
        self.assertIn(f"stats socket {self.dir.resolve() / 'lb.sock'}", config)
        self.assertIn("option redispatch", config)

    def test_a_client_s_own_forwarded_for_is_dropped_and_the_address_haproxy_saw_is_sent(self):
        config = lb.write("lb", 8280, lb.parse_backends(["app-1=8281"]), self.dir).read_text()
        frontend = config[config.index("frontend perflab"):config.index("backend ")]

        self.assertLess(frontend.index("http-request del-header X-Forwarded-For"), frontend.index("option forwardfor"))
        self.assertEqual(lb.source("127.0.0.1"), f" source {lb.PROXY_SOURCE}")
        self.assertEqual(lb.source("db.internal"), "")

    @unittest.skipUnless(shutil.which("haproxy"), "haproxy is not installed (stack/native.sh install-lb)")
    def test_haproxy_accepts_the_rendered_config(self):
        config = lb.write("lb", 8280, lb.parse_backends(["app-1=8281", "app-2=8282", "app-3=8283"]), self.dir)
        lb.write("lb-wide", 8290, lb.parse_backends(["app-1=8281"]), self.dir, bind="0.0.0.0")

        for path in (config, self.dir / "lb-wide.cfg"):
            checked = subprocess.run(["haproxy", "-c", "-f", str(path)], capture_output=True, text=True)
            self.assertEqual(checked.returncode, 0, checked.stdout + checked.stderr)

    @unittest.skipUnless(shutil.which("haproxy"), "haproxy is not installed (stack/native.sh install-lb)")
    def test_haproxy_accepts_an_ipv6_bind(self):
        config = lb.write("lb", 8280, lb.parse_backends(["app-1=8281"]), self.dir, bind="::1")

        checked = subprocess.run(["haproxy", "-c", "-f", str(config)], capture_output=True, text=True)

        self.assertEqual(checked.returncode, 0, checked.stdout + checked.stderr)

    def test_the_balancers_own_errors_are_problem_json_with_a_right_length(self):
        for status, (_, code, _, retry_after) in lb.ERRORS.items():
            head, body = lb.error_response(status).split(b"\r\n\r\n", 1)
            lines = head.decode().split("\r\n")
            headers = dict(line.split(": ", 1) for line in lines[1:])

            self.assertTrue(lines[0].startswith(f"HTTP/1.1 {status} "))
            self.assertEqual(headers["Content-Type"], "application/problem+json")
            self.assertEqual(int(headers["Content-Length"]), len(body))
            self.assertEqual(headers.get("Retry-After"), retry_after)
            problem = json.loads(body)
            self.assertEqual((problem["status"], problem["code"], problem["type"]),
                             (status, code, f"urn:perflab:problem:{code}"))

    def test_another_bind_address_only_when_asked_for(self):
        backends = lb.parse_backends(["app-1=8281"])

        self.assertIn("bind 0.0.0.0:8280", lb.write("lb", 8280, backends, self.dir, bind="0.0.0.0").read_text())
        self.assertIn("bind ipv6@::1:8280", lb.write("lb", 8280, backends, self.dir, bind="::1").read_text())
        for address in ("", "localhost", "127.0.0.1\n    stats enable", "*"):
            with self.subTest(address=address), self.assertRaisesRegex(ValueError, "bind address"):
                lb.write("lb", 8280, backends, self.dir, bind=address)

    def test_names_hosts_and_ports_that_could_add_a_line_are_refused(self):
        for specs, message in ((["app-1\n    server evil 10.0.0.9:80=8281"], "backend name"),
                               (["App-1=8281"], "backend name"), (["app 1=8281"], "backend name"),
                               (["-app=8281"], "backend name"), (["app-1=10.0.0.2 check\n:8281"], "host"),
                               (["app-1=bad_host:8281"], "host"), (["app-1=0"], "port"), (["app-1=65536"], "port"),
                               (["app-1=८२८१"], "port")):
            with self.subTest(specs=specs), self.assertRaisesRegex(ValueError, message):
                lb.parse_backends(specs)

    def test_the_balancers_name_and_port_are_checked_too(self):
        backends = [("app-1", "127.0.0.1", 8281)]
        for name, port, message in (("lb\nglobal", 8280, "load balancer name"), ("../lb", 8280, "load balancer name"),
                                    ("lb", "8280\n", "load balancer port"), ("lb", 70000, "load balancer port")):
            with self.subTest(name=name, port=port), self.assertRaisesRegex(ValueError, message):
                lb.write(name, port, backends, self.dir)
        with self.assertRaisesRegex(ValueError, "backend name"):  # render checks what it is given, whoever built it
            lb.write("lb", 8280, [("app-1\n", "127.0.0.1", 8281)], self.dir)

    def test_the_command_line_refuses_a_bad_backend_without_writing_a_config(self):
        rendered = subprocess.run([sys.executable, "-m", "perflab.lab.lb", "render", "--name", "lb", "--port", "8280",
                                   "--dir", str(self.dir), "--backend", "app-1=8281\nlisten x"],
                                  capture_output=True, text=True)

        self.assertEqual(rendered.returncode, 2)
        self.assertIn("perflab lb: backend", rendered.stderr)
        self.assertFalse((self.dir / "lb.cfg").exists())

    def test_malformed_or_repeated_backends_are_refused_with_what_is_wrong(self):
        for specs, message in ((["app-1"], "expected NAME=PORT"), (["app-1=port"], "expected NAME=PORT"),
                               (["app-1=8281", "app-1=8282"], "given twice"), ([], "no backend")):
            with self.subTest(specs=specs), self.assertRaisesRegex(ValueError, message):
                lb.parse_backends(specs)


class StateTest(unittest.TestCase):

    def test_reads_each_instances_rotation_check_and_requests(self):
        state = lb.parse_stat(STAT)

        self.assertEqual(list(state), ["app-1", "app-2", "app-3"])
        self.assertEqual(state["app-2"], {"status": "DOWN", "check": "L4CON", "code": "", "detail": "Layer4 connection problem",
                                          "requests": 405, "went_down": 1})
        self.assertEqual([lb.in_rotation(s) for s in state.values()], [True, False, True])
        self.assertEqual([lb.ready(s) for s in state.values()], [True, False, False])

    def test_status_names_the_instance_out_of_rotation_and_why(self):
        lines, problems = lb.status_lines(lb.parse_stat(STAT), None, {"app-1": 8281, "app-2": 8282, "app-3": 8283})

        self.assertEqual(len(lines), 4)
        self.assertIn("DOWN (L4CON Layer4 connection problem)", lines[2])
        self.assertEqual(problems, ["app-2 (port 8282) is out of rotation: it does not report ready "
                                    "(DOWN (L4CON Layer4 connection problem))"])

    def test_status_says_how_to_start_an_instance_whose_process_is_gone(self):
        with tempfile.TemporaryDirectory() as pids:
            _, problems = lb.status_lines(lb.parse_stat(STAT), pids, {"app-2": 8282})

        self.assertIn("app-2 (port 8282) is out of rotation: its process is not running "
                      "(./perflab up --instances 3 starts it again)", problems[0])

    def test_wait_reports_the_instances_not_ready_when_time_runs_out(self):
        missing, _ = lb.wait_in_rotation(Path(tempfile.gettempdir()) / "no-such-perflab-lb.sock", ["app-1"], 0)

        self.assertEqual(missing, ["app-1"])


if __name__ == "__main__":
    unittest.main()
