"""Export: any figure as PNG or SVG, the window as PNG, the data as CSV, NPY or JSON, the clipboard,
and the trace as an interactive page (one HTML file, every layer and head, opens offline).

Every figure is drawn from the data, off-screen, by the tab that owns it (its ``figures``
in the tab registry): a stage that is not on screen, or a tab never opened, exports the
same picture it would show. A figure that needs a result not computed yet says so in a
message; nothing here can fail with a traceback.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate import data_export
from explorer.gui.docks import worked
from explorer.gui.heatmap.canvas import PNG_SCALE
from explorer.gui.heatmap.figure import paint_figure
from explorer.gui.i18n import translate
from explorer.gui.views.base import FigureSource, NothingToExport
from explorer.gui.views.next_tokens import shown_panel
from explorer.gui.views.registry import TABS
from explorer.web import write_page

# The sentence tabs' figures, captioned with what they were computed from (Compare's two
# configurations caption themselves; the labs' figures are not of the window's trace).
CAPTIONED = ("pipeline", "heads", "board", "overview")
CAPTION_TEXT = 80  # characters of the text in a caption
WORKED_WIDTH = 470  # the worked arithmetic's page width, as the dock shows it by default
NEXT_TOKENS_DATA = "next_tokens_data"  # the next-token panel's numbers, beside its figure
FOLDER_FORMATS = ("csv", "npy")  # the trace's data in these: a folder, one file per stage
FILE_SUFFIXES = (".png", ".svg", ".json", ".html", ".htm", ".csv", ".npy", ".npz", ".txt", ".pdf")


@dataclass(frozen=True)
class Picture:
    size: QtCore.QSize  # in logical pixels (an SVG's size)
    scale: float  # raster pictures are this much larger, for slides
    background: QtGui.QColor
    paint: Callable[[QtGui.QPainter], None]


def captioned(picture: Picture, text: str, colour: QtGui.QColor) -> Picture:
    """The picture with one line of text under it, as wide as the picture (elided to fit)."""
    font = QtGui.QFont()
    font.setPixelSize(13)
    metrics = QtGui.QFontMetrics(font)
    width, line = picture.size.width(), metrics.height() + 8
    shown = metrics.elidedText(text, QtCore.Qt.TextElideMode.ElideRight, max(40, width - 12))

    def paint(painter: QtGui.QPainter) -> None:
        picture.paint(painter)
        painter.save()
        painter.setFont(font)
        painter.setPen(colour)
        box = QtCore.QRectF(6, picture.size.height(), width - 12, line)
        painter.drawText(
            box, int(QtCore.Qt.AlignmentFlag.AlignLeft | QtCore.Qt.AlignmentFlag.AlignVCenter), shown
        )
        painter.restore()

    return Picture(
        QtCore.QSize(width, picture.size.height() + line), picture.scale, picture.background, paint
    )


class Exporter(QtCore.QObject):
    """Collaborators: the window (its context, banner, status bar, grab) and the tab registry."""

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.message = ""  # the last outcome, for the status bar and the tests

        def action(slot, shortcut=None) -> QtGui.QAction:
            act = QtGui.QAction(window)
            if shortcut:
                act.setShortcut(QtGui.QKeySequence(shortcut))
            act.triggered.connect(slot)
            return act

        self.export_action = action(self.dialog, "Ctrl+E")
        self.export_window_action = action(self.window_dialog)
        self.export_page_action = action(self.page_dialog)
        window.worker.listen("page", self._page_written)
        self.copy_action = action(lambda: self.copy_panel(self.window.state.tab), "Ctrl+Shift+C")
        self.retranslate()

    # -- what can be exported ----------------------------------------------------------------------
    def sources(self) -> dict[str, FigureSource]:
        """name -> figure, from every tab of the registry."""
        out: dict[str, FigureSource] = {}
        for spec in TABS:
            out.update(spec.figure_sources(self.window.context))
        return out

    def on_screen(self) -> str | None:
        """What the tab on screen shows, the dialog's default "what": the figure of its page on
        screen (TabSpec.shown_figure; "window" for a page with none), None for the trace's data
        (the Pipeline showing every stage) and on a tab with nothing to export."""
        tab = self.window.state.tab
        for spec in TABS:
            if spec.tab == tab:
                return spec.shown_figure(self.window.context)
        return None

    def labels(self) -> dict[str, str]:
        """name -> label of everything that can be exported as a picture."""
        out = {name: source.label for name, source in self.sources().items()}
        out["worked"] = translate("Exporter", "Worked arithmetic")
        return out

    def picture(self, name: str) -> Picture:
        """A named figure, drawn from the data (raises NothingToExport, KeyError)."""
        if name == "worked":
            doc = worked.document(*worked.worked_source(self.window.context), width=WORKED_WIDTH)
            return Picture(doc.size().toSize(), 1.0, QtGui.QColor("white"), doc.drawContents)
        sources = self.sources()
        if name not in sources:
            raise KeyError(name)
        figure, size = sources[name].make()
        style = self.window.context.style()
        rect = QtCore.QRectF(0, 0, size.width(), size.height())
        if hasattr(figure, "paint"):  # a picture that draws itself (the lines view)
            picture = Picture(size, PNG_SCALE, style.bg, lambda p: figure.paint(p, rect, style))
        elif hasattr(figure, "paint_into"):  # not a heatmap: a lines view paints itself
            picture = Picture(
                size, PNG_SCALE, style.bg, lambda p: figure.paint_into(p, size.width(), size.height())
            )
        else:
            picture = Picture(size, PNG_SCALE, style.bg, lambda p: paint_figure(p, rect, figure, style))
        caption = self.caption(name)
        return picture if not caption else captioned(picture, caption, style.fg)

    def caption(self, name: str) -> str:
        """What a figure of the sentence tabs was computed from (a file has no window around it
        to say so): the model, the layer, the head where the figure is one head's, the text."""
        kind = name.split(":")[0]
        trace = self.window.trace
        if kind not in CAPTIONED or trace is None:
            return ""
        text = " ".join(trace.config.sentence.split())
        if len(text) > CAPTION_TEXT:
            text = text[: CAPTION_TEXT - 1] + "…"
        model = trace.model_name or translate("Exporter", "{0} weights").format(trace.weights_source)
        parts = [model]
        if kind != "overview" and trace.layer is not None:
            parts.append(translate("Exporter", "layer {0}").format(trace.layer))
        if kind in ("pipeline", "board"):
            parts.append(translate("Exporter", "head {0}").format(self.window.state.selected_head))
        return " · ".join(parts) + " · “" + text + "”"

    def image(self, name: str) -> QtGui.QImage:
        picture = self.picture(name)
        size = picture.size * picture.scale
        image = QtGui.QImage(max(1, size.width()), max(1, size.height()), QtGui.QImage.Format.Format_RGB32)
        image.fill(picture.background)
        painter = QtGui.QPainter(image)
        try:
            painter.scale(picture.scale, picture.scale)
            picture.paint(painter)
        finally:
            painter.end()
        return image

    def svg(self, name: str, path: str | Path) -> None:
        """Text and lines as vectors, the cells as an embedded picture."""
        from PySide6 import QtSvg  # only when exporting (a sixth of a second at start-up)

        picture = self.picture(name)
        generator = QtSvg.QSvgGenerator()
        generator.setFileName(str(path))
        generator.setSize(picture.size)
        generator.setViewBox(QtCore.QRect(QtCore.QPoint(0, 0), picture.size))
        generator.setTitle("Attention Explorer")
        painter = QtGui.QPainter(generator)
        try:
            picture.paint(painter)
        finally:
            painter.end()
        if not Path(path).exists() or Path(path).stat().st_size == 0:
            raise OSError(translate("Exporter", "cannot write {0}").format(path))

    # -- the actions ----------------------------------------------------------------------------------
    def _done(self, failure: str | None, what) -> str | None:
        """The outcome in the status bar; a failure is also returned for the dialog to show. Not
        the banner: that says the computation failed and stays, and an export is not one."""
        self.message = failure or translate("Exporter", "Exported {0}").format(what)
        self.window.statusBar().showMessage(self.message, 15000 if failure else 5000)
        return failure

    def export_panel(self, name: str, path: str | Path, fmt: str | None = None) -> str | None:
        """Write one figure as PNG or SVG (by ``fmt`` or the file's suffix); returns an error or None."""
        fmt = (fmt or Path(path).suffix.lstrip(".")).lower()
        try:
            if fmt == "png":
                image = self.image(name)
                if image.isNull() or not image.save(str(path), "PNG"):
                    raise OSError(translate("Exporter", "cannot write {0}").format(path))
            elif fmt == "svg":
                self.svg(name, path)
            else:
                raise ValueError(translate("Exporter", "{0}: choose PNG or SVG").format(path))
        except NothingToExport as exc:
            return self._done(str(exc), path)
        except (OSError, ValueError, KeyError) as exc:
            return self._done(translate("Exporter", "Export failed: {0}").format(exc), path)
        except Exception as exc:  # a figure needing a computation that failed (a bad model folder)
            from explorer.gui.messages import error_message

            return self._done(translate("Exporter", "Export failed: {0}").format(error_message(exc)), path)
        return self._done(None, Path(path).name)

    def export_window(self, path: str | Path) -> str | None:
        image = self.window.grab().toImage()
        if image.isNull() or not image.save(str(path), "PNG"):
            return self._done(translate("Exporter", "Export failed: cannot write {0}").format(path), path)
        return self._done(None, Path(path).name)

    def export_data(self, fmt: str, path: str | Path) -> str | None:
        """Every stage of the current trace: csv / npy (into a folder) or json (one file)."""
        prepared = self.window.prepared
        if prepared is None:
            return self._done(
                translate("Exporter", "Nothing to export yet: no result has been computed"), path
            )
        suffix = Path(path).suffix.lower()
        if fmt in FOLDER_FORMATS and suffix in FILE_SUFFIXES and not Path(path).is_dir():
            # x.png with CSV made a folder "x.png/" of 90 files (trial 8 F11): not what was meant
            return self._done(
                translate(
                    "Exporter",
                    "{0} is a file name, but {1} writes a folder of files, one per stage: "
                    "choose a folder, or a name without “{2}”. Nothing was written.",
                ).format(Path(path).name, fmt.upper(), suffix),
                path,
            )
        try:
            data_export.export_data(prepared.trace, fmt, path)
        except (OSError, ValueError) as exc:
            return self._done(translate("Exporter", "Export failed: {0}").format(exc), path)
        return self._done(None, Path(path).name)

    def export_next_tokens(self, fmt: str, path: str | Path) -> str | None:
        """The next-token panel's numbers (a language model's): csv or json, one file."""
        from explorer.appstate.next_tokens import write_next_tokens

        panel = shown_panel(self.window.context)
        if panel is None:
            return self._done(
                translate(
                    "NextTokenPanel", "Nothing to export yet: open a language model to see its next tokens"
                ),
                path,
            )
        try:
            write_next_tokens(panel.answer, fmt, path)
        except (OSError, ValueError) as exc:
            return self._done(translate("Exporter", "Export failed: {0}").format(exc), path)
        return self._done(None, Path(path).name)

    def export_page(self, path: str | Path, language: str | None = None) -> str | None:
        """The current trace as an interactive page, every layer computed on the worker (channel
        "page"); ``message`` says when it is written. Opens in the window's language by default."""
        prepared = self.window.prepared
        if prepared is None:
            return self._done(
                translate("Exporter", "Nothing to export yet: no result has been computed"), path
            )
        state, engine, trace = self.window.state, self.window.context.engine, prepared.trace
        language = language or state.language
        head = state.selected_head if state.selected_head < trace.heads else 0

        def write(should_stop) -> Path:
            every = engine.layer_weights(trace.config, should_stop)
            return write_page(path, dataclasses.replace(trace, layer_weights=every).page(head), language)

        self.message = translate("Exporter", "Writing {0}…").format(Path(path).name)
        self.window.statusBar().showMessage(self.message)
        self.window.worker.submit("page", write, cancellable=True)
        return None

    def _page_written(self, result) -> None:
        if result.ok:
            self._done(None, result.value.name)
        else:
            from explorer.gui.messages import error_message

            self._done(translate("Exporter", "Export failed: {0}").format(error_message(result.error)), "")

    def copy_panel(self, name: str) -> str | None:
        try:
            image = self.window.grab().toImage() if name == "window" else self.image(name)
        except NothingToExport as exc:
            return self._done(str(exc), name)
        except Exception as exc:  # any failure is a message, never a crash
            return self._done(translate("Exporter", "Copy failed: {0}").format(exc), name)
        QtWidgets.QApplication.clipboard().setImage(image)
        return self._done(None, translate("Exporter", "{0} to the clipboard").format(name))

    def dialog(self) -> None:
        ExportDialog(self).exec()

    def window_dialog(self) -> None:
        prefs = self.window.prefs
        path, _ = QtWidgets.QFileDialog.getSaveFileName(
            self.window,
            translate("Exporter", "Export the window"),
            prefs.dialog_start("window.png"),
            "PNG (*.png)",
        )
        prefs.remember_dialog(path)
        if path:
            self.export_window(path if path.lower().endswith(".png") else path + ".png")

    def page_dialog(self) -> None:
        prefs = self.window.prefs
        path, _ = QtWidgets.QFileDialog.getSaveFileName(
            self.window,
            translate("Exporter", "Export an interactive page"),
            prefs.dialog_start("attention.html"),
            translate("Exporter", "Web page (*.html)"),
        )
        prefs.remember_dialog(path)
        if path:
            self.export_page(path if path.lower().endswith((".html", ".htm")) else path + ".html")

    def retranslate(self) -> None:
        self.export_action.setText(translate("Exporter", "&Export…"))
        self.export_action.setStatusTip(
            translate("Exporter", "A panel as PNG or SVG, the window as PNG, the data as CSV, NPY or JSON")
        )
        self.export_window_action.setText(translate("Exporter", "Export the window as PNG…"))
        self.export_page_action.setText(translate("Exporter", "Export an interactive page (HTML)…"))
        self.export_page_action.setStatusTip(
            translate(
                "Exporter",
                "Every layer and head of the current trace in one web page that opens offline, in English and Chinese",
            )
        )
        self.copy_action.setText(translate("Exporter", "Copy the current view to the clipboard"))


