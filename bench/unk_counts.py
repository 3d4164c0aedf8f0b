"""Unknown tokens per model on the Chinese sentences of a folder of texts (prints a table).

    python bench/unk_counts.py ../shared/seeds [--sentences 20]

A sentence is a stretch of a line ending in 。！？ (or the line's end) that holds at least
six CJK ideographs. Unknown tokens are counted by id, for both the bundled models.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tokenizers import Tokenizer

from explorer.models import catalogue

CJK = re.compile(r"[\u4e00-\u9fff]")


def chinese_sentences(folder: Path, limit: int) -> list[str]:
    found = []
    for path in sorted(folder.glob("*.txt")):
        for line in path.read_text(encoding="utf-8").splitlines():
            for part in re.findall(r"[^。！？]+[。！？]?", line):
                part = part.strip(" -")
                if len(CJK.findall(part)) >= 6 and part not in found:
                    found.append(part)
    return found[:limit]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("folder", type=Path)
    parser.add_argument("--sentences", type=int, default=20)
    args = parser.parse_args()
    sentences = chinese_sentences(args.folder, args.sentences)
    tokenizers = {}
    for key in catalogue.MODEL_KEYS:
        folder = catalogue.model_dir(key)
        if folder is None:
            print(f"{key}: not installed", file=sys.stderr)
            return 2
        tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
        tok.no_truncation()
        tok.no_padding()
        unk = tok.token_to_id("[UNK]") if tok.token_to_id("[UNK]") is not None else tok.token_to_id("<unk>")
        tokenizers[key] = (tok, unk)
    print(f"| # | characters | {' | '.join(f'{k} tokens | {k} [UNK]' for k in tokenizers)} |")
    print("|---|---|" + "---|---|" * len(tokenizers))
    totals = {k: [0, 0] for k in tokenizers}
    for i, sentence in enumerate(sentences, 1):
        cells = []
        for key, (tok, unk) in tokenizers.items():
            ids = tok.encode(sentence).ids
            totals[key][0] += len(ids)
            totals[key][1] += ids.count(unk)
            cells += [str(len(ids)), str(ids.count(unk))]
        print(f"| {i} | {len(sentence)} | {' | '.join(cells)} |")
    print(f"| all {len(sentences)} | | {' | '.join(f'{t} | {u}' for t, u in totals.values())} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
