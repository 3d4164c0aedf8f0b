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
- the peak resident memory of a fresh process that opens the folder and runs that forward once
  (each side in its own process: memory freed by one would flatter the other);
- a keystroke: a 16-token text one character longer each time, its forward and its top-10
  next tokens, with the 16-bit weights kept as stored (each layer converted as the forward
  reaches it) and with float32 copies, the engine reusing the earlier texts' first tokens as
  the window does; and with float32 copies, every token recomputed.

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
REAL_VOCABULARY = {"qwen": 151643, "gpt2": 50256}  # the BPE tokens of the real tokenizers, special ones apart
TEXT = (
    "The animal did not cross the street because it was too tired. Attention lets every token look "
    "at every token before it, and a language model writes one token after another. "
)


def tokenizer_json(vocab_size: int, special: str) -> str:
    """A byte-level BPE of ``vocab_size`` tokens with the shape of a real one: the 256 bytes,
    then merges of two short tokens (≤ 4 characters) drawn at random, so that tokens are 2–8
    characters long as in GPT-2's or Qwen2's (Qwen2's: 151,643 tokens, ~151 k merges, ~7 MB)."""
    import random

    from tokenizers import Tokenizer, decoders, models, pre_tokenizers

    byte_chars = sorted(pre_tokenizers.ByteLevel.alphabet())
    vocab = {c: i for i, c in enumerate(byte_chars)}
    merges, short = [], list(byte_chars)
    draw = random.Random(0)
    while len(vocab) < vocab_size - 1:
        a, b = draw.choice(short), draw.choice(short)
        if a + b in vocab:
            continue
        vocab[a + b] = len(vocab)
        merges.append((a, b))
        if len(a + b) <= 4:
            short.append(a + b)
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
    (folder / "tokenizer.json").write_text(tokenizer_json(REAL_VOCABULARY[kind], special), encoding="utf-8")
    return folder


def median(values):
    return statistics.median(values) if values else float("nan")


def p95(values):
    values = sorted(values)
    return values[min(len(values) - 1, round(0.95 * (len(values) - 1)))] if values else float("nan")


def open_ours(folder: Path, keep_float32: bool | None = None):
    """The explorer's load_model; ``keep_float32`` False forces the as-stored plan."""
    from explorer.models import decoder_loader
    from explorer.models.loader import load_model

    if keep_float32 is not False:
        return load_model(folder)
    stored = decoder_loader.available_memory
    decoder_loader.available_memory = lambda: (
        decoder_loader.WORKSPACE_BYTES + 3 * 10**9
    )  # one layer at a time
    try:
        return load_model(folder)
    finally:
        decoder_loader.available_memory = stored


def open_theirs(folder: Path):
    import torch
    import transformers

    return transformers.AutoModelForCausalLM.from_pretrained(
        str(folder), dtype=torch.float32, attn_implementation="eager"
    ).eval()


def forward_ours(model, ids):
    """Every layer's attention weights kept, and the top-10 next tokens at every position."""
    from explorer.core.decoder_pass import next_tokens, run_decoder

    run = run_decoder(model, ids, keep_weights=range(model.config.num_hidden_layers))
    return run, next_tokens(model, run.final, 10)


def forward_theirs(model, ids):
    import torch

    with torch.no_grad():
        return model(ids[None], output_attentions=True)


def token_ids(folder: Path):
    import torch

    from explorer.models.tokenizer import load_tokenizer

    ids = load_tokenizer(folder, wordpiece_family=False).encode(TEXT * 8, 256).ids
    assert len(ids) == 256, len(ids)
    return torch.tensor(ids)


def keystrokes(folder: Path, model, count: int, reuse: bool = True) -> list[float]:
    """A text one character longer each time (that text never cached): the forward and the
    top-10 next tokens at the last position, as the window's next-token panel asks for them.
    ``reuse``: the engine's passes of the earlier texts stay (their first tokens are reused, as
    in the window); False forgets them before each keystroke (every token computed)."""
    from explorer.core.config import AttentionConfig
    from explorer.core.engine import Engine

    engine = Engine()
    engine._models[str(folder.resolve())] = model
    times = []
    for n in range(count + 1):
        config = AttentionConfig(sentence=TEXT[: 40 + n], model_dir=str(folder), device="cpu", max_tokens=16)
        if not reuse:
            engine._passes.clear()
        started = time.perf_counter()
        engine.next_tokens(config, 10, positions=[-1])
        times.append(time.perf_counter() - started)
    return times[1:]  # the first pays for first-call allocations


