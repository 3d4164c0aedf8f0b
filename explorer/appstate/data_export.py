"""Every stage of a trace to files a teacher can open elsewhere: CSV, NPY and JSON. Qt-free.

CSV: one file per stage, and one per head for the per-head stages, with the token labels as
the header row and the first column (feature columns are named ``d0, d1, …``). Numbers are
written as the shortest text that reads back to the same float32, so reading a CSV back
gives the trace's numbers exactly. NPY: one ``.npy`` per stage plus the tokens (no pickle
needed to load them). JSON: the same file as the ``trace`` command.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

from explorer.core.trace import STAGE_ARRAYS, AttentionTrace
from explorer.finite import strict_json

PER_HEAD = ("Q", "K", "V", "scores", "scaled", "weights", "head_outputs")


def stage_tables(trace: AttentionTrace) -> list[tuple[str, np.ndarray, list[str], list[str]]]:
    """(file stem, 2-D array, row labels, column labels) for every table of the trace."""
    tq, tk = list(trace.tokens_query), list(trace.tokens_key)

    def dims(n: int) -> list[str]:
        return [f"d{d}" for d in range(n)]

    rows_of = {
        "X_query": tq,
        "X_key": tk,
        "Q": tq,
        "K": tk,
        "V": tk,
        "scores": tq,
        "scaled": tq,
        "mask": tq,
        "weights": tq,
        "head_outputs": tq,
        "concat": tq,
        "output": tq,
        "entropy": [f"head {h}" for h in range(trace.heads)],
    }
    tables = []
    for stage in STAGE_ARRAYS:
        array = np.asarray(getattr(trace, stage))
        if stage in ("scores", "scaled", "weights", "mask"):
            cols = tk
        elif stage == "entropy":
            cols = tq
        else:
            cols = dims(array.shape[-1])
        if stage in PER_HEAD:
            width = len(str(array.shape[0] - 1))  # head01 … head11 sort in order
            for h in range(array.shape[0]):
                tables.append((f"{stage}_head{h:0{width}d}", array[h], rows_of[stage], cols))
        else:
            tables.append((stage, array, rows_of[stage], cols))
    return tables


def _cell(value: float | np.generic) -> str:
    if isinstance(value, (bool, np.bool_)):
        return "1" if value else "0"
    return str(np.float32(value))


def export_csv(trace: AttentionTrace, folder: str | Path) -> list[Path]:
    """Write one CSV per table into ``folder`` (made if missing); returns the paths."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    corner = {"entropy": "head \\ query"}
    paths = []
    for stem, array, rows, cols in stage_tables(trace):
        path = folder / f"{stem}.csv"
        with open(path, "w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f)
            writer.writerow([corner.get(stem, "token")] + list(cols))
            for label, row in zip(rows, array):
                writer.writerow([label] + [_cell(v) for v in row])
        paths.append(path)
    return paths


def read_csv(path: str | Path) -> tuple[list[str], list[str], np.ndarray]:
    """(row labels, column labels, float32 values) of a CSV written by ``export_csv``."""
    with open(path, newline="", encoding="utf-8") as f:
        table = list(csv.reader(f))
    header, body = table[0], table[1:]
    values = np.array([[float(x) for x in row[1:]] for row in body], dtype=np.float32)
    return [row[0] for row in body], header[1:], values.reshape(len(body), len(header) - 1)


def export_npy(trace: AttentionTrace, folder: str | Path) -> list[Path]:
    """One ``stage.npy`` per stage, plus ``tokens_query.npy`` and ``tokens_key.npy`` (text arrays)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for stage in STAGE_ARRAYS:
        path = folder / f"{stage}.npy"
        np.save(path, np.asarray(getattr(trace, stage)), allow_pickle=False)
        paths.append(path)
    for name in ("tokens_query", "tokens_key"):
        path = folder / f"{name}.npy"
        np.save(path, np.array(getattr(trace, name), dtype=str), allow_pickle=False)
        paths.append(path)
    meta = folder / "meta.json"
    meta.write_text(strict_json(trace.meta(), meta.name, ensure_ascii=False, indent=2), encoding="utf-8")
    paths.append(meta)
    return paths


def export_json(trace: AttentionTrace, path: str | Path) -> Path:
    """The same JSON as ``python -m explorer trace --out FILE.json``."""
    trace.to_json(path)
    return Path(path)


def export_data(trace: AttentionTrace, fmt: str, target: str | Path) -> list[Path]:
    """fmt: csv or npy (``target`` is a folder) or json (``target`` is a file)."""
    if fmt == "csv":
        return export_csv(trace, target)
    if fmt == "npy":
        return export_npy(trace, target)
    if fmt == "json":
        return [export_json(trace, target)]
    raise ValueError(f"unknown export format {fmt!r}: csv, npy or json")
