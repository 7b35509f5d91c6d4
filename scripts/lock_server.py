"""Writes requirements/server.lock: the server's install (the web and postgres extras) pinned to
exact releases, as pip resolves them now. Run it on purpose, then run the tests, then commit:

    .venv/bin/python scripts/lock_server.py

The lock is a pip constraints file in requirements style (``name==version``): CI (scripts/test.sh)
and the deploy files install with ``-c requirements/server.lock``, so a server never changes under
its users; pyproject.toml keeps the open ranges for library users, and .ci/run tests the guards
against the newest releases those ranges allow (scripts/test_newest.sh).
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOCK = os.path.join(ROOT, "requirements", "server.lock")


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        subprocess.run([sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--quiet",
                        "--report", report, ".[web,postgres]"], cwd=ROOT, check=True)
        with open(report, encoding="utf-8") as f:
            found = json.load(f)["install"]
    pins = sorted((i["metadata"]["name"].lower().replace("_", "-"), i["metadata"]["version"])
                  for i in found if i["metadata"]["name"] != "majiang")
    with open(LOCK, "w", encoding="utf-8") as f:
        f.write("# The server's install pinned: majiang[web,postgres] as pip resolved it "
                f"(CPython {platform.python_version()}, {sys.platform}).\n"
                "# Written by scripts/lock_server.py; installed with `pip install -c requirements/server.lock ...`.\n")
        f.writelines(f"{name}=={version}\n" for name, version in pins)
    print(f"{LOCK}: {len(pins)} pins")
    return 0


if __name__ == "__main__":
    sys.exit(main())