def measure(kind: str, folder: Path, repeats: int, count: int) -> dict:
    """Open times, then the forwards alternated (ours, theirs, ours, …) so that both see the
    same load; the fastest of the repeats (least disturbed by other work) is reported."""
    out: dict = {"kind": kind}
    started = time.perf_counter()
    ours = open_ours(folder)
    out["open_ours"] = time.perf_counter() - started
    ours.weights.wait_converted()  # the float32 copies a thread makes after the open: not in the forwards
    started = time.perf_counter()
    theirs = open_theirs(folder)
    out["open_theirs"] = time.perf_counter() - started
    ids = token_ids(folder)
    forward_ours(ours, ids), forward_theirs(theirs, ids)  # warm: first-call allocations
    mine, their = [], []
    for _ in range(repeats):
        started = time.perf_counter()
        forward_ours(ours, ids)
        mine.append(time.perf_counter() - started)
        started = time.perf_counter()
        forward_theirs(theirs, ids)
        their.append(time.perf_counter() - started)
    out["forward_ours"], out["forward_theirs"] = min(mine), min(their)
    out["forward_ours_median"], out["forward_theirs_median"] = median(mine), median(their)
    del theirs
    gc.collect()
    out["keys_float32"] = keystrokes(folder, ours, count)
    out["keys_whole"] = keystrokes(folder, ours, count, reuse=False)
    del ours
    gc.collect()
    if SHAPES[kind]["torch_dtype"] == "float32":
        out["keys_stored"] = None  # stored in float32: nothing to convert
    else:
        as_stored = open_ours(folder, keep_float32=False)
        assert not as_stored.weights.keep_float32
        out["keys_stored"] = keystrokes(folder, as_stored, count)
    return out


def own_peak_kib() -> int:
    """This process's own peak resident memory, VmHWM of /proc/self/status (KiB). Not
    getrusage's ru_maxrss: Linux carries the parent's peak at fork into a child's ru_maxrss
    (across exec too), so children of a parent that held a model all report the parent's peak."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise OSError("no VmHWM in /proc/self/status (Linux only)")


def peak_of(side: str, folder: Path, threads: int) -> float:
    """Peak resident memory (GB) of a fresh process that imports what it needs, opens the folder
    and runs the 256-token forward once: the explorer's, or transformers'."""
    import subprocess

    code = (
        f"import sys, torch; sys.path[:0] = [{str(Path(__file__).resolve().parent.parent)!r}, {str(Path(__file__).resolve().parent)!r}]; torch.set_num_threads({threads}); "
        f"import decoder_vs_transformers as b; from pathlib import Path; f = Path({str(folder)!r}); "
        f"m = b.open_{side}(f); b.forward_{side}(m, b.token_ids(f)); "
        "print(b.own_peak_kib())"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return int(done.stdout.strip().splitlines()[-1]) * 1024 / 1e9  # VmHWM is in KiB


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
            row = measure(kind, folder, args.repeats, args.keystrokes)
            row["peak_ours"] = peak_of("ours", folder, args.threads)
            row["peak_theirs"] = peak_of("theirs", folder, args.threads)
            rows.append(row)
            shutil.rmtree(folder)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    load_after = os.getloadavg()
    print(f"load average before {load_before[0]:.2f} {load_before[1]:.2f}, after {load_after[0]:.2f} {load_after[1]:.2f}; "
          f"{os.cpu_count()} cores, {args.threads} torch threads; imports: explorer {ours_imports:.2f} s, transformers {theirs_imports:.2f} s")  # fmt: skip
    names = {"qwen": "Qwen2.5-0.5B shape (bf16)", "gpt2": "GPT-2-small shape (f32)"}
    print("| folder | open: explorer / transformers | 256-token forward, every layer, fastest of the repeats: "
          "explorer / transformers (ratio; medians) | peak memory of the process: explorer / transformers "
          "| 16-token keystroke → top-10, median / p95: float32 copies; as stored "
          "| the same, float32, every token recomputed (no prefix reused) |")  # fmt: skip
    print("|---|---|---|---|---|---|")
    for r in rows:
        keys = f"{median(r['keys_float32']) * 1e3:.0f} / {p95(r['keys_float32']) * 1e3:.0f} ms"
        if r["keys_stored"] is not None:
            keys += f"; {median(r['keys_stored']) * 1e3:.0f} / {p95(r['keys_stored']) * 1e3:.0f} ms"
        else:
            keys += "; (stored as float32)"
        print(
            f"| {names[r['kind']]} | {r['open_ours']:.2f} / {r['open_theirs']:.2f} s "
            f"| {r['forward_ours']:.2f} / {r['forward_theirs']:.2f} s ({r['forward_ours'] / r['forward_theirs']:.2f}×; "
            f"{r['forward_ours_median']:.2f} / {r['forward_theirs_median']:.2f} s) "
            f"| {r['peak_ours']:.2f} / {r['peak_theirs']:.2f} GB | {keys} "
            f"| {median(r['keys_whole']) * 1e3:.0f} / {p95(r['keys_whole']) * 1e3:.0f} ms |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
