"""A D the tab showed a moment ago is answered from the last comparisons (equal requests give
equal traces), and a comparison a newer request replaced stops before it decodes."""

from explorer.appstate import local_window
from explorer.appstate.local_window import COMPUTED, LocalWindowState


def test_a_request_seen_before_is_not_decoded_again_and_a_replaced_one_stops(monkeypatch):
    calls = []
    real = local_window.compare_windows

    def counted(*args, **kwargs):
        calls.append(args[3])  # the D
        return real(*args, **kwargs)

    monkeypatch.setattr(local_window, "compare_windows", counted)
    COMPUTED.clear()
    lab = LocalWindowState()
    first = lab.request().compute()
    lab.set_window(5)
    fifth = lab.request().compute((lab.request(), first))
    lab.set_window(3)
    again = lab.request().compute()
    assert again is first and calls == [3, 5]  # D = 3 came back from the cache
    assert fifth.global_ is not None and fifth.local.half_width == 5
    lab.set_window(6)
    assert lab.request().compute(None, lambda: True) is None  # replaced: nothing decoded or kept
    assert calls == [3, 5] and COMPUTED.get(lab.request()) is None
    lab.set_task("reorder-zh")
    assert lab.request().compute().local.task == "reorder-zh" and calls[-1] == 6
