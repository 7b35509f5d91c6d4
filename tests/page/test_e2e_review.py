"""复盘 in a real browser: after a finished hand the settlement offers it, the replay draws it (marks
on the timeline, the header, a decision's options), readable on a phone upright and on its side, in
Chinese and English. Skipped as tests/page/test_e2e.py is, without chromium or Playwright."""

import os

import pytest

pytest.importorskip("playwright.sync_api")
from serving import serving  # noqa: E402
from test_e2e import SHOTS, browser, check_page, create_room, new_player, play_until_settlement, wait_until  # noqa: E402, F401


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A server whose reviews are cheap (2 samples a decision: the page needs their shape, not their depth)."""
    from majiang.server.app import create_app

    db = tmp_path_factory.mktemp("e2e-review") / "e2e.sqlite3"
    app = create_app(f"sqlite:///{db}", bot_delay=0.05, new_players_per_10min=200, review_budget=2)
    with serving(app) as port:
        yield f"http://127.0.0.1:{port}"


FITS = r"""() => {
    const out = [], W = innerWidth, H = innerHeight;
    const panel = document.querySelector('#review-panel');
    const r = panel.getBoundingClientRect();
    if (r.left < 0 || r.right > W + 0.5 || r.top < 0 || r.bottom > H + 0.5) out.push('panel outside the screen');
    if (panel.scrollWidth > panel.clientWidth + 1) out.push('panel wider than itself: ' + panel.scrollWidth);
    for (const b of panel.querySelectorAll('button')) {
        const q = b.getBoundingClientRect();
        if (q.width && (q.height < 32 || q.width < 32)) out.push('a small button: ' + b.textContent);
    }
    const strip = document.querySelector('#rv-marks').getBoundingClientRect();
    if (strip.right > W + 0.5 || strip.left < 0) out.push('marks outside the screen');
    return out;
}"""


def test_review_opens_from_the_settlement_and_reads_on_a_phone(server, browser):  # noqa: F811
    page = new_player(browser, server, "Fupan", (390, 844))
    code = create_room(page, "kawuxing")
    page.click("#start")
    page.wait_for_selector(".seat.me .tile")
    play_until_settlement(page)
    link = page.locator("#review-link")
    assert link.is_visible() and "复盘" in link.inner_text()
    href = link.get_attribute("href")
    assert f"replay={code}" in href and "review=1" in href and link.get_attribute("target") == "_blank"
    page.goto(server + href)  # the link opens a tab of its own; here, the same one
    page.wait_for_selector("#review-panel .rv-sum", timeout=60000)
    head = page.locator("#review-panel").inner_text()
    assert "一致率" in head and "期望损失" in head and "大师" in head and "+0.69 [0.41, 0.97]" in head
    decisions = page.evaluate(f"fetch('/api/rooms/{code}/games/0/review').then((r) => r.json())")
    marks = page.locator("#rv-marks .rv-mark")
    assert marks.count() == len(decisions["review"]["decisions"]) > 0
    # a mark jumps to that decision: what was played, the reviewer's best, the options' values
    marks.nth(marks.count() - 1).click()
    step = page.locator("#review-panel .rv-step")
    assert step.count() == 1 and "你:" in step.inner_text()
    assert page.locator("#review-panel .rv-options tr").count() >= 2
    costly = page.locator("#review-panel .rv-top .rv-jump")
    if costly.count():  # the costliest decisions jump too
        costly.first.click()
        assert page.locator("#review-panel .rv-step .rv-badge").inner_text() in ("小失误", "大失误")
    check_page(page)
    os.makedirs(SHOTS, exist_ok=True)
    assert page.evaluate(FITS) == []
    page.screenshot(path=os.path.join(SHOTS, "review_390x844.png"))
    page.set_viewport_size({"width": 844, "height": 390})
    page.wait_for_timeout(200)
    assert page.evaluate(FITS) == []
    page.screenshot(path=os.path.join(SHOTS, "review_844x390.png"))
    page.click("#lang")  # English, complete
    wait_until(page, "document.documentElement.lang === 'en'")
    text = page.locator("#review-panel").inner_text()
    assert "Agreement" in text and "Expected loss" in text and "expert" in text
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in page.locator("#review-panel .rv-sum").inner_text())
    page.screenshot(path=os.path.join(SHOTS, "review_844x390_en.png"))
    # folded to one line, the board shows whole
    page.click("#review-panel .rv-fold")
    assert not page.locator("#review-panel .rv-body").is_visible()
    page.context.close()


def test_a_review_is_refused_to_someone_who_did_not_play_the_hand(server, browser):  # noqa: F811
    host = new_player(browser, server, "Host")
    code = create_room(host, "kawuxing")
    host.click("#start")
    host.wait_for_selector(".seat.me .tile")
    play_until_settlement(host)
    other = new_player(browser, server, "Other")
    other.goto(f"{server}/?replay={code}&hand=0")
    other.wait_for_selector("#rp-review")
    other.click("#rp-review")
    wait_until(other, "(document.querySelector('#review-panel') || {}).innerText"
                      " && document.querySelector('#review-panel').innerText.includes('只有这一局的玩家')")
    assert not other.locator("#rv-marks .rv-mark").count()
    host.context.close()
    other.context.close()
