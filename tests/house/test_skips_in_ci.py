"""tests/skips_in_ci.py: in CI a skip off the allow-list fails, where it happened; a listed one and any
skip outside CI stay skips."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from skips_in_ci import DEFAULT_LIST, read_allowed

HERE = Path(__file__).resolve().parents[1]  # tests/, where the plugin skips_in_ci.py lives

SKIPPING = '''
import pytest

if False:
    pytest.skip("never", allow_module_level=True)

def test_listed():
    pytest.skip("the optional gadget is absent")

@pytest.mark.skipif(True, reason="chromium is not installed")
def test_unlisted_mark():
    pass

def test_unlisted_call():
    pytest.skip("no cargo")

@pytest.mark.xfail(reason="known")
def test_expected_failure():
    assert False

def test_passes():
    pass
'''

SKIPPED_MODULE = '''
import pytest

pytest.importorskip("a_module_nobody_installed")

def test_never_collected():
    pass
'''

ALLOWED = '''
[[skip]]
reason = "optional gadget"
why = "the gadget is optional everywhere"
'''


def run(tmp_path: Path, ci: bool, allowed: str = ALLOWED,
        skipping: str | None = SKIPPING) -> subprocess.CompletedProcess:
    if skipping is not None:
        (tmp_path / "test_skipping.py").write_text(skipping)
    (tmp_path / "test_skipped_module.py").write_text(SKIPPED_MODULE)
    (tmp_path / "allowed.toml").write_text(allowed)
    (tmp_path / "pytest.ini").write_text("[pytest]\nallowed_skips = allowed.toml\n")
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci:
        env["CI"] = "true"
    env["PYTHONPATH"] = os.pathsep.join([str(HERE), env.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "skips_in_ci", "-p", "no:cacheprovider", "-rA",
                           str(tmp_path)], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120)


def test_in_ci_an_unlisted_skip_fails_where_it_happened(tmp_path):
    done = run(tmp_path, ci=True)
    out = done.stdout
    assert done.returncode == 1, out
    assert "1 failed, 1 passed, 2 skipped, 1 xfailed, 1 error" in out, out
    assert "ERROR test_skipping.py::test_unlisted_mark" in out, out  # a skipif: in its setup
    assert "FAILED test_skipping.py::test_unlisted_call" in out, out
    # a whole module, at collection: the others still run, and the session fails at its end
    assert "a module skipped in CI" in out and "a_module_nobody_installed" in out, out
    assert "skipped in CI at" in out and "no cargo" in out and "chromium is not installed" in out, out
    assert "SKIPPED [1] test_skipping.py" in out and "optional gadget" in out, out


def test_in_ci_a_skipped_module_alone_fails_the_session(tmp_path):
    done = run(tmp_path, ci=True, skipping="def test_passes():\n    pass\n")
    assert done.returncode == 1, done.stdout
    assert "1 passed, 1 skipped" in done.stdout and "a module skipped in CI" in done.stdout, done.stdout


def test_in_ci_a_run_of_skipped_modules_only_fails(tmp_path):
    done = run(tmp_path, ci=True, skipping=None)
    assert done.returncode == 1 and "a module skipped in CI" in done.stdout, done.stdout


def test_outside_ci_skips_stay_skips(tmp_path):
    done = run(tmp_path, ci=False)
    assert done.returncode == 0, done.stdout
    assert "1 passed, 4 skipped, 1 xfailed" in done.stdout, done.stdout


def test_an_allowed_skip_says_why(tmp_path):
    done = run(tmp_path, ci=True, allowed='[[skip]]\nreason = "optional gadget"\nwhy = ""\n')
    assert done.returncode != 0 and "every allowed skip needs a reason and a why" in done.stderr + done.stdout


def test_the_projects_list_is_short_and_explained():
    allowed = read_allowed(DEFAULT_LIST)
    assert len(allowed) <= 8, "keep the list short: CI installs what the tests use"
    for entry in allowed:
        assert entry.why.strip() and entry.reason.strip(), entry
        for tool in ("cargo", "chromium", "postgres", "haproxy", "node", "npm", "axe"):
            assert tool not in entry.reason.lower(), f"{entry}: CI installs {tool}; a skip for it is a broken CI"


@pytest.mark.skipif(not os.environ.get("CI"), reason="CI only")  # (outside CI a skip is a skip)
def test_a_ci_run_checks_its_skips(pytestconfig):
    from skips_in_ci import _ALLOWED

    assert pytestconfig.stash[_ALLOWED] is not None