class ExportDialog(QtWidgets.QDialog):
    """What (a figure, the window or the data), the format and where; Export or Copy."""

    def __init__(self, exporter: Exporter, parent=None):
        super().__init__(parent or exporter.window)
        self.exporter = exporter
        self.setWindowTitle(self.tr("Export"))
        form = QtWidgets.QFormLayout(self)
        self.what = QtWidgets.QComboBox()
        self.what.addItem(self.tr("All stages of the current trace (data)"), "data")
        self.what.addItem(self.tr("The whole window (PNG)"), "window")
        self.what.addItem(self.tr("Interactive page: every layer and head (HTML)"), "page")
        if shown_panel(exporter.window.context) is not None:  # a language model's on screen
            self.what.addItem(self.tr("The next tokens of a language model (data)"), NEXT_TOKENS_DATA)
        for name, label in exporter.labels().items():
            self.what.addItem(label, name)
        shown = exporter.on_screen()  # the tab on screen, not the Pipeline's trace
        if shown is not None and self.what.findData(shown) >= 0:
            self.what.setCurrentIndex(self.what.findData(shown))
        form.addRow(self.tr("What"), self.what)
        self.format = QtWidgets.QComboBox()
        form.addRow(self.tr("Format"), self.format)
        path_row = QtWidgets.QHBoxLayout()
        self.path = QtWidgets.QLineEdit()
        browse = QtWidgets.QPushButton(self.tr("Browse…"))
        browse.clicked.connect(self._browse)
        path_row.addWidget(self.path, 1)
        path_row.addWidget(browse)
        form.addRow(self.tr("To"), path_row)
        buttons = QtWidgets.QDialogButtonBox()
        self.export_button = buttons.addButton(
            self.tr("Export"), QtWidgets.QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.copy_button = buttons.addButton(
            self.tr("Copy to clipboard"), QtWidgets.QDialogButtonBox.ButtonRole.ActionRole
        )
        buttons.addButton(QtWidgets.QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        self.export_button.clicked.connect(self._export)
        self.copy_button.clicked.connect(lambda: self.exporter.copy_panel(self.what.currentData()))
        form.addRow(buttons)
        self.what.currentIndexChanged.connect(self._formats)
        self._formats()

    def _formats(self) -> None:
        what = self.what.currentData()
        self.format.clear()
        if what == "page":
            self.format.addItem(self.tr("HTML (one file, opens offline in any browser)"), "html")
        elif what == NEXT_TOKENS_DATA:
            self.format.addItem(self.tr("CSV (one file, one row per token)"), "csv")
            self.format.addItem(self.tr("JSON (one file, with the settings)"), "json")
        elif what == "data":
            for text, fmt in (
                (self.tr("CSV (a folder, one file per stage and head)"), "csv"),
                (self.tr("NPY (a folder, one file per stage)"), "npy"),
                (self.tr("JSON (one file, as the trace command)"), "json"),
            ):
                self.format.addItem(text, fmt)
        else:
            self.format.addItem("PNG", "png")
            if what != "window":
                self.format.addItem(self.tr("SVG (vector)"), "svg")
        self.copy_button.setEnabled(what not in ("data", "page", NEXT_TOKENS_DATA))

    def _browse(self) -> None:
        fmt = self.format.currentData()
        prefs = self.exporter.window.prefs
        if fmt in FOLDER_FORMATS and self.what.currentData() != NEXT_TOKENS_DATA:
            path = QtWidgets.QFileDialog.getExistingDirectory(
                self, self.tr("Export into folder"), prefs.dialog_folder()
            )
            prefs.remember_dialog(path, folder=True)
        else:
            filters = {
                "png": "PNG (*.png)",
                "svg": "SVG (*.svg)",
                "json": "JSON (*.json)",
                "csv": "CSV (*.csv)",
                "html": "HTML (*.html)",
            }
            path, _ = QtWidgets.QFileDialog.getSaveFileName(
                self, self.tr("Export to"), prefs.dialog_folder(), filters[fmt]
            )
            prefs.remember_dialog(path)
            if path and not path.lower().endswith("." + fmt):
                path += "." + fmt
        if path:
            self.path.setText(path)

    def _export(self) -> None:
        if not self.path.text().strip():
            self._browse()
        path = self.path.text().strip()
        if not path:
            return
        what, fmt = self.what.currentData(), self.format.currentData()
        one_file = fmt not in FOLDER_FORMATS or what == NEXT_TOKENS_DATA
        if one_file and Path(path).suffix.lower() != "." + fmt:
            # A name left from another format (figure.png, then the page): the file says what it is.
            path = str(Path(path).with_suffix("." + fmt))
            self.path.setText(path)
        if what == "page":
            message = self.exporter.export_page(path)
        elif what == NEXT_TOKENS_DATA:
            message = self.exporter.export_next_tokens(fmt, path)
        elif what == "data":
            message = self.exporter.export_data(fmt, path)
        elif what == "window":
            message = self.exporter.export_window(path)
        else:
            message = self.exporter.export_panel(what, path, fmt)
        if message:
            QtWidgets.QMessageBox.warning(self, self.tr("Export"), message)
        else:
            self.accept()
