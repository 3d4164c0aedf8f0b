"""``python -m explorer trace|train|translate|length-curve ...`` runs a command; anything else starts the window."""

import sys

import torch  # noqa: F401  (before Qt: torch >= 2.9 fails on Windows when imported after it)


def run() -> int:
    if sys.argv[1:2] in (
        ["trace"],
        ["train"],
        ["translate"],
        ["length-curve"],
        ["train-vision"],
        ["vision"],
        ["data-curve"],
    ):
        from explorer.cli import main

        return main()
    from explorer.app import main

    return main()


if __name__ == "__main__":
    raise SystemExit(run())
