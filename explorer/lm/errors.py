"""The language-model lab's user-facing error: one line, an ``lm.*`` key."""

from explorer.messages import MessageError


class LMError(MessageError, ValueError):
    """Bad input to the lab (a size, a text, a head, a folder); the CLI exits 2 with it."""
