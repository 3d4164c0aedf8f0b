"""The lab runs' errors (keys ``lab.*``), registered into ``explorer.messages.TEMPLATES`` when
the package is imported; ``failure_message`` says why a run failed, in one keyed line."""

from __future__ import annotations

from explorer.messages import QT_TRANSLATE_NOOP, Message, register, section

LAB = section(
    QT_TRANSLATE_NOOP("CoreMessages", "training stopped: {detail}", "lab.failed"),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "training ran out of memory on the {device}",
        "lab.out_of_memory",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{most} runs are training already; cancel one, or wait for it to end",
        "lab.too_many_runs",
    ),
)

register(LAB)


def failure_message(exc: BaseException, out_of_memory: bool = False, device: str = "cpu") -> Message:
    """The error's own keyed message when it has one, else what it says, as one keyed line."""
    if out_of_memory:
        return Message.of("lab.out_of_memory", device=device.upper())
    own = getattr(exc, "message", None)
    if isinstance(own, Message):
        return own
    text = " ".join(str(exc).split()) or type(exc).__name__
    return Message.of("lab.failed", detail=text)
