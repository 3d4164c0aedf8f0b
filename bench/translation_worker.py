"""What the Translation tab's worker spends per keystroke with the Transformer, outside any window.

    python bench/translation_worker.py [--repeats 20]

``translate(text, "transformer")`` is what the worker runs on every keystroke. Each call is
timed in the calling thread's CPU time (``time.thread_time``: other processes' load does not
inflate it), median of ``--repeats``, with the decoder's guesses (the default: the date
grammar's reading, else the previous answer) and without them (the nine cached decoding
steps always run). The texts: "9 May 2018" typed a character at a time, in order (only the
complete date has a grammar reading; the others guess from the text before), and one
held-out date in each format, each after a different date. One table and the load average;
never used for assertions.
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from explorer.seq2seq.dates import FORMATS, held_out_set  # noqa: E402

# the module, not the function explorer.seq2seq re-exports under the same name
translate_module = importlib.import_module("explorer.seq2seq.translate")


class NoMemory(dict):
    """Remembers no answer: the decoder has no previous answer to guess from."""

    def __setitem__(self, key, value) -> None:
        pass


def timed(texts: list[str], repeats: int, guesses: bool) -> list[float]:
    """Each text's median CPU ms, the texts translated in order ``repeats`` times."""
    grammar, memory = translate_module.grammar_guess, translate_module._last_answers
    if not guesses:
        translate_module.grammar_guess, translate_module._last_answers = (
            (lambda source, vocab: None),
            NoMemory(),
        )
    times: list[list[float]] = [[] for _ in texts]
    try:
        for _ in range(repeats):
            for i, text in enumerate(texts):
                started = time.thread_time()
                translate_module.translate(text, "transformer")
                times[i].append((time.thread_time() - started) * 1e3)
    finally:
        translate_module.grammar_guess, translate_module._last_answers = grammar, memory
    return [statistics.median(t) for t in times]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()
    typed = "9 May 2018"
    dates = [held_out_set(1, seed=5, formats=(fmt,))[0].source for fmt in FORMATS]
    translate_module.translate(typed, "transformer")  # load the checkpoint once
    print(f"{'text':<28} {'reading':>8} {'guessed ms':>11} {'unguessed ms':>13}")
    for texts in ([typed[:i] for i in range(1, len(typed) + 1)], dates):
        rows = zip(texts, timed(texts, args.repeats, True), timed(texts, args.repeats, False), strict=True)
        for text, guessed, unguessed in rows:
            reading = "yes" if translate_module.readings(text) else "no"
            print(f"{text!r:<28} {reading:>8} {guessed:11.1f} {unguessed:13.1f}")
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
