"""A tab's view built in pieces, one piece per turn of the event loop.

A lesson step into a lab's tab built its view in the key's turn: the imports of its modules
(10–35 ms of the GUI thread's CPU on a quiet machine, 2–3 times that on a loaded one), the
view's widgets (15–30 ms), its first draw and the page's first layout and paint, all before
the window took the next key: 60–165 ms (trial 6, T6). In pieces, each turn is one module's
import, or the view's construction, or its first draw: the window handles input between
them. ``import_in_pieces(module)`` walks the ``explorer`` modules a module imports at its
top level (read from their source, not imported to find out), leaves first; ``Pieces`` runs
such walks from a 0 ms timer, one step a turn, and calls their ``then`` at the end.

A 0 ms timer's turns can come back to back: Qt fires it again before a timer that fell due
while a piece ran (a 5 ms meter saw a 21 ms piece and the next 20 ms one as one 41 ms block,
20→21). After a piece that took more than ``HEAVY_MS`` of the GUI thread's CPU the next one
waits ``PAUSE_MS``: the window's own timers, paints and input come in between.
"""

from __future__ import annotations

import ast
import importlib
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from PySide6 import QtCore

ROOT = Path(__file__).resolve().parents[2]  # the folder that holds the explorer package
HEAVY_MS = 8.0  # a piece that took this much of the GUI thread's CPU ...
PAUSE_MS = 16  # ... is followed by this pause before the next piece


def _source(name: str) -> Path | None:
    base = ROOT.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _is_module(name: str) -> bool:
    return _source(name) is not None


def top_level_imports(name: str) -> list[str]:
    """The explorer modules ``name`` imports at its top level, in its order (its source read)."""
    path = _source(name)
    if path is None:
        return []
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    except (OSError, SyntaxError, ValueError):
        return []
    found: list[str] = []
    parts = name.split(".")
    package = name if path.name == "__init__.py" else ".".join(parts[:-1])
    for node in tree.body:
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] == "explorer"]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if module.split(".")[0] != "explorer":
                continue
            found.append(module)
            found += [f"{module}.{a.name}" for a in node.names if _is_module(f"{module}.{a.name}")]
    parents = [".".join(parts[:i]) for i in range(1, len(parts))]  # imported before the module
    return [m for m in dict.fromkeys(parents + found) if m != name]


def import_in_pieces(module: str) -> Iterator[None]:
    """Import ``module`` and the explorer modules it needs that are not imported yet, leaves
    first, yielding after each source read and each import."""
    seen: set[str] = set()

    def visit(name: str) -> Iterator[None]:
        if name in sys.modules or name in seen:
            return
        seen.add(name)
        needs = top_level_imports(name)
        yield
        for need in needs:
            yield from visit(need)
        if name not in sys.modules:
            importlib.import_module(name)
            yield

    yield from visit(module)


class Pieces(QtCore.QObject):
    """Runs walks of pieces, one step per turn of the event loop (a 0 ms timer), in the order
    they were started; a walk under a key that is started again is not run twice."""

    def __init__(self, parent: QtCore.QObject):
        super().__init__(parent)
        self._walks: dict[str, tuple[Iterator[None], list[Callable[[], None]]]] = {}
        self.timer = QtCore.QTimer(self, interval=0)
        self.timer.timeout.connect(self._next)
        self.turns = 0  # steps run, one a turn
        self.pauses = 0  # pauses taken after a heavy piece

    def start(
        self, key: str, walk: Callable[[], Iterator[None]], then: Callable[[], None] | None = None
    ) -> None:
        if key not in self._walks:
            self._walks[key] = (walk(), [])
        if then is not None:
            self._walks[key][1].append(then)
        if not self.timer.isActive():
            self.timer.start(0)

    def pending(self, key: str) -> bool:
        return key in self._walks

    def busy(self) -> bool:
        return bool(self._walks)

    def drop(self, key: str) -> None:
        """Forget that walk (its ``then`` is not called): what it would make is out of date."""
        self._walks.pop(key, None)
        if not self._walks:
            self.timer.stop()

    def finish(self, key: str) -> None:
        """Run the rest of that walk now (someone needs its end at once), then its ``then``."""
        walk = self._walks.get(key)
        if walk is None:
            return
        for _ in walk[0]:
            pass
        self._end(key)

    def _end(self, key: str) -> None:
        _, thens = self._walks.pop(key)
        if not self._walks:
            self.timer.stop()
        for then in thens:
            then()

    def _pace(self, spent_ms: float) -> None:
        """The next piece at the next turn, or after a pause when this one was heavy."""
        if not self._walks:
            return
        interval = PAUSE_MS if spent_ms > HEAVY_MS else 0
        if interval:
            self.pauses += 1
        if self.timer.interval() != interval or not self.timer.isActive():
            self.timer.start(interval)

    def _next(self) -> None:
        if not self._walks:
            self.timer.stop()
            return
        key = next(iter(self._walks))
        self.turns += 1
        started = time.thread_time()
        try:
            next(self._walks[key][0])
        except StopIteration:
            self._end(key)
        except Exception:  # the walk ends here; a later show builds the view and says what is wrong
            self._walks[key] = (iter(()), self._walks[key][1])
            raise
        finally:
            self._pace((time.thread_time() - started) * 1e3)
