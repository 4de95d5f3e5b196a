"""The games specs can name and their named variants: one register_game line a game
(see "Add a game" in docs/extending.md). The order of the lines is the order tables list
the variants in."""

from games import Breakthrough, DiceNim, GrundysGame, Hex, Kalah, Nim, Othello
from games.backgammon import Backgammon
from games.grid import ConnectFour, Gomoku, TicTacToe
from games.tree import Fig52Game

from .registry import Variant, register_game

register_game(
    Nim,
    Variant('simple-nim', 'nim(piles=(12,), misere=True, max_take=3)',
            'Simple-Nim: one pile of 12, take 1 to 3, who takes the last counter loses'),
    Variant('nim', 'nim(piles=(3, 4, 5))',
            'Nim on piles 3, 4, 5, normal play: who takes the last counter wins'),
    Variant('misere-nim', 'nim(piles=(3, 4, 5), misere=True)',
            'Misère Nim on piles 3, 4, 5: who takes the last counter loses'),
    Variant('nim-limit', 'nim(piles=(3, 4, 5), max_take=3)',
            'Nim on piles 3, 4, 5, taking at most 3 at a time, normal play'))
register_game(GrundysGame, Variant(
    'split-nim', 'grundy(pile=7)',
    "Grundy's game: split a pile of 7 into unequal piles; who cannot move loses"),
    aliases=('split', 'grundys'))
register_game(TicTacToe, Variant('tictactoe', 'tictactoe(h=3, v=3, k=3)', 'Tic-tac-toe on 3 x 3'),
              aliases=('ttt',))
register_game(DiceNim, Variant(
    'dice-nim', 'dicenim(piles=(2, 3), sides=3)',
    'Dice Nim on piles 2, 3: roll a die of 3 faces, take 1 to the roll from a pile; '
    'who takes the last counter wins'))
register_game(ConnectFour, Variant('connect4', 'connect4(h=7, v=6, k=4)',
                                   'Connect Four: 7 columns of 6 rows, four in a row',
                                   default=False),
              aliases=('connectfour',))
register_game(Gomoku, Variant('gomoku', 'gomoku(h=15, v=15, k=5)',
                              'Gomoku: five in a row on 15 x 15', default=False),
              aliases=('fiveinarow',))
register_game(Backgammon, Variant(
    'backgammon', 'backgammon', 'Backgammon: the bar, hitting, bearing off; no doubling '
    'cube, a win counts 1', default=False))
register_game(
    Othello,
    Variant('othello', 'othello(n=8)', 'Othello on 8 x 8: bracket lines of discs to turn '
            'them; more discs wins', default=False),
    Variant('othello-6x6', 'othello(n=6)', 'Othello on 6 x 6', default=False),
    aliases=('reversi',))
register_game(Kalah, Variant(
    'kalah', 'kalah(pits=6, seeds=4)', 'Kalah: 6 pits a side, 4 seeds in each; sow '
    'counter-clockwise, more seeds in your store wins', default=False),
    aliases=('mancala',))
register_game(
    Hex,
    Variant('hex', 'hex(n=7)', 'Hex on 7 x 7: join your two sides of the rhombus',
            default=False),
    Variant('hex-11', 'hex(n=11)', 'Hex on 11 x 11, without the swap rule', default=False))
register_game(
    Breakthrough,
    Variant('breakthrough', 'breakthrough(rows=8, columns=8)', 'Breakthrough on 8 x 8: two '
            'rows of pieces each; reach the far row first', default=False),
    Variant('breakthrough-6x6', 'breakthrough(rows=6, columns=6)', 'Breakthrough on 6 x 6',
            default=False))
register_game(Fig52Game, Variant('fig52', 'fig52', "AIMA's Figure 5.2 game tree: MAX moves, "
                                 'then MIN', default=False))
