"""Translate one text and keep every number: the ``translate`` command and the tab's compute.

    trace = translate("9 mai 2018", model="bahdanau", scoring="additive", attention="soft")
    trace.output, trace.alignment, trace.alignment_score, trace.step(3), trace.attention_trace()

``load_model(model, scoring)`` loads a shipped checkpoint once and caches it (thread-safe);
``trace_translation(module, spec, text, ...)`` does the same for any module, e.g. one being
trained. Both raise ``LabError`` subclasses with one-line messages for bad input.

What the options mean:
  GRU models     --scoring picks the trained checkpoint; --attention soft (as trained), hard
                 (one-hot at each step's largest weight) or sample (one key drawn from each
                 step's softmax, seeded) changes which context every decoding step reads.
  Transformer    scaled dot only; --attention soft or hard applies to the cross-attention of
                 every decoder layer at decode time; the self-attentions stay soft.
"""

from __future__ import annotations

import threading
import time
import unicodedata
import weakref
from datetime import date
from pathlib import Path

import numpy as np
import torch

from explorer import reading
from explorer.core.attention import Settings
from explorer.core.config import AttentionConfig
from explorer.core.device import threads_for
from explorer.core.trace import AttentionTrace
from explorer.seq2seq.alignment import alignment_hits
from explorer.seq2seq.checkpoints import CheckpointError, load_checkpoint, shipped_folder
from explorer.seq2seq.dates import find_fields, readings
from explorer.seq2seq.spec import ATTENTIONS, MODELS, LabError, ModelSpec, core_settings, default_spec
from explorer.seq2seq.trace import TranslationTrace
from explorer.seq2seq.transformer import ATTENTION_KINDS, Recorded
from explorer.seq2seq.vocab import BOS, TARGET_TOKENS, Vocabulary

EXAMPLE_SOURCE = "9 May 2018"  # what the empty-text message offers to type (the models read English dates)


class TranslateError(LabError):
    """Input the models cannot read (empty, too long) or an option they do not offer."""


_loaded: dict[tuple, tuple[torch.nn.Module, ModelSpec, str]] = {}
_load_lock = threading.Lock()


def load_model(
    model: str = "bahdanau", scoring: str | None = None, checkpoint: str | Path | None = None
) -> tuple[torch.nn.Module, ModelSpec, str]:
    """(module, spec, label): a shipped checkpoint by (model, scoring), or any checkpoint folder."""
    if checkpoint is None:
        if model not in MODELS:
            raise TranslateError.of("seq2seq.model_unknown", value=model, choices=", ".join(MODELS))
        spec = default_spec(model, scoring)  # validates the pair (the transformer: scaled-dot only)
        key: tuple = ("shipped", spec.model, spec.scoring)
        folder, label = shipped_folder(spec.model, spec.scoring), f"shipped {spec.name}"
    else:
        folder = reading.canonical(
            reading.user_path(checkpoint, "--checkpoint", CheckpointError)
        )  # "": no folder
        key, label = ("folder", str(folder)), str(folder)
    with _load_lock:
        if key not in _loaded:
            module, spec, _ = load_checkpoint(folder)
            _loaded[key] = (module, spec, label)
        return _loaded[key]


def translate(
    text: str,
    model: str = "bahdanau",
    scoring: str | None = None,
    attention: str = "soft",
    seed: int = 0,
    checkpoint: str | Path | None = None,
) -> TranslationTrace:
    """With ``checkpoint`` (a folder written by ``train``), the model and scoring are its own."""
    module, spec, label = load_model(model, scoring, checkpoint)
    return trace_translation(module, spec, text, attention, seed, label)


def read_source(text, spec: ModelSpec) -> tuple[str, list[str]]:
    """The text the model will read, and notices about what was changed; TranslateError if none."""
    if not isinstance(text, str) or not text.strip():
        raise TranslateError.of("seq2seq.source_empty", example=EXAMPLE_SOURCE)
    notices = []
    cleaned = "".join(" " if unicodedata.category(c) in ("Cc", "Zs", "Zl", "Zp") else c for c in text).strip()
    if cleaned != text:
        notices.append("control characters and spaces around the text were removed or made plain spaces")
    if not cleaned:
        raise TranslateError.of("seq2seq.source_empty", example=EXAMPLE_SOURCE)
    if len(cleaned) > spec.max_source:
        raise TranslateError.of("seq2seq.source_too_long", count=len(cleaned), limit=spec.max_source)
    return cleaned, notices


