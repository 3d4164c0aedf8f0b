"""A lab's training content that forgets what every lab must draw fails when it is made."""

import pytest

from explorer.gui.lab.training import TrainingContent


def test_training_content_missing_curves_cannot_be_made():
    class Forgetful(TrainingContent):
        def intro(self, lab):
            return ""

        def measure(self, run):
            return None

    with pytest.raises(TypeError, match="curves"):
        Forgetful()
