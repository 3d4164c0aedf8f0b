"""The explorer's decoder against transformers, side by side in one process, on folders of real shapes.

Builds, in a temporary folder that is deleted afterwards (never committed, never shipped),
random-initialised folders of the Qwen2.5-0.5B shape (24 layers, 14 query heads over 2 K/V
heads, hidden 896, intermediate 4864, vocabulary 151,936, tied head, bfloat16) and of the
GPT-2-small shape (12 layers, 12 heads, 768, vocabulary 50,257, float32), each with a
tokenizer.json of its real vocabulary size, and measures:

- opening the folder after the imports: the explorer's load_model against transformers'
  AutoModelForCausalLM.from_pretrained (float32, eager attention);
- a 256-token forward with every layer's attention weights kept and the next-token
  probabilities at every position, against transformers' forward with output_attentions
  (which returns every layer's weights and every position's logits): the ratio;
- the memory each adds at its peak (resident set, sampled every 2 ms);
- a keystroke: a 16-token text one character longer each time, its forward and its top-10
  next tokens, with the 16-bit weights kept as stored (each layer converted as the forward
  reaches it) and with float32 copies.

    python bench/decoder_vs_transformers.py [--only qwen|gpt2] [--repeats 3] [--keystrokes 12]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

SHAPES = {
    "qwen": dict(
        model_type="qwen2", architectures=["Qwen2ForCausalLM"], hidden_size=896, intermediate_size=4864,
        num_hidden_layers=24, num_attention_heads=14, num_key_value_heads=2, vocab_size=151936,
        max_position_embeddings=32768, rope_theta=1000000.0, rms_norm_eps=1e-6, tie_word_embeddings=True,
        use_sliding_window=False, sliding_window=32768, max_window_layers=24, hidden_act="silu",
        bos_token_id=151643, eos_token_id=151643, torch_dtype="bfloat16",
    ),
    "gpt2": dict(
        model_type="gpt2", architectures=["GPT2LMHeadModel"], n_embd=768, n_head=12, n_layer=12,
        n_positions=1024, vocab_size=50257, activation_function="gelu_new", layer_norm_epsilon=1e-5,
        bos_token_id=50256, eos_token_id=50256, torch_dtype="float32",
    ),
}  # fmt: skip
TEXT = (
    "The animal did not cross the street because it was too tired. Attention lets every token look "
    "at every token before it, and a language model writes one token after another. "
)


def rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


class Peak:
    """The largest resident set while the block runs, above what it was when the block began."""

    def __enter__(self):
        self.start = self.top = rss()
        self._run = True
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()
        return self

    def _watch(self):
        while self._run:
            self.top = max(self.top, rss())
            time.sleep(0.002)

    def __exit__(self, *exc):
        self._run = False
        self._thread.join()
        self.top = max(self.top, rss())

    @property
    def added_gb(self) -> float:
        return (self.top - self.start) / 1e9


def tokenizer_json(vocab_size: int, special: str) -> str:
    """A byte-level BPE of ``vocab_size`` tokens: the 256 bytes, merges up to the size, one special."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers

    byte_chars = pre_tokenizers.ByteLevel.alphabet()
    vocab = {c: i for i, c in enumerate(sorted(byte_chars))}
    merges, frontier = [], sorted(byte_chars)
    common = [c for c in "etaoinshrdlucmfwypvbgkqjxzĠ"]
    i = 0
    while len(vocab) < vocab_size - 1:
        a, b = frontier[i % len(frontier)], common[(i // len(frontier)) % len(common)]
        i += 1
        if a + b in vocab:
            continue
        vocab[a + b] = len(vocab)
        merges.append((a, b))
        frontier.append(a + b)
    tok = Tokenizer(models.BPE(vocab=vocab, merges=merges))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.add_special_tokens([special])
    return tok.to_str()


def build(kind: str, folder: Path) -> Path:
    """config.json, model.safetensors (random, N(0, 0.02)) and tokenizer.json of the shape."""
    import torch
    from safetensors.torch import save_file

    c = SHAPES[kind]
    folder.mkdir(parents=True)
    (folder / "config.json").write_text(json.dumps(c), encoding="utf-8")
    gen = torch.Generator().manual_seed(0)
    dtype = torch.bfloat16 if c["torch_dtype"] == "bfloat16" else torch.float32
    tensors = {}

    def add(name, *shape, ones=False):
        t = torch.ones(shape) if ones else torch.randn(shape, generator=gen) * 0.02
        tensors[name] = t.to(dtype)

    if kind == "qwen":
        h, i, kv = c["hidden_size"], c["intermediate_size"], 2 * 64
        add("model.embed_tokens.weight", c["vocab_size"], h)
        add("model.norm.weight", h, ones=True)
        for n in range(c["num_hidden_layers"]):
            p = f"model.layers.{n}."
            add(p + "input_layernorm.weight", h, ones=True)
            add(p + "post_attention_layernorm.weight", h, ones=True)
            for name, rows in (("q", h), ("k", kv), ("v", kv)):
                add(p + f"self_attn.{name}_proj.weight", rows, h)
                add(p + f"self_attn.{name}_proj.bias", rows)
            add(p + "self_attn.o_proj.weight", h, h)
            add(p + "mlp.gate_proj.weight", i, h)
            add(p + "mlp.up_proj.weight", i, h)
            add(p + "mlp.down_proj.weight", h, i)
    else:
        h = c["n_embd"]
        add("transformer.wte.weight", c["vocab_size"], h)
        add("transformer.wpe.weight", c["n_positions"], h)
        add("transformer.ln_f.weight", h, ones=True)
        add("transformer.ln_f.bias", h)
        for n in range(c["n_layer"]):
            p = f"transformer.h.{n}."
            for ln in ("ln_1", "ln_2"):
                add(p + f"{ln}.weight", h, ones=True)
                add(p + f"{ln}.bias", h)
            add(p + "attn.c_attn.weight", h, 3 * h)
            add(p + "attn.c_attn.bias", 3 * h)
            add(p + "attn.c_proj.weight", h, h)
            add(p + "attn.c_proj.bias", h)
            add(p + "mlp.c_fc.weight", h, 4 * h)
            add(p + "mlp.c_fc.bias", 4 * h)
            add(p + "mlp.c_proj.weight", 4 * h, h)
            add(p + "mlp.c_proj.bias", h)
    save_file(tensors, str(folder / "model.safetensors"), metadata={"format": "pt"})
    special = "<|endoftext|>"
    (folder / "tokenizer.json").write_text(tokenizer_json(c["vocab_size"] - 300, special), encoding="utf-8")
    return folder


def median(values):
    return statistics.median(values) if values else float("nan")


def p95(values):
    values = sorted(values)
    return values[min(len(values) - 1, round(0.95 * (len(values) - 1)))] if values else float("nan")


def measure(kind: str, folder: Path, repeats: int, keystrokes: int) -> dict:
    import torch
    import transformers

    from explorer.core.config import AttentionConfig
    from explorer.core.decoder_pass import next_tokens, run_decoder
    from explorer.core.engine import Engine
    from explorer.models import decoder_loader
    from explorer.models.loader import load_model

    out: dict = {"kind": kind}
    gc.collect()
    with Peak() as ours_open:
        started = time.perf_counter()
        ours = load_model(folder)
        out["open_ours"] = time.perf_counter() - started
    ids = ours.tokenizer.encode(TEXT * 8, 256).ids
    assert len(ids) == 256, len(ids)
    ids_t = torch.tensor(ids)
    layers = range(ours.config.num_hidden_layers)

    def our_forward(model):
        run = run_decoder(model, ids_t, keep_weights=layers)
        return run, next_tokens(model, run.final, 10)

    our_forward(ours)  # warm: first-call allocations
    with Peak() as ours_run:
        times = []
        for _ in range(repeats):
            started = time.perf_counter()
            run, top = our_forward(ours)
            times.append(time.perf_counter() - started)
            del run, top
    out["forward_ours"] = median(times)
    out["peak_ours"] = ours_open.added_gb + ours_run.added_gb
    out["keep_float32"] = ours.weights.keep_float32

    # A keystroke: one character more each time, so no forward is cached.
    def keystrokes_with(model) -> list[float]:
        engine = Engine()
        engine._models[str(folder.resolve())] = model
        times = []
        for n in range(keystrokes):
            config = AttentionConfig(
                sentence=TEXT[: 40 + n], model_dir=str(folder), device="cpu", max_tokens=16
            )
            started = time.perf_counter()
            engine.next_tokens(config, 10, positions=[-1])  # the selected position
            times.append(time.perf_counter() - started)
        return times[1:]

    out["keys_float32"] = keystrokes_with(ours)
    stored = decoder_loader.available_memory
    if ours.config.gpt2:
        out["keys_stored"] = None  # stored in float32: nothing to convert
    else:
        decoder_loader.available_memory = lambda: decoder_loader.WORKSPACE_BYTES + 3 * 10**9  # force the plan
        try:
            as_stored = load_model(folder)
        finally:
            decoder_loader.available_memory = stored
        assert not as_stored.weights.keep_float32
        out["keys_stored"] = keystrokes_with(as_stored)
        del as_stored
    del ours
    gc.collect()

    with Peak() as theirs_open:
        started = time.perf_counter()
        theirs = transformers.AutoModelForCausalLM.from_pretrained(
            str(folder), dtype=torch.float32, attn_implementation="eager"
        ).eval()
        out["open_theirs"] = time.perf_counter() - started

    def their_forward(model):
        with torch.no_grad():
            return model(ids_t[None], output_attentions=True)

    their_forward(theirs)
    with Peak() as theirs_run:
        times = []
        for _ in range(repeats):
            started = time.perf_counter()
            result = their_forward(theirs)
            times.append(time.perf_counter() - started)
            del result
    out["forward_theirs"] = median(times)
    out["peak_theirs"] = theirs_open.added_gb + theirs_run.added_gb
    del theirs
    gc.collect()
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(SHAPES), default=None)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--keystrokes", type=int, default=12)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    import torch

    import explorer.core.engine  # noqa: F401  (the explorer's imports)

    ours_imports = time.perf_counter() - started
    started = time.perf_counter()
    import transformers  # noqa: F401

    theirs_imports = time.perf_counter() - started
    torch.set_num_threads(args.threads)
    load_before = os.getloadavg()
    root = Path(tempfile.mkdtemp(prefix="decoder-bench-"))
    rows = []
    try:
        for kind in [args.only] if args.only else ["qwen", "gpt2"]:
            folder = build(kind, root / kind)
            rows.append(measure(kind, folder, args.repeats, args.keystrokes))
            shutil.rmtree(folder)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    load_after = os.getloadavg()
    print(f"load average before {load_before[0]:.2f} {load_before[1]:.2f}, after {load_after[0]:.2f} {load_after[1]:.2f}; "
          f"{os.cpu_count()} cores, {args.threads} torch threads; imports: explorer {ours_imports:.2f} s, transformers {theirs_imports:.2f} s")  # fmt: skip
    names = {"qwen": "Qwen2.5-0.5B shape (bf16)", "gpt2": "GPT-2-small shape (f32)"}
    print("| folder | open: explorer / transformers | 256-token forward, every layer: explorer / transformers (ratio) "
          "| peak memory added: explorer / transformers | 16-token keystroke → top-10, median / p95: float32 copies; as stored |")  # fmt: skip
    print("|---|---|---|---|---|")
    for r in rows:
        keys = f"{median(r['keys_float32']) * 1e3:.0f} / {p95(r['keys_float32']) * 1e3:.0f} ms"
        if r["keys_stored"] is not None:
            keys += f"; {median(r['keys_stored']) * 1e3:.0f} / {p95(r['keys_stored']) * 1e3:.0f} ms"
        else:
            keys += "; (stored as float32)"
        print(
            f"| {names[r['kind']]} | {r['open_ours']:.2f} / {r['open_theirs']:.2f} s "
            f"| {r['forward_ours']:.2f} / {r['forward_theirs']:.2f} s ({r['forward_ours'] / r['forward_theirs']:.2f}×) "
            f"| {r['peak_ours']:.2f} / {r['peak_theirs']:.2f} GB | {keys} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
