"""``python -m explorer COMMAND ...`` runs a command (explorer.commands.COMMANDS); anything
else starts the window."""

import sys

import torch  # noqa: F401  (before Qt: torch >= 2.9 fails on Windows when imported after it)


def run() -> int:
    from explorer.commands import COMMANDS

    if sys.argv[1:2] and sys.argv[1] in COMMANDS:
        from explorer.cli import main

        return main()
    from explorer.app import main

    return main()


if __name__ == "__main__":
    raise SystemExit(run())
