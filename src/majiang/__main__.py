import sys

from majiang.cli.main import main

sys.exit(main())
