"""The web game: ASGI app, persistence and live tables (needs ``pip install majiang[web]``)."""
