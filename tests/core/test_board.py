"""Board mode: typed vectors through the core's attention, against a hand computation and SDPA.

The hand computation is the lesson's arithmetic written out again in float64 numpy (not the
core's code); torch's fused scaled_dot_product_attention is the second reference for dot
scoring with √d_k scaling. Every option of the window applies to the board.
"""

import json
import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from explorer.appstate.board import BOARD_PRESETS
from explorer.core.board import (
    MAX_BOARD_TOKENS,
    MAX_BOARD_WIDTH,
    Board,
    BoardError,
    board_trace,
    parse_number,
)
from explorer.core.config import AttentionConfig
from explorer.core.worked import work_cell
from explorer.messages import Message

OPTIONS = AttentionConfig(sentence="ignored", weights="random")  # the board takes only the options
TOL = 1e-6

THINKING = Board(
    ("Thinking", "Machines"), q=((1, 0, 1), (0, 1, 1)), k=((2, 0, 1), (0, 1, 0)), v=((1, 2, 0), (0, 1, 3))
)


def softmax(rows: np.ndarray) -> np.ndarray:
    e = np.exp(rows - rows.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def by_hand(q, k, v, divisor, visible=None):
    """scores = q·kᵀ, ÷ divisor, masked softmax, weighted sum of the values (one head, float64)."""
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    scores = q @ k.T
    scaled = scores / divisor
    masked = scaled if visible is None else np.where(visible, scaled, -np.inf)
    weights = softmax(masked)
    return scores, scaled, weights, weights @ v


def test_thinking_machines_equals_the_hand_computation():
    t = board_trace(THINKING, OPTIONS)
    # the numbers written on the blackboard: q₁·k₁ = 1·2 + 0·0 + 1·1 = 3, q₁·k₂ = 0, q₂·k₁ = q₂·k₂ = 1
    np.testing.assert_array_equal(t.scores[0], [[3, 0], [1, 1]])
    e = math.exp(3 / math.sqrt(3))
    assert t.weights[0, 0, 0] == pytest.approx(e / (e + 1), abs=TOL)  # 0.8497
    assert t.weights[0, 1].tolist() == pytest.approx([0.5, 0.5], abs=TOL)
    scores, scaled, weights, z = by_hand(THINKING.q, THINKING.k, THINKING.v, math.sqrt(3))
    np.testing.assert_allclose(t.scaled[0], scaled, atol=TOL)
    np.testing.assert_allclose(t.weights[0], weights, atol=TOL)
    np.testing.assert_allclose(t.head_outputs[0], z, atol=TOL)
    np.testing.assert_allclose(t.output, z, atol=TOL)  # W_O = I: the output is the concatenation
    assert t.tokens_query == t.tokens_key == ["Thinking", "Machines"]
    assert t.weights_source == "board" and t.d_k == 3 and t.heads == 1


def test_the_typed_tables_come_through_the_projections_unchanged():
    t = board_trace(THINKING, OPTIONS)
    for name in ("Q", "K", "V"):
        np.testing.assert_array_equal(getattr(t, name)[0], THINKING.matrices()[name])
    # X is [Q | K | V]; W_Q picks its first block: Q = X·W_Qᵀ holds exactly, as in the engine
    x = t.X_query.astype(np.float64)
    np.testing.assert_array_equal(x @ t.projections["w_q"].T, THINKING.matrices()["Q"])
    np.testing.assert_array_equal(x @ t.projections["w_v"].T, THINKING.matrices()["V"])


def test_q_k_v_equal_x_when_one_table_is_typed():
    board = BOARD_PRESETS[1].board
    t = board_trace(board, OPTIONS)
    x = board.matrices()["X"]
    for name in ("Q", "K", "V"):
        np.testing.assert_array_equal(getattr(t, name)[0], x)
    _, _, weights, z = by_hand(x, x, x, math.sqrt(2))
    np.testing.assert_allclose(t.weights[0], weights, atol=TOL)
    np.testing.assert_allclose(t.output, z, atol=TOL)


@pytest.mark.parametrize("preset", range(len(BOARD_PRESETS)))
@pytest.mark.parametrize("mask", ["none", "causal"])
def test_dot_sqrt_equals_torch_sdpa(preset, mask):
    board = BOARD_PRESETS[preset].board
    t = board_trace(board, OPTIONS.with_(mask=mask))
    m = board.matrices()
    h, n = board.heads, board.n
    split = lambda a: torch.tensor(a, dtype=torch.float32).view(n, h, -1).transpose(0, 1)  # noqa: E731
    q, k, v = (split(m["X"]) for _ in range(3)) if board.tied else (split(m[c]) for c in "QKV")
    expected = F.scaled_dot_product_attention(q, k, v, is_causal=mask == "causal")
    np.testing.assert_allclose(t.head_outputs, expected.numpy(), atol=1e-6)


def test_two_heads_each_see_their_own_columns():
    board = BOARD_PRESETS[2].board  # 3 tokens of 4 numbers, 2 heads
    t = board_trace(board, OPTIONS)
    x = board.matrices()["X"]
    for head, cols in ((0, slice(0, 2)), (1, slice(2, 4))):
        _, scaled, weights, z = by_hand(x[:, cols], x[:, cols], x[:, cols], math.sqrt(2))
        np.testing.assert_allclose(t.scaled[head], scaled, atol=TOL)
        np.testing.assert_allclose(t.head_outputs[head], z, atol=TOL)
    np.testing.assert_allclose(t.concat, np.concatenate(list(t.head_outputs), axis=1), atol=0)


@pytest.mark.parametrize(
    "scale,tau,divisor", [("none", 1.0, 1.0), ("temperature", 0.25, 0.25), ("sqrt", 1, 3**0.5)]
)
def test_every_scale_applies(scale, tau, divisor):
    t = board_trace(THINKING, OPTIONS.with_(scale=scale, temperature=tau))
    _, scaled, weights, _ = by_hand(THINKING.q, THINKING.k, THINKING.v, divisor)
    assert t.scale_divisor == pytest.approx(divisor)
    np.testing.assert_allclose(t.scaled[0], scaled, atol=TOL)
    np.testing.assert_allclose(t.weights[0], weights, atol=TOL)


def test_cosine_general_and_additive_scoring_apply():
    q, k = (np.array(a, dtype=np.float64) for a in (THINKING.q, THINKING.k))
    cos = board_trace(THINKING, OPTIONS.with_(scoring="cosine"))
    expected = (q / np.linalg.norm(q, axis=1, keepdims=True)) @ (
        k / np.linalg.norm(k, axis=1, keepdims=True)
    ).T
    np.testing.assert_allclose(cos.scores[0], expected, atol=TOL)

    general = board_trace(THINKING, OPTIONS.with_(scoring="general"))
    w = general.scoring_params["general_W"][0].astype(np.float64)
    np.testing.assert_allclose(general.scores[0], q @ w @ k.T, atol=1e-5)
    assert any(n.key == "engine.untrained_general" for n in general.notices)

    additive = board_trace(THINKING, OPTIONS.with_(scoring="additive"))
    p = {name: a.astype(np.float64) for name, a in additive.scoring_params.items()}
    hidden = np.tanh((q @ p["additive_W1"][0])[:, None, :] + (k @ p["additive_W2"][0])[None, :, :])
    np.testing.assert_allclose(additive.scores[0], hidden @ p["additive_v"][0], atol=1e-5)


def test_hard_and_sampled_attention_pick_one_key():
    hard = board_trace(THINKING, OPTIONS.with_(attention="hard"))
    np.testing.assert_array_equal(hard.weights[0], [[1, 0], [1, 0]])  # a tie goes to the first key
    np.testing.assert_allclose(hard.head_outputs[0], np.array(THINKING.v)[[0, 0]], atol=0)
    sample = board_trace(THINKING, OPTIONS.with_(attention="sample", seed=3))
    assert sorted(sample.weights[0].sum(axis=1).tolist()) == [1.0, 1.0]
    assert set(np.unique(sample.weights[0]).tolist()) <= {0.0, 1.0}
    again = board_trace(THINKING, OPTIONS.with_(attention="sample", seed=3))
    np.testing.assert_array_equal(sample.weights, again.weights)  # the same seed, the same draw


@pytest.mark.parametrize("mask", ["causal", "window:1", "valid:2", "valid:0"])
def test_masks_apply(mask):
    board = BOARD_PRESETS[1].board
    t = board_trace(board, OPTIONS.with_(mask=mask))
    x = board.matrices()["X"]
    i, j = np.arange(3)[:, None], np.arange(3)[None, :]
    visible = {"causal": j <= i, "window:1": abs(i - j) <= 1, "valid:2": np.broadcast_to(j < 2, (3, 3))}
    if mask == "valid:0":
        assert not t.weights.any() and not t.head_outputs.any()
        assert [n.key for n in t.notices] == ["engine.valid_zero"]
        return
    _, _, weights, z = by_hand(x, x, x, math.sqrt(2), visible[mask])
    np.testing.assert_array_equal(t.mask, visible[mask])
    np.testing.assert_allclose(t.weights[0], weights, atol=TOL)
    np.testing.assert_allclose(t.head_outputs[0], z, atol=TOL)


def test_a_valid_length_beyond_the_tokens_says_so():
    t = board_trace(THINKING, OPTIONS.with_(mask="valid:5"))
    assert [n.key for n in t.notices] == ["engine.valid_beyond"]


def test_the_worked_arithmetic_reads_the_board():
    t = board_trace(THINKING, OPTIONS)
    cell = work_cell(t, 0, 0, 0)
    assert cell.score.terms.tolist() == [2.0, 0.0, 1.0]  # 1·2 + 0·0 + 1·1
    assert cell.score.total == 3.0 and cell.divisor == pytest.approx(math.sqrt(3))
    assert cell.softmax_weight == pytest.approx(float(t.weights[0, 0, 0]), abs=TOL)
    np.testing.assert_allclose(cell.output, t.head_outputs[0, 0], atol=TOL)


def test_a_board_trace_is_written_like_any_other(tmp_path):
    t = board_trace(THINKING, OPTIONS)
    t.save(tmp_path / "board.json")
    data = json.loads((tmp_path / "board.json").read_text(encoding="utf-8"))
    assert data["tokens_query"] == ["Thinking", "Machines"] and data["weights_source"] == "board"
    assert data["config"]["sentence"] == "Thinking Machines" and data["config"]["heads"] == 1


# -- typed input -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text,value",
    [("2", 2.0), (" -0.5 ", -0.5), ("1e-3", 0.001), ("−1.5", -1.5), ("１.５", 1.5), ("+3", 3.0)],
)
def test_typed_numbers(text, value):
    assert parse_number(text) == value


