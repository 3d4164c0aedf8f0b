"""Qt-free attention engine: configuration, the staged mechanism, traces."""

from explorer.core.config import AttentionConfig, ConfigError, MaskSpec
from explorer.core.engine import Engine
from explorer.core.trace import AttentionTrace

__all__ = ["AttentionConfig", "AttentionTrace", "ConfigError", "Engine", "MaskSpec"]
