import json

import pytest

from villa.app.settings import Settings, load_settings, save_settings, settings_path


@pytest.fixture(autouse=True)
def villa_home(tmp_path, monkeypatch):
    monkeypatch.setenv("VILLA_HOME", str(tmp_path))
    return tmp_path


def test_defaults_when_nothing_saved():
    assert load_settings() == Settings()


def test_settings_persist_between_runs():
    chosen = Settings(graphics_quality="high", mouse_sensitivity=1.5, invert_camera=True, language="de", volume=0.3)
    save_settings(chosen)
    assert load_settings() == chosen
    assert json.loads(settings_path().read_text())["version"] == 1


def test_out_of_range_values_are_clamped():
    save_settings(Settings(mouse_sensitivity=10, volume=-1))
    loaded = load_settings()
    assert loaded.mouse_sensitivity == 3.0 and loaded.volume == 0.0


@pytest.mark.parametrize("content", ["{not json", '{"version": 99}', '{"version": 1, "language": "klingon"}', "[]"])
def test_a_broken_file_is_kept_aside_and_defaults_used(content):
    settings_path().parent.mkdir(parents=True, exist_ok=True)
    settings_path().write_text(content)
    assert load_settings() == Settings()
    assert settings_path().with_name("settings.json.broken").read_text() == content


def test_unknown_keys_from_a_newer_build_are_ignored():
    settings_path().parent.mkdir(parents=True, exist_ok=True)
    settings_path().write_text('{"version": 1, "volume": 0.5, "fancy": true}')
    assert load_settings().volume == 0.5
