"""The Vision tab's modules are imported before it is opened: after the window's first paint,
on the GUI thread, one module per turn of the event loop (the tab's click imported all 18 at
once: 33–80 ms of the GUI thread's 90–130 ms block)."""

import importlib.util
import sys

from PySide6 import QtCore, QtWidgets

from explorer.gui import early_imports
from explorer.gui.views.registry import TABS, Tab


def test_the_list_names_real_modules_and_ends_with_the_vision_tabs_view():
    vision = next(spec for spec in TABS if spec.tab == Tab.VISION)
    assert early_imports.MODULES[-1] == vision.view.split(":")[0]
    assert all(importlib.util.find_spec(name) is not None for name in early_imports.MODULES)
    assert len(set(early_imports.MODULES)) == len(early_imports.MODULES)


def test_one_module_a_turn_after_the_first_paint(qtbot, tmp_path, monkeypatch):
    names = tuple(f"early_import_probe_{i}" for i in range(3))
    for i, name in enumerate(names):
        (tmp_path / f"{name}.py").write_text(f"import sys\nsys.modules[__name__].order = {i}\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in names:
        monkeypatch.delitem(sys.modules, name, raising=False)
    window = QtWidgets.QWidget()
    qtbot.addWidget(window)
    importer = early_imports.import_early(window, names)
    loop = QtCore.QEventLoop()
    QtCore.QTimer.singleShot(early_imports.AFTER_PAINT_MS + 300, loop.quit)
    loop.exec()
    assert not any(name in sys.modules for name in names)  # never painted: nothing yet
    window.show()
    qtbot.waitUntil(lambda: importer.names == [] and not importer.timer.isActive(), timeout=5000)
    assert all(name in sys.modules for name in names) and importer.turns == 3

    # one a turn: each turn's call imports exactly one of them
    for name in names:
        del sys.modules[name]
    importer.names = list(names)
    for done in range(1, 4):
        importer._next()
        assert [name in sys.modules for name in names] == [i < done for i in range(3)]
