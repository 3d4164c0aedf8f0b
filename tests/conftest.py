"""Session-wide: the app's log file goes to a temporary folder, never the real home."""

import os
import tempfile

# Set before any test (and every subprocess a test starts, which inherits it) runs the app.
os.environ.setdefault("EXPLORER_LOG_DIR", tempfile.mkdtemp(prefix="explorer-test-logs-"))
