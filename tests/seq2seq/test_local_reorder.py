"""The reordering task (reorder-zh: the lesson's sentences into Chinese, the time before the verb)
with the windowed models: its true alignment moves back, the weights are the paper's equations
on it too (zero outside the window, equal to a re-computation from p_t, D and the scores),
local-m's p_t is t, training is deterministic per seed, the shipped float16 pairs load and
``translate`` writes every step's window and p_t as strict JSON. The lesson's numbers
(explorer/appstate/lesson_local.py, step local.reorder) are measured here."""

import json

import numpy as np
import pytest
import torch
from safetensors import safe_open

from explorer.appstate.lesson_local import LOCAL_STEPS
from explorer.appstate.local_window import EXAMPLES, REORDER_CASE
from explorer.cli import main as cli_main
from explorer.seq2seq.local_attention import LOCAL_MODELS, WINDOW_MODELS
from explorer.seq2seq.local_lab import WindowPair, compare_windows, shipped_pair, window_pairs
from explorer.seq2seq.local_trace import translate_window
from explorer.seq2seq.sequence_checkpoints import shipped_sequence_folder
from explorer.seq2seq.sequence_models import build_sequence_model, sequence_spec
from explorer.seq2seq.sequence_train import SequenceTrainOptions, train_sequence_models
from explorer.seq2seq.tasks import get_task, make_sequence_batch

from .test_local_attention import paper_centres, paper_step

TASK = get_task("reorder-zh")
VOCAB = sequence_spec("global", TASK).vocab


def model_of(name: str, seed: int = 0, window: int = 3):
    torch.manual_seed(seed)
    return build_sequence_model(sequence_spec(name, TASK, window=window, hidden=8, embed=8)).eval()


def test_the_time_moves_before_the_verb_and_the_output_is_shorter():
    pair = TASK.truth(REORDER_CASE.split())
    assert pair is not None and len(pair.target) < len(pair.source)
    assert pair.target[1] == "星期一" and pair.links[1] == (6,) and pair.source[6] == "Monday"
    assert pair.target[7] == "九月" and pair.links[7] == (12,) and pair.source[12] == "September"
    assert pair.links[2] == (1,)  # then back to the verb
    for text in EXAMPLES["reorder-zh"]:
        assert TASK.truth(text.split()) is not None  # every example is a sentence of the grammar
    for seed in range(6):  # one clause count a batch (Chinese joins clauses with "，"), 1 to 3
        counts = {p.target.count("，") + 1 for p in TASK.sample(np.random.default_rng(seed), 8)}
        assert len(counts) == 1 and 1 <= counts.pop() <= 3
    held = window_pairs("reorder-zh", 2)
    assert len(held) == 6 and all(TASK.truth(list(p.source)) == p for p in held)


@pytest.mark.parametrize("name", WINDOW_MODELS)
def test_the_weights_on_reordering_are_the_papers_equations(name):
    model = model_of(name, seed=3)
    texts = (REORDER_CASE, EXAMPLES["reorder-zh"][0])
    batch = make_sequence_batch([TASK.truth(t.split()) for t in texts], VOCAB)
    with torch.no_grad():
        decoded = model.greedy(batch.source, batch.lengths, 16)
    for row, n in enumerate(batch.lengths.tolist()):
        annotations = decoded.annotations[row, :n].double().numpy()
        states = decoded.states[row].double().numpy()
        centres = None if name == "global" else paper_centres(model, states, n)
        if centres is not None:
            np.testing.assert_allclose(decoded.centres[row].numpy(), centres, rtol=1e-5, atol=1e-5)
        for t in range(states.shape[0]):
            centre = None if centres is None else centres[t]
            weights, context = paper_step(model, states[t], annotations, centre, 3)
            np.testing.assert_allclose(decoded.weights[row, t, :n].numpy(), weights, atol=1e-6)
            np.testing.assert_allclose(decoded.context[row, t].numpy(), context, atol=1e-5)
            if centres is not None:
                outside = np.abs(np.arange(n) - centres[t]) > 3
                assert not decoded.weights[row, t, :n].numpy()[outside].any()


def test_local_m_centres_are_the_step_on_reordering():
    model = model_of("local-m")
    batch = make_sequence_batch([TASK.truth(REORDER_CASE.split())], VOCAB)
    with torch.no_grad():
        decoded = model.greedy(batch.source, batch.lengths, 14)
    steps = decoded.centres.shape[1]
    assert torch.equal(decoded.centres[0], torch.arange(steps, dtype=torch.float32))


