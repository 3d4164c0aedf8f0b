"""Pictures of panels and of the whole window: PNG, SVG and the clipboard; the Export dialog.

A panel is either a pyqtgraph PlotItem (one heatmap: PNG with pyqtgraph's
ImageExporter, SVG by painting its part of the scene into a QSvgGenerator) or a QWidget (grabbed for PNG, painted
into a QSvgGenerator for SVG). The data exports (CSV, NPY, JSON) live in ``explorer.export``.
"""

from __future__ import annotations

from pathlib import Path

import pyqtgraph as pg
import pyqtgraph.exporters  # noqa: F401  (registers the exporters)
from PySide6 import QtCore, QtGui, QtWidgets

PNG_SCALE = 2  # plots are exported at twice their on-screen size, for slides


def plot_image(plot: pg.PlotItem) -> QtGui.QImage:
    exporter = pg.exporters.ImageExporter(plot)
    width = int(max(plot.sceneBoundingRect().width(), 50) * PNG_SCALE)
    exporter.parameters()["width"] = width
    exporter.parameters()["height"] = int(max(plot.sceneBoundingRect().height(), 50) * PNG_SCALE)
    return exporter.export(toBytes=True)


def panel_image(target) -> QtGui.QImage:
    if isinstance(target, pg.PlotItem):
        return plot_image(target)
    return target.grab().toImage()


def save_png(target, path: str | Path) -> Path:
    path = Path(path)
    image = panel_image(target)
    if image.isNull() or not image.save(str(path), "PNG"):
        raise OSError(f"cannot write {path}")
    return path


def save_svg(target, path: str | Path, title: str = "Attention Explorer") -> Path:
    """Vector SVG through Qt's QSvgGenerator (pyqtgraph's SVGExporter cannot parse the path
    syntax of current Qt); the heatmap image itself is embedded as a picture."""
    from PySide6 import QtSvg

    path = Path(path)
    if isinstance(target, pg.PlotItem):
        source = target.sceneBoundingRect()
        size = QtCore.QSize(int(source.width()), int(source.height()))
    else:
        source, size = None, target.size()
    generator = QtSvg.QSvgGenerator()
    generator.setFileName(str(path))
    generator.setSize(size)
    generator.setViewBox(QtCore.QRect(QtCore.QPoint(0, 0), size))
    generator.setTitle(title)
    painter = QtGui.QPainter(generator)
    try:
        if source is not None:
            target.scene().render(painter, QtCore.QRectF(0, 0, size.width(), size.height()), source)
        else:
            QtWidgets.QWidget.render(target, painter, QtCore.QPoint(0, 0))  # also for graphics views
    finally:
        painter.end()
    if not path.exists() or path.stat().st_size == 0:
        raise OSError(f"cannot write {path}")
    return path


def copy_to_clipboard(target) -> QtGui.QImage:
    image = panel_image(target)
    QtWidgets.QApplication.clipboard().setImage(image)
    return image


class ExportDialog(QtWidgets.QDialog):
    """What (a panel, the window or the data), the format and where; Export or Copy."""

    def __init__(self, window, parent=None):
        super().__init__(parent or window)
        self.window_ = window
        self.setWindowTitle(self.tr("Export"))
        form = QtWidgets.QFormLayout(self)
        self.what = QtWidgets.QComboBox()
        self.what.addItem(self.tr("All stages of the current trace (data)"), "data")
        self.what.addItem(self.tr("The whole window (PNG)"), "window")
        for name, (label, _target) in window.export_panels().items():
            self.what.addItem(label, name)
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
        self.copy_button.clicked.connect(self._copy)
        form.addRow(buttons)
        self.what.currentIndexChanged.connect(self._formats)
        self._formats()

    def _formats(self) -> None:
        what = self.what.currentData()
        self.format.clear()
        if what == "data":
            for text, fmt in (
                (self.tr("CSV (a folder, one file per stage and head)"), "csv"),
                (self.tr("NPY (a folder, one file per stage)"), "npy"),
                (self.tr("JSON (one file, as the trace command)"), "json"),
            ):
                self.format.addItem(text, fmt)
        elif what == "window":
            self.format.addItem("PNG", "png")
        else:
            self.format.addItem("PNG", "png")
            self.format.addItem(self.tr("SVG (vector)"), "svg")
        self.copy_button.setEnabled(what != "data")

    def _browse(self) -> None:
        fmt = self.format.currentData()
        if fmt in ("csv", "npy"):
            path = QtWidgets.QFileDialog.getExistingDirectory(self, self.tr("Export into folder"))
        else:
            filters = {"png": "PNG (*.png)", "svg": "SVG (*.svg)", "json": "JSON (*.json)"}
            path, _ = QtWidgets.QFileDialog.getSaveFileName(self, self.tr("Export to"), "", filters[fmt])
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
        if what == "data":
            message = self.window_.export_data(fmt, path)
        elif what == "window":
            message = self.window_.export_window(path)
        else:
            message = self.window_.export_panel(what, path, fmt)
        if message:
            QtWidgets.QMessageBox.warning(self, self.tr("Export"), message)
        else:
            self.accept()

    def _copy(self) -> None:
        what = self.what.currentData()
        self.window_.copy_panel(what)
