"""Global beside local, trained together for the window (explorer.seq2seq.local_lab): the run
is deterministic per seed, its snapshots give back both models, the window's measure is where
p_t sits against the truth recomputed here from the true links, and the comparison is two
traces of the same text."""

from dataclasses import replace

import numpy as np
import pytest
import torch

from explorer.lab import LabRun, run_all
from explorer.seq2seq.local_lab import (
    DEFAULTS,
    WindowPair,
    compare_windows,
    shipped_pair,
    train_window_pair,
    window_measure,
    window_pairs,
)
from explorer.seq2seq.local_trace import trace_window
from explorer.seq2seq.spec import LabError
from explorer.seq2seq.tasks import get_task, make_sequence_batch

PAIR = WindowPair("local-p-ours", window=2, hidden=8, embed=8)
TINY = replace(DEFAULTS, steps=3, batch_size=4, eval_every=3, eval_size=1, snapshot_every=1, device="cpu")


@pytest.fixture(scope="module")
def trained():
    return train_window_pair(PAIR, TINY)


def test_the_pair_is_checked():
    with pytest.raises(LabError, match="not a windowed model"):
        WindowPair("global")
    with pytest.raises(LabError, match="window must be a whole number"):
        WindowPair("local-m", window=0)
    assert WindowPair("local-m").names == ("global", "local-m")


def test_training_is_deterministic_and_trains_both_on_the_same_batches(trained):
    again = train_window_pair(PAIR, TINY)
    assert again.losses == trained.losses and set(trained.losses) == {"global", "local-p-ours"}
    other = train_window_pair(PAIR, replace(TINY, seed=1))
    assert other.losses != trained.losses
    assert trained.specs["local-p-ours"].window == 2 and trained.models["local-p-ours"].half_width == 2


def test_a_snapshot_gives_back_both_models(trained):
    last = trained.log.snapshots[-1]
    assert last.step == 3 and any(k.startswith("global.") for k in last.state)
    models = PAIR.models_at(last.state)
    batch = make_sequence_batch(
        [get_task("copy-twice").truth("a b c d".split())], models["global"].spec.vocab
    )
    for name, module in models.items():
        original = trained.models[name].eval()
        with torch.no_grad():
            assert torch.equal(module(batch.source, batch.lengths, batch.target_in),
                               original(batch.source, batch.lengths, batch.target_in))  # fmt: skip


def test_the_window_measure_is_the_distance_to_the_true_links(trained):
    model = trained.models["local-p-ours"].eval()
    pairs = window_pairs()
    numbers = window_measure(PAIR)(torch.nn.ModuleDict(trained.models))
    distances = []
    for pair in pairs:  # p_t on the true translation, one pair at a time, against its links
        batch = make_sequence_batch([pair], model.spec.vocab)
        with torch.no_grad():
            _, looked = model.read(batch.source, batch.lengths, batch.target_in)
        centres = looked.centres[0].numpy()
        distances += [min(abs(centres[t] - s) for s in links) for t, links in enumerate(pair.links)]
    assert numbers["window_share"] == pytest.approx(float(np.mean(np.array(distances) <= 1)))
    assert numbers["window_error"] == pytest.approx(float(np.mean(distances)), rel=1e-5)


def test_the_run_reports_the_goal_metric_and_snapshots(trained):
    run = run_all([LabRun(lambda **kw: train_window_pair(PAIR, **kw), TINY, spec=PAIR)], timeout=120)[0]
    assert run.status == "done", run.error
    assert run.losses == pytest.approx([np.mean(v) for v in zip(*trained.losses.values())])
    assert run.eval_steps == [3] and 0 <= run.last("window_share") <= 1
    assert [s.step for s in run.snapshots] == [0, 1, 2, 3]


def test_compared_windows_are_the_traces_of_each_model(trained):
    models = {k: m.eval() for k, m in trained.models.items()}
    task = get_task("copy-twice")
    compared = compare_windows(models, "copy-twice", "a b c", half_width=4)
    alone = trace_window(models["local-p-ours"], task, "a b c", "", 4)
    assert compared.local.half_width == 4 and compared.local.trained_half_width == 2
    np.testing.assert_array_equal(compared.local.alignment, alone.alignment)
    np.testing.assert_array_equal(compared.local.centres, alone.centres)
    assert compared.global_.centres is None and compared.global_.model == "global"


def test_a_trace_decodes_once_and_another_d_keeps_the_global_trace(trained, monkeypatch):
    models = {k: m.eval() for k, m in trained.models.items()}
    before = compare_windows(models, "copy-twice", "a b c d", half_width=2)
    calls = []
    for name, module in models.items():
        decode = module.greedy
        monkeypatch.setattr(
            module, "greedy", lambda *a, _d=decode, _n=name, **k: calls.append(_n) or _d(*a, **k)
        )
    again = compare_windows(models, "copy-twice", "a b c d", half_width=2)
    assert calls == ["global", "local-p-ours"]  # one greedy decoding per model: trace and window from it
    np.testing.assert_array_equal(again.local.alignment, before.local.alignment)
    np.testing.assert_array_equal(again.local.window_mask, before.local.window_mask)
    assert again.local.output_tokens == before.local.output_tokens
    calls.clear()
    wider = compare_windows(models, "copy-twice", "a b c d", half_width=3, global_trace=again.global_)
    assert calls == ["local-p-ours"] and wider.global_ is again.global_ and wider.local.half_width == 3


def test_a_comparison_replaced_after_its_global_trace_decodes_no_local_one(trained, monkeypatch):
    models = {k: m.eval() for k, m in trained.models.items()}
    calls = []
    for name, module in models.items():
        decode = module.greedy
        monkeypatch.setattr(
            module, "greedy", lambda *a, _d=decode, _n=name, **k: calls.append(_n) or _d(*a, **k)
        )
    asked = []
    stopped = compare_windows(models, "copy-twice", "a b c", 2, should_stop=lambda: asked.append(1) or True)
    assert stopped is None and calls == ["global"] and asked == [1]
    calls.clear()
    kept = compare_windows(models, "copy-twice", "a b c", 2, should_stop=lambda: False)
    assert kept is not None and calls == ["global", "local-p-ours"]


@pytest.mark.skipif(torch.cuda.is_available(), reason="the fallback is for machines without CUDA")
def test_cuda_asked_for_without_one_trains_on_the_cpu_and_says_so():
    result = train_window_pair(PAIR, replace(TINY, device="cuda", steps=1, eval_every=1))
    assert result.device == "cpu" and result.notices and "CUDA" in str(result.notices[0])


def test_the_width_step_says_what_the_shipped_model_writes_at_each_d():
    """lesson step local.width: trained with D = 3, right at 3 and 4 on the tab's text; past the
    end narrower, wrong wider (it said "wider, and it becomes more like global attention")."""
    from explorer.appstate.local_window import DEFAULT_SOURCE, SHIPPED_WINDOW

    models = shipped_pair(WindowPair(local="local-p-ours", task="copy-twice"))
    assert SHIPPED_WINDOW == 3
    for d in range(1, 9):
        compared = compare_windows(models, "copy-twice", DEFAULT_SOURCE, d)
        assert compared.global_.exact
        assert compared.local.exact == (d in (3, 4)), d
        if d < 3:
            assert compared.local.steps_past_truth() > 0, d
