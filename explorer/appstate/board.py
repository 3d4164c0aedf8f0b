"""The board's state: the hand-made vectors a teacher typed (``state.board``), and examples.

The numbers live in an ``explorer.core.board.Board`` (validated, frozen); this object holds
the current one, notifies "board" when it changes and is saved with the session. The
options the board computes with (scoring, scale, τ, attention, mask) are the window's
configuration, so every control applies to the board too. Qt-free.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from explorer.core.board import Board
from explorer.words import QT_TRANSLATE_NOOP

BOARD_CONTEXT = "Board"


@dataclass(frozen=True)
class BoardPreset:
    name: str  # English source text, shown through QCoreApplication.translate("Board", …)
    board: Board


BOARD_PRESETS: tuple[BoardPreset, ...] = (
    # The lesson's own example: two words, queries, keys and values of three numbers each.
    # "Thinking" scores 3 against itself and 0 against "Machines": after ÷√3 and softmax,
    # 0.85 and 0.15, so z₁ = 0.85·v₁ + 0.15·v₂; "Machines" scores 1 and 1: half and half.
    BoardPreset(
        QT_TRANSLATE_NOOP("Board", "Thinking Machines: 2 tokens, Q, K, V of 3 numbers"),
        Board(
            ("Thinking", "Machines"),
            q=((1, 0, 1), (0, 1, 1)),
            k=((2, 0, 1), (0, 1, 0)),
            v=((1, 2, 0), (0, 1, 3)),
        ),
    ),
    # Self-attention with Q = K = V = X: every score is a dot product of two rows of X.
    BoardPreset(
        QT_TRANSLATE_NOOP("Board", "3 tokens of 2 numbers, Q = K = V = X"),
        Board(("the", "cat", "sat"), x=((1, 0), (1, 1), (0, 2))),
    ),
    # Two heads of two numbers: each head sees only its own half of every vector.
    BoardPreset(
        QT_TRANSLATE_NOOP("Board", "2 heads: 3 tokens of 4 numbers, Q = K = V = X"),
        Board(("I", "like", "tea"), x=((1, 0, 0, 1), (0, 1, 1, 0), (1, 1, 0, 2)), heads=2),
    ),
)
DEFAULT_BOARD = BOARD_PRESETS[0].board


class BoardState:
    """``state.board``: the board on screen; ``set_board`` notifies "board"."""

    def __init__(self, emit: Callable[[str], None]):
        self._emit = emit
        self.board: Board = DEFAULT_BOARD

    def set_board(self, board: Board) -> bool:
        if not isinstance(board, Board):
            raise TypeError(f"a Board, not {type(board).__name__}")
        if board == self.board:
            return False
        self.board = board
        self._emit("board")
        return True
