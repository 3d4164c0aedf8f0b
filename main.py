"""Attention Explorer: ``python main.py`` opens the window (see ``--help``)."""

import torch  # noqa: F401  before Qt: torch >= 2.9 fails on Windows when imported after Qt

import explorer  # noqa: F401  first: it tunes torch's threads before torch loads
from explorer.app import main

if __name__ == "__main__":
    raise SystemExit(main())
