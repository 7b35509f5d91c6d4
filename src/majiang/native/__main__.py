import sys

from majiang.native import main

sys.exit(main())
