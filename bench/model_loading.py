"""Loading brought models: time per family and the largest difference from transformers.

    python bench/model_loading.py [--repeat N]

Builds tiny random folders (hidden 32, 3 layers, 4 heads) of every family with transformers,
then loads each with the explorer's loader and compares every layer's attention and
hidden state with transformers' eager model. The bundled MiniLM is measured the same way.
Numbers are medians over repeats (warm file cache), in one run on the machine it runs on.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("EXPLORER_DATA_DIR", tempfile.mkdtemp(prefix="bench-data-"))
from explorer.models.loader import default_model_dir, load_model
from tests.models import tiny

SENTENCES = [
    "The animal didn't cross the street because it was too tired.",
    "注意力机制其实是源自于人对于外部信息的处理能力",
    " ".join(f"sentence {i} says that attention weighs every word." for i in range(40)),
]


def median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def row(label: str, folder: Path, repeat: int, sentences: list[str]) -> None:
    load_ms = median_ms(lambda: load_model(folder), repeat)
    model, ref = load_model(folder), tiny.reference(folder)
    attention = hidden = 0.0
    longest = 0
    for text in sentences:
        ids = model.tokenizer.encode(text, model.max_tokens).ids
        longest = max(longest, len(ids))
        a, h = tiny.largest_differences(model, ref, ids)
        attention, hidden = max(attention, a), max(hidden, h)
    print(f"| {label:<34} | {load_ms:9.1f} | {longest:6d} | {attention:10.2e} | {hidden:10.2e} |")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    import transformers

    transformers.logging.set_verbosity_error()  # its load reports would break the table
    transformers.utils.logging.disable_progress_bar()
    print(
        f"python {platform.python_version()}, torch {torch.__version__}, "
        f"{torch.get_num_threads()} threads, {os.cpu_count()} cores"
    )
    print("\n| model | load (ms, median) | tokens | max |Δ| attention | max |Δ| hidden |")
    print("|---|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        variants = [
            ("BERT", "bert", {}),
            ("BERT, bert. prefix", "bert", {"head": True}),
            ("BERT, float16", "bert", {"dtype": torch.float16}),
            ("RoBERTa", "roberta", {}),
            ("RoBERTa, roberta. prefix", "roberta", {"head": True}),
            ("XLM-RoBERTa", "xlm-roberta", {}),
            ("XLM-RoBERTa, bfloat16", "xlm-roberta", {"dtype": torch.bfloat16}),
            ("DistilBERT", "distilbert", {}),
            ("DistilBERT, sinusoidal positions", "distilbert", {"sinusoidal_pos_embds": True}),
        ]
        for i, (label, family, options) in enumerate(variants):
            folder = tiny.build(root / str(i), family, **options)
            row(f"tiny {label}", folder, args.repeat, [tiny.SENTENCE, " ".join(tiny.CORPUS)])
        row("all-MiniLM-L6-v2 (bundled)", default_model_dir(), args.repeat, SENTENCES)


if __name__ == "__main__":
    main()
