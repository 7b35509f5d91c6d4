import sys

try:
    from majiang.cli.main import main
except KeyboardInterrupt:  # Ctrl-C while the command loads: one line, as once it runs
    sys.stderr.write("majiang: interrupted\n")
    sys.exit(130)

sys.exit(main())
