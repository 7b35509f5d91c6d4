"""The page's modules, tested without a browser: node's own test runner on tests/page/js/ (the patches of
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

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
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
        pytest.skip("node is not installed: the page's unit tests (tests/page/js) need it")
    if node_version() < (20,):
        pytest.skip("the page's unit tests need node 20 or later (node --test)")
    from majiang.server.schema import rules_schema

    schema = os.path.join(os.path.dirname(patch_fixtures), "rules-schema.json")
    with open(schema, "w", encoding="utf-8") as f:  # what /api/rules-schema serves: the games' declarations
        json.dump(rules_schema(), f, ensure_ascii=False)
    env = dict(os.environ, MAJIANG_PATCH_FIXTURES=patch_fixtures, MAJIANG_RULES_SCHEMA=schema)
    here = os.path.join(os.path.dirname(__file__), "js")
    files = sorted(os.path.join(here, f) for f in os.listdir(here)
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
    """The JSDoc types of every module, strict (tsconfig.json: noImplicitAny and strictNullChecks
    included), against types/protocol.d.ts: what the server sends, generated from its schemas."""
    tsc = typescript()
    with open(os.path.join(ROOT, "tsconfig.json"), encoding="utf-8") as f:
        options = json.load(f)["compilerOptions"]
    assert options["strict"] is True and not {"noImplicitAny", "strictNullChecks"} & set(options), options
    run = subprocess.run([NODE, tsc, "--project", os.path.join(ROOT, "tsconfig.json")], capture_output=True, text=True,
                         cwd=ROOT, timeout=300)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]


# The page's state lives in state.js (one State, changed only by `reduce`, held by `createStore`);
# a module keeps a `let` of its own only where the value is a setting of the browser's output that
# every caller reads at the moment of speaking, not state of the game or the room. Caches and
# registries (const Map), wiring (closures) and the DOM's own memory (WeakMap) are not `let`s.
MODULE_LETS = {
    ("i18n.js", "lang"): "the page's language: every word of every module is said in it (t() reads it), the "
                         "toggle sets it; passing it to each caller would thread it through all the words",
    ("sound.js", "muted"): "the mute switch of this browser's speaker, read by every sound wherever it is played",
}


def test_module_level_state_is_only_the_listed_settings():
    import re

    static = os.path.join(ROOT, "src", "majiang", "server", "static")
    found = set()
    for name in sorted(os.listdir(static)):
        if name.endswith(".js"):
            with open(os.path.join(static, name), encoding="utf-8") as f:
                text = f.read()
            # a module-level declaration starts its line (the page's modules indent everything nested)
            found |= {(name, m[1]) for m in re.finditer(r"^(?:export\s+)?(?:let|var)\s+(\w+)", text, re.M)}
    unexplained = sorted(found - set(MODULE_LETS))
    assert not unexplained, ("module-level let/var beside the state (move it to state.js or close it over): "
                             f"{unexplained}")
    assert found == set(MODULE_LETS), f"listed but gone (drop it from MODULE_LETS): {sorted(set(MODULE_LETS) - found)}"
