"""The lab runs' errors (keys ``lab.*``), registered into ``explorer.messages.TEMPLATES`` when
the package is imported; ``failure_message`` says why a run failed, in one keyed line, and
``holders`` which runs hold the slots a refused run asked for."""

from __future__ import annotations

from collections.abc import Sequence

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
        "{most} runs are training already ({holders}): cancel one, or wait for one to end",
        "lab.too_many_runs",
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "{first}; {rest}", "lab.holders"),
    QT_TRANSLATE_NOOP("CoreMessages", "{title}: step {step} of {total}", "lab.holder"),
    QT_TRANSLATE_NOOP("CoreMessages", "a run", "lab.untitled"),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "the loss rose from {start:.3f} at step 1 to {end:.3f} over the last {steps} steps: the run diverged",
        "lab.diverged",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "the loss became NaN or infinite at step {step}: the run diverged",
        "lab.loss_not_finite",
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


def holders(runs: Sequence[tuple[Message | None, int, int]]) -> Message:
    """(title, step, total) of each run training, as one keyed list: "Translation: step 120
    of 600; Vision: step 30 of 300" (a run without a title is "a run")."""
    said = [
        Message.of("lab.holder", title=title or Message.of("lab.untitled"), step=step, total=total)
        for title, step, total in runs
    ]
    listed = said[-1]
    for earlier in reversed(said[:-1]):
        listed = Message.of("lab.holders", first=earlier, rest=listed)
    return listed
