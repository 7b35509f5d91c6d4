"""Debian's chromium as the browser tests start it (Playwright's own browser download does not work
here): where it is, and the flags that keep a headless run quiet and offline."""

import shutil

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
