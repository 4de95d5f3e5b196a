"""Game-tree drawings: Figure 5.5's pruning, the textbook's states, positions, the tree command."""

import re
import shlex
import shutil

import pytest

import variants
from games import Nim
from games.tree import Fig52Game
from players import textbook
from players.grading import treedraw
from players.grading.cases import TIE
from players.grading.jailed.counting import counting
from command_line import run


def nodes_and_edges(dot):
    """{node id: label} and [(from, to, label, attributes)] of a DOT text."""
    nodes = dict(re.findall(r'^  (n\d+) \[label="([^"]*)"', dot, re.M))
    edges = re.findall(r'^  (n\d+) -> (n\d+) \[label="([^"]*)"(.*)\];', dot, re.M)
    return nodes, edges


def test_figure_5_5_prunes_c2_and_c3():
    game = Fig52Game()
    dot = treedraw.to_dot(game, treedraw.search_tree(game, game.initial, 'alphabeta'))
    nodes, edges = nodes_and_edges(dot)
    pruned = sorted(label for _, to, label, _ in edges if nodes[to] == 'pruned')
    assert pruned == ['c2', 'c3']
    assert all('color=grey' in style for _, to, _, style in edges if nodes[to] == 'pruned')
    labels = set(nodes.values())
    assert {r'A\n3', r'B\n3', r'C\n≤ 2', r'D\n2', r'C1\n2', r'D3\n2'} <= labels
    assert not {label for label in labels if label.startswith(('C2', 'C3'))}
    [chosen] = [(nodes[to], label) for _, to, label, style in edges if 'color=red' in style]
    assert chosen == (r'B\n3', 'a1')
    assert re.search(r'\[label="A\\n3", shape=triangle\]', dot)
    assert re.search(r'\[label="B\\n3", shape=invtriangle', dot)


def test_minimax_draws_every_node():
    game = Fig52Game()
    nodes, _ = nodes_and_edges(treedraw.to_dot(game, treedraw.search_tree(game, game.initial,
                                                                          'minimax')))
    assert len(nodes) == 13 and 'pruned' not in nodes.values()


@pytest.mark.parametrize('variant, position, depth', [
    ('fig52', None, None), ('nim', '1 2 2', None), ('misere-nim', '2 2 1', None),
    ('split-nim', '7', None), ('tictactoe', '2 2; 1 1; 1 3; 3 1', None), ('tictactoe', '2 2', 2)])
def test_drawn_tree_is_the_textbooks_search(variant, position, depth):
    """The states drawn are exactly those the textbook's search generates, in order."""
    game = variants.make(variant)
    state = treedraw.start_position(game, position)
    made = []
    proxy = counting(game, lambda state, move, new_state: made.append(new_state))
    if depth is None:
        move = textbook.alpha_beta_search(state, proxy)
    else:
        player = game.to_move(state)  # the drawing scores cut-off states with evaluate

        def score(s):
            return game.utility(s, player) if game.terminal_test(s) else game.evaluate(s, player)
        move = textbook.alpha_beta_cutoff_search(state, proxy, d=depth - 1, eval_fn=score)
    root = treedraw.search_tree(game, state, 'alphabeta', depth)
    assert treedraw.generated(root) == made and root.chosen.move == move


def test_positions():
    nim = Nim(piles=(3, 4, 5), misere=True)
    assert treedraw.start_position(nim, '1 2 3').board == (1, 2, 3)
    assert treedraw.start_position(nim, None) == nim.initial
    ttt = variants.make('tictactoe')
    state = treedraw.start_position(ttt, '2 2; 1 1')
    assert dict(state.board) == {(2, 2): 'X', (1, 1): 'O'} and state.to_move == 'X'
    assert treedraw.start_position(Fig52Game(), 'a2').board == 'C'
    for game, spec in ((nim, 'x'), (nim, '-1'), (ttt, '2 2; 2 2'), (ttt, 'hello')):
        with pytest.raises(ValueError):
            treedraw.start_position(game, spec)


def test_no_moves_after_the_game_is_over():
    # X has three in the first column after five moves; a sixth used to be played on.
    ttt = variants.make('tictactoe')
    won = '1 1; 2 1; 1 2; 2 2; 1 3'
    assert ttt.terminal_test(treedraw.start_position(ttt, won))
    with pytest.raises(ValueError, match="the game is over before '3 3'"):
        treedraw.start_position(ttt, won + '; 3 3')


def test_a_huge_pile_is_refused_at_once():
    # Nim's actions list every take: a pile of 10**20 used to hang the tree command.
    with pytest.raises(ValueError, match='too many moves to draw'):
        treedraw.start_position(Nim(), str(10 ** 20))


