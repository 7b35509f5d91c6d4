"""The bot pool's processes end with the server, however the server ends (SIGKILL included).

A pool worker blocks on its task queue, whose pipe it holds both ends of, so it never sees its
server go; the forkserver that forks the workers and the resource tracker live as long as any
worker. So the forkserver (which imports this module as its preload) and every worker (whose
initializer is ``watch_parent``) watch their parent: when it is gone (they were handed to init),
they exit. The server's own clean stop (``BotRunner.close``) still stops them at once.
"""

from __future__ import annotations

import os
import threading
import time

CHECK_SECONDS = 0.5


def watch_parent(interval: float = CHECK_SECONDS) -> None:
    """Exit this process once its parent has gone (a daemon thread checks the parent's id)."""
    parent = os.getppid()

    def run() -> None:
        while True:
            time.sleep(interval)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=run, name="majiang-parent-watch", daemon=True).start()


if __name__ != "__main__" and os.environ.get("MAJIANG_FORKSERVER_WATCH") == "1":
    watch_parent()  # imported as the forkserver's preload: the forkserver watches the server
