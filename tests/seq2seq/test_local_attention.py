"""Local attention against Luong et al. 2015's equations, written again here in numpy from the
paper (not from explorer.seq2seq.local_attention): p_t (eq. 9, local-m's p_t = t, our running
sum), the window [p_t − D, p_t + D], align = softmax of the general score over the window,
a_t(s) = align · exp(−(s − p_t)² / 2σ²) with σ = D / 2 (eq. 10), c_t = Σ a_t(s) h̄_s; zero outside
the window; global equal to the ``attention`` model; training deterministic per seed."""

import numpy as np
import pytest
import torch

from explorer.seq2seq.local_attention import LOCAL_MODELS, WINDOW_MODELS
from explorer.seq2seq.sequence_models import SEQUENCE_MODELS, build_sequence_model, sequence_spec
from explorer.seq2seq.sequence_train import SequenceTrainOptions, train_sequence_models
from explorer.seq2seq.spec import LabError
from explorer.seq2seq.tasks import get_task, make_sequence_batch

TASK = get_task("copy-twice")


def model_of(name: str, seed: int = 0, window: int = 3, **sizes):
    torch.manual_seed(seed)
    sizes = {"hidden": 8, "embed": 8, **sizes}
    return build_sequence_model(sequence_spec(name, TASK, window=window, **sizes)).eval()


TASK_VOCAB = sequence_spec("global", TASK).vocab
TEXTS = ("a b c d e f g h i j k l", "t s r q p")


def batch_of(*texts):
    return make_sequence_batch([TASK.truth(t.split()) for t in texts], TASK_VOCAB)


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def softplus(x):
    return np.log1p(np.exp(x))


def paper_centres(model, states: np.ndarray, length: int) -> np.ndarray:
    """p_t for every step from the decoder states h_t: [T]."""
    steps = np.arange(len(states), dtype=float)
    if model.centre == "local-m":
        return steps
    w_p = model.position_w.weight.detach().numpy()  # [d, d]
    v_p = model.position_v.weight.detach().numpy()[0]  # [d]
    logits = np.tanh(states @ w_p.T) @ v_p
    if model.centre == "local-p":
        return length * sigmoid(logits)
    return np.clip(-1 + np.cumsum(softplus(logits)), 0, length - 1)  # ours


def paper_step(model, query, annotations, centre, half_width):
    """(weights a_t(s) [n], c_t [d]) for one step, from the general score and the paper's window."""
    w = model.attention.bilinear.detach().numpy()[0]  # score(h_t, h̄_s) = h_tᵀ W h̄_s
    scores = annotations @ (query @ w)
    n = len(annotations)
    positions = np.arange(n)
    if centre is None:
        inside = np.ones(n, bool)
        gaussian = np.ones(n)
    else:
        inside = np.abs(positions - centre) <= half_width
        sigma = half_width / 2
        gaussian = np.exp(-((positions - centre) ** 2) / (2 * sigma**2))
    align = np.zeros(n)
    if inside.any():
        e = np.exp(scores[inside] - scores[inside].max())
        align[inside] = e / e.sum()
    weights = align * gaussian
    return weights, weights @ annotations


@pytest.mark.parametrize("name", WINDOW_MODELS)
def test_greedy_weights_are_the_papers_equations(name):
    model = model_of(name, seed=1)
    batch = batch_of(*TEXTS)
    with torch.no_grad():
        decoded = model.greedy(batch.source, batch.lengths, 20)
    for row, n in enumerate(batch.lengths.tolist()):
        annotations = decoded.annotations[row, :n].double().numpy()
        states = decoded.states[row].double().numpy()
        centres = None if name == "global" else paper_centres(model, states, n)
        if centres is not None:
            np.testing.assert_allclose(decoded.centres[row].numpy(), centres, rtol=1e-5, atol=1e-5)
        for t in range(states.shape[0]):
            weights, context = paper_step(
                model, states[t], annotations, None if centres is None else centres[t], 3
            )
            np.testing.assert_allclose(decoded.weights[row, t, :n].numpy(), weights, atol=1e-6)
            np.testing.assert_allclose(decoded.context[row, t].numpy(), context, atol=1e-5)
            assert not decoded.weights[row, t, n:].any()  # padding is never read
            if centres is not None:
                outside = np.abs(np.arange(n) - centres[t]) > 3
                assert not decoded.weights[row, t, :n].numpy()[outside].any()
                assert (decoded.window[row, t, :n].numpy() == ~outside).all()
                assert decoded.weights[row, t].sum() < 1 + 1e-6  # the Gaussian is not renormalised


def test_local_m_centres_are_the_step_and_run_off_a_shorter_source():
    model = model_of("local-m")
    batch = batch_of("a b c d")  # the true answer has 8 words: steps 7 and on look past position 3 + 3
    with torch.no_grad():
        decoded = model.greedy(batch.source, batch.lengths, 12)
    steps = decoded.centres.shape[1]
    assert torch.equal(decoded.centres[0], torch.arange(steps, dtype=torch.float32))
    for t in range(steps):
        empty = t - 3 > 3
        assert bool(decoded.window[0, t].any()) != empty
        if empty:  # nothing to read: no weight, a zero context
            assert not decoded.weights[0, t].any() and not decoded.context[0, t].any()