def trace_translation(
    module: torch.nn.Module,
    spec: ModelSpec,
    text: str,
    attention: str = "soft",
    seed: int = 0,
    label: str = "",
) -> TranslationTrace:
    if attention not in ATTENTIONS:
        raise TranslateError.of("seq2seq.attention_unknown", value=attention, choices=", ".join(ATTENTIONS))
    if spec.model == "transformer" and attention == "sample":
        raise TranslateError.of("seq2seq.sample_transformer")
    started = time.perf_counter()
    source, notices = read_source(text, spec)
    vocab = Vocabulary(spec.source_chars)
    ids, unknown = vocab.encode_source(source)
    if unknown:
        shown = ", ".join(repr(c) for c in dict.fromkeys(unknown))
        notices.append(f"{len(unknown)} character(s) never seen in training were read as <unk>: {shown}")
    device = next(module.parameters()).device
    tensor = torch.tensor(ids, dtype=torch.long, device=device)
    with torch.no_grad(), threads_for(0):  # small work: one thread (explorer.core.device)
        if spec.model == "transformer":
            fields = _transformer_fields(module, spec, tensor, source, vocab, attention, seed)
        else:
            fields = _gru_fields(module, spec, tensor, source, vocab, attention, seed)
    trace = TranslationTrace(
        model=spec.model,
        scoring=spec.scoring,
        attention=attention,
        seed=seed,
        checkpoint=label,
        source=source,
        source_tokens=vocab.source_tokens(source),
        notices=notices,
        unknown_characters=unknown,
        **fields,
    )
    _score_alignment(trace)
    _check_output(trace)
    trace.timings_ms["translate"] = (time.perf_counter() - started) * 1e3
    return trace


def _score_alignment(trace: TranslationTrace) -> None:
    example = find_fields(trace.source)
    if example is None:
        trace.notices.append("no alignment score: the source is not written in one of the generated formats")
        return
    trace.example = example
    trace.alignment_hits = alignment_hits(trace.alignment, example)
    trace.alignment_score = float(np.mean(trace.alignment_hits))


def _check_output(trace: TranslationTrace) -> None:
    try:
        date.fromisoformat(trace.output)
    except ValueError:
        trace.notices.append(f"the output {trace.output!r} is not a real date")


# -- the GRU models --------------------------------------------------------------------------
def _gru_fields(module, spec, source_ids, source, vocab, attention, seed) -> dict:
    decoded = module.greedy(source_ids[None], torch.tensor([len(source_ids)]), attention, seed)
    names = ("queries", "keys", "scores", "scaled", "weights", "context")
    out = {name: getattr(decoded, name)[0].float().cpu().numpy() for name in names}
    output_tokens = [TARGET_TOKENS[int(i)] for i in decoded.tokens[0]]
    params = module.decoder.attention.params().as_arrays()
    settings = core_settings(spec.scoring, attention, seed)
    query_role = (
        "s_{i-1}, the state before step i"
        if spec.model == "bahdanau"
        else "h_t, the state after reading y_{t-1}"
    )
    core = core_trace(
        spec, settings, (source, "".join(output_tokens)), output_tokens, vocab.source_tokens(source),
        x_query=out["queries"], x_key=out["keys"],
        q=out["queries"][None], k=out["keys"][None], v=out["keys"][None],
        scores=out["scores"][None], scaled=out["scaled"][None],
        mask=np.ones(out["weights"].shape, dtype=bool), weights=out["weights"][None],
        head_outputs=out["context"][None], concat=out["context"], output=out["context"],
        divisor=decoded.scale_divisor, params=params, layer=None,
    )  # fmt: skip
    core.notices.append(f"one head; queries are the decoder states ({query_role}); keys = values = h_j")
    return {
        "output_tokens": output_tokens,
        "alignment": out["weights"],
        "alignment_note": f"the {attention} weights each output step used (one head)",
        "scores": out["scores"],
        "scaled": out["scaled"],
        "weights": out["weights"],
        "queries": out["queries"],
        "keys": out["keys"],
        "values": out["keys"],
        "context": out["context"],
        "scale_divisor": decoded.scale_divisor,
        "scoring_params": params,
        "stages": {"cross": [core]},
    }


# -- the Transformer -------------------------------------------------------------------------
def grammar_guess(source: str, vocab: Vocabulary) -> torch.Tensor | None:
    """The answer the date grammar reads in ``source`` (by the formats' convention, as the
    models are trained), as target ids; None where it reads no date. Only a shortcut for the
    decoder, which checks it (``TransformerTranslator.greedy``): it never changes the answer."""
    found = readings(source)
    return torch.tensor(vocab.encode_target(found[0].date.isoformat())) if found else None


