"""Board mode: tiny hand-made vectors, run through the same attention as everything else.

A teacher types a few tokens and their vectors, either one table X (self-attention with
Q = K = V = X) or three tables Q, K and V, and every stage comes out with numbers small
enough to check by hand. ``board_trace`` runs ``explorer.core.attention.attend`` with
projections that hand the typed numbers through unchanged, so every option of the window
(scoring, scale, τ, soft / hard / sample, masks, heads that divide d) applies, and the result
is an ordinary ``AttentionTrace``: the stage panels, the worked arithmetic and the export
read it as they read any other.

The projections: with X typed, W_Q = W_K = W_V = W_O = I. With Q, K and V typed, X is the
three tables side by side, [Q | K | V] (n × 3d), and W_Q, W_K, W_V pick out their block
([I 0 0], [0 I 0], [0 0 I]); W_O = I. Either way Q = X·W_Qᵀ holds exactly, as in the engine.

With ``rope_theta`` set, Q and K are turned by rotary position embedding before they are
scored, as a Llama-kind decoder does: token p's pair (x_m, x_{m+d/2}) turns by p·ω_m with
ω_m = 1/θ^(2m/d) (``explorer.models.rope``); with d = 2 the single pair turns by p radians,
which a class can follow by hand.
"""

from __future__ import annotations

import math
import time
import unicodedata
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from explorer.core.attention import Projections, Settings, Stages, attend, build_mask
from explorer.core.causal_attention import DecoderStages, Rotary, attend_decoder
from explorer.core.config import AttentionConfig
from explorer.core.device import numerics, threads_for
from explorer.core.engine import UNTRAINED_NOTICES, projection_arrays, stage_arrays, valid_head_counts
from explorer.core.scoring import make_scoring_params
from explorer.core.trace import AttentionTrace
from explorer.messages import Message, MessageError
from explorer.models.rope import RopeSpec, angles, cos_sin, inverse_frequencies

MAX_BOARD_TOKENS = 8
MAX_BOARD_WIDTH = 8  # numbers per vector: the class does the arithmetic by hand
MAX_TOKEN_CHARS = 24
# The largest number a cell takes: products of 8 such numbers stay far inside float32 (3.4e38),
# and a board is arithmetic by hand (3e38 made the scores inf while "scaled" printed finite).
MAX_BOARD_VALUE = 1_000_000
BOARD_SOURCE = "board"  # the trace's weights_source

Matrix = tuple[tuple[float, ...], ...]


class BoardError(MessageError, ValueError):
    """A user-facing message about the typed tables (raise with ``BoardError.of``)."""


def parse_number(text: str) -> float:
    """A typed cell: "2", "-0.5", "1e-3", "−1" (a typographic minus) or full-width digits."""
    cleaned = unicodedata.normalize("NFKC", str(text)).strip().replace("−", "-")
    if not cleaned:
        raise BoardError.of("board.cell_empty")
    try:
        value = float(cleaned)
    except ValueError:
        raise BoardError.of("board.not_a_number", text=str(text).strip()) from None
    if not math.isfinite(value):
        raise BoardError.of("board.not_finite", text=str(text).strip())
    return value


