"""Characters ↔ ids. One token per character; unseen characters become ``<unk>``.

The source vocabulary is stored in every checkpoint's config.json, so a checkpoint reads
text the way it was trained even if the generator's alphabet grows later.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from explorer.characters import readable
from explorer.seq2seq.dates import DateExample, source_alphabet

PAD, UNK = 0, 1  # source specials
BOS = 0  # the decoder's first input
TARGET_CHARS = "0123456789-"
TARGET_TOKENS = ("<bos>", *TARGET_CHARS)
PAD_TOKEN, UNK_TOKEN = "<pad>", "<unk>"


@dataclass(frozen=True)
class Vocabulary:
    source_chars: tuple[str, ...]

    @classmethod
    def default(cls) -> Vocabulary:
        return cls(tuple(source_alphabet()))

    def _index(self) -> dict[str, int]:
        return {c: i + 2 for i, c in enumerate(self.source_chars)}

    def encode_source(self, text: str) -> tuple[list[int], list[str]]:
        """Ids for each character, and the characters that were unknown (in order)."""
        index = self._index()
        ids = [index.get(c, UNK) for c in text]
        return ids, [c for c in text if c not in index]

    def source_tokens(self, text: str) -> list[str]:
        """What the model sees, one label per character: the character or <unk>."""
        index = self._index()
        return [c if c in index else UNK_TOKEN for c in text]

    def decode_target(self, ids) -> str:
        return "".join(TARGET_TOKENS[int(i)] for i in ids)

    def encode_target(self, text: str) -> list[int]:
        return [TARGET_TOKENS.index(c) for c in text]


@dataclass
class Batch:
    source: torch.Tensor  # [B, n] ids, PAD after each text's end
    lengths: torch.Tensor  # [B] characters per text (CPU, int64)
    target_in: torch.Tensor  # [B, T] <bos> then the first T - 1 answer characters (teacher forcing)
    target: torch.Tensor  # [B, T] the answer, T = 10 (YYYY-MM-DD)

    def to(self, device: torch.device) -> Batch:
        return Batch(self.source.to(device), self.lengths, self.target_in.to(device), self.target.to(device))


def make_batch(examples: list[DateExample], vocab: Vocabulary) -> Batch:
    ids = [vocab.encode_source(e.source)[0] for e in examples]
    n = max(len(i) for i in ids)
    source = torch.full((len(ids), n), PAD, dtype=torch.long)
    for row, seq in enumerate(ids):
        source[row, : len(seq)] = torch.tensor(seq)
    target = torch.tensor([vocab.encode_target(e.target) for e in examples], dtype=torch.long)
    target_in = torch.cat([torch.full((len(ids), 1), BOS, dtype=torch.long), target[:, :-1]], dim=1)
    return Batch(source, torch.tensor([len(i) for i in ids]), target_in, target)


def readable_token(token: str) -> str:
    """A source character as a label a figure's font can draw (explorer.characters); any
    longer token as it is."""
    return readable(token) if len(token) == 1 else token
