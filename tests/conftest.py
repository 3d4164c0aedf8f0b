"""Session-wide: the app's log file and data (converted weights) go to temporary folders, never the real home."""

import os
import tempfile

# Set before any test (and every subprocess a test starts, which inherits it) runs the app.
os.environ.setdefault("EXPLORER_LOG_DIR", tempfile.mkdtemp(prefix="explorer-test-logs-"))
os.environ.setdefault("EXPLORER_DATA_DIR", tempfile.mkdtemp(prefix="explorer-test-data-"))
