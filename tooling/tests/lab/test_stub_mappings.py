"""stack/stub-mappings.sh: the auth API stub's mappings rendered with one install's credentials (native, compose)."""
import json
import os
import shutil
import stat
import subprocess
import tempfile
import unittest
from pathlib import Path

from perflab.lab import labsecrets

from perflab.paths import ROOT
RENDER = ROOT / "stack" / "stub-mappings.sh"
WARMUP = "perflab.login.auth-api.warmup.password"
VALUES = {labsecrets.MEMBER_PASSWORD: "Mem8erPass", labsecrets.ADMIN_LOGIN: "admin-abc123",
          labsecrets.ADMIN_PASSWORD: "Adm1nPass", WARMUP: "WarmUpPass", labsecrets.MEMBER_PIN: "4821"}


class StubMappingsTest(unittest.TestCase):

    def setUp(self) -> None:
        self.tmp = Path(tempfile.mkdtemp())
        self.secrets = self.tmp / "secrets"
        self.secrets.mkdir()
        for name, value in VALUES.items():
            (self.secrets / name).write_text(value)
        self.out = self.tmp / "stub-root"

    def tearDown(self) -> None:
        shutil.rmtree(self.tmp)

    def render(self) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["sh", str(RENDER), str(self.secrets), str(self.out)], capture_output=True, text=True)

    def mapping(self, name: str) -> dict:
        return json.loads((self.out / "mappings" / name).read_text())

    @staticmethod
    def patterns(mapping: dict) -> dict[str, dict]:
        return {p["matchesJsonPath"]["expression"]: p["matchesJsonPath"] for p in mapping["request"]["bodyPatterns"]}

    def test_the_templates_take_the_installs_credentials_and_the_rest_is_copied(self) -> None:
        done = self.render()
        self.assertEqual(done.returncode, 0, done.stderr)
        member = self.patterns(self.mapping("auth-ok.json"))
        self.assertEqual(member["$.password"]["equalTo"], "Mem8erPass")
        self.assertEqual(member["$.loginId"]["matches"], "^user([1-9][0-9]{0,4}|100000)$")
        admin = self.mapping("auth-admin.json")
        self.assertEqual(self.patterns(admin)["$.loginId"]["equalTo"], "admin-abc123")
        self.assertEqual(self.patterns(admin)["$.password"]["equalTo"], "Adm1nPass")
        self.assertEqual(admin["response"]["jsonBody"]["studentId"], "A-perflab-admin")
        warmup = self.patterns(self.mapping("auth-warmup.json"))
        self.assertEqual((warmup["$.loginId"]["equalTo"], warmup["$.password"]["equalTo"]), ("perflab-warmup", "WarmUpPass"))
        committed = {p.name for p in (ROOT / "wiremock" / "mappings").glob("*.json")}
        templates = {p.name for p in (ROOT / "wiremock" / "templates").glob("*.json")}
        self.assertEqual({p.name for p in (self.out / "mappings").iterdir()}, committed | templates)
        self.assertFalse(committed & templates)
        self.assertEqual(stat.S_IMODE(self.out.stat().st_mode), 0o700)
        self.assertEqual({stat.S_IMODE(p.stat().st_mode) for p in (self.out / "mappings").iterdir()}, {0o600})

    def test_no_committed_mapping_or_template_holds_a_credential(self) -> None:
        for path in [*(ROOT / "wiremock" / "mappings").glob("*.json"), *(ROOT / "wiremock" / "templates").glob("*.json")]:
            text = path.read_text()
            for old in ("perflab-pass", "perflab-admin-pass", '"perflab-admin"'):
                self.assertNotIn(old, text, path.name)

    def test_rendering_again_follows_the_secrets(self) -> None:
        self.render()
        (self.secrets / labsecrets.MEMBER_PASSWORD).write_text("Other1")
        self.assertEqual(self.render().returncode, 0)
        self.assertEqual(self.patterns(self.mapping("auth-ok.json"))["$.password"]["equalTo"], "Other1")
        self.assertEqual([p.name for p in self.out.iterdir() if p.name.startswith(".")], [])

    def test_a_missing_or_unsafe_value_renders_nothing(self) -> None:
        (self.secrets / labsecrets.ADMIN_PASSWORD).unlink()
        done = self.render()
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("admin-password", done.stderr)
        self.assertFalse((self.out / "mappings").exists())
        (self.secrets / labsecrets.ADMIN_PASSWORD).write_text('x"/&y')
        done = self.render()
        self.assertNotEqual(done.returncode, 0)
        self.assertNotIn('x"/&y', done.stderr)  # names the file, never the value
        self.assertFalse((self.out / "mappings").exists())

    def test_the_generated_secrets_render(self) -> None:
        secrets = self.tmp / "generated" / "secrets"
        subprocess.run(["bash", str(ROOT / "stack" / "secrets.sh")], check=True, capture_output=True,
                       env=dict(os.environ, PERFLAB_SECRETS_DIR=str(secrets)))
        done = subprocess.run(["sh", str(RENDER), str(secrets), str(self.out)], capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        admin = self.patterns(self.mapping("auth-admin.json"))
        self.assertEqual(admin["$.password"]["equalTo"], (secrets / labsecrets.ADMIN_PASSWORD).read_text())


if __name__ == "__main__":
    unittest.main()
