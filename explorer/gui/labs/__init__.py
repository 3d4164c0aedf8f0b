"""Each lab's tab in a folder of its own, all of the same shape (view, training, export, and the
lab's own parts), built on the parts every lab shares (explorer.gui.lab)."""
