"""``python -m paohuzi``: the ``paohuzi`` command (:mod:`paohuzi.cli.main`)."""

import sys

from paohuzi.cli.main import main

sys.exit(main())
