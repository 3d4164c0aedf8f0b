"""PyInstaller runtime hook: what the bundle has in place of torch._dynamo.

The bundle leaves torch's compiler stack out (torch._dynamo, torch._inductor, sympy: they
would take the bundle over its 750 MiB limit, and the explorer never compiles a model).
Yet every optimiser reaches for it: Optimizer.__init__ runs through torch._disable_dynamo,
which calls ``torch._dynamo.disable(fn)``, and each ``step()`` calls
``torch._dynamo.graph_break()``. Without a compiler both mean "run this eagerly", which is
what plain Python does, so this module answers them with exactly that. The bundle's
--self-test trains each lab for a few steps, so a torch that needs more fails the build.
"""

import sys
import types


def _disable(fn=None, recursive=True, **_options):
    """Run ``fn`` as it is (there is no compiler to keep away from it)."""
    return fn if fn is not None else (lambda f: f)


def _install() -> None:
    stand_in = types.ModuleType("torch._dynamo", __doc__)
    stand_in.disable = _disable
    stand_in.graph_break = lambda: None  # a graph break outside compilation does nothing
    stand_in.is_compiling = lambda: False
    sys.modules.setdefault("torch._dynamo", stand_in)


_install()
