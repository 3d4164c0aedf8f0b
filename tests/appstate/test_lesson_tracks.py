"""The lesson's tracks and stable step ids: walking one track, jumping by id, sessions that
save the id (and old ones that saved a number), and --step by number or id."""

from __future__ import annotations

import json
import re

import pytest

from explorer.appstate.lesson import ALL_TRACKS, STEPS, TRACKS, step_index, track_ids, track_of, track_range
from explorer.appstate.lesson_step import Step, Track
from explorer.appstate.session import Session, apply_session, load_session, save_session, session_of
from explorer.appstate.state import ExplorerState

ID = re.compile(r"^[a-z][a-z0-9_-]*\.[A-Za-z0-9_]+$")


def test_every_step_has_a_stable_id_of_its_track():
    ids = [step.id for step in STEPS]
    assert len(set(ids)) == len(STEPS) == sum(len(t.steps) for t in TRACKS)
    for track in TRACKS:
        for step in track.steps:
            assert ID.match(step.id) and step.id.startswith(track.id + "."), step.id
    assert track_ids() == (ALL_TRACKS, "attention", "translation", "vision", "lm", "local", "vit", "decoder")
    # the shipped ids sessions already name: never renamed
    for known in (
        "attention.tokens",
        "attention.scores",
        "attention.weights",
        "translation.learn",
        "vision.train",
        "lm.induction",
        "local.global",
        "local.train",
        "vit.rollout",
    ):
        assert STEPS[step_index(known)].id == known


def test_tracks_lay_the_steps_out_in_teaching_order():
    walked = [STEPS[i] for track in TRACKS for i in track_range(track.id)]
    assert walked == list(STEPS) and list(track_range(ALL_TRACKS)) == list(range(len(STEPS)))
    for track in TRACKS:
        assert [STEPS[i] for i in track_range(track.id)] == list(track.steps)
        assert {track_of(i) for i in track_range(track.id)} == {track.id}
    assert STEPS[track_range("translation")[0]].tab == "why_attention"  # one fixed C, then attention
    with pytest.raises(KeyError):
        track_range("nothing")


def test_a_track_refuses_a_step_without_its_id():
    step = Step("X", "t", "f", "e", id="attention.X2")
    with pytest.raises(ValueError, match="mine.<name>"):
        Track("mine", "Mine", (step,))
    with pytest.raises(ValueError, match="no steps"):
        Track("mine", "Mine", ())
    assert Track("mine", "Mine", (Step("X", "t", "f", "e", id="mine.x"),)).steps[0].id == "mine.x"


def test_walking_one_track_stays_in_it():
    state = ExplorerState()
    events = []
    state.subscribe(lambda event, s: events.append((s.lesson_track, s.lesson_step)), ("lesson",))
    state.set_lesson_track("translation")
    first, *_, last = track_range("translation")
    assert (
        state.lesson_step == first and state.tab == "why_attention" and events[-1] == ("translation", first)
    )
    state.step_lesson(-1)  # the track's first step: ← stays
    assert state.lesson_step == first and state.lesson_track == "translation"
    for _ in range(len(track_range("translation")) + 3):
        state.step_lesson(+1)
    assert state.lesson_step == last and state.lesson_track == "translation"  # → stops at its end
    state.set_lesson_track(ALL_TRACKS)  # every track: the step stays where it is
    assert state.lesson_step == last and events[-1] == (ALL_TRACKS, last)
    state.step_lesson(+1)
    assert state.lesson_step == last + 1 and state.tab == "vision"


def test_a_step_by_id_or_of_another_track_moves_the_track():
    state = ExplorerState()
    state.set_lesson_track("attention")
    state.set_lesson_step("vision.squeeze")
    assert (
        state.lesson_step_id == "vision.squeeze" and state.lesson_track == "vision" and state.tab == "vision"
    )
    state.set_lesson_step(0)
    assert state.lesson_track == "attention" and state.lesson_step_id == "attention.tokens"
    with pytest.raises(KeyError):
        state.set_lesson_step("attention.nothing")
    with pytest.raises(ValueError):
        state.set_lesson_track("nothing")


def test_a_session_saves_the_step_id_and_the_track(tmp_path):
    state = ExplorerState()
    state.set_lesson_track("translation")
    state.set_lesson_step("translation.context")
    path = tmp_path / "lesson.aexp.json"
    save_session(path, session_of(state))
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["lesson_step_id"] == "translation.context" and data["lesson_track"] == "translation"
    assert "lesson_step" not in data  # a number would point elsewhere once steps are added
    again = ExplorerState()
    apply_session(again, load_session(path))
    assert (again.lesson_track, again.lesson_step_id) == ("translation", "translation.context")


def _session_file(tmp_path, **fields) -> object:
    data = json.loads(Session().to_json())
    data.pop("lesson_step_id")
    data.pop("lesson_track")
    data.update(fields)
    path = tmp_path / "old.aexp.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_an_old_session_with_a_step_number_still_opens(tmp_path):
    session = load_session(_session_file(tmp_path, lesson_step=7))
    state = ExplorerState()
    apply_session(state, session)
    assert state.lesson_step == 7 and state.lesson_step_id == STEPS[7].id and state.lesson_track == ALL_TRACKS


def test_a_step_or_track_since_removed_starts_afresh(tmp_path):
    session = load_session(_session_file(tmp_path, lesson_step_id="attention.gone", lesson_track="gone"))
    assert session.lesson_step == 0 and session.lesson_track == ALL_TRACKS
    # the id wins over a number written beside it
    session = load_session(_session_file(tmp_path, lesson_step=3, lesson_step_id="vision.train"))
    assert session.lesson_step == step_index("vision.train")


def test_step_option_takes_a_number_or_an_id_of_the_track(capsys):
    """--track vision --step 9 is the vision track's ninth step, as its lesson column counts
    (it opened the attention track's ninth); an id works too, and must be the track's."""
    from explorer.app import _lesson_step, build_parser

    parser = build_parser()

    def step(*argv: str) -> int | None:
        return _lesson_step(parser.parse_args(list(argv)))

    assert step("--step", "1") == 0 and step() is None
    assert step("--step", "attention.scores") == step_index("attention.scores")
    assert parser.parse_args(["--track", "vision"]).track == "vision"
    vision = track_range("vision")
    assert step("--track", "vision", "--step", "9") == vision[8] and STEPS[vision[8]].id.startswith("vision.")
    assert step("--track", "vision", "--step", "vision.train") == step_index("vision.train")
    assert step("--track", "all", "--step", "vision.train") == step_index("vision.train")
    bad_ones = [
        ("--step", "0"),
        ("--step", str(len(STEPS) + 1)),
        ("--step", "attention.nothing"),
        ("--step", " "),
        ("--track", "vision", "--step", str(len(vision) + 1)),
        ("--track", "vision", "--step", "attention.scores"),
        ("--track", "nowhere", "--step", "1"),
    ]
    for bad in bad_ones:
        capsys.readouterr()
        with pytest.raises(SystemExit) as exit_info:
            step(*bad)
        assert exit_info.value.code == 2
        said = capsys.readouterr().err
        assert said.startswith("error: ") and said.count("\n") == 1, (bad, said)
    capsys.readouterr()
    with pytest.raises(SystemExit):
        step("--track", "vision", "--step", "attention.scores")
    assert "attention track, not of the vision track" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        step("--track", "vision", "--step", "99")
    assert f"the vision track has steps 1 to {len(vision)}" in capsys.readouterr().err
