"""``majiang serve``: the web game."""

from __future__ import annotations

import os

from majiang.core.errors import MajiangError
from majiang.play.review import DEFAULT_BUDGET, MAX_BUDGET
from majiang.server.quiet import HOLD  # the standard library only: --help needs no web extra


def lan_urls(host: str, port: int) -> list[str]:
    """Addresses others on the network can open: this machine's interfaces' addresses when serving
    on all interfaces (``majiang.server.lan``), else the one given."""
    from majiang.server.lan import lan_urls as urls

    return urls(host, port)


def cmd_serve(args) -> int:
    try:
        import uvicorn
        from sqlalchemy.exc import SQLAlchemyError

        from majiang.server.app import create_app, default_db_url
        from majiang.server.db_url import check_url, open_error
        from majiang.server.slow_clients import KEEP_ALIVE_SECONDS, with_head_timeout
    except ImportError as exc:
        raise MajiangError(f"the web game needs its extra: pip install 'majiang[web]' ({exc.name} missing)") from None
    if args.review_budget is not None and not 2 <= args.review_budget <= MAX_BUDGET:
        raise MajiangError(f"--review-budget must be 2 to {MAX_BUDGET:,} samples a decision, got {args.review_budget}")
    from majiang.server.reviews import REVIEWS_PER_MINUTE

    if args.reviews_per_minute is None:
        args.reviews_per_minute = REVIEWS_PER_MINUTE
    if args.reviews_per_minute < 1:
        raise MajiangError(f"--reviews-per-minute must be 1 or more, got {args.reviews_per_minute}")
    if not 0 <= args.review_quiet_ms <= 1000:
        raise MajiangError(f"--review-quiet-ms must be 0 to 1000, got {args.review_quiet_ms:g}")
    if not 1 <= args.port <= 65535:
        raise MajiangError(f"--port must be 1-65535, got {args.port}")
    url = args.db or default_db_url()
    check_url(url)
    share = lan_urls(args.host, args.port)
    workers = args.bot_workers if args.bot_workers is not None else (os.cpu_count() or 1)
    from majiang.server.lan import allowed_hosts

    hosts = allowed_hosts(args.host, share, args.allowed_host)
    try:
        app = create_app(url, bot_delay=args.bot_delay, share_urls=share, new_players_per_10min=args.new_players,
                         sockets_per_address=args.sockets_per_address,
                         bot_workers=workers, allowed_hosts=hosts, worker_id=args.worker_id,
                         lease_seconds=args.lease_seconds, full_gc_seconds=args.full_gc_seconds or None,
                         review_budget=args.review_budget, reviews_per_minute=args.reviews_per_minute,
                         review_hold=args.review_quiet_ms / 1000)
    except SQLAlchemyError as exc:
        raise open_error(url, exc) from None
    print(f"majiang: database {url.split('@')[-1]}")
    if app.state.worker:
        print(f"majiang: worker {app.state.worker} (tables leased for {args.lease_seconds:g} s)", flush=True)
    local = "127.0.0.1" if args.host in ("0.0.0.0", "::", "") else args.host
    print(f"majiang: open http://{local}:{args.port}/ in a browser", flush=True)
    if share:
        print("majiang: friends on your network open " + " or ".join(share), flush=True)
    elif args.host.startswith("127.") or args.host == "localhost":
        print("majiang: only this computer can connect; to let friends on your network join, "
              "serve with --host 0.0.0.0", flush=True)
    # a websocket frame larger than this is refused by the protocol layer before the app reads it;
    # a connection idle past keep-alive, or whose request head is not in within --head-timeout, is
    # closed; X-Forwarded-For/-Proto are believed only from the router's addresses
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", ws_max_size=64 * 1024,
                h11_max_incomplete_event_size=64 * 1024, timeout_keep_alive=KEEP_ALIVE_SECONDS,
                http=with_head_timeout(args.head_timeout), proxy_headers=True,
                forwarded_allow_ips=args.forwarded_allow_ips or os.environ.get("FORWARDED_ALLOW_IPS") or "127.0.0.1")
    return 0


