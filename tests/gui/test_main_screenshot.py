"""`python main.py --screenshot`: offscreen by default, and on a real X server (xcb) under Xvfb."""

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PySide6 import QtGui

ROOT = Path(__file__).resolve().parents[2]


def run_main(args, env, timeout=180):
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_screenshot_offscreen(tmp_path):
    out = tmp_path / "shot.png"
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "QT_QPA_PLATFORM")}
    done = run_main(["--screenshot", str(out), "--size", "1024x768", "--mask", "causal"], env)
    assert done.returncode == 0, done.stderr
    image = QtGui.QImage(str(out))
    assert (image.width(), image.height()) == (1024, 768)


def test_screenshot_bad_input_fails_with_one_line(tmp_path):
    done = run_main(["--screenshot", str(tmp_path / "x.png"), "--mask", "diagonal"], dict(os.environ))
    assert done.returncode != 0 and "mask" in done.stderr and not (tmp_path / "x.png").exists()


@pytest.fixture
def xvfb_display():
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        pytest.skip("Xvfb is not installed (apt-get install xvfb): cannot test the xcb platform")
    for number in range(99, 140):
        if not Path(f"/tmp/.X11-unix/X{number}").exists() and not Path(f"/tmp/.X{number}-lock").exists():
            break
    proc = subprocess.Popen(
        [xvfb, f":{number}", "-screen", "0", "1600x1000x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    socket = Path(f"/tmp/.X11-unix/X{number}")
    deadline = time.monotonic() + 10
    while not socket.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)  # waiting for an external server, not for the GUI
    if not socket.exists():
        proc.kill()
        pytest.skip("Xvfb did not start")
    yield f":{number}"
    proc.terminate()
    proc.wait(10)


@pytest.mark.xvfb
def test_window_on_xcb_under_xvfb(tmp_path, xvfb_display):
    out = tmp_path / "xcb.png"
    env = dict(os.environ, DISPLAY=xvfb_display, QT_QPA_PLATFORM="xcb")
    done = run_main(["--screenshot", str(out), "--size", "1200x800", "--weights", "random"], env)
    assert done.returncode == 0, done.stderr
    assert QtGui.QImage(str(out)).width() == 1200
    first = run_main(["--first-paint-exit"], env)
    assert first.returncode == 0, first.stderr


def test_headless_runs_neither_read_nor_write_the_user_settings(tmp_path):
    """A saved dark theme and Chinese must not change a screenshot, and no headless run may
    write the user's settings file (theme, language, geometry, recent sessions)."""
    config = tmp_path / "config"
    ini = config / "AttentionExplorer" / "attention-explorer.ini"
    ini.parent.mkdir(parents=True)
    ini.write_text("[ui]\ntheme=dark\nlanguage=zh_CN\n", encoding="utf-8")
    before = (ini.read_bytes(), ini.stat().st_mtime_ns)
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "QT_QPA_PLATFORM")}
    env.update(HOME=str(tmp_path / "home"), XDG_CONFIG_HOME=str(config))
    out = tmp_path / "shot.png"
    done = run_main(["--screenshot", str(out), "--size", "800x600", "--weights", "random"], env)
    assert done.returncode == 0, done.stderr
    window_colour = QtGui.QImage(str(out)).pixelColor(799, 12)  # the menu bar's right end
    assert window_colour.lightness() > 200, window_colour.name()  # the light theme, not the saved dark
    first = run_main(["--first-paint-exit", "--weights", "random"], env)
    assert first.returncode == 0, first.stderr
    assert (ini.read_bytes(), ini.stat().st_mtime_ns) == before
    assert [p for p in config.rglob("*") if p.is_file()] == [ini]


def test_the_command_line_reads_the_tab_registry_before_qt():
    """--tab NAME comes from the registry, and reading it imports no Qt: torch must be
    imported before Qt (Windows)."""
    code = (
        "import sys; from explorer.app import build_parser; "
        "p = build_parser(); a = p.parse_args(['--tab', 'compare']); "
        "assert a.tab == 'compare'; "
        "sys.exit(any(m.startswith('PySide6') for m in sys.modules))"
    )
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0
    from explorer.gui.views.registry import TABS

    done = run_main(["--tab", "nowhere"], dict(os.environ))
    assert done.returncode == 2 and all(spec.tab.value in done.stderr for spec in TABS)
