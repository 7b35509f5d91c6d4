"""Issue #46: a page that loads once. The phone page's first visit moves under 100 KiB on the wire
(gzip), and a repeat visit under 10 KiB (the files are fingerprinted and kept; the page and the
rules' schema are revalidated, a 304 each). Measured in Debian's chromium by the bytes its network
layer received (``encodedDataLength``: headers and body as they came).

Skipped as tests/page/test_e2e.py is, without chromium or Playwright.
"""

import os

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")
from chromium import ARGS, CHROMIUM  # noqa: E402
from serving import serving  # noqa: E402

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3, "is_mobile": True, "has_touch": True}


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    from majiang.server.app import create_app

    db = tmp_path_factory.mktemp("weight") / "w.sqlite3"
    with serving(create_app(f"sqlite:///{db}", bot_delay=0.05)) as port:
        yield f"http://127.0.0.1:{port}"


def visit(page, cdp, url) -> tuple[int, int, list[str]]:
    """(bytes received, requests, the URLs that moved more than their headers) for one visit."""
    seen: dict[str, dict] = {}

    def sent(e):
        seen[e["requestId"]] = {"url": e["request"]["url"], "bytes": 0}

    def done(e):
        if e["requestId"] in seen:
            seen[e["requestId"]]["bytes"] = e["encodedDataLength"]
    cdp.on("Network.requestWillBeSent", sent)
    cdp.on("Network.loadingFinished", done)
    page.goto(url, wait_until="networkidle")
    page.wait_for_selector("#name, #me", state="attached")
    page.wait_for_timeout(300)
    cdp.remove_listener("Network.requestWillBeSent", sent)
    cdp.remove_listener("Network.loadingFinished", done)
    total = sum(r["bytes"] for r in seen.values())
    return total, len(seen), [f"{r['url']} {r['bytes']}" for r in seen.values() if r["bytes"] > 1500]


def test_the_phone_page_loads_once(base):
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            context = browser.new_context(**PHONE)
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Network.enable")
            first, requests, _ = visit(page, cdp, base + "/")
            assert first < 100 * 1024, (first, requests)
            page.goto("about:blank")
            again, requests, heavy = visit(page, cdp, base + "/")
            assert again < 10 * 1024, (again, requests, heavy)
            print(f"first visit {first} bytes, repeat visit {again} bytes ({requests} requests)")
        finally:
            browser.close()