def register(sub) -> None:
    p = sub.add_parser("serve", help="the web game: rooms, bots, reconnection, replays",
                       description="Serve the browser game. SQLite by default (~/.majiang/majiang.sqlite3, created "
                       "and upgraded on first run); PostgreSQL with --db postgresql://user:pass@host/db after "
                       "'majiang db upgrade --db URL'. Several workers may share one PostgreSQL database behind "
                       "a router that sends each room to one worker (deploy/haproxy.cfg).")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on: 127.0.0.1 (default) is this computer only; 0.0.0.0 lets "
                   "others on your network join (the addresses to share are printed)")
    # (argparse checks a string default)
    p.add_argument("--port", type=int, default=os.environ.get("MAJIANG_PORT") or 8000,
                   help="the port (default 8000, or $MAJIANG_PORT)")
    p.add_argument("--db", metavar="URL", help="SQLAlchemy database URL")
    p.add_argument("--full-gc-seconds", type=float, default=300.0, metavar="SEC",
                   help="how often the server runs Python's full garbage collection (default 300; at other "
                   "times only young objects are collected, so a full server does not pause for it every few "
                   "seconds; 0: Python's own policy)")
    p.add_argument("--bot-delay", type=float, default=0.4, metavar="SEC", help="how long bots think (default 0.4)")
    p.add_argument("--bot-workers", type=int, default=None, metavar="N",
                   help="processes that run the bots' decisions, off the event loop (default: one per core; "
                   "0: a thread of the server process)")
    p.add_argument("--review-budget", type=int, default=None, metavar="N",
                   help=f"samples a decision of a 复盘, computed at idle CPU priority in processes of its own, half as "
                   f"many as the bot workers (default {DEFAULT_BUDGET}, "
                   "8 without the native engine: a hand in a few seconds of one core; more is deeper and slower)")
    p.add_argument("--reviews-per-minute", type=int, default=None, metavar="N",
                   help="复盘 one person may start a minute (default 3; asking for a stored one costs nothing)")
    p.add_argument("--review-quiet-ms", type=float, default=HOLD * 1000, metavar="MS",
                   help=f"a 复盘 computes only once the live tables have been quiet this long (default "
                   f"{HOLD * 1000:g}: "
                   "each player's message, bot decision and action holds reviews back that long, so a table's answer "
                   "shares the machine with at most a millisecond of one; a server whose tables never pause gives "
                   "reviews time when they "
                   "do); 0: reviews run beside busy tables, at idle priority only (a machine with cores to spare)")
    p.add_argument("--allowed-host", action="append", metavar="NAME",
                   help="a host name browsers may use to reach this server, besides its own addresses "
                   "(repeatable; e.g. the public name behind a proxy; '*' allows any)")
    p.add_argument("--sockets-per-address", type=int, default=32, metavar="N",
                   help="open websockets one client address may hold (default 32; raise it for a load test "
                   "from one machine)")
    p.add_argument("--new-players", type=int, default=20, metavar="N",
                   help="players one address may create in 10 minutes (default 20)")
    p.add_argument("--worker-id", metavar="ID",
                   help="this worker's name when several serve one PostgreSQL database (unique per process; "
                   "default: host-pid-random). Each live table is driven by the one worker that holds its lease")
    p.add_argument("--head-timeout", type=float, default=10.0, metavar="SEC",
                   help="seconds a connection has to send a request's head (default 10; idle kept-alive "
                   "connections close after 5 s): slow or silent clients do not hold connections open")
    p.add_argument("--forwarded-allow-ips", metavar="ADDRS",
                   help="the proxy addresses whose X-Forwarded-For and X-Forwarded-Proto are believed "
                   "(comma-separated; default: $FORWARDED_ALLOW_IPS, else 127.0.0.1): the router's, never a browser's")
    p.add_argument("--lease-seconds", type=float, default=10.0, metavar="SEC",
                   help="how long a table stays with a worker that stopped renewing its lease (default 10)")
    p.set_defaults(func=cmd_serve)
