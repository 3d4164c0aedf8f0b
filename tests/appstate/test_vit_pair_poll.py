"""The ViT lab's pair: the ViT's run ending first must not leave the CNN's untaken. The page
polls while ``training``; on main that was the ViT's run alone, so a CNN slower than its ViT
stayed "running" at the step polled last (seen under load: the ViT done at 10, the CNN at 7)."""

from __future__ import annotations

from explorer.appstate.vit import ViTState


class FakeRun:
    """What the lab reads of a LabRun: its status, and take() folding in what arrived."""

    def __init__(self, status: str, ends_at_take: int | None = None):
        self.status, self.takes, self.ends_at_take = status, 0, ends_at_take

    @property
    def running(self) -> bool:
        return self.status == "running"

    def take(self) -> list:
        self.takes += 1
        if self.takes == self.ends_at_take:
            self.status = "done"  # the run's end, with no update beside it
        return []

    def watch(self, _target) -> None:
        pass


def test_the_pair_trains_while_the_cnn_does_and_its_end_is_news():
    lab = ViTState()
    events = []
    lab.subscribe(lambda event, _lab: events.append(event))
    lab.run, lab.cnn_run = FakeRun("done"), FakeRun("running", ends_at_take=2)
    assert lab.training  # the ViT is done, the CNN is not: the page keeps polling
    lab.poll()
    assert lab.training and lab.cnn_run.takes == 1 and "training" not in events
    lab.poll()  # the CNN's run ends: the page hears it and stops polling
    assert not lab.training and events.count("training") == 1
