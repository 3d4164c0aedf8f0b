"""The labs' states, in one place: each lab's state hangs off ExplorerState under its name
(``state.labs[name]``) and a session keeps its settings under the same name.

A lab registers one ``LabEntry`` here (a line in ``LABS``, or ``register_lab`` for one made
elsewhere): its name, the ``LabState`` subclass that holds it, and the settings type a session
saves (``to_dict()``, ``from_dict(data)`` raising ValueError that names what is wrong, and a
default when called with nothing: an older session without the lab still opens). Nothing else
in the app state changes for a new lab: ExplorerState makes every registered state, sessions
save and apply every registered lab's settings.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from explorer.appstate.lab import LabState
from explorer.appstate.lm import LMSettings, LMState
from explorer.appstate.local_window import LocalSettings, LocalWindowState
from explorer.appstate.translation import TranslationSettings, TranslationState
from explorer.appstate.vision import VisionSettings, VisionState
from explorer.appstate.vit import ViTSettings, ViTState
from explorer.appstate.why_attention import WhyAttentionSettings, WhyAttentionState


@dataclass(frozen=True)
class LabEntry:
    name: str  # ExplorerState.labs key and session key
    state: Callable[[], LabState]  # makes the lab's state, with its default settings
    settings: Any  # the saved settings' type: to_dict(), from_dict(data), and a default ()


LABS: list[LabEntry] = [
    LabEntry("translation", TranslationState, TranslationSettings),
    LabEntry("vision", VisionState, VisionSettings),
    LabEntry("why_attention", WhyAttentionState, WhyAttentionSettings),
    LabEntry("lm", LMState, LMSettings),
    LabEntry("local", LocalWindowState, LocalSettings),
    LabEntry("vit", ViTState, ViTSettings),
]


def register_lab(entry: LabEntry) -> Callable[[], None]:
    """Add a lab (states made from now on have it); returns what takes it out again."""
    if any(e.name == entry.name for e in LABS):
        raise ValueError(f"a lab named {entry.name!r} is registered already")
    LABS.append(entry)
    return lambda: LABS.remove(entry) if entry in LABS else None


def lab_entry(name: str) -> LabEntry:
    return next(e for e in LABS if e.name == name)
