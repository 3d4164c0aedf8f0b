"""The commands ``python -m explorer`` runs, and the help that lists them, made from the
registries (the labs' models and tasks), so a model or task added to a lab is listed without
anyone editing a help text.

``COMMANDS``: each command's name and one line; ``__main__`` starts the window for anything
else. ``commands_help()`` ends the window's ``--help``; ``models_help(command)`` is
``train --help`` and ``translate --help`` without a model named (each model family has its
own options: ``train --model M --help``). Qt-free; the registries are read only when asked.
"""

from __future__ import annotations

import textwrap

COMMANDS = {
    "trace": "every attention stage of a text, into FILE.json|.npz (--html FILE.html: the interactive page)",
    "train": "train a translation, sequence, windowed-attention or language model (gpt) from scratch",
    "translate": "translate with a shipped or trained model and write every attention number",
    "length-curve": "models side by side on sentences of every length: accuracy against length",
    "train-vision": "train a vision model from scratch: a CNN variant or the vision transformer (vit)",
    "vision": "every stage of one picture through a vision model",
    "data-curve": "the CNN and the vision transformer against the number of training pictures",
}
PROGRAM = "python -m explorer"


def commands_help() -> str:
    width = max(map(len, COMMANDS))
    lines = [f"commands ({PROGRAM} COMMAND --help for each one's options):"]
    lines += [f"  {name:<{width}}  {line}" for name, line in COMMANDS.items()]
    lines.append(f"anything else starts the window: {PROGRAM} [window options above]")
    return "\n".join(lines)


def wants_models_help(argv: list[str]) -> bool:
    """``train --help`` / ``translate --help`` with no model, task or checkpoint named."""
    if argv[:1] not in (["train"], ["translate"]):
        return False
    rest = argv[1:]
    named = any(a.split("=", 1)[0] in ("--model", "--task", "--checkpoint") for a in rest)
    return not named and any(a in ("-h", "--help") for a in rest)


def model_families(command: str) -> list[tuple[str, str]]:
    """(the models, what they are and which --task they take) of each family ``command`` serves."""
    from explorer.lm.train import TASKS as LM_TASKS
    from explorer.seq2seq.local_attention import WINDOW_MODELS
    from explorer.seq2seq.sequence_models import SEQUENCE_MODELS
    from explorer.seq2seq.spec import MODELS as DATE_MODELS
    from explorer.vision.models import MODELS as VISION_MODELS

    sequence = [m for m in SEQUENCE_MODELS if m not in WINDOW_MODELS]
    tasks = {"sequence": "any task below", "window": "any task below"}
    if command == "translate":  # a task with no shipped model needs --checkpoint (from train)
        from explorer.seq2seq.sequence_cli import shipped_tasks

        for family, models in (("sequence", sequence), ("window", WINDOW_MODELS)):
            shipped = sorted(set.intersection(*(set(shipped_tasks(m)) for m in models)))
            tasks[family] = f"shipped for {', '.join(shipped)}; any task below with --checkpoint DIR"
    families = [
        (", ".join(DATE_MODELS), "the date translators (--task dates)"),
        (", ".join(sequence), f"encoder-decoders without and with attention (--task: {tasks['sequence']})"),
        (", ".join(WINDOW_MODELS), f"global and local (windowed) attention (--task: {tasks['window']})"),
    ]
    if command == "train":
        families.append(("gpt", f"the language-model lab's GPT-2 (--task {', '.join(LM_TASKS)})"))
        families.append((", ".join(VISION_MODELS), f"not here: {PROGRAM} train-vision --model M"))
    else:
        families.append(("gpt", f"no translation: its attention with {PROGRAM} trace --model-dir DIR"))
        families.append((", ".join(VISION_MODELS), f"pictures, not text: {PROGRAM} vision --model M"))
    return families


# One model of each family, whose own help gives the family's options (train and translate).
FAMILY_HELP = {
    "train": (
        ("the date translators", ["--model", "bahdanau"]),
        ("the encoder-decoders", ["--model", "attention", "--task", "copy"]),
        ("global and local attention", ["--model", "local-p", "--task", "copy-twice"]),
        ("the language model (gpt)", ["--model", "gpt"]),
    ),
    "translate": (
        ("the date translators", ["--model", "bahdanau"]),
        ("the encoder-decoders", ["--model", "attention", "--task", "copy"]),
        ("global and local attention", ["--model", "local-p", "--task", "copy-twice"]),
    ),
}


def family_options(command: str, argv: list[str]) -> list[str]:
    """The options (``--steps``, …) of the family ``command argv --help`` documents, from its
    own parser's help: the list cannot drift from what the family takes."""
    import contextlib
    import io
    import re

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        if argv[:2] == ["--model", "gpt"]:  # explorer.cli's routing, without importing it (a cycle)
            from explorer.lm.cli import train_main

            train_main([*argv, "--help"])
        else:
            from explorer.seq2seq.cli import main

            main([command, *argv, "--help"])
    options = out.getvalue().split("\noptions:\n", 1)[-1]
    found: list[str] = []
    for line in options.splitlines():
        match = re.match(r"  (-\S.*?)(?:\s{2,}|$)", line)
        if match:
            for flag in re.findall(r"--[\w-]+", match.group(1)):
                if flag != "--help" and flag not in found:
                    found.append(flag)
    return found


def models_help(command: str) -> str:
    """The help of ``train`` or ``translate`` across every model family."""
    from explorer.lab.command import EXIT_HELP
    from explorer.seq2seq.tasks import TASKS

    if command == "train":
        usage = f"{PROGRAM} train --model MODEL [--task TASK] --steps N [--seed S] --out DIR [options]"
        what = "Train a model from scratch."
    else:
        usage = (
            f"{PROGRAM} translate --source TEXT [--model MODEL] [--task TASK] --out FILE.json|.npz [options]"
        )
        what = "Translate with a shipped or trained model and write every attention number."
    families = model_families(command)
    width = max(len(names) for names, _ in families)
    lines = [
        f"usage: {usage}",
        "",
        f"{what} Each family of models has options of its own: {PROGRAM} {command} --model MODEL --help.",
        "",
        "models (--model):",
        *(f"  {names:<{width}}  {what}" for names, what in families),
        "",
        f"tasks (--task) of the translation and sequence models: {', '.join(TASKS)}",
        "",
        f"options of each family (all of them: {PROGRAM} {command} --model MODEL --help):",
    ]
    for family, argv in FAMILY_HELP[command]:
        flags = " ".join(family_options(command, argv))
        lines += textwrap.wrap(
            flags, 100, initial_indent=f"  {family}: ", subsequent_indent="    ", break_on_hyphens=False
        )
    if command == "train":
        lines += ["", EXIT_HELP]
    return "\n".join(lines)
