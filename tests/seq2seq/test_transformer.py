"""The Transformer's three attentions are explorer.core's, and equal torch's own implementations."""

import contextlib

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from explorer.core.attention import Projections, Settings, attend
from explorer.core.config import MaskSpec
from explorer.core.device import threads_for
from explorer.seq2seq.transformer import ATTENTION_KINDS
from explorer.seq2seq.translate import load_model, translate


def mha_like(proj: Projections, width: int, heads: int) -> torch.nn.MultiheadAttention:
    mha = torch.nn.MultiheadAttention(width, heads, batch_first=True)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.cat([proj.w_q, proj.w_k, proj.w_v]))
        mha.in_proj_bias.copy_(torch.cat([proj.b_q, proj.b_k, proj.b_v]))
        mha.out_proj.weight.copy_(proj.w_o)
        mha.out_proj.bias.copy_(proj.b_o)
    return mha.eval()


def random_projections(width, seed=0):
    g = torch.Generator().manual_seed(seed)
    w = lambda: torch.randn(width, width, generator=g) / width**0.5  # noqa: E731
    b = lambda: torch.randn(width, generator=g) * 0.1  # noqa: E731
    return Projections(w(), w(), w(), w(), b(), b(), b(), b())


@pytest.mark.parametrize("causal", [False, True])
def test_batched_attend_with_masks_equals_multihead_attention(causal):
    """Key padding (explicit [B, 1, 1, n] mask) and causal (MaskSpec) masks, batch of 3."""
    width, heads, n = 32, 4, 7
    proj = random_projections(width)
    x = torch.randn(3, n, width, generator=torch.Generator().manual_seed(1))
    lengths = torch.tensor([7, 5, 2])
    visible = torch.arange(n)[None, :] < lengths[:, None]  # [B, n]
    settings = Settings(heads=heads, mask=MaskSpec("causal" if causal else "none"))
    if causal:  # decoder self-attention: the core builds the causal mask, nothing is padded
        stages = attend(x, x, proj, settings)
        expected, expected_w = mha_like(proj, width, heads)(
            x, x, x, attn_mask=~torch.ones(n, n, dtype=torch.bool).tril(), average_attn_weights=False
        )
    else:
        stages = attend(x, x, proj, settings, mask=visible[:, None, None, :])
        expected, expected_w = mha_like(proj, width, heads)(
            x, x, x, key_padding_mask=~visible, average_attn_weights=False
        )
    torch.testing.assert_close(stages.output, expected, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(stages.weights, expected_w, atol=1e-6, rtol=1e-5)
    # And per head against SDPA, which takes True = may attend.
    sdpa_mask = torch.ones(n, n, dtype=torch.bool).tril() if causal else visible[:, None, None, :]
    sdpa = F.scaled_dot_product_attention(stages.q, stages.k, stages.v, attn_mask=sdpa_mask)
    torch.testing.assert_close(stages.head_outputs, sdpa, atol=1e-5, rtol=1e-5)


def test_unbatched_attend_is_unchanged_by_the_batch_axis():
    proj, width = random_projections(16, 3), 16
    x = torch.randn(2, 5, width)
    batched = attend(x, x, proj, Settings(heads=2))
    for b in range(2):
        single = attend(x[b], x[b], proj, Settings(heads=2))
        torch.testing.assert_close(batched.output[b], single.output)
        torch.testing.assert_close(batched.weights[b], single.weights)
        assert single.mask.shape == (5, 5)


@pytest.mark.parametrize("attention", ["soft", "hard"])
def test_the_trained_models_stages_equal_multihead_attention(attention):
    """Every layer and kind of the shipped model, recomputed by nn.MultiheadAttention from the
    trace's own inputs X and the checkpoint's weights."""
    module, spec, _ = load_model("transformer")
    trace = translate("二〇一八年五月九日", "transformer", attention=attention)
    layers = {
        "encoder_self": [layer.attention for layer in module.encoder],
        "decoder_self": [layer.self_attention for layer in module.decoder],
        "cross": [layer.cross_attention for layer in module.decoder],
    }
    assert set(trace.stages) == set(ATTENTION_KINDS)
    for kind in ATTENTION_KINDS:
        assert len(trace.stages[kind]) == spec.layers >= 2
        for layer, core in enumerate(trace.stages[kind]):
            assert core.heads == spec.heads >= 4
            xq, xk = torch.from_numpy(core.X_query)[None], torch.from_numpy(core.X_key)[None]
            n_q, n_k = core.mask.shape
            causal = kind == "decoder_self"
            assert np.array_equal(
                core.mask, np.tril(np.ones((n_q, n_k), bool)) if causal else np.ones((n_q, n_k), bool)
            )
            if attention == "hard" and kind == "cross":
                assert set(np.unique(core.weights)) <= {0.0, 1.0}
                np.testing.assert_array_equal(core.weights.argmax(-1), core.scaled.argmax(-1))
                continue
            mha = mha_like(layers[kind][layer].projections(), spec.d_model, spec.heads)
            with torch.no_grad():
                out, w = mha(xq, xk, xk, attn_mask=~torch.from_numpy(core.mask), average_attn_weights=False)
            np.testing.assert_allclose(core.output, out[0].numpy(), atol=1e-5)
            np.testing.assert_allclose(core.weights, w[0].numpy(), atol=1e-6)
    np.testing.assert_allclose(trace.alignment, trace.stages["cross"][-1].weights.mean(axis=0), atol=1e-7)
    assert "averaged over its 4 heads" in trace.alignment_note


def test_the_final_pass_holds_every_decoding_step():
    """With a causal mask, rerunning the decoder on a longer prefix leaves earlier rows as they were."""
    module, _, _ = load_model("transformer")
    trace = translate("May 9, 2018", "transformer")
    ids = torch.tensor([module.spec.source_chars.index(c) + 2 for c in "May 9, 2018"])
    inputs = torch.tensor([0] + ["0123456789-".index(c) + 1 for c in trace.output[:-1]])
    with torch.no_grad():
        memory = module.encode(ids)
        for t in range(1, len(inputs) + 1):
            record = {kind: [] for kind in ATTENTION_KINDS}
            module.decode(memory, ids, inputs[:t], "soft", record)
            np.testing.assert_allclose(
                record["cross"][-1].stages.weights[:, -1].numpy(), trace.weights[:, t - 1], atol=1e-6
            )


def test_transformer_refuses_other_scorings_and_sampling():
    from explorer.seq2seq.spec import LabError

    with pytest.raises(LabError, match="scaled-dot only"):
        translate("9 May 2018", "transformer", "additive")
    with pytest.raises(LabError, match="sample"):
        translate("9 May 2018", "transformer", attention="sample")


def rerun_greedy(module, source, attention):
    """The decoding before the K/V cache: the decoder rerun on the whole prefix at every step,
    the last pass recorded. Returns its tokens, each step's logits and that record."""
    from explorer.seq2seq.dates import TARGET_LENGTH
    from explorer.seq2seq.transformer import pick
    from explorer.seq2seq.vocab import BOS

    memory = module.encode(source)
    prefix = torch.full((*source.shape[:-1], 1), BOS, dtype=torch.long)
    steps, record = [], {kind: [] for kind in ATTENTION_KINDS}
    for t in range(TARGET_LENGTH):
        last = t == TARGET_LENGTH - 1
        logits = module.decode(memory, source, prefix, attention, record if last else None)[..., -1, :]
        steps.append(logits.clone())
        prefix = torch.cat([prefix, pick(logits)], dim=-1)
    return prefix[..., 1:], steps, record


def cache_texts():
    """Held-out dates in every format, and sentences (the transformer reads them as best it can:
    unknown characters, other lengths)."""
    from explorer.seq2seq import sentences
    from explorer.seq2seq.dates import held_out_set

    rng = np.random.default_rng(0)
    said = [sentences.sample_sentence(rng, lang).text[:40] for lang in ("fr", "zh") for _ in range(6)]
    return [e.source for e in held_out_set(3, seed=1)] + said


@pytest.mark.parametrize("attention", ["soft", "hard"])
def test_the_kv_cache_decodes_as_rerunning_the_decoder(attention):
    """Each cached step's logits are the full rerun's last row within float32 rounding (one row
    through the projections instead of a matrix: the sums may be added in another order), the
    characters the same, and the recorded pass (what the trace shows) the same bit for bit."""
    from explorer.seq2seq.dates import held_out_set
    from explorer.seq2seq.vocab import BOS, Vocabulary, make_batch

    module, spec, _ = load_model("transformer")
    vocab = Vocabulary(spec.source_chars)
    texts = cache_texts()
    with torch.no_grad():
        for text in texts:
            source = torch.tensor(vocab.encode_source(text)[0])
            tokens, steps, record = rerun_greedy(module, source, attention)
            decoded = module.greedy(source, attention=attention, keep=True)
            assert torch.equal(decoded.tokens, tokens), text
            for kind in ATTENTION_KINDS[1:]:
                for old, new in zip(record[kind], decoded.record[kind], strict=True):
                    for name in ("q", "k", "v", "scores", "weights", "output"):
                        assert torch.equal(getattr(old.stages, name), getattr(new.stages, name)), (text, kind)
            memory = module.encode(source)
            caches = module.start_caches(memory)
            inputs = torch.cat([torch.tensor([BOS]), tokens[:-1]])
            for t, logits in enumerate(steps):
                step = module.decode_step(memory, source, inputs[t : t + 1], t, caches, attention)
                keep = torch.arange(logits.shape[-1]) != BOS  # the rerun's <bos> was set to −∞
                np.testing.assert_allclose(step[keep].numpy(), logits[keep].numpy(), atol=1e-5, rtol=0)
        # a padded batch, as the held-out evaluation decodes while training
        batch = make_batch(held_out_set(20, seed=2), vocab)
        tokens, _, _ = rerun_greedy(module, batch.source, attention)
        assert torch.equal(module.greedy(batch.source, attention=attention).tokens, tokens)


def same_decoding(a, b) -> bool:
    """The same characters, alignment and every recorded stage, bit for bit."""
    if not (torch.equal(a.tokens, b.tokens) and torch.equal(a.alignment, b.alignment)):
        return False
    for kind in ATTENTION_KINDS:
        for old, new in zip(a.record[kind], b.record[kind], strict=True):
            for name in ("q", "k", "v", "scores", "weights", "output"):
                if not torch.equal(getattr(old.stages, name), getattr(new.stages, name)):
                    return False
    return True


def wrong_guesses(answer: torch.Tensor) -> list[torch.Tensor]:
    """Guesses that differ from ``answer`` at its first, a middle and its last character."""
    out = []
    for at in (0, 5, len(answer) - 1):
        wrong = answer.clone()
        wrong[at] = 1 + (int(wrong[at]) % 10)  # another digit id (0 is <bos>)
        out.append(wrong)
    return out


@contextlib.contextmanager
def counting(module, name):
    """Counts the calls of ``module.name`` inside the block."""
    calls = []
    original = getattr(module, name)

    def counted(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    setattr(module, name, counted)
    try:
        yield calls
    finally:
        delattr(module, name)


@pytest.mark.parametrize("attention", ["soft", "hard"])
def test_a_guess_changes_the_time_taken_never_the_answer(attention):
    """A guess (the date grammar's reading, or the previous keystroke's answer) is checked by
    the recorded pass: the picks up to its first wrong character are kept and only the rest is
    stepped. Right, wrong at the first, a middle or the last character, or the grammar's: the
    answer and every stage are the unguessed decode's, bit for bit, and with one pass allowed a
    guess right for its first k characters leaves 9 − (k + 1) steps (none when all but the
    last are right: the pass itself picks the last)."""
    from explorer.seq2seq.translate import grammar_guess
    from explorer.seq2seq.vocab import Vocabulary

    module, spec, _ = load_model("transformer")
    vocab = Vocabulary(spec.source_chars)
    with torch.no_grad(), threads_for(0):
        for text in cache_texts():
            source = torch.tensor(vocab.encode_source(text)[0])
            plain = module.greedy(source, attention=attention, keep=True)
            guesses = [plain.tokens, *wrong_guesses(plain.tokens), torch.full((10,), 11)]
            grammar = grammar_guess(text, vocab)
            guesses += [] if grammar is None else [grammar]
            for guess in guesses:
                right = int((guess == plain.tokens).long().cumprod(0).sum())  # leading characters right
                expected = 0 if right >= 9 else 8 - right
                for passes in (1, 6):
                    with counting(module, "decode_step") as steps:
                        guessed = module.greedy(
                            source, attention=attention, keep=True, guess=guess, guess_passes=passes
                        )
                    assert same_decoding(plain, guessed), (text, guess, passes)
                    assert len(steps) == expected if passes == 1 else len(steps) <= expected, (text, guess)


def test_the_grammar_guess_is_the_shipped_models_answer_on_held_out_dates():
    """The shortcut pays only if the grammar reads what the model writes: on held-out dates in
    every format it must, nearly always (the shipped Transformer's held-out accuracy)."""
    from explorer.seq2seq.dates import held_out_set
    from explorer.seq2seq.translate import grammar_guess
    from explorer.seq2seq.vocab import Vocabulary

    module, spec, _ = load_model("transformer")
    vocab = Vocabulary(spec.source_chars)
    examples = held_out_set(10, seed=3)
    agree = 0
    with torch.no_grad(), threads_for(0):
        for example in examples:
            guess = grammar_guess(example.source, vocab)
            assert guess is not None, example.source  # every rendered date is one the grammar reads
            assert vocab.decode_target(guess) == example.target, example.source
            source = torch.tensor(vocab.encode_source(example.source)[0])
            agree += torch.equal(module.greedy(source).tokens, guess)
    assert agree >= 0.9 * len(examples), f"{agree} of {len(examples)}"


def test_typing_guesses_from_the_previous_answer_and_answers_as_without():
    """Typed a character at a time, each text before it is a date: the previous answer is the
    guess, so fewer steps run, and every answer and alignment is the unguessed decode's."""
    from explorer.seq2seq.vocab import Vocabulary

    module, spec, _ = load_model("transformer")
    vocab = Vocabulary(spec.source_chars)
    typed = "9 May 201"
    stepped = []
    with torch.no_grad(), threads_for(0):
        for i in range(1, len(typed) + 1):
            with counting(module, "decode_step") as steps:
                trace = translate(typed[:i], "transformer")
            stepped.append(len(steps))
            plain = module.greedy(torch.tensor(vocab.encode_source(trace.source)[0]), keep=True)
            assert trace.output == vocab.decode_target(plain.tokens), trace.source
            np.testing.assert_array_equal(trace.alignment, plain.alignment.numpy())
    assert sum(stepped) < 9 * len(typed) / 2, stepped  # unguessed, every text takes 9 steps
