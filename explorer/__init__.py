"""Attention Explorer: watch attention compute, number by number.

As a library (explorer/api.py; docs/api.md)::

    import explorer
    t = explorer.trace("The animal didn't cross the street because it was too tired", layer=5)
    explorer.translate("9 mai 2018"), explorer.vision(generate=7)

Importing the package is cheap: no torch, no Qt until a function is called.
"""

import os

# Before torch loads its OpenMP runtime: idle worker threads sleep instead of spinning. Spinning
# threads fight any other busy process for the cores, and a 13-token forward that takes 9 ms
# then stalls for hundreds of ms (measured on 2 cores with one kept busy); sleeping costs about
# 15 % on an idle machine. A value the user set is kept.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from explorer.api import API_VERSION, ExplorerError, trace, translate, view, vision

__all__ = ["API_VERSION", "ExplorerError", "trace", "translate", "view", "vision"]