# Each Transformer's last answer: typing changes a text by a character, and the answer rarely
# by more than a few, so it is the decoder's guess where the grammar reads no date yet.
_last_answers: weakref.WeakKeyDictionary[torch.nn.Module, torch.Tensor] = weakref.WeakKeyDictionary()


def _transformer_fields(module, spec, source_ids, source, vocab, attention, seed) -> dict:
    guess = grammar_guess(source, vocab)
    decoded = module.greedy(
        source_ids,
        attention=attention,
        keep=True,
        guess=_last_answers.get(module) if guess is None else guess,
    )
    _last_answers[module] = decoded.tokens
    output_tokens = [TARGET_TOKENS[int(i)] for i in decoded.tokens]
    decoder_inputs = [TARGET_TOKENS[BOS], *output_tokens[:-1]]
    source_tokens = vocab.source_tokens(source)
    settings = module.settings(attention)
    # (query labels, key labels): decoder self-attention rows are named by the character they
    # read, cross-attention rows by the character they help write (as in the alignment).
    labels = {
        "encoder_self": (source_tokens, source_tokens),
        "decoder_self": (decoder_inputs, decoder_inputs),
        "cross": (output_tokens, source_tokens),
    }
    texts = {  # (sentence, query) for each AttentionTrace's config; "" = self-attention
        "encoder_self": (source, ""),
        "decoder_self": ("".join(decoder_inputs), ""),
        "cross": (source, "".join(output_tokens)),
    }
    stages = {
        kind: [
            _from_recorded(spec, settings[kind], texts[kind], *labels[kind], rec, layer)
            for layer, rec in enumerate(decoded.record[kind])
        ]
        for kind in ATTENTION_KINDS
    }
    last = stages["cross"][-1]
    merge = lambda x: x.transpose(1, 0, 2).reshape(x.shape[1], -1)  # noqa: E731  [h, n, d_k] → [n, h·d_k]
    return {
        "output_tokens": output_tokens,
        "alignment": decoded.alignment.float().cpu().numpy(),
        "alignment_note": (
            f"the last decoder layer's cross-attention weights, averaged over its {spec.heads} heads; "
            "scores, scaled and weights are that layer's, per head [heads, T, n]"
        ),
        "scores": last.scores,
        "scaled": last.scaled,
        "weights": last.weights,
        "queries": merge(last.Q),
        "keys": merge(last.K),
        "values": merge(last.V),
        "context": last.concat,
        "scale_divisor": last.scale_divisor,
        "stages": stages,
    }


def _from_recorded(spec, settings, texts, query_tokens, key_tokens, rec: Recorded, layer):
    s = rec.stages
    arrays = {
        name: getattr(s, name).float().cpu().numpy()
        for name in ("q", "k", "v", "scores", "scaled", "weights", "head_outputs", "concat", "output")
    }
    return core_trace(
        spec, settings, texts, query_tokens, key_tokens,
        x_query=rec.x_query.float().cpu().numpy(), x_key=rec.x_key.float().cpu().numpy(),
        mask=s.mask.cpu().numpy(), divisor=s.scale_divisor, params={}, layer=layer, **arrays,
    )  # fmt: skip


def core_trace(
    spec, settings: Settings, texts: tuple[str, str], query_tokens, key_tokens, *, x_query, x_key,
    q, k, v, scores, scaled, mask, weights, head_outputs, concat, output, divisor, params, layer,
) -> AttentionTrace:  # fmt: skip
    """One attention of the model as explorer.core's AttentionTrace (what the panels draw)."""
    config = AttentionConfig(
        sentence=texts[0],
        query=texts[1],
        scoring=settings.scoring,
        scale=settings.scale,
        heads=settings.heads,
        attention=settings.attention,
        mask=str(settings.mask),
        seed=settings.seed,
        device="cpu",
        max_tokens=max(2, spec.max_source),
    )
    p = weights.astype(np.float64)
    entropy = -(p * np.log(np.where(p > 0, p, 1.0))).sum(axis=-1)  # 0 · ln 0 counts as 0
    return AttentionTrace(
        config=config,
        tokens_query=list(query_tokens),
        tokens_key=list(key_tokens),
        X_query=x_query, X_key=x_key, Q=q, K=k, V=v,
        scores=scores, scaled=scaled, mask=mask, weights=weights,
        head_outputs=head_outputs, concat=concat, output=output,
        entropy=entropy.astype(np.float32),
        heads=settings.heads, d_k=q.shape[-1], scale_divisor=float(divisor), device="cpu",
        weights_source="trained", model_name=spec.name, layer=layer,
        scoring_params=params,
    )  # fmt: skip