@pytest.mark.parametrize(
    "text,key",
    [
        ("", "board.cell_empty"),
        ("two", "board.not_a_number"),
        ("nan", "board.not_finite"),
        ("1e999", "board.not_finite"),
    ],
)
def test_typed_non_numbers_are_refused_with_a_message(text, key):
    with pytest.raises(BoardError) as caught:
        parse_number(text)
    assert isinstance(caught.value.message, Message) and caught.value.message.key == key


@pytest.mark.parametrize(
    "make,key",
    [
        (lambda: Board(tuple("abcdefghi"), x=((1,),) * 9), "board.too_many_tokens"),
        (lambda: Board(("a",), x=((1,) * (MAX_BOARD_WIDTH + 1),)), "board.too_wide"),
        (lambda: Board(("a", "b"), x=((1, 2),)), "board.rows"),
        (lambda: Board(("a", "b"), x=((1, 2), (3,))), "board.row_length"),
        (lambda: Board(("a",), x=((float("inf"),),)), "board.cell"),
        (lambda: Board(("a",), x=(("1",),)), "board.cell"),
        (lambda: Board(("a",), q=((1, 2),), k=((1, 2),), v=((1,),)), "board.widths_differ"),
        (lambda: Board(("a",), q=((1, 2),), k=((1, 2),)), "board.tables"),
        (lambda: Board(("a",), x=((1, 2, 3),), heads=2), "board.heads"),
        (lambda: Board(("a", ""), x=((1,), (2,))), "board.token_empty"),
        (lambda: Board((), x=()), "board.no_tokens"),
        (lambda: Board.from_dict({"tokens": ["a"], "x": [[1]], "extra": 1}), "board.unknown_keys"),
        (lambda: Board.from_dict({"tokens": ["a"], "x": "1"}), "board.tables"),
        (lambda: Board.from_dict([1, 2]), "board.tables"),
    ],
)
def test_impossible_boards_are_refused_with_a_message(make, key):
    with pytest.raises(BoardError) as caught:
        make()
    assert caught.value.message.key == key


