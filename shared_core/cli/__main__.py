"""``python -m shared_core.cli``: the ``usermemory`` command."""

from . import main

main()
