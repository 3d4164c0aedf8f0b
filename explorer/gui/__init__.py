"""The window: Qt only. It draws AttentionTraces and edits the ExplorerState."""
