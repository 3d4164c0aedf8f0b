"""The sequence models against their equations: one fixed C for every step (exactly), global
attention written out by hand, teacher forcing and greedy decoding agreeing, parameter counts."""

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from explorer.seq2seq.sentences import parse
from explorer.seq2seq.sequence_models import (
    SEQUENCE_MODELS,
    SequenceSpec,
    build_sequence_model,
    parameter_count,
    sequence_spec,
)
from explorer.seq2seq.spec import LabError
from explorer.seq2seq.tasks import EOS, TASKS, Pair, get_task, make_sequence_batch

TASK = get_task("compound-fr")


def model_of(name: str, seed: int = 0, **sizes):
    torch.manual_seed(seed)
    return build_sequence_model(sequence_spec(name, TASK, **sizes)).eval()


def batch_of(*texts):
    pairs = [parse(t, "fr") for t in texts]
    return make_sequence_batch([Pair(p.source, p.target, p.links) for p in pairs], TASK_VOCAB)


TASK_VOCAB = sequence_spec("attention", TASK).vocab
TEXTS = ("Jane visits Africa in September and Paul sees the red car", "Tom likes Paris")


def test_the_fixed_context_is_one_vector_read_by_every_step():
    model = model_of("no-attention")
    batch = batch_of(*TEXTS)
    with torch.no_grad():
        decoded = model.greedy(batch.source, batch.lengths, 12)
        annotations, _ = model.encoder(batch.source, batch.lengths)
    hidden = model.spec.hidden
    for row, n in enumerate(batch.lengths.tolist()):
        # C = [→h_n ; ←h_1]: the forward state after the last word, the backward one after the first.
        c = torch.cat([annotations[row, n - 1, :hidden], annotations[row, 0, hidden:]])
        torch.testing.assert_close(decoded.context[row, 0], c, rtol=1e-6, atol=1e-6)
        for step in range(decoded.context.shape[1]):
            assert torch.equal(decoded.context[row, step], decoded.context[row, 0])
    assert decoded.context.stride(1) == 0  # not T copies that agree: the same memory, T times
    assert decoded.weights is None


def test_training_feeds_the_same_c_at_every_step():
    model = model_of("no-attention")
    batch = batch_of(*TEXTS)
    seen = {}

    def keep_input(module, inputs, output) -> None:
        seen["x"] = inputs[0]

    model.cell.register_forward_hook(keep_input)
    with torch.no_grad():
        model(batch.source, batch.lengths, batch.target_in)
        _, _, context, _ = model.encode(batch.source, batch.lengths)
    fed = seen["x"][..., model.spec.embed :]  # the GRU input is [E y_{i-1} ; C]
    assert fed.shape[1] == batch.target_in.shape[1]
    for step in range(fed.shape[1]):
        assert torch.equal(fed[:, step], context)


@pytest.mark.parametrize("task", ["compound-fr", "sentences-fr"])
def test_attention_equals_the_equations_written_out(task):
    """α_i = softmax(score(s_i, h)) over the real words, c_i = Σ α_ij h_j, p = softmax(W_s tanh(W_c[c;s])),
    with Luong's general score s_iᵀ W h_j (compound) or Bahdanau's additive vᵀ tanh(W₁ s_i + W₂ h_j)."""
    torch.manual_seed(3)
    model = build_sequence_model(sequence_spec("attention", TASKS[task])).eval()
    assert model.spec.scoring == ("general" if task.startswith("compound") else "additive")
    batch = batch_of(*TEXTS)
    a = model.attention
    with torch.no_grad():
        logits = model(batch.source, batch.lengths, batch.target_in)
        h, final = model.encoder(batch.source, batch.lengths)
        s0 = torch.tanh(F.linear(final, model.bridge.weight, model.bridge.bias))
        states, _ = model.cell(model.target_embed(batch.target_in), s0[None])
        for row, n in enumerate(batch.lengths.tolist()):
            keys = h[row, :n]  # only the real words: no mask needed
            if model.spec.scoring == "general":
                scores = states[row] @ a.bilinear[0] @ keys.T
            else:
                hidden = torch.tanh(
                    (states[row] @ a.w_query[0])[:, None, :] + (keys @ a.w_key[0])[None, :, :]
                )
                scores = hidden @ a.v[0]
            alpha = torch.softmax(scores, dim=-1)
            c = alpha @ keys
            combined = torch.tanh(
                F.linear(torch.cat([c, states[row]], -1), model.combine.weight, model.combine.bias)
            )
            expected = F.linear(combined, model.out.weight, model.out.bias)
            torch.testing.assert_close(logits[row], expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", list(SEQUENCE_MODELS))
def test_greedy_decoding_is_teacher_forcing_on_its_own_words(name):
    model = model_of(name, seed=1)
    batch = batch_of(*TEXTS)
    with torch.no_grad():
        decoded = model.greedy(batch.source, batch.lengths, 9)
        tokens = decoded.tokens
        inputs = torch.cat([torch.ones_like(tokens[:, :1]), tokens[:, :-1]], dim=1)  # <bos>, then its own
        logits = model(batch.source, batch.lengths, inputs)
    logits[..., :EOS] = float("-inf")
    forced = logits.argmax(-1)
    for row in range(tokens.shape[0]):
        written = tokens[row]
        end = int((written == EOS).nonzero()[0]) + 1 if (written == EOS).any() else len(written)
        assert torch.equal(forced[row, :end], written[:end])


def test_attention_weights_sum_to_one_over_the_real_words_only():
    model = model_of("attention", seed=2)
    batch = batch_of(*TEXTS)
    with torch.no_grad():
        decoded = model.greedy(batch.source, batch.lengths, 6)
    n = batch.lengths[1]
    torch.testing.assert_close(decoded.weights.sum(-1), torch.ones(decoded.weights.shape[:2]))
    assert torch.all(decoded.weights[1, :, n:] == 0)
    torch.testing.assert_close(decoded.context, decoded.weights @ decoded.annotations)


@pytest.mark.parametrize("task", ["compound-fr", "compound-zh", "sentences-fr", "dates", "copy"])
def test_the_model_without_attention_has_at_least_as_many_parameters(task):
    counts = {name: parameter_count(build_sequence_model(sequence_spec(name, TASKS[task], hidden=48)))
              for name in ("no-attention", "attention")}  # fmt: skip
    assert counts["no-attention"] >= counts["attention"], counts


def test_impossible_specs_are_refused():
    with pytest.raises(LabError, match="model 'lstm' is not one of no-attention, attention"):
        sequence_spec("lstm", TASK)
    with pytest.raises(LabError, match="hidden must be a whole number of 1 or more, not 0"):
        sequence_spec("attention", TASK, hidden=0)
    with pytest.raises(LabError, match="unknown model settings: colour"):
        SequenceSpec.from_dict({**sequence_spec("attention", TASK).to_dict(), "colour": 1})
    spec = sequence_spec("no-attention", TASK)
    assert SequenceSpec.from_dict(spec.to_dict()) == spec


def test_unknown_words_read_as_unk():
    vocab = TASK_VOCAB
    ids = vocab.encode_source(["Jane", "visits", "Atlantis"])
    assert ids[-1] == 1 and ids[0] >= 2
    assert np.all(np.array(ids[:2]) >= 2)
