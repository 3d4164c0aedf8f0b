"""What a model folder can be wrong with, as exceptions that carry one line for the user."""

from __future__ import annotations

from pathlib import Path

from explorer.messages import Message, MessageError


class ModelError(MessageError):
    """A model folder that cannot be used, with a message for the user.

    The message names the file at fault and how to fix it, on one line; raise with
    ``ModelError.of(key, **params)`` (keys in explorer.messages).
    """


class NeedsConversion(ModelError):
    """The folder holds only ``pytorch_model.bin``: it must be converted once, with consent.

    The window turns this into a question; the command line asks for ``--convert-weights``.
    """

    def __init__(self, folder: Path, source: Path, target: Path, size: int):
        self.folder, self.source, self.target, self.size = folder, source, target, size
        super().__init__(
            Message.of("convert_bin.needs_conversion", source=source, megabytes=size / 1e6, target=target)
        )
