"""Subscribe to a state's named events: the one mechanism ExplorerState and the labs' states
share (the window's views subscribe; Qt-free, so tests drive the states without a window)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

# callback(event, state): the state is the Observable that changed (its own type in a subclass).
Listener = Callable[[str, Any], object]


class Observable:
    """``subscribe(callback, events)`` → unsubscribe; ``callback(event, state)`` on each change.
    A subclass names its ``EVENTS`` and calls ``_emit`` (or ``_set``) when something changes."""

    EVENTS: tuple[str, ...] = ()

    def __init__(self) -> None:
        self._subscribers: list[tuple[Listener, frozenset[str] | None]] = []

    def subscribe(self, callback: Listener, events: Iterable[str] | None = None) -> Callable[[], None]:
        """Call ``callback(event, state)`` on each change (only of ``events`` when given);
        returns an unsubscribe function."""
        wanted = None if events is None else frozenset(events)
        if wanted is not None and not wanted <= set(self.EVENTS):
            raise ValueError(f"unknown events {sorted(wanted - set(self.EVENTS))}")
        entry = (callback, wanted)
        self._subscribers.append(entry)
        return lambda: self._subscribers.remove(entry) if entry in self._subscribers else None

    def _emit(self, *events: str) -> None:
        for event in events:
            for callback, wanted in list(self._subscribers):
                if wanted is None or event in wanted:
                    callback(event, self)

    def _set(self, attribute: str, value: object, event: str) -> bool:
        """Set an attribute and say so, unless it already holds that value."""
        if getattr(self, attribute) == value:
            return False
        setattr(self, attribute, value)
        self._emit(event)
        return True