def test_teacher_forcing_and_greedy_agree_step_by_step():
    """The parallel training pass (cumsum for ours) is the step loop, fed the loop's own words."""
    for name in WINDOW_MODELS:
        model = model_of(name, seed=2)
        batch = batch_of(*TEXTS)
        with torch.no_grad():
            decoded = model.greedy(batch.source, batch.lengths, 10)
            fed = torch.cat([batch.target_in[:, :1], decoded.tokens[:, :-1]], dim=1)
            _, forced = model.read(batch.source, batch.lengths, fed)
        torch.testing.assert_close(forced.weights, decoded.weights, rtol=1e-5, atol=1e-6)
        if name != "global":
            torch.testing.assert_close(forced.centres, decoded.centres, rtol=1e-5, atol=1e-5)


def test_global_is_the_attention_model_on_the_same_weights():
    attention, global_ = model_of("attention", seed=3), model_of("global", seed=4)
    global_.load_state_dict(attention.state_dict())  # the same parameter names: the same decoder
    batch = batch_of(*TEXTS)
    with torch.no_grad():
        assert torch.equal(attention(batch.source, batch.lengths, batch.target_in), global_(
            batch.source, batch.lengths, batch.target_in
        ))  # fmt: skip
        a, g = (
            attention.greedy(batch.source, batch.lengths, 8),
            global_.greedy(batch.source, batch.lengths, 8),
        )
    assert torch.equal(a.tokens, g.tokens) and torch.equal(a.weights, g.weights)


def test_the_loss_moves_the_predicted_centre_through_the_gaussian():
    model = model_of("local-p").train()
    batch = batch_of(*TEXTS)
    logits = model(batch.source, batch.lengths, batch.target_in)
    torch.nn.functional.cross_entropy(logits.flatten(0, 1), batch.target.flatten(), ignore_index=0).backward()
    assert model.position_w.weight.grad.abs().sum() > 0 and model.position_v.weight.grad.abs().sum() > 0


def test_another_window_reads_the_same_weights():
    model = model_of("local-p-ours", window=3)
    wide = model.with_window(6)
    assert model.half_width == 3 and wide.half_width == 6 and model.spec.window == 3
    assert all(a is b for a, b in zip(model.parameters(), wide.parameters()))
    batch = batch_of(*TEXTS)
    with torch.no_grad():
        narrow, broad = (
            model.greedy(batch.source, batch.lengths, 6),
            wide.greedy(batch.source, batch.lengths, 6),
        )
    assert broad.window.sum() > narrow.window.sum() and broad.half_width == 6
    for bad in (0, -1, 2.5, True, "3"):
        with pytest.raises(LabError, match="window must be a whole number of 1 or more"):
            model.with_window(bad)


def test_registered_and_checked():
    assert set(WINDOW_MODELS) <= set(SEQUENCE_MODELS)
    assert model_of("local-p").spec.window == 3
    with pytest.raises(LabError, match="window must be a whole number of 1 or more, not 0"):
        sequence_spec("local-m", TASK, window=0)
    for name in ("global", "local-m"):  # no position predictor: nothing to train for p_t
        assert not hasattr(model_of(name), "position_w")


def test_the_task_writes_every_token_twice_with_its_true_alignment():
    pair = TASK.truth("a b c".split())
    assert pair.target == ("a", "a", "b", "b", "c", "c")
    assert pair.links == ((0,), (0,), (1,), (1,), (2,), (2,))
    assert TASK.truth(["a", "z"]) is None and TASK.truth([]) is None
    rng = np.random.default_rng(0)
    batch = TASK.sample(rng, 5)
    assert len({len(p.source) for p in batch}) == 1 and 5 <= len(batch[0].source) <= 30
    assert all(len(p.source) == 17 for p in TASK.held_out(rng, 3, 17))


TINY = SequenceTrainOptions(batch_size=4, eval_every=10, eval_per_group=1, hidden=8, embed=8, device="cpu")


def test_training_is_deterministic_per_seed():
    def run(seed, models=LOCAL_MODELS, options=TINY):  # one held-out sentence: evaluation stays cheap
        return train_sequence_models(models, "sentences-fr", 2, seed, options=options)

    first, again, other = run(5), run(5), run(6)
    assert first.losses == again.losses and first.losses != other.losses
    for name in LOCAL_MODELS:
        for key, tensor in first.models[name].state_dict().items():
            assert torch.equal(tensor, again.models[name].state_dict()[key])
    wide = run(5, ("local-p",), SequenceTrainOptions(**{**vars(TINY), "window": 6}))
    assert wide.models["local-p"].spec.window == 6 and wide.losses["local-p"] != first.losses["local-p"]
