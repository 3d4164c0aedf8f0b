"""GPU honesty: every stage on CUDA against the CPU, the largest difference and the speed-up.

    python bench/gpu_check.py [--tokens 16,128,512,2048,4096] [--models minilm,multilingual]
                              [--model-dir DIR] [--decoders qwen,gpt2] [--decoder-dir DIR] [--repeat 3]

For random weights at each token count, and for each pretrained model that is installed
(up to its 512 positions), the engine computes the trace on the CPU and on the GPU
(--strict-device: no silent fallback) and compares every stage. Times are medians after a
warm-up: "attention" is the attention stages alone, "trace" the whole call (the encoder's
hidden states are cached per text after the warm-up, so it is not in them). Tolerances: weights
1e-4 absolute; the mask exactly; every other stage 1e-4 relative to its largest value
(max |Δ| ≤ 1e-4 · max(1, max |cpu|)). TF32 is pinned off by the engine, so a larger
difference is a bug, not rounding.

Decoders: random folders of the Qwen2.5-0.5B and GPT-2-small shapes (built as
bench/decoder_vs_transformers.py builds them, in a temporary folder), or --decoder-dir, at
every layer: the same stages plus Q and K after the rotation and the angles, and the top-10
next tokens (the same ids, probabilities within 1e-4).

Exit status: 0 every stage within tolerance; 1 some stage is not; 3 no CUDA device
(nothing was compared, so nothing passed).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from explorer.core.config import AttentionConfig, ConfigError
from explorer.core.engine import Engine
from explorer.core.trace import ALL_STAGES
from explorer.models.loader import ModelError

EXIT_DIFFERENT = 1
EXIT_NO_CUDA = 3
WEIGHTS_TOLERANCE = 1e-4  # absolute
RELATIVE_TOLERANCE = 1e-4  # of max(1, max |cpu|), every other float stage
PRETRAINED_MAX_TOKENS = 512


def random_text(n: int) -> str:
    rng = random.Random(n)
    return " ".join("".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(5)) for _ in range(n))


def pretrained_config(name: str | None, model_dir: str | None, n: int) -> AttentionConfig | None:
    """The config for a catalogue name (through AttentionConfig.model where this version has
    it), or for a folder; None when this version cannot name that model."""
    text = random_text(n)  # word pieces: more than n tokens, cut to n by max_tokens
    base = dict(sentence=text, weights="pretrained", max_tokens=n, mask="none")
    if model_dir:
        return AttentionConfig(model_dir=model_dir, **base)
    if "model" in AttentionConfig.__dataclass_fields__:
        return AttentionConfig(model=name, **base)
    return AttentionConfig(**base) if name == "minilm" else None


def stage_difference(stage: str, cpu: np.ndarray, gpu: np.ndarray) -> tuple[float, float]:
    """(max |Δ|, the tolerance it is held to)."""
    if cpu.dtype == bool:
        return float(np.count_nonzero(cpu != gpu)), 0.0
    diff = float(np.max(np.abs(cpu.astype(np.float64) - gpu))) if cpu.size else 0.0
    if stage == "weights":
        return diff, WEIGHTS_TOLERANCE
    scale = max(1.0, float(np.max(np.abs(cpu)))) if cpu.size else 1.0
    return diff, RELATIVE_TOLERANCE * scale


def timed(engine: Engine, config: AttentionConfig, repeat: int):
    """The last trace and the median total and attention milliseconds (after a warm-up)."""
    trace = engine.trace(config, strict_device=config.device != "cpu")
    totals, attention = [], []
    for _ in range(repeat):
        trace = engine.trace(config, strict_device=config.device != "cpu")
        totals.append(trace.timings_ms["total"])
        attention.append(trace.timings_ms["attention"])
    return trace, statistics.median(totals), statistics.median(attention)


def compare(engine: Engine, label: str, config: AttentionConfig, repeat: int) -> bool:
    cpu, cpu_total, cpu_attn = timed(engine, config.with_(device="cpu"), repeat)
    gpu, gpu_total, gpu_attn = timed(engine, config.with_(device="cuda"), repeat)
    print(
        f"\n{label}, {cpu.n_query} tokens, {cpu.heads} heads on {gpu.numerics.get('device_name')}: "
        f"attention {cpu_attn:.1f} ms CPU / {gpu_attn:.2f} ms GPU = ×{cpu_attn / max(gpu_attn, 1e-9):.1f}; "
        f"trace {cpu_total:.1f} / {gpu_total:.2f} ms = ×{cpu_total / max(gpu_total, 1e-9):.1f}"
    )
    print(f"  {'stage':<13} {'max |Δ|':>10} {'tolerance':>10}")
    ok = True
    for stage in ALL_STAGES:
        if getattr(cpu, stage) is None:  # a decoder's rotation: only rotary traces have it
            continue
        diff, tolerance = stage_difference(stage, getattr(cpu, stage), getattr(gpu, stage))
        within = diff <= tolerance
        ok &= within
        print(f"  {stage:<13} {diff:>10.2e} {tolerance:>10.1e}{'' if within else '  FAIL'}")
    return ok


def compare_next_tokens(engine: Engine, label: str, config: AttentionConfig) -> bool:
    cpu = engine.next_tokens(config.with_(device="cpu"), 10)
    gpu = engine.next_tokens(config.with_(device="cuda"), 10)
    same_ids = [[e["id"] for e in row] for row in cpu] == [[e["id"] for e in row] for row in gpu]
    diff = max(abs(a["probability"] - b["probability"]) for ra, rb in zip(cpu, gpu) for a, b in zip(ra, rb))
    ok = same_ids and diff <= WEIGHTS_TOLERANCE
    print(f"  next tokens ({label}): same top-10 ids {same_ids}, max |Δp| {diff:.2e}{'' if ok else '  FAIL'}")
    return ok


def compare_decoders(
    engine: Engine, shapes: list[str], folder: str | None, tokens: list[int], repeat: int
) -> bool:
    """Every layer of each decoder, CPU against GPU, and the next tokens."""
    import shutil
    import tempfile

    from decoder_vs_transformers import build

    ok, root = True, Path(tempfile.mkdtemp(prefix="gpu-check-decoders-"))
    try:
        folders = [(shape, build(shape, root / shape)) for shape in shapes]
        folders += [(folder, Path(folder))] if folder else []
        for label, path in folders:
            for n in (t for t in tokens if t <= PRETRAINED_MAX_TOKENS):
                config = AttentionConfig(sentence=random_text(n), model_dir=str(path), max_tokens=n)
                info = engine.source_info(config)
                ok &= compare(engine, f"{label} ({info.family}) layer 0", config, repeat)
                for layer in range(1, info.layers):
                    ok &= compare(engine, f"{label} layer {layer}", config.with_(layer=layer), 1)
                ok &= compare_next_tokens(engine, f"{label}, {n} tokens", config)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", default="16,128,512,2048,4096")
    parser.add_argument("--models", default="minilm,multilingual", help="catalogue names to try")
    parser.add_argument("--model-dir", default=None, help="also compare this model folder")
    parser.add_argument("--decoders", default="qwen,gpt2", help="random decoder shapes to build and compare")
    parser.add_argument("--decoder-dir", default=None, help="also compare this decoder folder")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("no CUDA device: nothing to compare")
        return EXIT_NO_CUDA
    tokens = [int(t) for t in args.tokens.split(",")]
    engine = Engine()
    ok = True
    print(
        f"torch {torch.__version__}, CUDA {torch.version.cuda}, tolerances: weights {WEIGHTS_TOLERANCE:g} "
        f"absolute, mask exact, other stages {RELATIVE_TOLERANCE:g} × max(1, max |cpu|)"
    )
    for n in tokens:
        for mask in ("none", "causal"):
            config = AttentionConfig(sentence=random_text(n), weights="random", mask=mask)
            ok &= compare(engine, f"random weights, mask {mask}", config, args.repeat)
    names = [m for m in args.models.split(",") if m] + ([None] if args.model_dir else [])
    for name in names:
        for n in (t for t in tokens if t <= PRETRAINED_MAX_TOKENS):
            config = pretrained_config(name, args.model_dir, n)
            label = name or args.model_dir
            if config is None:
                print(f"\nskipped {label}: this version cannot choose a model by name")
                break
            try:
                probe = engine.trace(config.with_(device="cpu"))
            except (ConfigError, ModelError) as exc:
                print(f"\nskipped {label}: {exc}")
                break
            if probe.weights_source != "pretrained":
                print(f"\nskipped {label}: not installed ({'; '.join(probe.notices)})")
                break
            ok &= compare(engine, f"{probe.model_name} layer 0", config, args.repeat)
            for layer in range(1, engine.source_info(config).layers):  # every layer, once, untimed
                ok &= compare(engine, f"{probe.model_name} layer {layer}", config.with_(layer=layer), 1)
    ok &= compare_decoders(
        engine, [d for d in args.decoders.split(",") if d], args.decoder_dir, tokens, args.repeat
    )
    print("\nevery stage within tolerance" if ok else "\nSOME STAGE DIFFERS BEYOND TOLERANCE")
    return 0 if ok else EXIT_DIFFERENT


if __name__ == "__main__":
    sys.exit(main())
