"""Issue #47: the page as an app on the home screen. Its manifest names the game in Chinese and
English with its icons, opens full screen and sideways; its service worker keeps the fingerprinted
files and answers a repeat visit from its cache, and a new fingerprint replaces them; over plain
http on a LAN there is no worker and the page works the same; the screen stays awake during a hand.

The server's side is tested here without a browser; the browser's in Debian's chromium (skipped, as
tests/page/test_e2e.py is, without chromium or Playwright).
"""

from __future__ import annotations

import json
import os
import struct
import time

import pytest

from chromium import ARGS, CHROMIUM
from majiang.server import assets
from serving import serving

STATIC = os.path.join(os.path.dirname(__file__), "..", "..", "src", "majiang", "server", "static")


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", data[:16]
    return struct.unpack(">II", data[16:24])


# -- the server's side ------------------------------------------------------------------------

def _client(tmp_path):
    from fastapi.testclient import TestClient

    from majiang.server.app import create_app
    return TestClient(create_app(f"sqlite:///{tmp_path / 'p.sqlite3'}"))


def test_the_worker_is_served_at_the_root_revalidated_with_this_fingerprint(tmp_path):
    from majiang.server.routes import site
    c = _client(tmp_path)
    sw = c.get("/sw.js", headers={"Accept-Encoding": "gzip"})
    assert sw.status_code == 200 and sw.headers["content-type"].startswith("text/javascript")
    assert sw.headers["cache-control"] == "no-cache"  # never kept: the browser compares it on each visit
    assert c.get("/sw.js", headers={"If-None-Match": sw.headers["etag"]}).status_code == 304
    line = next(x for x in sw.text.splitlines() if x.startswith("const BUILD = "))
    build = json.loads(line.removeprefix("const BUILD = ").removesuffix(";"))
    assert build["version"] == site.VERSION
    names = {u.split("?")[0].removeprefix("/static/") for u in build["files"]}
    assert names == set(site.ASSETS) - {"index.html"} and "sw.js" not in names
    assert all(u.endswith(f"?v={site.VERSION}") for u in build["files"])
    for url in build["files"]:  # each kept file is one the server serves, for a year
        assert c.get(url).headers["cache-control"] == assets.IMMUTABLE, url
    # the worker and the manifest are allowed by default-src 'self' (their directives fall back to it)
    csp = sw.headers["content-security-policy"]
    assert "default-src 'self'" in csp and "script-src 'self'" in csp
    assert "worker-src" not in csp and "manifest-src" not in csp and "child-src" not in csp


def test_the_manifest_names_the_game_in_both_languages_and_opens_full_screen_sideways(tmp_path):
    from majiang.server.routes import site
    c = _client(tmp_path)
    page = c.get("/").text
    assert f'<link rel="manifest" href="/static/manifest.webmanifest?v={site.VERSION}">' in page
    r = c.get(f"/static/manifest.webmanifest?v={site.VERSION}")
    assert r.headers["content-type"].startswith("application/manifest+json")
    m = r.json()
    assert "麻将" in m["name"] and m["short_name"] == "麻将" and m["lang"] == "zh-Hans"
    assert "mahjong" in m["description"].lower() and "Mahjong" in m["translations"]["en"]["name"]
    assert (m["start_url"], m["scope"], m["display"], m["orientation"]) == ("/", "/", "fullscreen", "landscape")
    sizes = set()
    for icon in m["icons"]:
        assert icon["src"].endswith(f"?v={site.VERSION}"), icon  # fingerprinted as every file of the page
        data = c.get(icon["src"])
        assert data.headers["content-type"] == "image/png"
        w, h = png_size(data.content)
        assert f"{w}x{h}" == icon["sizes"], icon
        sizes.add(w)
    assert {192, 512} <= sizes


