"""Games of chance: expectiminimax against values worked out by hand and by an
independent expectimax, the players on Dice Nim, the referee's dice and replays."""

import json
import random
from fractions import Fraction
from functools import lru_cache

import pytest

import variants
from games import DiceNim, StochasticGame, referee, replay
from games.stochastic import from_json
from players import PLAYER, expect_minmax, make_alpha_beta_player, mcts_player, solve
from players.clocked import make_clocked_alpha_beta_player, make_clocked_mcts_player
from players.search.shared import clear_tables
from players.search.expectimax import search_chance
from command_line import run


class ChanceTree(StochasticGame):
    """A game tree with chance nodes, given by tables: moves[node] = {move: child},
    rolls[node] = {chance: child}, utils[leaf] = value for MAX, and who moves where."""

    players = ('MAX', 'MIN')
    odds = {'likely': 0.9, 'unlikely': 0.1}

    def __init__(self, moves, rolls, utils, min_nodes):
        self.moves, self.rolls, self.utils, self.min_nodes = moves, rolls, utils, min_nodes
        self.initial = 'A'

    def actions(self, state):
        return list(self.moves.get(state, {}))

    def result(self, state, move):
        return self.moves[state][move]

    def chances(self, state):
        return list(self.rolls[state])

    def outcome(self, state, chance):
        return self.rolls[state][chance]

    def probability(self, chance):
        return self.odds[chance]

    def is_chance_node(self, state):
        return state in self.rolls

    def terminal_test(self, state):
        return state in self.utils

    def utility(self, state, player):
        return self.utils[state] if player == 'MAX' else -self.utils[state]

    def to_move(self, state):
        return 'MIN' if state in self.min_nodes else 'MAX'


def figure_5_12(low, two, three, high, sure=None):
    """AIMA's Figure 5.12: MAX's a1 leads to a chance node with MIN nodes worth 2 (0.9)
    and 3 (0.1), a2 to MIN nodes worth 1 (0.9) and 4 (0.1), each MIN node over two
    equal leaves; the leaves' values are given. With sure, a3 wins that much at once."""
    moves = {'A': {'a1': 'C1', 'a2': 'C2'}, 'D1': {'l': 'L1', 'r': 'R1'},
             'D2': {'l': 'L2', 'r': 'R2'}, 'D3': {'l': 'L3', 'r': 'R3'},
             'D4': {'l': 'L4', 'r': 'R4'}}
    utils = dict(L1=two, R1=two, L2=three, R2=three, L3=low, R3=low, L4=high, R4=high)
    if sure is not None:
        moves['A']['a3'] = 'S'
        utils['S'] = sure
    rolls = {'C1': {'likely': 'D1', 'unlikely': 'D2'}, 'C2': {'likely': 'D3', 'unlikely': 'D4'}}
    return ChanceTree(moves, rolls, utils, {'D1', 'D2', 'D3', 'D4'})


def test_expect_minmax_on_figure_5_12():
    """By hand: a1 = 0.9 * 2 + 0.1 * 3 = 2.1 beats a2 = 0.9 * 1 + 0.1 * 4 = 1.3; with the
    leaves 1, 20, 30, 400 (the same order), a1 = 21 loses to a2 = 40.9."""
    assert expect_minmax('A', figure_5_12(1, 2, 3, 4)) == 'a1'
    assert expect_minmax('A', figure_5_12(1, 20, 30, 400)) == 'a2'


def test_expect_minmax_weighs_chance_once():
    """a3 wins 1.5 at once; a1's chance node is worth 2.1. AIMA's code divided the
    weighted sum by the number of chances again (2.1 / 2 = 1.05) and so chose a3."""
    assert expect_minmax('A', figure_5_12(1, 2, 3, 4, sure=1.5)) == 'a1'
    assert expect_minmax('A', figure_5_12(1, 2, 3, 4, sure=2.2)) == 'a3'


def test_solve_and_search_value_chance_nodes():
    game = figure_5_12(1, 2, 3, 4, sure=1.5)
    clear_tables()
    solution = solve(game, 'A')
    assert solution.move == 'a1' and solution.value == pytest.approx(2.1)
    assert solve(game, 'C2').value == pytest.approx(1.3)  # a chance node: no move
    assert solve(game, 'C2').move is None


