"""A 16-bit decoder opens before its float32 copies are made: a thread makes them layer by
layer, and a forward that reaches a layer first makes it itself. Whoever comes first, each
tensor is converted exactly once, a trace while half are made gives transformers' numbers,
the kept copies equal the stored values, and closing the store stops the thread."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections import Counter

import pytest
import torch

from explorer.core.decoder_pass import logits, run_decoder
from explorer.models.decoder import DecoderWeights, find_tensors, stop_conversions
from explorer.models.loader import load_model, read_weights
from tests.models import tiny_decoders as td
from tests.models.test_decoders import ATTENTION_TOLERANCE, LOGIT_TOLERANCE, differences

START = DecoderWeights.convert_in_background


def opened_unconverted(folder, monkeypatch, pause: float = 0.0):
    """The model as load_model opens it, its thread not started; every float32 copy counted
    (and each read slowed by ``pause`` s, so a thread and a forward overlap)."""
    monkeypatch.setattr(DecoderWeights, "convert_in_background", lambda self: None)
    model = load_model(folder)
    monkeypatch.setattr(DecoderWeights, "convert_in_background", START)
    weights, read, counts = model.weights, model.weights._read, Counter()
    lock = threading.Lock()

    def counted(tensors):
        with lock:
            counts.update(list(tensors))
        time.sleep(pause)
        return read(tensors)

    weights._read = counted
    assert weights.keep_float32 and not weights.converted
    return model, counts


@pytest.mark.parametrize("family", ["qwen2", "gpt2"])
def test_a_trace_while_half_the_copies_are_made_equals_transformers(decoder_folders, family, monkeypatch):
    folder = decoder_folders(family, dtype=torch.bfloat16)
    model, counts = opened_unconverted(folder, monkeypatch)
    model.weights.layer(0)  # the thread's first layer made; the others not yet
    assert model.weights._layers[1] is None
    attention, logit, _ = differences(model, folder, td.ENGLISH)
    assert attention < ATTENTION_TOLERANCE and logit < LOGIT_TOLERANCE
    thread = model.weights.convert_in_background()  # what is left: the top tensors
    assert thread is not None and model.weights.wait_converted(30)
    stored = find_tensors(model.config, read_weights(folder)[1]).tensors
    if model.config.tie_word_embeddings:
        stored.pop("lm_head", None)
    assert counts == Counter(list(stored))  # every tensor the forward reads, converted once


def test_a_thread_and_forwards_together_convert_each_tensor_once(decoder_folders, monkeypatch):
    folder = decoder_folders("llama", dtype=torch.bfloat16)
    plain = load_model(folder)
    assert plain.weights.wait_converted(30)
    ids = torch.tensor(plain.tokenizer.encode(td.ENGLISH, 64).ids)
    expected = logits(plain, run_decoder(plain, ids).final)
    model, counts = opened_unconverted(folder, monkeypatch, pause=0.01)
    model.weights.convert_in_background()
    results = []
    forwards = [threading.Thread(target=lambda: results.append(logits(model, run_decoder(model, ids).final)))
                for _ in range(2)]  # fmt: skip
    for forward in forwards:
        forward.start()
    for forward in forwards:
        forward.join(60)
    assert model.weights.wait_converted(30)
    assert len(results) == 2
    for got in results:
        torch.testing.assert_close(got, expected, atol=0, rtol=0)
    assert counts and set(counts.values()) == {1}


@pytest.mark.parametrize("family", ["llama", "gpt2"])
def test_the_kept_copies_equal_the_stored_values(decoder_folders, family):
    folder = decoder_folders(family, dtype=torch.float16)
    model = load_model(folder)
    assert model.weights.wait_converted(30)
    assert model.weights.stored_dtypes == set()  # the mapping let go once every copy is made
    stored = DecoderWeights(model.config, find_tensors(model.config, read_weights(folder)[1]).tensors, False)
    for i in range(model.config.num_hidden_layers):
        kept, converted = model.weights.layer(i), stored.layer(i)
        for name, tensor in vars(kept).items():
            other = getattr(converted, name)
            assert (tensor is None) == (other is None), name
            if tensor is not None:
                assert tensor.dtype == torch.float32 and torch.equal(tensor, other), (i, name)
    for name in ("embed", "positions", "final_norm.weight", "final_norm.bias", "lm_head"):
        kept, converted = model.weights.optional(name), stored.optional(name)
        assert (kept is None) == (converted is None), name
        if kept is not None:
            assert torch.equal(kept, converted), name
    ids = torch.tensor([3, 1, 4, 1, 5])
    assert torch.equal(model.weights.embed_rows(ids), stored.embed_rows(ids))


def test_closing_the_store_stops_the_thread(decoder_folders, monkeypatch):
    model, counts = opened_unconverted(decoder_folders("llama", dtype=torch.bfloat16), monkeypatch, pause=0.2)
    thread = model.weights.convert_in_background()
    assert thread is not None
    model.weights.close()
    thread.join(5)
    assert not thread.is_alive() and not model.weights.converted
    assert sum(counts.values()) <= 9  # at most the one layer it was converting
    run = run_decoder(model, torch.tensor([1, 2, 3]))  # a closed store still computes: it converts itself
    assert torch.isfinite(run.final).all()


def test_dropping_the_model_stops_the_thread(decoder_folders, monkeypatch):
    model, _ = opened_unconverted(decoder_folders("llama", dtype=torch.bfloat16), monkeypatch, pause=0.2)
    thread = model.weights.convert_in_background()
    assert thread is not None
    del model  # the thread holds the store only while it converts a layer
    thread.join(5)
    assert not thread.is_alive()


def test_every_conversion_thread_is_stopped_and_joined(decoder_folders, monkeypatch):
    model, counts = opened_unconverted(decoder_folders("llama", dtype=torch.bfloat16), monkeypatch, pause=0.2)
    thread = model.weights.convert_in_background()
    assert thread is not None and thread.is_alive()
    stop_conversions()  # while the model is still held
    assert not thread.is_alive() and not model.weights.converted
    assert sum(counts.values()) <= 9  # at most the one layer it was converting


def test_the_interpreter_stops_conversion_threads_before_it_exits(tmp_path):
    """A command that exited while the thread was inside torch aborted (exit 134, "terminate
    called without an active exception") about one run in five. A stand-in thread, registered
    as a conversion is, records whether it was told to stop and waited for at exit."""
    done = tmp_path / "stopped"
    script = f"""
import threading
from explorer.models import decoder
closed = threading.Event()
def convert():
    closed.wait()
    open({str(done)!r}, "w").close()
thread = threading.Thread(target=convert, daemon=True)
decoder._CONVERTING.append((thread, closed))
thread.start()
"""
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert done.exists()  # without the exit hook the daemon thread dies waiting