def test_training_on_reordering_is_deterministic_per_seed():
    options = SequenceTrainOptions(
        batch_size=4, eval_every=10, eval_per_group=1, hidden=8, embed=8, device="cpu"
    )

    def run(seed):
        return train_sequence_models(LOCAL_MODELS, "reorder-zh", 2, seed, options=options)

    first, again, other = run(4), run(4), run(5)
    assert first.losses == again.losses and first.losses != other.losses
    for name in LOCAL_MODELS:
        for key, tensor in first.models[name].state_dict().items():
            assert torch.equal(tensor, again.models[name].state_dict()[key])


@pytest.mark.parametrize("local", LOCAL_MODELS)
def test_the_shipped_pairs_are_float16_small_and_recorded(local):
    for name in ("global", local):
        folder = shipped_sequence_folder("reorder-zh", name)
        weights = folder / "model.safetensors"
        assert weights.stat().st_size <= 5 * 2**20
        with safe_open(str(weights), "pt") as f:
            assert {f.get_tensor(k).dtype for k in f.keys()} == {torch.float16}
        record = json.loads((folder / "config.json").read_text(encoding="utf-8"))["training"]
        assert record["command"].startswith(f"python -m explorer train --model {name} --task reorder-zh")
        assert record["weights"] == "float16" and record["window"]["pairs"] == 60
    models = shipped_pair(WindowPair(local, 3, "reorder-zh"))
    assert set(models) == {"global", local}


def within_one(trace) -> tuple[int, int]:
    measured = [d for d in trace.centre_distances if d is not None]
    return sum(d <= 1 for d in measured), len(measured)


def test_the_lessons_case_local_m_misses_the_moved_words_global_writes_it():
    compared = compare_windows(
        shipped_pair(WindowPair("local-m", 3, "reorder-zh")), "reorder-zh", REORDER_CASE
    )
    local, global_ = compared.local, compared.global_
    assert global_.exact  # "global attention reads every word and finds both"
    steps = len(local.output_tokens)
    np.testing.assert_array_equal(local.centres, np.arange(steps))
    assert local.true_links[1] == [6] and local.window_bounds[1] == [0, 4]  # 星期一 outside [0, 4]
    assert local.true_links[7] == [12] and local.window_bounds[7] == [4, 10]  # 九月 outside [4, 10]
    assert local.centre_distances[1] == 5 and local.centre_distances[7] == 5
    assert local.exact and within_one(local) == (6, 10)
    predicted = compare_windows(
        shipped_pair(WindowPair("local-p", 3, "reorder-zh")), "reorder-zh", REORDER_CASE
    )
    assert predicted.local.exact and within_one(predicted.local) == (9, 10)
    assert [round(float(p), 1) for p in predicted.local.centres[1:3]] == [6.2, 2.0]
    ours = compare_windows(
        shipped_pair(WindowPair("local-p-ours", 3, "reorder-zh")), "reorder-zh", REORDER_CASE
    )
    assert ours.local.exact
    step = next(s for s in LOCAL_STEPS if s.id == "local.reorder")
    for quoted in ("output word 1 but source word 6", "covers source words 0 to 4",
                   "D = 3", "on 6 of 10 steps", "jumps to 6.2", "back to 2.0",
                   "9 of 10", "All three write this sentence right"):  # fmt: skip
        assert quoted in step.explanation


def test_translate_gives_the_window_and_p_t_per_step_as_strict_json(tmp_path, capsys):
    out = tmp_path / "t.json"
    argv = [
        "translate",
        "--task",
        "reorder-zh",
        "--model",
        "local-m",
        "--source",
        REORDER_CASE,
        "--out",
        str(out),
    ]
    assert cli_main(argv) == 0

    def refuse(name):
        raise AssertionError(f"{name} in the JSON")

    data = json.loads(out.read_text(encoding="utf-8"), parse_constant=refuse)
    assert data["task"] == "reorder-zh" and data["model"] == "local-m" and data["half_width"] == 3
    trace = translate_window(REORDER_CASE, "reorder-zh", "local-m")
    assert len(data["steps"]) == len(trace.output_tokens)
    for t, row in enumerate(data["steps"]):
        assert row["p_t"] == t and row["window"] == trace.window_bounds[t]
    assert data["steps"][1]["true"] == [6] and data["steps"][1]["distance"] == 5
    assert "reorder-zh-local-m" in capsys.readouterr().out
