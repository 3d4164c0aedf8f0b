"""``--self-test``: prove that this copy of the app (source or frozen bundle) really works.

It opens the real MainWindow offscreen, lets the window's own worker compute a trace on
the bundled pretrained model (no silent fallback to random weights), checks the numbers
(weight rows sum to 1 where a key is visible, masked weights are exactly 0, the output is
[n_query, 384]) with no mask and with a causal mask, saves a screenshot and checks that it
is not blank, writes the interactive page (its script, styles and Chinese words), then computes on the multilingual model (converting its bundled 4-bit file on
first use) and checks that a Chinese sentence has no unknown token. Exit status 0 with one
``self-test OK: ...`` line, or 1 with one
``self-test FAILED: <reason>`` line. The lines go to stdout/stderr when those exist (a
windowed build has neither) and always to the log file.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

SENTENCE = "The animal didn't cross the street because it was too tired"
CHINESE_SENTENCE = "注意力机制让模型在处理每个词时关注最相关的词。"
EXPECTED_WIDTH = 384  # all-MiniLM-L6-v2's hidden size
ROW_SUM_TOL = 1e-5
STEP_TIMEOUT_S = 120.0
SCREENSHOT_SIZE = (1280, 800)
MIN_DISTINCT_COLOURS = 16
MIN_LUMA_STD = 8.0


class SelfTestError(Exception):
    """One line saying what is wrong."""


def _print(stream, line: str) -> None:
    if stream is None:
        return
    try:
        print(line, file=stream, flush=True)
    except (OSError, ValueError):
        pass


def check_trace(trace, mask_kind: str) -> str:
    """Raise SelfTestError unless the trace is a correct pretrained computation."""
    import numpy as np

    if trace.weights_source != "pretrained":
        notices = "; ".join(trace.notices) or "no notice"
        raise SelfTestError(
            f"the trace used {trace.weights_source!r} weights, not the bundled "
            f"pretrained model (is the model bundled?): {notices}"
        )
    w = np.asarray(trace.weights, dtype=np.float64)
    mask = np.asarray(trace.mask, dtype=bool)
    n_q, n_k = trace.n_query, trace.n_key
    if w.ndim != 3 or w.shape[1:] != (n_q, n_k):
        raise SelfTestError(f"weights have shape {w.shape}, expected [heads, {n_q}, {n_k}]")
    if mask.shape != (n_q, n_k):
        raise SelfTestError(f"mask has shape {mask.shape}, expected ({n_q}, {n_k})")
    if not np.isfinite(w).all():
        raise SelfTestError("weights contain NaN or infinity")
    if mask_kind == "causal":
        expected = np.tril(np.ones((n_q, n_k), dtype=bool))
        if not np.array_equal(mask, expected):
            raise SelfTestError("the causal mask is not lower-triangular")
    elif not mask.all():
        raise SelfTestError(f"mask {mask_kind!r} hides keys it should not")
    visible_rows = mask.any(axis=1)
    sums = w.sum(axis=-1)  # [h, n_q]
    err = np.abs(sums[:, visible_rows] - 1.0)
    if err.size and err.max() > ROW_SUM_TOL:
        h, q = np.unravel_index(int(err.argmax()), err.shape)
        raise SelfTestError(
            f"weights of head {h}, query {q} sum to {sums[h, q]:.8f}, not 1 (mask {mask_kind})"
        )
    if np.any(w[:, ~visible_rows, :] != 0):
        raise SelfTestError("a row with no visible key has non-zero weights")
    hidden = np.broadcast_to(~mask, w.shape)
    if np.any(w[hidden] != 0):
        raise SelfTestError(
            f"masked weights are not exactly 0 (max {np.abs(w[hidden]).max():.3g}, mask {mask_kind})"
        )
    out = np.asarray(trace.output)
    if out.shape != (n_q, EXPECTED_WIDTH):
        raise SelfTestError(f"output has shape {out.shape}, expected ({n_q}, {EXPECTED_WIDTH})")
    if not np.isfinite(out).all():
        raise SelfTestError("output contains NaN or infinity")
    return f"{trace.heads} heads x {n_q}x{n_k}"


def check_image(image) -> str:
    """Raise SelfTestError when a QImage is blank (one colour or nearly flat)."""
    import numpy as np
    from PySide6 import QtGui

    if image.isNull() or image.width() < 100 or image.height() < 100:
        raise SelfTestError(f"the screenshot is empty ({image.width()}x{image.height()})")
    img = image.convertToFormat(QtGui.QImage.Format.Format_RGB32)
    w, h = img.width(), img.height()
    buf = np.frombuffer(img.constBits(), dtype=np.uint8, count=img.sizeInBytes())
    rows = buf.reshape(h, img.bytesPerLine())[:, : w * 4].reshape(h, w, 4)
    rgb = rows[..., :3].astype(np.int32)
    packed = (rgb[..., 0] << 16) | (rgb[..., 1] << 8) | rgb[..., 2]
    colours = len(np.unique(packed))
    luma = 0.299 * rgb[..., 2] + 0.587 * rgb[..., 1] + 0.114 * rgb[..., 0]
    std = float(luma.std())
    if colours < MIN_DISTINCT_COLOURS or std < MIN_LUMA_STD:
        raise SelfTestError(f"the screenshot looks blank ({colours} colours, luminance std {std:.1f})")
    return f"{colours} colours, luminance std {std:.1f}"


def check_multilingual() -> str:
    """Compute on the multilingual model and count unknown tokens on a Chinese sentence."""
    from tokenizers import Tokenizer

    from explorer.core.config import AttentionConfig
    from explorer.core.engine import Engine
    from explorer.models import catalogue
    from explorer.models.loader import ModelError

    started = time.perf_counter()
    try:
        trace = Engine().trace(AttentionConfig(sentence=CHINESE_SENTENCE, model="multilingual", device="cpu"))
    except ModelError as exc:
        raise SelfTestError(f"the multilingual model: {exc}") from None
    check_trace(trace, "none")
    # Count by id: a Unigram tokenizer shows an unknown token as the text it covers.
    tok = Tokenizer.from_file(str(catalogue.model_dir("multilingual") / "tokenizer.json"))
    ids = tok.encode(CHINESE_SENTENCE).ids
    unknown = ids.count(tok.token_to_id("<unk>"))
    if unknown:
        raise SelfTestError(f"the multilingual model reads {unknown} unknown token(s) in {CHINESE_SENTENCE}")
    return f"{trace.model_name} {len(ids)} tokens, 0 [UNK] ({time.perf_counter() - started:.1f} s)"


def check_page(trace, out_dir: Path) -> str:
    """The interactive page is written whole: its script, styles and Chinese words are bundled."""
    from explorer.web import write_page

    path = write_page(out_dir / "self-test.html", trace.page(), "zh_CN")
    text = path.read_text(encoding="utf-8")
    for needed, what in (
        ("window.AttentionExplorerView", "the view's script (explorer/web/view.js)"),
        (".ae-view {", "the view's styles (explorer/web/view.css)"),
        ("这一层的每一个头", "the page's Chinese words (resources/translations)"),
    ):
        if needed not in text:
            raise SelfTestError(f"the interactive page lacks {what}")
    return f"page {path.name} ({path.stat().st_size // 1024} KB)"


def check_labs() -> str:
    """The shipped lab checkpoints are in the bundle and still right: a date translated by the
    Bahdanau GRU, a generated picture classified by the CBAM model."""
    from explorer.seq2seq import translate
    from explorer.vision.checkpoints import load_shipped
    from explorer.vision.shapes import CLASS_NAMES, generate
    from explorer.vision.trace import run_model

    date = translate("9 mai 2018", model="bahdanau", scoring="additive", attention="soft")
    if date.output != "2018-05-09":
        raise SelfTestError(f"the translation lab read '9 mai 2018' as {date.output!r}")
    picture = generate(7)
    model, _ = load_shipped("cbam")
    seen = run_model(model, picture.image)
    if seen.prediction != picture.label:
        raise SelfTestError(
            f"the vision lab called a {CLASS_NAMES[picture.label]} a {CLASS_NAMES[seen.prediction]}"
        )
    read = check_picture_files(picture.image)
    trained = check_training()
    return f"labs: 9 mai 2018 → {date.output}, picture 7 → {CLASS_NAMES[seen.prediction]}, {read}, {trained}"


def check_picture_files(pixels: object) -> str:
    """The vision lab reads each picture format it offers (the bundle keeps only their codecs)."""
    import numpy as np
    from PIL import Image

    from explorer.vision.images import FORMATS, load_image

    image = Image.fromarray((np.asarray(pixels) * 255).round().astype(np.uint8))
    with tempfile.TemporaryDirectory() as folder:
        for fmt in FORMATS:
            path = Path(folder) / f"picture.{fmt.lower()}"
            (image.convert("P") if fmt == "GIF" else image).save(path, fmt)
            loaded = load_image(path).pixels
            if loaded.shape != np.asarray(pixels).shape or not np.isfinite(loaded).all():
                raise SelfTestError(f"the vision lab read a {fmt} picture as {loaded.shape}")
    return f"pictures read: {', '.join(FORMATS)}"


def check_training() -> str:
    """A few training steps of each lab, as the window's Train buttons run them: the bundle
    leaves parts of torch out, and an optimiser step is where a missing one would show."""
    import math

    from explorer.lab import TrainOptions
    from explorer.seq2seq.train import train_model
    from explorer.vision.train import train_variant

    options = TrainOptions(batch_size=16, eval_every=3, eval_size=2, device="cpu")
    date = train_model("bahdanau", "additive", steps=3, options=options)
    settings = TrainOptions(batch_size=8, pool_size=64, eval_every=3, eval_size=16, device="cpu")
    picture = train_variant("cbam", steps=3, seed=0, options=settings)
    losses = [date.log.losses[-1], picture.log.losses[-1]]
    if not all(math.isfinite(loss) for loss in losses):
        raise SelfTestError(f"a lab's training gave a loss that is not a number: {losses}")
    return f"3 training steps of each lab (losses {losses[0]:.3f}, {losses[1]:.3f})"


def _wait_for_trace(app, window, config, timeout_s: float):
    """Set the window's config (or use the current one) and wait for the window to draw it."""
    from PySide6 import QtCore

    outcome: dict = {}
    loop = QtCore.QEventLoop()

    def on_rendered():
        trace = window.trace
        if trace is not None and trace.config == window.state.config:
            outcome["trace"] = trace
            loop.quit()

    def on_failed(message: str):
        outcome["error"] = message
        loop.quit()

    window.rendered.connect(on_rendered)
    window.failed.connect(on_failed)
    timer = QtCore.QTimer()
    timer.setSingleShot(True)
    timer.timeout.connect(loop.quit)
    timer.start(int(timeout_s * 1000))
    try:
        if config is not None:
            window.state.set_config(config)
        if window.trace is not None and window.trace.config == window.state.config:
            outcome["trace"] = window.trace
        else:
            loop.exec()
    finally:
        timer.stop()
        window.rendered.disconnect(on_rendered)
        window.failed.disconnect(on_failed)
    if "error" in outcome:
        raise SelfTestError(f"the window reported an error: {outcome['error']}")
    if "trace" not in outcome:
        raise SelfTestError(f"no trace was drawn within {timeout_s:.0f} s")
    return outcome["trace"]