def test_the_limits_are_small_enough_to_compute_by_hand():
    assert MAX_BOARD_TOKENS == 8 and MAX_BOARD_WIDTH == 8
    biggest = Board(tuple(f"t{i}" for i in range(8)), x=tuple(tuple(range(8)) for _ in range(8)), heads=8)
    assert board_trace(biggest, OPTIONS).weights.shape == (8, 8, 8)


def test_edits_keep_the_board_valid():
    board = THINKING.resized(3, 2)
    assert board.tokens == ("Thinking", "Machines", "t3") and board.width == 2
    assert board.q == ((1, 0), (0, 1), (0, 0))
    tied = THINKING.with_tied(True)
    assert tied.tied and tied.x == THINKING.q and tied.with_tied(False).k == THINKING.q
    assert THINKING.with_cell("K", 1, 2, -4).k[1] == (0, 1, -4)
    assert THINKING.with_token(0, " Denken ").tokens[0] == "Denken"
    four = BOARD_PRESETS[2].board
    assert four.resized(3, 3).heads == 1  # 2 heads no longer divide 3 numbers
    with pytest.raises(BoardError):
        THINKING.with_heads(2)


def test_a_board_reads_back_from_its_dict():
    for preset in BOARD_PRESETS:
        data = json.loads(json.dumps(preset.board.to_dict()))
        assert Board.from_dict(data) == preset.board