@lru_cache(maxsize=None)
def dice_nim_value(piles: tuple, sides: int, misere: bool = False) -> Fraction:
    """The exact value of Dice Nim to the player about to roll, by expectimax over
    every roll and every take (computed here, independently of the project's search)."""
    total = Fraction(0)
    for roll in range(1, sides + 1):
        best = None
        for index, pile in enumerate(piles):
            for take in range(1, min(pile, roll) + 1):
                rest = tuple(sorted(piles[:index] + (pile - take,) + piles[index + 1:]))
                if not any(rest):
                    value = Fraction(-1 if misere else 1)
                else:
                    value = -dice_nim_value(rest, sides, misere)
                best = value if best is None else max(best, value)
        total += best
    return total / sides


def test_dice_nim_values_by_hand():
    """One pile of 2, a die of 2 faces: a 2 takes both and wins, a 1 leaves the
    opponent a pile of 1 and loses: 0. One pile of 6, a die of 3: E(1) = 1,
    E(2) = 1/3, E(3) = 1/9, E(4) = -1/9, E(5) = 1/9, E(6) = (-1/9 + 1/9 + 1/9)/3 = 1/27."""
    assert solve(DiceNim(piles=(2,), sides=2)).value == pytest.approx(0)
    assert dice_nim_value((6,), 3) == Fraction(1, 27)
    assert solve(DiceNim(piles=(6,), sides=3)).value == pytest.approx(1 / 27)


@pytest.mark.parametrize('piles, sides, misere', [
    ((2, 3), 3, False), ((1, 2, 3), 2, False), ((2, 3), 3, True), ((3, 4), 4, False)])
def test_exact_value_of_dice_nim(piles, sides, misere):
    clear_tables()
    game = DiceNim(piles=piles, sides=sides, misere=misere)
    assert solve(game).value == pytest.approx(float(dice_nim_value(piles, sides, misere)))


def test_default_variant_value():
    """The default set's chance game: exactly 5/9 for the first player (the seats
    swap within a tournament's pair, so the first move's edge evens out)."""
    game = variants.make('dice-nim')
    assert dice_nim_value(tuple(sorted(game.piles)), game.sides) == Fraction(5, 9)
    assert solve(game).value == pytest.approx(5 / 9)


def test_perfect_minimax_and_expect_minmax_agree():
    game = DiceNim(piles=(2, 3), sides=3)
    for roll in game.chances(game.initial):
        state = game.outcome(game.initial, roll)
        best = max(-float(dice_nim_value(tuple(sorted(game.result(state, move).board)), 3))
                   if any(game.result(state, move).board) else 1 for move in state.moves)
        for move in (expect_minmax(state, game), PLAYER['perfect'](game, state),
                     PLAYER['minimax'](game, state)):
            child = game.result(state, move)
            value = 1 if not any(child.board) else -float(
                dice_nim_value(tuple(sorted(child.board)), 3))
            assert value == pytest.approx(best)


def reference_value(game, state, depth, player, score):
    """Depth-limited expectiminimax as docs/players.md defines abN's: depth counts moves,
    chance nodes are averaged and cost nothing; cut-off states are scored by score."""
    if game.terminal_test(state):
        return game.utility(state, player)
    if game.is_chance_node(state):
        return sum(game.probability(chance)
                   * reference_value(game, game.outcome(state, chance), depth, player, score)
                   for chance in game.chances(state))
    if depth == 0:
        return score(game, state, player)
    values = [reference_value(game, game.result(state, move), depth - 1, player, score)
              for move in game.actions(state)]
    return max(values) if game.to_move(state) == player else min(values)


@pytest.mark.parametrize('depth', [1, 2, 3])
def test_ab_n_is_depth_limited_expectiminimax(depth):
    def counters_left(game, state, player):  # a made-up evaluation, so that cut-offs matter
        return (sum(state.board) % 3 - 1) / 10 * (1 if state.to_move == player else -1)

    game = DiceNim(piles=(3, 4), sides=3)
    player = make_alpha_beta_player(depth, eval_fn=counters_left)
    rng = random.Random(depth)
    state = game.initial
    while not game.terminal_test(state):
        state = game.outcome(state, game.roll(state, rng))
        me = state.to_move
        values = [reference_value(game, game.result(state, move), depth - 1, me, counters_left)
                  for move in state.moves]
        assert player(game, state) == state.moves[values.index(max(values))]
        state = game.result(state, rng.choice(state.moves))


def test_search_refuses_a_bad_depth():
    with pytest.raises(ValueError):
        search_chance(DiceNim(), DiceNim().initial, 0)