def _run(out_dir: Path) -> str:
    # Offscreen always: the self-test must run on CI machines and never flash a window.
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    import torch  # noqa: F401  (before Qt: torch >= 2.9 fails on Windows when imported after it)
    from PySide6 import QtCore, QtGui

    from explorer.core.config import AttentionConfig
    from explorer.core.engine import Engine
    from explorer.gui.main_window import MainWindow
    from explorer.models.loader import default_model_dir
    from explorer.resources import app_icon_paths

    if not app_icon_paths():
        raise SelfTestError("the application icon is missing from resources/icons")
    model_dir = default_model_dir()
    if model_dir is None:
        raise SelfTestError("no pretrained model folder found (the model is not bundled/installed)")

    # Fresh settings in the output folder: the user's preferences neither steer nor
    # receive anything from the self-test.
    QtCore.QSettings.setDefaultFormat(QtCore.QSettings.Format.IniFormat)
    QtCore.QSettings.setPath(
        QtCore.QSettings.Format.IniFormat, QtCore.QSettings.Scope.UserScope, str(out_dir / "settings")
    )
    from explorer.gui.app_setup import configure_app

    app = configure_app([sys.argv[0]])
    if app.windowIcon().isNull():
        raise SelfTestError("Qt could not load the application icon (image plugins missing?)")

    config = AttentionConfig(sentence=SENTENCE, weights="pretrained", device="cpu")
    from explorer.gui.preferences import MemorySettings

    window = MainWindow(Engine(), config, settings=MemorySettings())
    window.resize(*SCREENSHOT_SIZE)
    try:
        window.show()
        t0 = time.perf_counter()
        trace = _wait_for_trace(app, window, None, STEP_TIMEOUT_S)
        t_first = time.perf_counter() - t0
        shape = check_trace(trace, "none")
        causal = _wait_for_trace(app, window, config.with_(mask="causal"), STEP_TIMEOUT_S)
        check_trace(causal, "causal")

        for _ in range(5):  # let the last paint events run
            app.processEvents()
            time.sleep(0.02)
        window.repaint()
        pixmap = window.grab()
        out_dir.mkdir(parents=True, exist_ok=True)
        shot = out_dir / "self-test.png"
        if pixmap.isNull() or not pixmap.save(str(shot)):
            raise SelfTestError(f"cannot write the screenshot {shot}")
        pixels = check_image(QtGui.QImage(str(shot)))
        page = check_page(trace, out_dir)
    finally:
        # Tear the window down now, not during interpreter shutdown (after the
        # QApplication): that order crashes at exit.
        window.close()
        window.worker.shutdown(timeout=30)
        window.deleteLater()
        QtCore.QCoreApplication.sendPostedEvents(None, QtCore.QEvent.Type.DeferredDelete)
        app.processEvents()
    multilingual = check_multilingual()
    labs = check_labs()
    where = "frozen bundle" if getattr(sys, "frozen", False) else "source"
    return (
        f"self-test OK: {where}, {trace.model_name} pretrained from {model_dir}, {shape}, "
        f"first trace {t_first:.2f} s, causal mask ok, screenshot {shot} ({pixels}), {page}, {multilingual}, {labs}"
    )


def run_self_test(out_dir: str | os.PathLike | None = None) -> int:
    """Run every check; print/log one line; return the exit status (0 ok, 1 failed)."""
    from explorer.logsetup import setup_logging

    log = setup_logging()
    folder = Path(out_dir) if out_dir else Path(tempfile.mkdtemp(prefix="attention-explorer-selftest-"))
    try:
        line = _run(folder)
    except SelfTestError as exc:
        line = f"self-test FAILED: {exc}"
        log.error(line)
        _print(sys.stderr, line)
        return 1
    except Exception as exc:  # any crash is a failure with its reason
        line = f"self-test FAILED: {type(exc).__name__}: {exc}"
        log.exception(line)
        _print(sys.stderr, line)
        return 1
    log.info(line)
    _print(sys.stdout, line)
    return 0


if __name__ == "__main__":
    sys.exit(run_self_test(sys.argv[1] if len(sys.argv) > 1 else None))
