"""Attention Explorer: ``python main.py`` opens the window (see ``--help``)."""

# The order matters: explorer tunes torch's threads before torch loads, and torch comes
# before Qt (torch >= 2.9 fails on Windows when imported after Qt).
# isort: off
import explorer  # noqa: F401
import torch  # noqa: F401

# isort: on
from explorer.app import main

if __name__ == "__main__":
    raise SystemExit(main())
