"""A run's settings: one typed record, kept as JSON in the results file; a file
written before a setting existed reads as before and is written back as it was."""

import dataclasses
import json
import sqlite3

import pytest

from players.tournaments.match import Rules
from players.tournaments.run_settings import RunSettings, SettingsError
from players.tournaments.store import Store, StoreError

STORED = {'players': ['random', 'ab1'], 'specs': {'random': 'random', 'ab1': 'ab1'},
          'variants': ['nim'], 'games': 2, 'seed': 1, 'gauntlet': None, 'openings': 0,
          'move_timeout': 10.0, 'max_plies': None, 'clock': [60, 0.5], 'sandbox': 'bwrap',
          'memory_mb': 2048, 'allow': ['numpy'], 'support': ['utils.py'], 'broken': {},
          'digests': {'random': 'f5f2358111f458cd', 'ab1': '037cf8dbf249d684'},
          'game_files': {}}
"""Settings as the current code stores them."""


def test_settings_are_written_back_as_they_were_read():
    settings = RunSettings.from_json(STORED)
    assert settings.players == ('random', 'ab1') and settings.clock == (60, 0.5)
    assert json.dumps(settings.to_json()) == json.dumps(STORED)


def test_settings_of_an_older_file_read_as_defaults_and_are_written_back_without_them():
    old = {key: value for key, value in STORED.items()
           if key not in ('sandbox', 'support', 'broken', 'digests', 'game_files')}
    old['added_later'] = [1, 2]
    settings = RunSettings.from_json(old)
    assert settings.sandbox is None and settings.support == () and settings.digests == {}
    assert json.dumps(settings.to_json()) == json.dumps(old)


def test_settings_that_are_not_a_runs_are_refused():
    with pytest.raises(SettingsError, match="no 'seed'"):
        RunSettings.from_json({key: value for key, value in STORED.items() if key != 'seed'})
    with pytest.raises(SettingsError, match="'games'"):
        RunSettings.from_json({**STORED, 'games': 'two'})
    with pytest.raises(SettingsError):
        RunSettings.from_json([])


def test_the_settings_hold_every_rule():
    names = [setting.name for setting in dataclasses.fields(RunSettings)]
    rules = [setting.name for setting in dataclasses.fields(Rules)]
    assert names[names.index(rules[0]):][:len(rules)] == rules  # in the order they are stored


def test_a_results_file_keeps_the_settings_as_json(tmp_path):
    path = str(tmp_path / 'run.sqlite')
    Store(path, RunSettings.from_json(STORED)).close()
    with sqlite3.connect(path) as connection:
        assert connection.execute('SELECT json FROM settings').fetchone()[0] == json.dumps(STORED)
    with Store.read(path) as store:
        assert store.settings == RunSettings.from_json(STORED)
    with sqlite3.connect(path) as connection:
        connection.execute('UPDATE settings SET json = ?', (json.dumps({'games': 1}),))
    with pytest.raises(StoreError, match="not a tournament results file .*'players'"):
        Store.read(path)
