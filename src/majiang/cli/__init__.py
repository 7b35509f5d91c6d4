"""The ``majiang`` command: one module per group of subcommands."""

try:
    from majiang.cli.main import main
except KeyboardInterrupt:  # Ctrl-C while the command loads (the console script imports this): one line
    import sys

    sys.stderr.write("majiang: interrupted\n")
    raise SystemExit(130) from None

__all__ = ["main"]
