"""The page's modules, tested without a browser: node's own test runner on tests/js/ (the patches of
real matches, the state reducer, the catalogue) and tsc's checks of their JSDoc types.

The patches come from here: bot matches played through the server's tables, with one client taking
whole snapshots and one taking patches; node applies each patch to the snapshot before and compares
with the next whole one. Nothing generated is kept (a tmp file). Skipped only when node (or, for
the types, npm) is not installed.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess

import pytest

pytest.importorskip("sqlalchemy")

from majiang.server.presence import Connection  # noqa: E402
from test_server_fairness import make_table, play_match  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
NODE = shutil.which("node")
NPM = shutil.which("npm")
TSC_HOME = os.path.join(ROOT, ".cache", "tsc")  # where .ci/run installs the pinned typescript
TSC = os.path.join(TSC_HOME, "node_modules", "typescript", "bin", "tsc")
MATCHES = [("kawuxing", "standard", {}), ("sichuan", "modern", {}), ("sichuan", "chengdu", {"blood_river": True})]


def recorded(tmp_path, variant, preset, options, seat):
    """One seat's frames of a two-hand bot match, whole and as patches (the same frames)."""
    table = make_table(tmp_path, variant, preset, options, hands=2, name=f"{variant}-{preset}-{seat}")
    boxes: dict = {}
    for patches in (False, True):
        box: list = []
        boxes[patches] = box

        async def send(msg, box=box):
            box.append(json.loads(msg) if isinstance(msg, str) else msg)

        table.presence.connections.append(Connection(send, seat, None, patches=patches))
    asyncio.run(play_match(table))
    return boxes[False], boxes[True]


@pytest.fixture(scope="module")
def patch_fixtures(tmp_path_factory):
    """Lines of {before, patch, after}: every patch the server sent a seat and a spectator."""
    tmp = tmp_path_factory.mktemp("patches")
    path = tmp / "patches.jsonl"
    count = 0
    with open(path, "w", encoding="utf-8") as out:
        for variant, preset, options in MATCHES:
            for seat in (0, None):
                sent_whole, patched = recorded(tmp, variant, preset, options, seat)
                whole: list = []
                for frame in sent_whole:  # a frame equal to the one before is never sent as a patch
                    frame = {k: v for k, v in frame.items() if k != "now"}
                    if not whole or frame != whole[-1]:
                        whole.append(frame)
                assert len(whole) == len(patched) > 10, \
                    (variant, preset, seat, len(sent_whole), len(whole), len(patched))
                for before, after, sent in zip(whole, whole[1:], patched[1:]):
                    if sent["type"] != "patch":
                        continue
                    out.write(json.dumps({"before": before, "patch": sent["patch"], "after": after}) + "\n")
                    count += 1
    assert count > 100
    return str(path)


def node_version() -> tuple[int, ...]:
    out = subprocess.run([NODE, "--version"], capture_output=True, text=True, check=True, timeout=60).stdout
    return tuple(int(x) for x in out.strip().lstrip("v").split("."))


def test_node_unit_tests_of_the_page(patch_fixtures):
    if NODE is None:
        pytest.skip("node is not installed: the page's unit tests (tests/js) need it")
    if node_version() < (20,):
        pytest.skip("the page's unit tests need node 20 or later (node --test)")
    from majiang.server.schema import rules_schema

    schema = os.path.join(os.path.dirname(patch_fixtures), "rules-schema.json")
    with open(schema, "w", encoding="utf-8") as f:  # what /api/rules-schema serves: the games' declarations
        json.dump(rules_schema(), f, ensure_ascii=False)
    env = dict(os.environ, MAJIANG_PATCH_FIXTURES=patch_fixtures, MAJIANG_RULES_SCHEMA=schema)
    files = sorted(os.path.join(ROOT, "tests", "js", f) for f in os.listdir(os.path.join(ROOT, "tests", "js"))
                   if f.endswith(".test.js"))
    r = subprocess.run([NODE, "--test", *files], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    ran = [line for line in r.stdout.splitlines()
           if "the server's patches rebuild every next snapshot" in line and line.startswith("ok")]
    assert ran and "# SKIP" not in ran[0], ran  # it skips only without the fixtures
    said = [line for line in r.stdout.splitlines()
            if "every game, preset, option and choice is said" in line and line.startswith("ok")]
    assert said and "# SKIP" not in said[0], said


def pinned_typescript() -> str:
    with open(os.path.join(ROOT, "package.json"), encoding="utf-8") as f:
        return json.load(f)["devDependencies"]["typescript"]


def typescript() -> str:
    """tsc at the version package.json pins, installed into the cache by npm when it is not there."""
    if NODE is None or NPM is None:
        pytest.skip("node and npm are not installed: the page's type checks (tsc --checkJs) need them")
    version_file = os.path.join(TSC_HOME, "node_modules", "typescript", "package.json")
    want = pinned_typescript()
    have = None
    if os.path.exists(version_file):
        with open(version_file, encoding="utf-8") as f:
            have = json.load(f)["version"]
    if have != want:
        subprocess.run([NPM, "install", "--no-save", "--no-audit", "--no-fund", "--prefix", TSC_HOME,
                        f"typescript@{want}"], capture_output=True, text=True, check=True, timeout=300)
    return TSC


def test_the_page_type_checks():
    """The JSDoc types of every module (tsconfig.json), and with strict null checks for the modules
    that draw nothing (tsconfig.core.json); the two checks run side by side."""
    tsc = typescript()
    runs = {config: subprocess.Popen([NODE, tsc, "--project", os.path.join(ROOT, config)], stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, cwd=ROOT)
            for config in ("tsconfig.json", "tsconfig.core.json")}
    for config, run in runs.items():
        out, _ = run.communicate(timeout=300)
        assert run.returncode == 0, (config, out[-6000:])
