"""The window's side panels: the controls, and the docks listed in ``registry.DOCKS``."""