def test_every_registered_player_plays_dice_nim_legally():
    game = variants.make('dice-nim')
    chosen = {name: PLAYER[name] for name in PLAYER if name != 'human'}
    chosen.update({'ab-clock': make_clocked_alpha_beta_player(seconds=0.02),  # not 1 s a move
                   'mcts-clock': make_clocked_mcts_player(seconds=0.02)})
    names = list(chosen)
    for first, second in zip(names, names[1:] + names[:1]):
        random.seed(first)
        record = referee.play(game, [chosen[first], chosen[second]], rng=random.Random(first))
        assert record.offender is None and record.termination == referee.NORMAL


def test_mcts_plays_chance_games_repeatably():
    game = DiceNim(piles=(3, 4), sides=3)
    state = game.outcome(game.initial, 2)
    moves = []
    for _ in range(2):
        random.seed(5)
        moves.append(mcts_player(game, state))
    assert moves[0] == moves[1] and moves[0] in state.moves


def test_the_referee_rolls_records_and_replays():
    game = variants.make('dice-nim')
    players = [PLAYER['random'], PLAYER['ab2']]
    seen = []
    random.seed(1)
    record = referee.play(game, players, rng=random.Random(7),
                          on_chance=lambda state, chance, new: seen.append(chance))
    random.seed(1)
    again = referee.play(game, players, rng=random.Random(7))
    assert record.rolls == seen == again.rolls and record.moves == again.moves
    assert len(record.rolls) == len(record.moves)  # a roll before every move
    data = json.loads(json.dumps({'moves': record.moves, 'rolls': record.rolls}))
    assert replay(game, data['moves'], data['rolls']) == record.final_state


def test_a_pair_with_seats_swapped_sees_the_same_dice():
    game = variants.make('dice-nim')
    one = referee.play(game, [PLAYER['ab1'], PLAYER['ab3']], rng=random.Random(3))
    other = referee.play(game, [PLAYER['ab3'], PLAYER['ab1']], rng=random.Random(3))
    assert one.rolls[0] == other.rolls[0]
    same_length = min(len(one.rolls), len(other.rolls))
    assert one.rolls[:same_length] == other.rolls[:same_length]


def test_replay_refuses_a_broken_record():
    game = DiceNim(piles=(2, 3), sides=3)
    with pytest.raises(ValueError):
        replay(game, [[1, 1]], [])  # no roll before the move
    with pytest.raises(ValueError):
        replay(game, [], [4])  # a die of 3 faces
    with pytest.raises(ValueError):
        replay(game, [[2, 3]], [2])  # the roll of 2 cannot take 3


def test_from_json_makes_tuples_at_every_depth():
    assert from_json([[24, 18], [13, 11]]) == ((24, 18), (13, 11))
    assert from_json('a1') == 'a1' and from_json(3) == 3


def test_aima_play_game_rolls_for_the_players():
    random.seed(2)
    assert DiceNim().play_game(PLAYER['random'], rng=random.Random(2)) in (1, -1)
    assert DiceNim().play_game(PLAYER['ab2'], PLAYER['random']) in (1, -1)


def test_dice_nim_rules():
    game = DiceNim(piles=(2, 3), sides=3)
    assert game.is_chance_node(game.initial) and game.actions(game.initial) == ()
    state = game.outcome(game.initial, 2)
    assert state.moves == ((1, 1), (1, 2), (2, 1), (2, 2))
    with pytest.raises(ValueError):
        game.result(state, (2, 3))
    with pytest.raises(ValueError):
        game.result(game.initial, (1, 1))
    end = game.result(game.outcome(game.result(state, (1, 2)), 3), (2, 3))
    assert game.terminal_test(end) and game.utility(end, 'P2') == 1
    assert repr(game) == 'dicenim(piles=(2, 3), sides=3)'
    for bad in (dict(piles=()), dict(sides=0), dict(piles=(-1,))):
        with pytest.raises(ValueError):
            DiceNim(**bad)


def test_play_shows_the_dice_and_tree_refuses_chance():
    done = run('play', 'dice-nim', 'ab1', 'ab2')
    assert done.returncode == 0 and 'ab1 (P1) rolled ' in done.stdout and 'wins.' in done.stdout
    refused = run('tree', 'dice-nim')
    assert refused.returncode == 2 and 'game of chance' in refused.stderr
