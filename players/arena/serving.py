"""The jail's side of playing: serve a player's seat, answering the trusted side's
requests (see players.arena.jailed_player for the protocol). It runs only inside
a jail, and imports nothing of the trusted side: only the rules, and plain JSON."""

from __future__ import annotations

import copy
import importlib
import os
import random
import time
from typing import Any

from games import clock, referee, sources
from games.base import Game
from games.stochastic import from_json
from .plain_json import canonical, key, to_plain


def serve(channel) -> None:
    """Play one seat of a game in a jail: at each setup, load the player and the
    game, then answer each request with the player's move, until the trusted side
    goes (or sends the setup of the next game, for a shipped player)."""
    games: dict = {}
    while True:
        try:
            message = channel.receive()
        except EOFError:
            return
        if 'setup' in message:
            setup = message['setup']
            code = setup['player']
            random.seed(setup['seed'])
            try:
                if setup['game'] not in games:
                    games[setup['game']] = imported(setup['make_game'])(setup['game'])
                game = games[setup['game']]
                state = replay_history(game, game.initial, setup['history'])
                player = load(code, setup['load_player'])
            except BaseException as error:  # whatever the player's file does as it loads
                channel.send({'error': f'cannot load player: {where(error, code["filename"])}'})
                return
            channel.send({'ready': True})
            continue
        state, answer = answer_move(player, game, state, message, code['filename'])
        channel.send(answer)


def answer_move(player, game: Game, state, request: dict, filename: str) -> tuple[Any, dict]:
    """In a jail: answer one move request (see the protocol), starting the player's
    clock, and return the new state and the answer to send."""
    limit = request['time']
    clock.set_current(clock.MoveClock(None if limit is None else time.monotonic() + limit,
                                      request['clock'], request['increment']))
    return _answer(player, game, state, request['history'], filename)


def _answer(player, game: Game, state, history: list, filename: str) -> tuple[Any, dict]:
    """Follow the history, ask the player for its move on private copies of the
    game and the state, and return the new state and the answer message."""
    try:
        state = replay_history(game, state, history)
        move = to_plain(player(copy.deepcopy(game), copy.deepcopy(state)))
        nodes = referee.reported_nodes(getattr(player, 'stats', None))
        return state, {'move': move, 'stats': {} if nodes is None else {'nodes': nodes}}
    except BaseException as error:  # the player's fault, reported as its error
        return state, {'error': where(error, filename)[:referee.DETAIL_LIMIT]}


def replay_history(game: Game, state, history: list):
    """Return the state after a history of events (['move', move] or ['chance',
    outcome], as plain data), each move played as the game's own move."""
    for kind, plain in history:
        if kind == 'move':
            moves = {key(move): move for move in game.actions(state)}
            state = game.result(state, moves[canonical(plain)])
        else:
            state = game.outcome(state, from_json(plain))
    return state


def load(code: dict, load_player: str):
    """Return the player function of a player's code (the fields of a PlayerCode):
    a registry player loaded by load_player ('module:function'), or the function
    of a file's source, run as a module of its own."""
    if code['source'] is None:
        return imported(load_player)(code['spec'])
    name = 'player_file_' + os.path.splitext(code['filename'])[0]
    module = sources.run_source(code['source'], code['filename'], name)
    player = getattr(module, code['function'], None)
    if not callable(player):
        raise LookupError(f'{code["filename"]} has no player function {code["function"]!r}')
    return player


def imported(path: str):
    """Return the object of a 'module:name' path, importing the module."""
    module, name = path.split(':')
    return getattr(importlib.import_module(module), name)


def where(error: BaseException, filename: str) -> str:
    """Return 'Type: message (file, line N)' for an exception, naming the last line
    of the player's own file that it passed through."""
    text = referee.describe(error)
    found = sources.places(error, filename)
    return f'{text} ({filename}, line {found[-1][1]})' if found else text