def test_pruned_stubs_count_towards_the_limit():
    # The tie tree draws 10 nodes: A, B, B1, B2, C, C1, a stub for C2, D, D1, a stub for D2.
    game = TIE
    with pytest.raises(treedraw.TreeTooLarge):
        treedraw.search_tree(game, game.initial, 'alphabeta', limit=9)
    root = treedraw.search_tree(game, game.initial, 'alphabeta', limit=10)
    assert len(treedraw.generated(root)) == 7


def test_rendering_into_a_missing_folder_is_refused(tmp_path):
    for name in ('tree.dot', 'tree.svg'):
        with pytest.raises(ValueError, match='no such folder'):
            treedraw.render('digraph tree {}\n', str(tmp_path / 'none' / name))


def test_the_deepest_tree_that_fits_is_found():
    game = variants.make('tictactoe')
    with pytest.raises(treedraw.TreeTooLarge, match='the tree to the end has more than 400'):
        treedraw.search_tree(game, game.initial)
    plies, root = treedraw.deepest_tree(game, game.initial)
    assert root.children and treedraw.deepest_tree(game, game.initial, most=plies - 1)[0] < plies
    with pytest.raises(treedraw.TreeTooLarge, match=f'the tree {plies + 1} plies deep has'):
        treedraw.search_tree(game, game.initial, depth=plies + 1)
    assert treedraw.deepest_tree(Nim(piles=(300, 200)), Nim(piles=(300, 200)).initial) is None


def command_in(message):
    """The arguments of the command a message ends with, after python tournament.py."""
    words = shlex.split(message.split(': ', 2)[-1].split(': python ')[-1])
    assert words[0] == 'tournament.py', message
    return words[1:]


def test_a_position_the_grader_names_is_drawn_as_deep_as_fits():
    """The course kit's command draws: a tree too large to draw whole is drawn as deep
    as fits, saying so, and a tree that cannot be drawn says a command that draws one."""
    done = run('tree', 'tictactoe', '--position', '3 1; 3 2; 2 3')
    assert done.returncode == 0 and done.stdout.startswith('digraph tree {')
    assert 'from 3 1; 3 2; 2 3: alphabeta 4 plies' in done.stdout
    assert done.stderr == ('Note: the whole tree has more than 400 nodes: drawn 4 plies deep, '
                           'as deep as fits (--depth D chooses)\n')
    for args in (['tictactoe', '--position', '3 1; 3 2; 2 3', '--depth', '6'],
                 ['nim', '--position', '210 200']):  # 11 moves from one that fits
        refused = run('tree', *args)
        assert refused.returncode == 2 and not refused.stdout
        drawn = run(*command_in(refused.stderr.strip()))
        assert drawn.returncode == 0 and drawn.stdout.startswith('digraph tree {'), drawn.stderr


def test_tree_command(tmp_path):
    result = run('tree', 'fig52')
    assert result.returncode == 0 and result.stdout.startswith('digraph tree {')
    out = tmp_path / 'tree.dot'
    result = run('tree', 'nim', '--position', '1 2', '--algorithm', 'minimax', '--out', str(out))
    assert result.returncode == 0 and out.read_text().startswith('digraph tree {')


@pytest.mark.parametrize('args, error', [
    (['tree', 'tictactoe', '--depth', '9'], "too many to draw; this draws it 3 plies deep: "
                                             'python tournament.py tree tictactoe --depth 3'),
    (['tree', 'nim', '--position', 'one two'], 'pile sizes'),
    (['tree', 'fig52', '--algorithm', 'bfs'], 'invalid choice'),
    (['tree', 'fig52', '--depth', '0'], 'expected at least 1'),
    (['tree', 'fig52', '--out', 'tree.txt'], 'must end in .dot'),
    (['tree', 'nosuchgame'], 'unknown variant'),
])
def test_tree_usage_errors(args, error):
    result = run(*args)
    assert result.returncode == 2 and error in result.stderr and not result.stdout
    assert len(result.stderr.strip().splitlines()) == 1


def test_rendering_without_graphviz_writes_nothing(tmp_path, monkeypatch):
    out = tmp_path / 'tree.svg'
    monkeypatch.setenv('PATH', str(tmp_path))
    result = run('tree', 'fig52', '--out', str(out))
    assert result.returncode == 2 and 'Graphviz is not installed' in result.stderr
    assert not out.exists()


@pytest.mark.skipif(shutil.which('dot') is None, reason='Graphviz is not installed')
def test_rendering_with_graphviz(tmp_path):
    out = tmp_path / 'tree.svg'
    result = run('tree', 'fig52', '--out', str(out))
    assert result.returncode == 0 and '<svg' in out.read_text()
