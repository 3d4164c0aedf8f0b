"""Attention Explorer: ``python main.py`` opens the window (see ``--help``)."""

import torch  # noqa: F401  first: torch >= 2.9 fails on Windows when imported after Qt

from explorer.app import main

if __name__ == "__main__":
    raise SystemExit(main())
