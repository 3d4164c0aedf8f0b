"""Headless Chromium driven over the DevTools protocol on a pipe: no driver, no package.

Chromium started with ``--remote-debugging-pipe`` reads commands from its file descriptor 3
and writes answers and events to 4, each a JSON text ended by a NUL byte. That is all the
tests need: open a page, run a script in it, move the mouse, read what it requested.

    with Chromium() as browser:
        tab = browser.open("file:///tmp/page.html")
        tab.evaluate("document.title"), tab.move(120, 80), tab.requests()

``find_chromium()`` is None where Debian's chromium is not installed (``./dev test`` installs it).
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field

# The flags that keep a headless Chromium off every network by itself (the machine notes).
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-default-apps",
    "--mute-audio",
    "--hide-scrollbars",
)


def find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


class BrowserError(RuntimeError):
    pass


def _high(fd: int) -> int:
    """The same pipe end at a number far from 3 and 4, closed on exec."""
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return moved


class Chromium:
    def __init__(self, binary: str | None = None, width: int = 1280, height: int = 1600, timeout: float = 30):
        binary = binary or find_chromium()
        if binary is None:
            raise BrowserError("no chromium on PATH")
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="explorer-chromium-")
        to_browser_r, to_browser_w = (_high(fd) for fd in os.pipe())
        from_browser_r, from_browser_w = (_high(fd) for fd in os.pipe())

        def wire() -> None:  # in the child, before exec: its fd 3 reads, its fd 4 writes
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)

        self.process = subprocess.Popen(
            [
                binary,
                *FLAGS,
                f"--user-data-dir={self.profile}",
                f"--window-size={width},{height}",
                "--remote-debugging-pipe",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            close_fds=False,  # 3 and 4 must reach it; every other descriptor here is close-on-exec
            preexec_fn=wire,
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._out = to_browser_w
        self._in = from_browser_r
        self._next_id = 0
        self._answers: dict[int, dict] = {}
        self.events: list[dict] = []
        self._changed = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.call("Target.setDiscoverTargets", {"discover": True})

    # -- the protocol ----------------------------------------------------------------------
    def _read(self) -> None:
        buffer = b""
        while True:
            try:
                chunk = os.read(self._in, 1 << 20)
            except OSError:
                chunk = b""
            if not chunk:
                with self._changed:
                    self._answers[-1] = {"error": {"message": "chromium closed the pipe"}}
                    self._changed.notify_all()
                return
            buffer += chunk
            *messages, buffer = buffer.split(b"\0")
            with self._changed:
                for raw in messages:
                    message = json.loads(raw)
                    if "id" in message:
                        self._answers[message["id"]] = message
                    else:
                        self.events.append(message)
                self._changed.notify_all()

    def call(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        with self._changed:
            self._next_id += 1
            number = self._next_id
        message = {"id": number, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._out, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        with self._changed:
            while number not in self._answers:
                if -1 in self._answers:
                    raise BrowserError(self._answers[-1]["error"]["message"])
                left = deadline - time.monotonic()
                if left <= 0:
                    raise BrowserError(f"no answer to {method} in {self.timeout} s")
                self._changed.wait(left)
            answer = self._answers.pop(number)
        if "error" in answer:
            raise BrowserError(f"{method}: {answer['error'].get('message')}")
        return answer.get("result", {})

    def wait_event(self, method: str, session: str | None, since: int = 0) -> dict:
        deadline = time.monotonic() + self.timeout
        with self._changed:
            while True:
                for event in self.events[since:]:
                    if event["method"] == method and event.get("sessionId") == session:
                        return event
                left = deadline - time.monotonic()
                if left <= 0:
                    raise BrowserError(f"no {method} in {self.timeout} s")
                self._changed.wait(left)

    # -- pages -----------------------------------------------------------------------------
    def open(self, url: str, dark: bool = False) -> Tab:
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        tab = Tab(self, session, target)
        for domain in ("Page", "Runtime", "Network"):
            self.call(f"{domain}.enable", {}, session)
        if dark:
            tab.color_scheme("dark")
        tab.navigate(url)
        return tab

    def close(self) -> None:
        try:
            if self.process.poll() is None:
                try:
                    self.call("Browser.close")
                except BrowserError:
                    pass
                self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        finally:
            for fd in (self._out, self._in):
                try:
                    os.close(fd)
                except OSError:
                    pass
            shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> Chromium:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


@dataclass
class Tab:
    browser: Chromium
    session: str
    target: str
    opened_at: int = field(default=0)

    def close(self) -> None:
        self.browser.call("Target.closeTarget", {"targetId": self.target})

    def navigate(self, url: str) -> None:
        since = len(self.browser.events)
        self.opened_at = since
        self.browser.call("Page.navigate", {"url": url}, self.session)
        self.browser.wait_event("Page.loadEventFired", self.session, since)

    def evaluate(self, expression: str):
        result = self.browser.call(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
            self.session,
        )
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise BrowserError(details.get("exception", {}).get("description") or details.get("text"))
        return result["result"].get("value")

    def move(self, x: float, y: float) -> None:
        self.browser.call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y}, self.session)

    def click(self, x: float, y: float) -> None:
        for kind in ("mousePressed", "mouseReleased"):
            self.browser.call(
                "Input.dispatchMouseEvent",
                {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1},
                self.session,
            )

    def color_scheme(self, scheme: str) -> None:
        self.browser.call(
            "Emulation.setEmulatedMedia",
            {"features": [{"name": "prefers-color-scheme", "value": scheme}]},
            self.session,
        )

    def _mine(self, method: str) -> list[dict]:
        return [
            e["params"]
            for e in self.browser.events[self.opened_at :]
            if e["method"] == method and e.get("sessionId") == self.session
        ]

    def requests(self) -> list[str]:
        """Every URL the page asked for since it was opened (the page itself first)."""
        return [p["request"]["url"] for p in self._mine("Network.requestWillBeSent")]

    def errors(self) -> list[str]:
        """Uncaught script errors and console errors since the page was opened."""
        found = [p["exceptionDetails"].get("text", "") for p in self._mine("Runtime.exceptionThrown")]
        found += [
            " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", []))
            for p in self._mine("Runtime.consoleAPICalled")
            if p.get("type") == "error"
        ]
        return found