def test_the_page_s_icon_is_favicon_svg_inline():
    """The page names its icon inline (one request fewer on a first visit, tests/page/test_page_weight.py):
    the same picture as favicon.svg, which /favicon.ico serves to whoever asks for it."""
    import re
    from urllib.parse import unquote
    with open(os.path.join(STATIC, "index.html"), encoding="utf-8") as f:
        href = re.search(r'<link rel="icon" href="data:image/svg\+xml;charset=utf-8,([^"]+)"', f.read())[1]
    with open(os.path.join(STATIC, "favicon.svg"), encoding="utf-8") as f:
        assert unquote(href) == f.read().strip().replace('"', "'")


def test_a_new_fingerprint_is_a_new_worker():
    raw = assets.sources()
    before = assets.build(raw)
    after = assets.build({**raw, "style.css": raw["style.css"] + b"\n/* changed */\n"})
    assert before.version != after.version and before.worker.data != after.worker.data
    assert f'"version": "{after.version}"' in after.worker.data.decode()
    with pytest.raises(ValueError):
        assets.worker_script(b"no build line", "v", [])


def test_the_icons_are_the_sizes_they_claim():
    for size in (192, 512):
        with open(os.path.join(STATIC, f"icon-{size}.png"), "rb") as f:
            assert png_size(f.read()) == (size, size)


# -- in the browser ---------------------------------------------------------------------------

