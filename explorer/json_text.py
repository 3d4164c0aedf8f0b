"""JSON from the user's files, parsed so that every text is either data or one
json.JSONDecodeError: Python's json raises a RecursionError on arrays nested 100,000 deep and
a bare ValueError on an integer of more than 4,300 digits, which readers catching
JSONDecodeError ("not valid JSON") let through as tracebacks.

Qt-free; it imports only the standard library, so every package may use it.
"""

from __future__ import annotations

import json
import sys
from typing import Any


class UnparsableJSON(json.JSONDecodeError):
    """A text json refuses to parse though it may be well-formed; ``str()`` is the reason alone
    (no "line 1 column 1": the place is unknown)."""

    def __init__(self, reason: str, doc: str) -> None:
        super().__init__(reason, doc, 0)

    def __str__(self) -> str:
        return self.msg


def loads(text: str | bytes, allow_nan: bool = True) -> Any:
    """``json.loads``, with its own failures turned into UnparsableJSON (a JSONDecodeError);
    ``allow_nan=False`` refuses the bare NaN and Infinity that strict JSON has no word for."""

    def refuse(constant: str) -> Any:
        raise UnparsableJSON(f"a bare {constant}, which strict JSON does not allow", _doc(text))

    try:
        return json.loads(text) if allow_nan else json.loads(text, parse_constant=refuse)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise
    except RecursionError:
        raise UnparsableJSON("arrays or objects nested too deeply to read", _doc(text)) from None
    except ValueError:  # int() of a too long run of digits
        limit = sys.get_int_max_str_digits()
        raise UnparsableJSON(f"a number of more than {limit:,} digits", _doc(text)) from None


def _doc(text: str | bytes) -> str:
    return text if isinstance(text, str) else ""
