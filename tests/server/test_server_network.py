"""Issue #46: friends on the network (this machine's addresses read from its interfaces, the Host
guard answering to them, the invite link on one of them), bodies past the limit answered 413 however
they are sent, room-code guesses counted before the lookup, the page's files compressed and cached,
replays sent as kept bytes within a per-address budget.

No test here sends traffic anywhere but the process itself or 127.0.0.1: the machine's addresses
are mocked, and the Host guard is tried by naming a host in the header of a request to the app."""

from __future__ import annotations

import asyncio
import gzip
import json
import logging
import socket

import pytest

pytest.importorskip("fastapi")
import httpx  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from majiang.server import lan  # noqa: E402
from majiang.server.app import create_app  # noqa: E402
from test_server import _OPEN, make_room, play_to_end, player  # noqa: E402, F401

LAN = "192.168.1.23"


@pytest.fixture
def debian_machine(monkeypatch):
    """A machine whose host name resolves to loopback (/etc/hosts: 127.0.1.1 box), with a Wi-Fi
    address on an interface, a link-local IPv6 one and a global IPv6 one."""
    monkeypatch.setattr(socket, "gethostname", lambda: "box")
    real = socket.getaddrinfo

    def getaddrinfo(host, *a, **k):
        if host == "box":
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.1.1", 0))]
        return real(host, *a, **k)
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(lan, "_route_source", lambda family, probe: LAN if family == socket.AF_INET else None)
    ip_json = json.dumps([
        {"ifname": "lo", "addr_info": [{"family": "inet", "local": "127.0.0.1"}, {"family": "inet6", "local": "::1"}]},
        {"ifname": "wlan0", "addr_info": [{"family": "inet", "local": LAN}, {"family": "inet6", "local": "fe80::1"},
                                          {"family": "inet6", "local": "2001:db8::23"}]},
        {"ifname": "eth1", "addr_info": [{"family": "inet", "local": "10.0.0.8"}]}])
    monkeypatch.setattr(lan, "_from_interfaces", lambda: lan.parse_ip_json(ip_json))


def test_serve_on_all_interfaces_shares_the_interfaces_addresses_not_the_host_names(debian_machine):
    assert lan.machine_addresses() == [LAN, "2001:db8::23", "10.0.0.8"]  # never 127.0.1.1
    assert lan.lan_urls("0.0.0.0", 8000) == [f"http://{LAN}:8000/", "http://10.0.0.8:8000/"]
    assert lan.lan_urls("::", 8000) == [f"http://{LAN}:8000/", "http://[2001:db8::23]:8000/", "http://10.0.0.8:8000/"]
    assert lan.lan_urls("127.0.0.1", 8000) == [] and lan.lan_urls("localhost", 8000) == []
    assert lan.lan_urls("10.0.0.8", 8000) == ["http://10.0.0.8:8000/"]
    hosts = lan.allowed_hosts("::", lan.lan_urls("::", 8000), ["majiang.example"])
    assert {LAN, "10.0.0.8", "2001:db8::23", "box", "box.local", "majiang.example", "127.0.0.1"} <= set(hosts)
    from majiang.server.security import Guard
    guard = Guard(None, hosts=hosts)

    def named(host):
        return guard.host_allowed({"headers": [(b"host", host.encode())]})
    assert named("[2001:db8::23]:8000") and named(f"{LAN}:8000") and named("box.local:8000")
    assert not named("[2001:db8::24]:8000") and not named("127.0.1.1.nip.io:8000") and not named("evil.example")