@dataclass(frozen=True)
class Board:
    """Tokens and their vectors: ``x`` alone (Q = K = V = X) or ``q``, ``k`` and ``v``.

    Every matrix has one row per token and ``width`` numbers a row; ``heads`` must divide
    the width (head h owns columns h·d_k … (h+1)·d_k − 1, as everywhere else)."""

    tokens: tuple[str, ...]
    x: Matrix | None = None
    q: Matrix | None = None
    k: Matrix | None = None
    v: Matrix | None = None
    heads: int = 1
    rope_theta: float | None = None  # rotate Q and K by position (RoPE's θ); None: no rotation

    def __post_init__(self) -> None:
        tokens = tuple(self.tokens) if isinstance(self.tokens, (list, tuple)) else None
        if tokens is None or not all(isinstance(t, str) for t in tokens):
            raise BoardError.of("board.tokens_not_text")
        object.__setattr__(self, "tokens", tuple(t.strip() for t in tokens))
        n = len(self.tokens)
        if n == 0:
            raise BoardError.of("board.no_tokens")
        if n > MAX_BOARD_TOKENS:
            raise BoardError.of("board.too_many_tokens", count=n, limit=MAX_BOARD_TOKENS)
        for index, token in enumerate(self.tokens, start=1):
            if not token:
                raise BoardError.of("board.token_empty", index=index)
            if len(token) > MAX_TOKEN_CHARS:
                raise BoardError.of("board.token_long", index=index, limit=MAX_TOKEN_CHARS)
        given = {
            name: getattr(self, name) for name in ("x", "q", "k", "v") if getattr(self, name) is not None
        }
        if set(given) not in ({"x"}, {"q", "k", "v"}):
            raise BoardError.of("board.tables")
        width: int | None = None
        for name, rows in given.items():
            matrix = _checked_matrix(name.upper(), rows, n)
            object.__setattr__(self, name, matrix)
            if width is None:
                width = len(matrix[0])
                if width > MAX_BOARD_WIDTH:
                    raise BoardError.of("board.too_wide", count=width, limit=MAX_BOARD_WIDTH)
            elif len(matrix[0]) != width:
                raise BoardError.of(
                    "board.widths_differ", matrix=name.upper(), count=len(matrix[0]), width=width
                )
        if width is None:
            raise BoardError.of("board.tables")
        heads = self.heads
        if isinstance(heads, bool) or not isinstance(heads, int) or heads < 1 or width % heads:
            options = ", ".join(map(str, valid_head_counts(width)))
            raise BoardError.of("board.heads", heads=heads, width=width, options=options)
        theta = self.rope_theta
        if theta is not None:
            if (
                isinstance(theta, bool)
                or not isinstance(theta, (int, float))
                or not math.isfinite(theta)
                or theta <= 0
            ):
                raise BoardError.of("board.rope_theta", value=theta)
            if (width // heads) % 2:
                raise BoardError.of("board.rope_odd", d_k=width // heads)
            object.__setattr__(self, "rope_theta", float(theta))

    # -- what it holds ---------------------------------------------------------------------------
    @property
    def tied(self) -> bool:
        """Q = K = V = X (one table typed)."""
        return self.x is not None

    @property
    def n(self) -> int:
        return len(self.tokens)

    @property
    def width(self) -> int:
        table = self.x if self.x is not None else self.q
        assert table is not None  # __post_init__ requires X or Q, K and V
        return len(table[0])

    def matrices(self) -> dict[str, np.ndarray]:
        """The typed tables as float64 arrays: {"X": …} or {"Q": …, "K": …, "V": …}."""
        names = ("x",) if self.tied else ("q", "k", "v")
        return {name.upper(): np.array(getattr(self, name), dtype=np.float64) for name in names}

    # -- edits (each returns a new, checked board) --------------------------------------------------
    def with_tied(self, tied: bool) -> Board:
        """Switch between one table X and three tables: X becomes Q, K and V; Q becomes X."""
        if tied == self.tied:
            return self
        if tied:
            return Board(self.tokens, x=self.q, heads=self.heads, rope_theta=self.rope_theta)
        return Board(self.tokens, q=self.x, k=self.x, v=self.x, heads=self.heads, rope_theta=self.rope_theta)

    def resized(self, n: int, width: int) -> Board:
        """n tokens of ``width`` numbers: rows and columns kept where they exist, new ones 0,
        new tokens named t1, t2, …; the heads fall back to 1 when they no longer divide."""
        n, width = max(1, int(n)), max(1, int(width))
        tokens = tuple(self.tokens[i] if i < self.n else f"t{i + 1}" for i in range(n))

        def fit(rows: Matrix | None) -> Matrix | None:
            if rows is None:
                return None
            return tuple(
                tuple(rows[i][j] if i < len(rows) and j < len(rows[i]) else 0.0 for j in range(width))
                for i in range(n)
            )

        heads = self.heads if width % self.heads == 0 else 1
        theta = self.rope_theta if (width // heads) % 2 == 0 else None  # rotation needs pairs
        return Board(tokens, fit(self.x), fit(self.q), fit(self.k), fit(self.v), heads, theta)

    def with_cell(self, table: str, row: int, column: int, value: float) -> Board:
        """One number changed: ``table`` is "X", "Q", "K" or "V"."""
        name = table.lower()
        rows = [list(r) for r in getattr(self, name)]
        rows[row][column] = float(value)
        return _replace(self, **{name: tuple(tuple(r) for r in rows)})

    def with_token(self, index: int, name: str) -> Board:
        tokens = list(self.tokens)
        tokens[index] = name
        return _replace(self, tokens=tuple(tokens))

    def with_heads(self, heads: int) -> Board:
        return _replace(self, heads=heads)

    def with_rope(self, theta: float | None) -> Board:
        """Rotary positions on (θ) or off (None)."""
        return _replace(self, rope_theta=theta)

    # -- files ------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"tokens": list(self.tokens), "heads": self.heads}
        if self.rope_theta is not None:
            out["rope_theta"] = self.rope_theta
        for name in ("x", "q", "k", "v"):
            rows = getattr(self, name)
            if rows is not None:
                out[name] = [list(r) for r in rows]
        return out

    @classmethod
    def from_dict(cls, data: object) -> Board:
        if not isinstance(data, dict):
            raise BoardError.of("board.tables")
        unknown = set(data) - {"tokens", "x", "q", "k", "v", "heads", "rope_theta"}
        if unknown:
            raise BoardError.of("board.unknown_keys", keys=", ".join(sorted(unknown)))
        tables = {}
        for name in ("x", "q", "k", "v"):
            rows = data.get(name)
            if rows is not None:
                if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
                    raise BoardError.of("board.tables")
                tables[name] = tuple(tuple(r) for r in rows)
        tokens: Any = data.get("tokens")  # checked by __post_init__, as typed input is
        return cls(tokens, heads=data.get("heads", 1), rope_theta=data.get("rope_theta"), **tables)


def _replace(board: Board, **changes: Any) -> Board:
    fields = {name: getattr(board, name) for name in ("tokens", "x", "q", "k", "v", "heads", "rope_theta")}
    return Board(**{**fields, **changes})


def _checked_matrix(name: str, rows: object, n: int) -> Matrix:
    """Rows of finite numbers, one per token, all of the same length."""
    if not isinstance(rows, (list, tuple)) or not all(isinstance(r, (list, tuple)) for r in rows):
        raise BoardError.of("board.tables")
    if len(rows) != n:
        raise BoardError.of("board.rows", matrix=name, rows=len(rows), tokens=n)
    width = len(rows[0])
    if width == 0:
        raise BoardError.of("board.no_numbers", matrix=name)
    out = []
    for i, row in enumerate(rows, start=1):
        if len(row) != width:
            raise BoardError.of("board.row_length", matrix=name, row=i, count=len(row), width=width)
        values = []
        for j, value in enumerate(row, start=1):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise BoardError.of("board.cell", matrix=name, row=i, column=j, value=value)
            if abs(value) > MAX_BOARD_VALUE:
                raise BoardError.of(
                    "board.too_large", matrix=name, row=i, column=j, value=f"{value:g}", limit=MAX_BOARD_VALUE
                )
            values.append(float(value))
        out.append(tuple(values))
    return tuple(out)


# -- the computation ---------------------------------------------------------------------------


def board_inputs(board: Board) -> tuple[torch.Tensor, Projections]:
    """X and the projections that hand the typed numbers through (see the module's docstring)."""
    tables = {name: torch.tensor(a, dtype=torch.float32) for name, a in board.matrices().items()}
    d = board.width
    eye = torch.eye(d)
    if board.tied:
        return tables["X"], Projections(eye, eye.clone(), eye.clone(), eye.clone())
    x = torch.cat([tables["Q"], tables["K"], tables["V"]], dim=1)  # [n, 3d]
    zero = torch.zeros(d, d)

    def pick(block: int) -> torch.Tensor:
        return torch.cat([eye if b == block else zero for b in range(3)], dim=1)

    return x, Projections(pick(0), pick(1), pick(2), eye.clone())


def board_config(board: Board, options: AttentionConfig) -> AttentionConfig:
    """The window's options (scoring, scale, τ, attention, mask, seed) for the board's tokens."""
    return options.with_(
        sentence=" ".join(board.tokens),
        query="",
        weights="identity",
        heads=board.heads,
        layer=0,
        d_model=board.width,
        model_dir=None,
    )


def board_trace(board: Board, options: AttentionConfig) -> AttentionTrace:
    """Every stage of attention over the board's vectors, on the CPU (they are tiny)."""
    started = time.perf_counter()
    config = board_config(board, options)
    heads, d_k, n = board.heads, board.width // board.heads, board.n
    mask = config.mask_spec
    notices: list[Message] = []
    if mask.kind == "valid" and mask.size == 0:
        notices.append(Message.of("engine.valid_zero"))
    elif mask.kind == "valid" and mask.size > n:
        notices.append(Message.of("engine.valid_beyond", size=mask.size, keys=n))
    params = make_scoring_params(config.scoring, heads, d_k, config.seed)
    untrained = sorted(params.as_arrays())
    if untrained:
        notices.append(Message.of(UNTRAINED_NOTICES[config.scoring]))
    settings = Settings(
        heads, config.scoring, config.scale, float(config.temperature), config.attention, mask, config.seed
    )
    x, projections = board_inputs(board)
    rotary = board_rotary(board)
    stages: Stages
    with torch.inference_mode(), threads_for(0):
        if rotary is None:
            stages = attend(x, x, projections, settings, params)
        else:
            visible = build_mask(mask, n, n)  # the board has no model: "model" is no mask
            stages = attend_decoder(x, projections, settings, heads, rotary, visible, params)
        computed = (stages.scores, stages.scaled, stages.weights, stages.head_outputs, stages.output)
        if not all(bool(torch.isfinite(t).all()) for t in computed):  # never a stage of inf / nan
            raise BoardError.of("board.overflow")

    def arr(t: torch.Tensor) -> np.ndarray:
        return t.detach().numpy().copy()

    tokens = list(board.tokens)
    rotation: dict[str, Any] = {}
    if isinstance(stages, DecoderStages) and board.rope_theta is not None:
        rotation = {
            "Q_rotated": None if stages.q_rotated is None else arr(stages.q_rotated),
            "K_rotated": None if stages.k_rotated is None else arr(stages.k_rotated),
            "rope_angles": None if stages.angles is None else arr(stages.angles),
            "rope": RopeSpec(theta=board.rope_theta).describe(),
            "positions": "rotary",
            "kv_heads": heads,
            "kv_head_of": list(stages.kv_head_of),
        }
    return AttentionTrace(
        config=config,
        tokens_query=tokens,
        tokens_key=list(tokens),
        X_query=arr(x),
        X_key=arr(x),
        **stage_arrays(stages),
        heads=heads,
        d_k=d_k,
        device="cpu",
        weights_source=BOARD_SOURCE,
        scoring_params=params.as_arrays(),
        untrained=untrained,
        notices=notices,
        projections=projection_arrays(projections),
        numerics=numerics(torch.device("cpu")),
        timings_ms={"total": (time.perf_counter() - started) * 1e3},
        **rotation,
    )


def board_rotary(board: Board) -> Rotary | None:
    """The angles p·ω_m of every token p and pair m, with θ the board's (None: no rotation)."""
    if board.rope_theta is None:
        return None
    d_k = board.width // board.heads
    theta = angles(torch.arange(board.n), inverse_frequencies(RopeSpec(theta=board.rope_theta), d_k))
    return Rotary(theta, *cos_sin(theta))


__all__ = [
    "Board",
    "BoardError",
    "MAX_BOARD_TOKENS",
    "MAX_BOARD_VALUE",
    "MAX_BOARD_WIDTH",
    "board_config",
    "board_inputs",
    "board_trace",
    "parse_number",
]
