"""What a model folder can be wrong with, as exceptions that carry one line for the user."""

from __future__ import annotations

from pathlib import Path


class ModelError(Exception):
    """A model folder that cannot be used, with a message for the user.

    The message names the file at fault and how to fix it, on one line.
    """


class NeedsConversion(ModelError):
    """The folder holds only ``pytorch_model.bin``: it must be converted once, with consent.

    The window turns this into a question; the command line asks for ``--convert-weights``.
    """

    def __init__(self, folder: Path, source: Path, target: Path, size: int):
        self.folder, self.source, self.target, self.size = folder, source, target, size
        super().__init__(
            f"{source}: this folder has only PyTorch pickle weights ({size / 1e6:.1f} MB); they must be "
            f"converted once into {target} (safe: tensors only, nothing in the file is run)"
        )
