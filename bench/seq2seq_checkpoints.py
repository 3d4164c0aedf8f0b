"""Translation lab: the shipped checkpoints, per format, on held-out dates.

    python bench/seq2seq_checkpoints.py                    # 2,000 held-out dates of every format
    python bench/seq2seq_checkpoints.py --per-format 200 --attention hard

Prints Markdown tables (exact match, alignment score, and the alignment score split into digits
a source character spells and *padded* digits no character spells): one row per format, one
column per shipped (model, scoring). The alignment score counts, over output digits, how often the
largest weight falls on the source characters of the digit's own field (for the Transformer:
its last decoder layer's cross-attention averaged over heads).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from explorer.seq2seq.dates import FORMATS, held_out_set

# Formats where some output digits have no source character (see explorer.seq2seq.dates).
PADDED = tuple(f for f in FORMATS if f != "us_numeric")
from explorer.seq2seq.evaluate import predict  # noqa: E402
from explorer.seq2seq.spec import GRU_MODELS, SCORINGS  # noqa: E402
from explorer.seq2seq.translate import load_model  # noqa: E402
from explorer.seq2seq.vocab import Vocabulary  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--per-format", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1, help="which held-out days (train's own check uses 1)")
    parser.add_argument("--attention", choices=("soft", "hard"), default="soft")
    args = parser.parse_args()
    pairs = [(m, s) for m in GRU_MODELS for s in SCORINGS] + [("transformer", "scaled-dot")]
    examples = held_out_set(args.per_format, args.seed)
    results, started = {}, time.perf_counter()
    for model, scoring in pairs:
        module, spec, _ = load_model(model, scoring)
        results[spec.name] = predict(module, examples, Vocabulary(spec.source_chars), args.attention)
    names = list(results)
    print(
        f"{args.per_format} held-out dates per format, {args.attention} attention, "
        f"{time.perf_counter() - started:.0f} s\n"
    )
    by_format = {name: r.by_format() for name, r in results.items()}
    totals = {name: {**r.digit_breakdown(), "exact_match": r.exact_match, "alignment_score": r.alignment_score()}
              for name, r in results.items()}  # fmt: skip
    tables = (
        ("Exact match", "exact_match", FORMATS, "{:.4f}"),
        ("Alignment score", "alignment_score", FORMATS, "{:.3f}"),
        ("Alignment score of the digits a source character spells", "spelled_alignment_score", FORMATS, "{:.3f}"),
        ("Alignment score of padded digits (a leading 0, the century of `18`)", "padded_alignment_score", PADDED, "{:.3f}"),
        ("Padded digits whose largest weight is on the character next to the field", "padded_next_to_field", PADDED, "{:.3f}"),
        ("Share of digits that are padded", "padded_share", PADDED, "{:.3f}"),
    )  # fmt: skip
    for title, key, formats, number in tables:
        print(f"{title}\n\n| format | " + " | ".join(names) + " |")
        print("|---|" + "---:|" * len(names))
        for fmt in formats:
            cells = (by_format[n][fmt][key] for n in names)  # None: the format has no such digits
            print(f"| {fmt} | " + " | ".join("—" if c is None else number.format(c) for c in cells) + " |")
        if formats == FORMATS:
            print("| **all** | " + " | ".join(number.format(totals[n][key]) for n in names) + " |")
        print()


if __name__ == "__main__":
    main()
