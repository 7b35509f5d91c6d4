"""The page's words: every catalogue key the page uses exists in both the Chinese and the English
catalogue (read from the served modules by node, no browser)."""

import json
import os
import re
import shutil
import subprocess

import pytest

STATIC = os.path.join(os.path.dirname(__file__), "..", "..", "src", "majiang", "server", "static")


def read(name):
    with open(os.path.join(STATIC, name), encoding="utf-8") as f:
        return f.read()


@pytest.fixture(scope="module")
def catalogue():
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    url = "file://" + os.path.abspath(os.path.join(STATIC, "i18n.js"))
    script = (f"const {{ I18N }} = await import({json.dumps(url)});"
              "console.log(JSON.stringify({zh: I18N.keys('zh'), en: I18N.keys('en')}));")
    out = subprocess.run([node, "--input-type=module", "-e", script], capture_output=True, text=True, check=True,
                         timeout=60).stdout
    return {lang: set(keys) for lang, keys in json.loads(out).items()}


def modules():
    """The page's modules, as one text (the page is app.js and the modules it imports)."""
    return "\n".join(read(name) for name in sorted(os.listdir(STATIC)) if name.endswith(".js") and name != "i18n.js")


def listed(source, name):
    """The string literals of a constant array in the modules (const NAME = ["a", "b"])."""
    m = re.search(r"const " + name + r" = \[([^\]]*)\]", source)
    assert m, name
    return re.findall(r'"([a-z_]+)"', m.group(1))


def used_keys():
    app, i18n, page = modules(), read("i18n.js"), read("index.html")
    keys = set()
    for src in (app, i18n):
        for call in re.finditer(r"(?<![\w.])t\(([^(){}]*?)[,)]", src):
            keys.update(k for k in re.findall(r'"([a-z][a-z0-9_]*)"', call.group(1)) if not k.endswith("_"))
    for src in (app, page):
        keys.update(re.findall(r'data-(?:t|ph)="([a-z0-9_]+)"', src))
    # keys made by joining: t("a_" + type), t("phase_" + …), t("status_" + …), t("bot_" + …), t("p_" + …), t(p.declared)
    keys.update("a_" + k for k in listed(app, "ACTION_ORDER") + ["discard", "void", "exchange", "zimo", "dance"])
    keys.update("phase_" + k for k in ("exchange", "void", "turn", "claim"))
    keys.update("status_" + k for k in ("lobby", "playing", "finished"))
    keys.update("bot_" + k for k in ("random", "greedy", "strong", "expert"))
    keys.update("p_" + k for k in listed(app, "PHRASES") + listed(app, "EMOJI"))
    keys.update(("liangdao", "sing", "dance"))
    return keys


def test_the_page_uses_some_hundred_keys():
    keys = used_keys()
    assert len(keys) > 150, len(keys)  # the scan finds the page's words, not a handful
    assert {"your_turn", "a_pong", "fan_n", "lobby_title", "p_hello", "phase_void"} <= keys


def test_every_key_the_page_uses_is_in_both_catalogues(catalogue):
    keys = used_keys()
    assert not keys - catalogue["zh"], sorted(keys - catalogue["zh"])
    assert not keys - catalogue["en"], sorted(keys - catalogue["en"])


def test_the_two_catalogues_have_the_same_keys(catalogue):
    assert catalogue["zh"] == catalogue["en"], sorted(catalogue["zh"] ^ catalogue["en"])
