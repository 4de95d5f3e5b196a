"""The jail levels' registry: what a user may ask for, and what 'auto' and a named
level come to on this machine."""

import pytest

from players.sandbox import levels


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
    assert levels.choices() == ('auto', 'bwrap', 'process')


def test_auto_is_the_strongest_level_that_works_here(unworkable):
    assert levels.choices()[1] == 'vault'
    expected = 'bwrap' if levels.bwrap_problem() is None else 'process'
    assert levels.resolve('auto') == expected


def test_a_level_that_cannot_jail_here_or_no_level_at_all_is_refused_saying_why(unworkable):
    with pytest.raises(ValueError, match='--sandbox vault: no vault here'):
        levels.resolve('vault')
    with pytest.raises(ValueError, match="unknown sandbox 'cage'; choose one of auto, vault"):
        levels.resolve('cage')
    assert levels.resolve('process') == 'process'
