import hashlib
import hmac
import os
import shutil
import socket
import stat
import subprocess
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from perflab.lab import labsecrets
from perflab.paths import ROOT

SECRETS_SH = ROOT / "stack" / "secrets.sh"


def mariadb_up():
    try:
        with socket.create_connection(("127.0.0.1", int(os.environ.get("PERFLAB_DB_PORT", "3306"))), timeout=1):
            return shutil.which("mariadb") is not None
    except OSError:
        return False


TRUST = "spring.ssl.bundle.pem.auth-api.truststore.certificate"
WARMUP_PASSWORD = "perflab.login.auth-api.warmup.password"
ADMIN_IDS = "perflab.security.admin.ids"
# the native stack's own services: Redis' password, MariaDB's, WireMock's admin API's (stack/native.sh)
SERVICE_PASSWORDS = ("spring.data.redis.password", "mariadb-password", "wiremock-admin-password")


class SecretsScriptTest(unittest.TestCase):

    def setUp(self):
        self.dir = Path(tempfile.mkdtemp()) / "secrets"

    def tearDown(self):
        shutil.rmtree(self.dir.parent)

    def generate(self):
        return subprocess.run(["bash", str(SECRETS_SH)], capture_output=True, text=True, check=True,
                              env=dict(os.environ, PERFLAB_SECRETS_DIR=str(self.dir),
                                       PERFLAB_STUB_TLS_DIR=str(self.dir.parent / "stub-tls")))

    def test_creates_two_private_random_secrets_once_and_is_silent_after(self):
        self.generate()
        first = {p.name: p.read_bytes() for p in self.dir.iterdir()}
        again = self.generate()

        self.assertEqual(sorted(first), sorted([labsecrets.HASH, labsecrets.JWT, TRUST, *labsecrets.CREDENTIALS,
                                                WARMUP_PASSWORD, ADMIN_IDS, *SERVICE_PASSWORDS]))
        self.assertEqual({p.name: p.read_bytes() for p in self.dir.iterdir()}, first)
        self.assertEqual(again.stdout + again.stderr, "")
        self.assertNotEqual(first[labsecrets.HASH], first[labsecrets.JWT])
        for name in (labsecrets.HASH, labsecrets.JWT):
            self.assertEqual(len(first[name]), 64)  # 48 random bytes in base64, no newline
        self.assertEqual(stat.S_IMODE(self.dir.stat().st_mode), 0o700)
        self.assertEqual({stat.S_IMODE(p.stat().st_mode) for p in self.dir.iterdir()}, {0o600})

    def test_the_credentials_are_the_installs_never_the_repositorys_and_kept(self):
        self.generate()
        values = {name: (self.dir / name).read_text() for name in (*labsecrets.CREDENTIALS, WARMUP_PASSWORD, ADMIN_IDS)}
        for name, old in labsecrets.REPOSITORY_CREDENTIALS.items():
            self.assertNotEqual(values[name], old, name)
        self.assertRegex(values[labsecrets.MEMBER_PIN], r"^[0-8][0-9]{3}$")  # never 9xxx, the suites' wrong PINs
        self.assertRegex(values[labsecrets.ADMIN_LOGIN], r"^admin-[a-z0-9]{12}$")
        for name in (labsecrets.MEMBER_PASSWORD, labsecrets.ADMIN_PASSWORD, WARMUP_PASSWORD):
            self.assertRegex(values[name], r"^[A-Za-z0-9]{32}$")
        self.assertEqual(len({values[labsecrets.MEMBER_PASSWORD], values[labsecrets.ADMIN_PASSWORD],
                              values[WARMUP_PASSWORD]}), 3)
        self.assertEqual(values[ADMIN_IDS], "A-perflab-admin")
        (self.dir / labsecrets.MEMBER_PIN).unlink()
        self.generate()
        self.assertEqual((self.dir / labsecrets.MEMBER_PASSWORD).read_text(), values[labsecrets.MEMBER_PASSWORD])
        self.assertRegex((self.dir / labsecrets.MEMBER_PIN).read_text(), r"^[0-8][0-9]{3}$")
        with mock.patch.dict(os.environ, {"PERFLAB_SECRETS_DIR": str(self.dir)}):
            self.assertEqual(labsecrets.admin_login(), values[labsecrets.ADMIN_LOGIN])
            self.assertEqual(labsecrets.k6_env()["ADMIN_PASSWORD"], values[labsecrets.ADMIN_PASSWORD])
        with self.assertRaises(ValueError):
            labsecrets.credential(labsecrets.JWT)

    def test_the_native_services_passwords_are_random_and_none_is_the_repositorys(self):
        self.generate()
        values = {name: (self.dir / name).read_text() for name in SERVICE_PASSWORDS}
        for name, value in values.items():
            self.assertRegex(value, r"^[A-Za-z0-9]{32}$", name)
        self.assertEqual(len(set(values.values())), 3)
        self.assertNotIn("perflab", values.values())  # .env's MariaDB password is compose's default only

    def test_the_reader_takes_the_file_and_the_apps_override_wins(self):
        self.generate()
        written = (self.dir / labsecrets.JWT).read_text()
        with mock.patch.dict(os.environ, {"PERFLAB_SECRETS_DIR": str(self.dir)}):
            os.environ.pop("PERFLAB_SECURITY_JWT_SECRET", None)
            self.assertEqual(labsecrets.jwt_secret(), written)
            os.environ["PERFLAB_SECURITY_JWT_SECRET"] = "x" * 40
            self.assertEqual(labsecrets.jwt_secret(), "x" * 40)

    def test_the_reader_generates_missing_secrets(self):
        with mock.patch.dict(os.environ, {"PERFLAB_SECRETS_DIR": str(self.dir)}):
            os.environ.pop("PERFLAB_SECURITY_HASH_SECRET", None)
            value = labsecrets.hash_secret()

        self.assertEqual(value, (self.dir / labsecrets.HASH).read_text())


