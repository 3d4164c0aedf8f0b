"""A lab state that forgets what every lab must say fails when it is made, not later in the
middle of a lesson."""

import pytest

from explorer.appstate.lab import LabState


def test_a_lab_state_missing_new_run_cannot_be_made():
    class Forgetful(LabState):
        def apply(self, settings):
            self.settings = settings

        def plan(self):
            return 10, 0

        def _store_plan(self, steps, seed):
            return False

    with pytest.raises(TypeError, match="new_run"):
        Forgetful()