def test_serve_prints_the_lan_addresses_and_answers_them(debian_machine, monkeypatch, tmp_path, capsys):
    """``majiang serve --host 0.0.0.0`` as a new user runs it: the Wi-Fi address printed, a phone
    naming it answered, an invite made at 127.0.0.1 pointing at it; a rebinding name still refused."""
    import uvicorn

    from majiang.cli.main import main
    served = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: served.update(app=app, **kw))
    assert main(["serve", "--host", "0.0.0.0", "--db", f"sqlite:///{tmp_path / 'n.sqlite3'}", "--bot-workers", "0",
                 "--allowed-host", "majiang.example"]) == 0
    out = capsys.readouterr().out
    assert f"friends on your network open http://{LAN}:8000/ or http://10.0.0.8:8000/" in out
    assert "127.0.1.1" not in out
    c = TestClient(served["app"], base_url="http://127.0.0.1:8000")
    c.__enter__()
    _OPEN.append(c)
    me = player(c)
    code = make_room(c, me["token"])
    # the phone: the same request names the LAN address (sent to the app, never to the network)
    assert c.get(f"/api/rooms/{code}", headers={"Host": f"{LAN}:8000"}).status_code == 200
    assert c.get("/", headers={"Host": "10.0.0.8:8000"}).status_code == 200
    assert c.get("/", headers={"Host": "majiang.example"}).status_code == 200
    assert c.get("/", headers={"Host": "rebind.example:8000"}).status_code == 421
    assert c.get("/", headers={"Host": "127.0.1.2:8000"}).status_code == 421
    invite = c.get(f"/api/rooms/{code}/invite").json()
    assert invite == {"url": f"http://{LAN}:8000/?room={code}", "local_only": False}
    assert c.get(f"/api/rooms/{code}/invite", headers={"Host": "localhost:8000"}).json()["url"].startswith(
        f"http://{LAN}:8000/")
    named = c.get(f"/api/rooms/{code}/invite", headers={"Host": "majiang.example"}).json()
    assert named["url"] == f"http://majiang.example/?room={code}"  # a host who came by a name shares that name
    qr = c.get(f"/api/rooms/{code}/qr.svg")
    assert qr.status_code == 200 and qr.headers["content-type"].startswith("image/svg+xml")


def test_the_real_interfaces_are_read_without_loopback():
    """On this machine, whatever it is: no loopback or link-local address is ever offered."""
    for addr in lan.machine_addresses():
        assert lan.shareable(addr), addr


def test_the_proc_files_are_read_when_ip_is_missing(monkeypatch):
    monkeypatch.setattr(lan.shutil, "which", lambda name: None)
    monkeypatch.setattr(lan.os.path, "exists", lambda p: False)
    files = {"/proc/net/fib_trie": "  |-- 127.0.0.1\n     /32 host LOCAL\n  |-- 192.168.7.4\n     /32 host LOCAL\n",
             "/proc/net/if_inet6": "20010db8000000000000000000000023 03 40 00 00   wlan0\n"}
    monkeypatch.setattr(lan, "_read", lambda path: files.get(path, ""))
    assert lan._from_interfaces() == ["127.0.0.1", "192.168.7.4", "2001:db8::23"]


# -- bodies past the limit --------------------------------------------------------------------

def _client(tmp_path, **kw):
    c = TestClient(create_app(f"sqlite:///{tmp_path / 'n'}.sqlite3", bot_delay=0.0, **kw))
    c.__enter__()
    _OPEN.append(c)
    return c


def test_an_oversized_body_is_a_413_declared_or_chunked_with_one_log_line(tmp_path, caplog):
    c = _client(tmp_path)
    headers = {"Content-Type": "application/json"}

    def chunks():  # no Content-Length: the body's size is known only once it is read
        for _ in range(17):
            yield b" " * 1024
    with caplog.at_level(logging.INFO):
        chunked = c.post("/api/players", content=chunks(), headers=headers)
        declared = c.post("/api/players", content=b" " * (17 * 1024), headers=headers)
    assert chunked.status_code == 413 and chunked.json()["code"] == "request.too_large"
    assert declared.status_code == 413
    lines = [r for r in caplog.records if not r.name.startswith("httpx")]  # the server's log, not the client's
    assert len(lines) == 2 and all(r.exc_info is None and "(413)" in r.getMessage() for r in lines)  # one each

    def small():
        yield b'{"name": '
        yield b'"chunky"}'
    assert c.post("/api/players", content=small(), headers=headers).json()["name"] == "chunky"


# -- room codes -------------------------------------------------------------------------------

