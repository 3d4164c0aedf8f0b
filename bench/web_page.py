"""The interactive page: its size, how soon headless Chromium has drawn it, and the API's import.

    python bench/web_page.py [--repeat N] [--markdown FILE]

Cases (the goals in brackets):
- a 64-token MiniLM trace, every layer and head, exact float32 (page <= 5 MB, drawn <= 1 s);
- a 512-token MiniLM trace of one layer, weights rounded to bytes (page <= 10 MB);
- the same 512 tokens, every layer: more than fits, so layers are left out, as the page says;
- ``import explorer`` against ``import torch, tokenizers`` (<= +10 %), each in a fresh process.

"drawn" is the view's own clock: ``performance.now()`` when its first drawing is done, that is
the milliseconds since the browser began to load the file (parsing, decoding the numbers,
every canvas). Each page opens in a fresh tab of one headless Chromium (the tests' DevTools
pipe, tests/web/chromium.py); medians of --repeat runs. The load average is printed beside.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TEXT = (
    "Attention lets every word look at every other word and decide how much of each to take. "
    "The animal didn't cross the street because it was too tired, and the pronoun it looks "
    "back at the animal. Queries ask, keys answer, values are what is taken, and the softmax "
    "turns the scaled scores into weights that sum to one. "
)


def loadavg() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "n/a"


def import_ms(code: str, repeat: int) -> float:
    """Wall time of a fresh interpreter running ``code``, less a bare interpreter's."""

    def run(snippet: str) -> float:
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-c", snippet], check=True, env={**os.environ, "PYTHONPATH": str(ROOT)}
        )
        return (time.perf_counter() - started) * 1000

    bare = statistics.median(run("pass") for _ in range(repeat))
    return statistics.median(run(code) for _ in range(repeat)) - bare


def page_case(browser, folder: Path, name: str, trace, repeat: int) -> dict:
    from explorer.web import page_data, write_page

    path = write_page(folder / f"{name}.html", trace.page())
    data = page_data(trace.page())
    drawn, requests = [], set()
    for _ in range(repeat):
        tab = browser.open(path.as_uri())
        drawn.append(tab.evaluate("window.__aeFirstDraw"))
        requests.update(tab.requests())
        errors = tab.errors()
        if errors:
            raise SystemExit(f"{name}: the page failed in the browser: {errors}")
        tab.close()
    (attention,) = data["attentions"]
    return {
        "case": name,
        "tokens": trace.n_key,
        "layers x heads": f"{attention['shape'][0]} x {attention['shape'][1]}",
        "numbers": attention["stages"]["weights"]["encoding"],
        "MB": path.stat().st_size / 1e6,
        "drawn ms": statistics.median(drawn),
        "notes": len(data["notes"]),
        "other requests": len(requests - {path.as_uri()}),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--markdown", default=None, help="also write the tables as Markdown here")
    args = parser.parse_args()
    started_load = loadavg()

    import torch

    torch.set_num_threads(1)
    import explorer
    from tests.web.chromium import Chromium, find_chromium

    if find_chromium() is None:
        raise SystemExit("no chromium on PATH: apt-get install chromium (./dev test does)")
    long_text = TEXT * 12
    t64 = explorer.trace(long_text, max_tokens=64, layer=5)
    t512 = explorer.trace(long_text, max_tokens=512, layer=5, all_layers=False)
    t512_all = explorer.trace(long_text, max_tokens=512, layer=5)
    assert (t64.n_key, t512.n_key) == (64, 512), (t64.n_key, t512.n_key)
    rows = []
    with tempfile.TemporaryDirectory() as folder, Chromium() as browser:
        for name, trace in (
            ("64 tokens, every layer", t64),
            ("512 tokens, one layer", t512),
            ("512 tokens, every layer", t512_all),
        ):
            rows.append(page_case(browser, Path(folder), name, trace, args.repeat))

    explorer_ms = import_ms("import explorer", args.repeat)
    torch_ms = import_ms("import torch, tokenizers", args.repeat)
    ended_load = loadavg()

    columns = list(rows[0])
    lines = [
        "| " + " | ".join(columns) + " |",
        "|" + "---|" * len(columns),
        *(
            "| "
            + " | ".join(
                f"{r[c]:.2f}" if c == "MB" else f"{r[c]:.0f}" if c == "drawn ms" else str(r[c])
                for c in columns
            )
            + " |"
            for r in rows
        ),
        "",
        "| import | ms | ratio to torch + tokenizers |",
        "|---|---|---|",
        f"| `import explorer` | {explorer_ms:.0f} | {explorer_ms / torch_ms:.3f} |",
        f"| `import torch, tokenizers` | {torch_ms:.0f} | 1 |",
        "",
        f"load average {started_load} at the start, {ended_load} at the end; median of {args.repeat}",
    ]
    print("\n".join(lines))
    if args.markdown:
        Path(args.markdown).write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
