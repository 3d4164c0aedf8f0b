import json

import pytest

from explorer.appstate.session import MAX_SESSION_BYTES, Session, SessionError, load_session, save_session
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
    with pytest.raises(SessionError, match="cannot read"):
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