def test_a_burst_of_code_guesses_gets_no_more_lookups_than_the_budget(tmp_path):
    """600 simultaneous guesses from one address: every one takes a miss before its lookup, so at
    most the budget (60) is looked up and the rooms among the later guesses are not found."""
    c = _client(tmp_path)
    me = player(c)
    real = [make_room(c, me["token"]) for _ in range(3)]
    guesses = [f"{100000 + i}" for i in range(597) if f"{100000 + i}" not in real] + real
    app = c.app

    async def burst():
        transport = httpx.ASGITransport(app=app, client=("203.0.113.9", 5555))
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as a:
            return await asyncio.gather(*(a.get(f"/api/rooms/{g}") for g in guesses))
    answers = asyncio.run(burst())
    statuses = [r.status_code for r in answers]
    assert statuses.count(404) <= 60 and statuses.count(429) >= 600 - 60
    assert all(s == 429 for s in statuses[-3:])  # the real rooms, asked for past the budget
    miss = next(r for r in answers if r.status_code == 404)
    assert miss.headers.get("x-majiang-miss") == "1"  # the router counts misses for every worker
    # a hit gives its miss back: another address finds its room and still has its whole budget
    assert c.get(f"/api/rooms/{real[0]}").headers.get("x-majiang-miss") is None


# -- the page's files -------------------------------------------------------------------------

def test_the_page_is_compressed_fingerprinted_and_revalidated(tmp_path):
    from majiang.server.routes import site
    c = _client(tmp_path)
    page = c.get("/", headers={"Accept-Encoding": "gzip"})
    assert page.headers["content-encoding"] == "gzip" and page.headers["cache-control"] == "no-cache"
    assert c.get("/", headers={"If-None-Match": page.headers["etag"]}).status_code == 304
    assert f"/static/app.js?v={site.VERSION}" in page.text
    app_js = c.get(f"/static/app.js?v={site.VERSION}", headers={"Accept-Encoding": "gzip"})
    assert app_js.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert f'from "./dom.js?v={site.VERSION}"' in app_js.text
    plain = c.get("/static/app.js", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.headers["cache-control"] == "no-cache"
    assert c.get("/static/app.js", headers={"If-None-Match": plain.headers["etag"]}).status_code == 304
    # the first visit's files on the wire: well under 100 KiB
    wire = sum(len(a.gzipped or a.data) for a in site.ASSETS.values())
    assert wire < 100 * 1024, wire


# -- replays ----------------------------------------------------------------------------------

def test_a_replay_is_sent_as_kept_bytes_validated_and_budgeted(tmp_path, monkeypatch):
    from majiang.server import budgets
    c = _client(tmp_path)
    me = player(c)
    code = make_room(c, me["token"], variant="sichuan")
    c.post(f"/api/rooms/{code}/start", headers={"X-Token": me["token"]})
    with c.websocket_connect(f"/ws/{code}", headers={"X-Token": me["token"]}) as ws:
        play_to_end(ws, 0)
    url = f"/api/rooms/{code}/games/0/frames"
    first = c.get(url, headers={"Accept-Encoding": "gzip"})
    assert first.status_code == 200 and first.headers["content-encoding"] == "gzip"
    assert first.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert first.json()["frames"] and int(first.headers["content-length"]) < len(first.content)
    assert c.get(url, headers={"If-None-Match": first.headers["etag"]}).status_code == 304
    kept = c.app.state.server.replays.kept_one(code, 0)
    assert json.loads(gzip.decompress(kept.gzipped)) == first.json()
    # the budget: so many a minute per address, then 429 (another address is not affected)
    app = c.app

    async def many(n, client):
        transport = httpx.ASGITransport(app=app, client=(client, 5555))
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as a:
            return [r.status_code for r in await asyncio.gather(*(a.get(url) for _ in range(n)))]
    burst = asyncio.run(many(budgets.COSTLY_PER_MINUTE + 10, "203.0.113.5"))
    assert 429 in burst and burst.count(200) + burst.count(304) <= budgets.COSTLY_PER_MINUTE
    assert set(asyncio.run(many(3, "203.0.113.6"))) == {200}