class PinHashTest(unittest.TestCase):

    def test_the_seeders_pads_give_hmac_sha256_for_short_and_long_keys(self):
        message = labsecrets.pin_message(42, "1234").encode()
        for key in ("k" * 10, "k" * 64, "k" * 100):
            inner, outer = (bytes.fromhex(pad) for pad in labsecrets.seeder_sql().pads(key.encode()))
            by_pads = hashlib.sha256(outer + hashlib.sha256(inner + message).digest()).hexdigest()
            with self.subTest(length=len(key)):
                self.assertEqual(by_pads, hmac.new(key.encode(), message, hashlib.sha256).hexdigest())
                self.assertEqual(by_pads, labsecrets.pin_hash(key, 42, "1234"))

    def test_the_message_is_the_hex_sha256_of_the_pin_string(self):
        self.assertEqual(labsecrets.pin_message(7, "1234"), hashlib.sha256(b"perflab-pin:7:1234").hexdigest())

    def test_the_sql_takes_only_a_column_name_and_digits(self):
        for column, pin in (("id); DROP TABLE wallet; --", "1234"), ("id", "12'34")):
            with self.subTest(column=column, pin=pin), self.assertRaises(ValueError):
                labsecrets.pin_hash_sql("k" * 40, column, pin)

    @unittest.skipUnless(mariadb_up(), "MariaDB is not running (./perflab stack up)")
    def test_mariadb_computes_the_same_hash_as_python(self):
        from perflab.checks import chaos_lab
        key = "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6MDEy"
        for member_id in (1, 123456):
            row = chaos_lab.Stack().sql(None, f"SELECT {labsecrets.pin_hash_sql(key, 'm.id', '1234')} "
                                          f"FROM (SELECT {member_id} AS id) m")
            with self.subTest(member_id=member_id):
                self.assertEqual(row[0][0], labsecrets.pin_hash(key, member_id, "1234"))


class DevelopmentSecretsTest(unittest.TestCase):

    def test_finds_defaults_and_literals_once_each(self):
        texts = ["secret: ${PERFLAB_SECURITY_JWT_SECRET:perflab-dev-secret-change-me-0123456789abcdef}",
                 "secret: ${PERFLAB_SECURITY_HASH_SECRET:some-other-default-0123456789abcdef}",
                 'DEV = "perflab-dev-secret-change-me-0123456789abcdef";', "PERFLAB_DB_PASSWORD=change-me"]

        self.assertEqual(labsecrets.development_secrets(texts),
                         ["perflab-dev-secret-change-me-0123456789abcdef", "some-other-default-0123456789abcdef"])

    def test_the_repository_commits_the_known_development_secrets(self):
        found = labsecrets.development_secrets()

        self.assertIn("perflab-dev-secret-change-me-0123456789abcdef", found)
        self.assertIn("perflab-dev-hash-secret-change-me-0123456789", found)


if __name__ == "__main__":
    unittest.main()


class StubKeyPairTest(unittest.TestCase):
    """stack/secrets.sh makes the stub's TLS key pair: the app's trusted certificate (config tree) is the key pair's."""

    def test_the_trusted_certificate_is_the_stub_key_pairs_and_none_is_committed(self):
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, PERFLAB_SECRETS_DIR=f"{tmp}/secrets", PERFLAB_STUB_TLS_DIR=f"{tmp}/tls")
            subprocess.run(["bash", str(SECRETS_SH)], env=env, capture_output=True, text=True, check=True)
            password = Path(f"{tmp}/tls/auth-api.password").read_text()
            stub = subprocess.run(["openssl", "pkcs12", "-in", f"{tmp}/tls/auth-api.p12", "-nokeys", "-passin",
                                   f"pass:{password}"], capture_output=True, text=True, check=True).stdout
            trusted = Path(f"{tmp}/secrets/{TRUST}").read_text()
            tracked = subprocess.run(["git", "ls-files", "*.p12", "*.pem", "*.jks", "*.key"], cwd=SECRETS_SH.parent.parent,
                                     capture_output=True, text=True, check=True).stdout.split()

            self.assertEqual(fingerprint(stub), fingerprint(trusted))
            self.assertEqual(tracked, [])  # no key pair or certificate in the repository for anyone to present
            self.assertEqual(stat.S_IMODE(Path(f"{tmp}/tls").stat().st_mode), 0o700)


class StubKeyPairKeptTest(unittest.TestCase):

    def test_a_lost_trust_file_comes_back_from_the_stubs_key_pair_and_never_replaces_it(self):
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, PERFLAB_SECRETS_DIR=f"{tmp}/secrets")
            env.pop("PERFLAB_STUB_TLS_DIR", None)
            subprocess.run(["bash", str(SECRETS_SH)], env=env, capture_output=True, text=True, check=True)
            pair = Path(f"{tmp}/stub-tls/auth-api.p12").read_bytes()  # beside the secrets directory by default
            trust = Path(f"{tmp}/secrets/{TRUST}")
            before = trust.read_text()
            trust.unlink()

            subprocess.run(["bash", str(SECRETS_SH)], env=env, capture_output=True, text=True, check=True)

            self.assertEqual(Path(f"{tmp}/stub-tls/auth-api.p12").read_bytes(), pair)
            self.assertEqual(fingerprint(trust.read_text()), fingerprint(before))


def fingerprint(pem):
    return subprocess.run(["openssl", "x509", "-noout", "-fingerprint", "-sha256"], input=pem, capture_output=True,
                          text=True, check=True).stdout
