import json

import pytest

from explorer.appstate.board import BOARD_PRESETS
from explorer.appstate.lines import LinesOptions
from explorer.appstate.session import (
    MAX_SESSION_BYTES,
    Session,
    SessionError,
    apply_session,
    load_session,
    save_session,
    session_of,
)
from explorer.appstate.state import CompareOptions, ExplorerState
from explorer.core.config import AttentionConfig


def test_round_trip_is_exact(tmp_path):
    session = Session(
        AttentionConfig(
            sentence="注意力 ✓ attention",
            query="who?",
            scoring="additive",
            scale="temperature",
            temperature=0.1,
            heads=4,
            attention="sample",
            mask="window:2",
            weights="random",
            d_model=32,
            seed=9,
        ),
        selected_head=3,
        selected_cell=(1, 2),
        stage="scores",
        theme="dark",
        language="zh_CN",
    )
    path = tmp_path / "lesson.json"
    save_session(path, session)
    assert load_session(path) == session
    assert [p.name for p in tmp_path.iterdir()] == ["lesson.json"], "no temporary file left behind"


@pytest.mark.parametrize(
    "content,message",
    [
        (b"", "empty"),
        (b"   \n", "empty"),
        (b"{not json", "not valid JSON"),
        (b"\xff\xfe\x00", "not valid JSON"),
        (b"[1, 2, 3]", "not an Attention Explorer session"),
        (
            json.dumps({"format": "something-else", "version": 1}).encode(),
            "not an Attention Explorer session",
        ),
        (json.dumps({"format": "attention-explorer-session", "version": 99}).encode(), "newer version"),
        (json.dumps({"format": "attention-explorer-session", "version": "1"}).encode(), "no valid version"),
        (
            json.dumps(
                {"format": "attention-explorer-session", "version": 1, "config": {"heads": -3}}
            ).encode(),
            "invalid settings",
        ),
        (
            json.dumps(
                {"format": "attention-explorer-session", "version": 1, "config": {"colour": "red"}}
            ).encode(),
            "invalid settings",
        ),
        (
            json.dumps({"format": "attention-explorer-session", "version": 1, "selected_cell": [1]}).encode(),
            "invalid settings",
        ),
    ],
)
def test_bad_files_are_refused_with_a_reason(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(SessionError, match=message):
        load_session(path)


def test_huge_and_missing_files(tmp_path):
    path = tmp_path / "huge.json"
    path.write_bytes(b" " * (MAX_SESSION_BYTES + 1))
    with pytest.raises(SessionError, match="never that large"):
        load_session(path)
    with pytest.raises(SessionError, match="missing.json: it does not exist"):
        load_session(tmp_path / "missing.json")


def test_failed_save_keeps_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "lesson.json"
    save_session(path, Session())
    before = path.read_bytes()

    def broken_fsync(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.fsync", broken_fsync)
    with pytest.raises(OSError):
        save_session(path, Session(AttentionConfig(sentence="new text")))
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["lesson.json"]


# A session saved by the explorer before format 2 (written by the code of commit 572205d).
VERSION_1 = """{
  "format": "attention-explorer-session",
  "version": 1,
  "config": {
    "sentence": "The animal didn't cross the street because it was too tired",
    "query": "",
    "scoring": "cosine",
    "scale": "temperature",
    "temperature": 0.25,
    "heads": null,
    "attention": "sample",
    "mask": "window:3",
    "weights": "pretrained",
    "layer": 2,
    "d_model": 64,
    "seed": 7,
    "device": "auto",
    "model_dir": null,
    "max_tokens": 512
  },
  "selected_head": 7,
  "selected_cell": [10, 2],
  "stage": "scores",
  "theme": "dark",
  "language": "zh_CN"
}"""


def test_version_1_files_still_open(tmp_path):
    path = tmp_path / "old.aexp.json"
    path.write_text(VERSION_1, encoding="utf-8")
    session = load_session(path)
    assert session.config.scoring == "cosine" and session.config.temperature == 0.25
    assert session.config.mask == "window:3" and session.config.layer == 2 and session.config.seed == 7
    assert (session.selected_head, session.selected_cell, session.stage) == (7, (10, 2), "scores")
    assert (session.theme, session.language) == ("dark", "zh_CN")
    # what format 1 did not hold keeps its defaults
    assert session.compare == CompareOptions() and session.tab == "pipeline" and not session.presentation
    assert session.lesson_step == 0 and session.stage_zoom is None and session.text_zoom == 0


def test_the_session_is_a_snapshot_of_the_whole_state(tmp_path):
    state = ExplorerState(AttentionConfig(sentence="the cat sat", mask="causal"))
    state.select_head(3)
    state.select_cell((1, 2))
    state.set_grid_stage("scaled")
    state.set_compare(CompareOptions.from_changes(scoring="cosine", temperature=0.1))
    state.set_theme("dark")
    state.set_language("zh_CN")
    state.set_presentation(True)
    state.set_text_zoom(2)
    state.set_stage_zoom(("weights",))
    state.set_values_on_cells(True)
    state.show_lesson(True)
    state.set_lesson_step(7)
    state.set_tab("heads")
    state.board.set_board(BOARD_PRESETS[1].board)
    state.lines.set_options(LinesOptions(pipeline=True, head_subset=(1, 3)))
    state.predict.set_enabled(True)
    state.decoding.update(heads_off=frozenset({(1, 2)}), ablation="mean", decoding="sample", top_k=5, seed=9)
    path = tmp_path / "all.aexp.json"
    save_session(path, session_of(state))
    assert json.loads(path.read_text(encoding="utf-8"))["version"] == 2
    fresh = ExplorerState(AttentionConfig(sentence="other"))
    events = []
    fresh.subscribe(lambda event, s: events.append(event))
    apply_session(fresh, load_session(path))
    saved_part = {"board": "board", "lines": "options", "predict": "enabled", "decoding": "options"}
    for attribute in vars(state):
        if not attribute.startswith("_"):
            mine, theirs = getattr(fresh, attribute), getattr(state, attribute)
            if attribute in saved_part:
                mine, theirs = getattr(mine, saved_part[attribute]), getattr(theirs, saved_part[attribute])
            assert mine == theirs, attribute
    assert {"config", "head", "cell", "stage", "compare", "theme", "language", "presentation"} <= set(events)
    assert fresh.compare_config().scoring == "cosine" and fresh.compare_config().temperature == 0.1


@pytest.mark.parametrize(
    "field_,value,message",
    [
        ("compare", {"scoring": "cosine", "colour": "red"}, "unknown compare option"),
        ("compare", {"temperature": -1}, "positive"),
        ("compare", [1], "must be an object"),
        ("presentation", "yes", "true or false"),
        ("text_zoom", 99, "whole number"),
        ("stage_zoom", ["weights", "nothing"], "pipeline panels"),
        ("lesson_step", 400, "lesson_step"),
        ("tab", 3, "tab's name"),
    ],
)
def test_bad_format_2_fields_are_refused(tmp_path, field_, value, message):
    data = json.loads(Session().to_json())
    data[field_] = value
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SessionError, match=message):
        load_session(path)
