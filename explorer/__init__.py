"""Attention Explorer: watch attention compute, number by number."""

import os

# Before torch loads its OpenMP runtime: idle worker threads sleep instead of spinning. Spinning
# threads fight any other busy process for the cores, and a 13-token forward that takes 9 ms
# then stalls for hundreds of ms (measured on 2 cores with one kept busy); sleeping costs about
# 15 % on an idle machine. A value the user set is kept.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
