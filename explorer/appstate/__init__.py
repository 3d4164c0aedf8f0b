"""The window's state, sessions, lessons, presets, worker and display arrays: Qt-free."""