LAN_NAME = "lan.example"  # resolved to 127.0.0.1 by the browser: an origin over plain http that is not loopback


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The server, and the paths its requests asked for (to tell a file the worker kept from one fetched)."""
    from majiang.server.app import create_app

    db = tmp_path_factory.mktemp("pwa") / "p.sqlite3"
    inner = create_app(f"sqlite:///{db}", bot_delay=0.05)
    seen: list[str] = []

    async def counted(scope, receive, send):
        if scope["type"] == "http":
            query = scope.get("query_string", b"").decode()
            seen.append(scope["path"] + ("?" + query if query else ""))
        await inner(scope, receive, send)

    with serving(counted) as port:
        yield port, seen


@pytest.fixture(scope="module")
def chromium():
    playwright_api = pytest.importorskip("playwright.sync_api")
    if not os.path.exists(CHROMIUM):
        pytest.skip("Debian's chromium is not installed")
    args = [*ARGS, f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1"]
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=args)
        yield browser
        browser.close()


def wait_until(page, expression, timeout=20000):
    """Polled from here: the page's policy forbids the eval Playwright's own polling needs."""
    deadline = time.monotonic() + timeout / 1000
    while time.monotonic() < deadline:
        try:
            if page.evaluate(expression):
                return
        except Exception as exc:  # the page navigated meanwhile: ask the new one
            if "context was destroyed" not in str(exc) and "navigat" not in str(exc):
                raise
        page.wait_for_timeout(50)
    raise AssertionError(f"timed out waiting for {expression}")


def open_page(context, url):
    page = context.new_page()
    page.errors = []
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(url)
    wait_until(page, "document.querySelectorAll('#variant option').length > 0")  # the lobby drew the games
    return page


KEPT = """async () => {
    const out = {};
    for (const name of await caches.keys()) {
        out[name] = (await (await caches.open(name)).keys()).map((r) => { const u = new URL(r.url); return u.pathname + u.search; });
    }
    return out;
}"""


def static_hits(seen, version):
    return [p for p in seen if p.startswith("/static/") and p.endswith(f"?v={version}")]


def test_the_worker_installs_keeps_the_files_and_a_new_fingerprint_replaces_them(served, chromium):
    from majiang.server.routes import site
    port, seen = served
    base = f"http://127.0.0.1:{port}/"
    context = chromium.new_context(viewport={"width": 844, "height": 390}, is_mobile=True, has_touch=True)
    original = site.BUILD
    try:
        page = open_page(context, base)
        cdp = context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["errors"] == [] and f"manifest.webmanifest?v={original.version}" in manifest["url"], manifest
        wait_until(page, "document.documentElement.dataset.worker === 'registered'")
        wait_until(page, "!!navigator.serviceWorker.controller")  # installed, active, and this page is its client
        kept = page.evaluate(KEPT)
        urls = json.loads(original.worker.data.decode().split("const BUILD = ", 1)[1].split(";\n", 1)[0])["files"]
        assert list(kept) == [f"majiang-{original.version}"] and sorted(kept[f"majiang-{original.version}"]) == sorted(urls)
        installable = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        # a manifest, its icons and a worker: Chromium would offer to install (not in a private
        # window, which every context of Playwright's is)
        assert [e["errorId"] for e in installable if e["errorId"] != "in-incognito"] == [], installable

        # a repeat visit with the browser's HTTP cache emptied: the files come from the worker's cache
        cdp.send("Network.clearBrowserCache")
        seen.clear()
        answered = []
        page.on("response", lambda r: answered.append((r.url, r.from_service_worker)) if "/static/" in r.url else None)
        page.goto(base)
        wait_until(page, "document.querySelectorAll('#variant option').length > 0")
        assert static_hits(seen, original.version) == [], seen
        assert answered and all(by_worker for _, by_worker in answered), answered
        assert "/" in seen  # the page itself always asks the server (the game needs it)

        # the page's files change: a new fingerprint, a new worker, a new cache; the old one goes
        raw = assets.sources()
        site.BUILD = assets.build({**raw, "style.css": raw["style.css"] + b"\n/* a new look */\n"})
        new = site.BUILD.version
        page.goto(base)
        wait_until(page, f"caches.keys().then((k) => k.length === 1 && k[0] === 'majiang-{new}')")
        wait_until(page, "navigator.serviceWorker.controller && navigator.serviceWorker.controller.state === 'activated'")
        assert f"style.css?v={new}" in page.evaluate("document.querySelector('link[rel=stylesheet]').href")
        cdp.send("Network.clearBrowserCache")
        seen.clear()
        answered.clear()
        page.goto(base)
        wait_until(page, "document.querySelectorAll('#variant option').length > 0")
        assert static_hits(seen, new) == [] and static_hits(seen, original.version) == [], seen
        assert any(f"style.css?v={new}" in u for u, _ in answered) and all(w for _, w in answered), answered
        assert page.errors == [], page.errors
    finally:
        site.BUILD = original
        context.close()


def test_over_plain_http_on_a_lan_there_is_no_worker_and_the_page_works(served, chromium):
    port, seen = served
    context = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        seen.clear()
        page = open_page(context, f"http://{LAN_NAME}:{port}/")
        assert page.evaluate("window.isSecureContext") is False
        assert page.evaluate("navigator.serviceWorker === undefined && document.documentElement.dataset.worker === undefined")
        page.fill("#name", "阿明")
        page.click("#save-name")
        wait_until(page, "document.querySelector('#me').textContent === '阿明'")  # the API answers as ever
        page.wait_for_timeout(300)
        assert "/sw.js" not in seen and page.evaluate("typeof caches === 'undefined'")  # no cache either
        assert page.errors == [], page.errors
    finally:
        context.close()


def test_the_screen_stays_awake_during_a_hand_and_sleeps_after(served, chromium):
    port, _ = served
    base = f"http://127.0.0.1:{port}"
    context = chromium.new_context(viewport={"width": 844, "height": 390}, is_mobile=True, has_touch=True)
    try:
        page = open_page(context, base + "/")
        assert page.evaluate("document.documentElement.dataset.wakeLock === undefined")  # nothing asked in the lobby
        page.fill("#name", "Awake")
        page.click("#save-name")
        wait_until(page, "document.querySelector('#me').textContent === 'Awake'")
        code = page.evaluate("""async () => (await (await fetch('/api/rooms', {method: 'POST', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({variant: 'kawuxing', hands: 1, bots: 'greedy', timers: {turn_seconds: 300, claim_seconds: 120}})})).json()).code""")
        page.goto(f"{base}/?room={code}")
        page.wait_for_selector("#start", state="visible")
        page.click("#start")
        page.wait_for_selector(".seat.me .tile")
        wait_until(page, "document.documentElement.dataset.wakeLock === 'held'")
        page.click("#dissolve")  # alone with bots: the vote is one's own, the match ends, the lock goes
        wait_until(page, "document.documentElement.dataset.wakeLock === undefined")
    finally:
        context.close()
