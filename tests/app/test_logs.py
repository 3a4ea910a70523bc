import pytest

from villa.app.logs import PlayerError, log_path, run_guarded


@pytest.fixture(autouse=True)
def villa_home(tmp_path, monkeypatch):
    monkeypatch.setenv("VILLA_HOME", str(tmp_path))


def test_a_player_error_is_one_clear_line(capsys):
    def entry():
        raise PlayerError("the save file game.json is not a Villa Paletti save")
    assert run_guarded(entry) == 2
    err = capsys.readouterr().err
    assert err.strip() == "villa-paletti: the save file game.json is not a Villa Paletti save"


def test_an_unexpected_failure_goes_to_the_log_not_the_screen(capsys):
    def entry():
        raise RuntimeError("boom")
    assert run_guarded(entry) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and str(log_path()) in err
    assert "RuntimeError: boom" in log_path().read_text()
