"""The jail levels' registry, and the choice among them: what a user may ask for,
and what 'auto' and a named level come to on this machine."""

import pytest

from players.sandbox import level_choice, levels


@pytest.fixture
def unworkable():
    """A level, stronger than every other, that cannot jail on this machine."""
    bwrap = levels.LEVELS['bwrap']
    level = levels.register(levels.Level('vault', lambda: 'vault (everything)',
                                         lambda: 'no vault here', bwrap.server_command,
                                         bwrap.program_command, own_folder=False,
                                         confinement=bwrap.confinement))
    yield level
    del levels.LEVELS[level.name]


def test_a_user_may_ask_for_auto_or_each_level_strongest_first():
    assert level_choice.choices() == ('auto', 'bwrap', 'process')


def test_auto_is_the_strongest_level_that_works_here(unworkable):
    assert level_choice.choices()[1] == 'vault'
    expected = 'bwrap' if level_choice.problem('bwrap') is None else 'process'
    assert level_choice.resolve('auto') == expected


def test_a_level_that_cannot_jail_here_or_no_level_at_all_is_refused_saying_why(unworkable):
    with pytest.raises(ValueError, match='--sandbox vault: no vault here'):
        level_choice.resolve('vault')
    with pytest.raises(ValueError, match="unknown sandbox 'cage'; choose one of auto, vault"):
        level_choice.resolve('cage')
    assert level_choice.resolve('process') == 'process'


def test_a_level_that_must_be_tried_is_tried_by_starting_a_jail_at_it(monkeypatch):
    tried = []
    monkeypatch.setattr(level_choice, '_tried', lambda name: tried.append(name) or 'refused')
    if levels.LEVELS['bwrap'].problem() is None:
        assert level_choice.problem('bwrap') == 'refused'
        assert tried == ['bwrap']
    assert level_choice.problem('process') is None
    assert tried in ([], ['bwrap'])
