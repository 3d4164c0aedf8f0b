"""The tabs of the window. Each is a module here and one entry in ``registry.TABS``."""
