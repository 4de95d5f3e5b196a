"""The messages between the grader and a student's jail, typed: every request the
grader sends and every answer the jail gives back, each a frozen record with its
message (the JSON that crosses, one object a line, its kind under "type") and its
reading from that JSON (read), in one place, as players.remote.protocol has the
players' messages.

The grader first sends Load; the jail answers Loaded or LoadFailed. Then, for
each check, one of:

- a SearchRequest: the jail runs the student's search on a counting game and
  answers with Calls (the calls of result that made a state, in chunks) and then
  SearchDone;
- a PerftRequest, answered by PerftDone;
- a PositionsRequest, answered by PositionAnswers (what the student's Game class says at each
  position, see jailed.rules, in chunks) and then RulesDone;
- a game's start and requests for moves, in players.remote.protocol's jail
  protocol, which the student's player answers.

Every answer carries "reference": the first use of a reference implementation
the jail refused so far (see guard), or null.

A jail runs a student's code, so the grader reads its answers as hostile JSON:
read_answer takes an object of a known kind with exactly its fields, each of its
type, and raises ProtocolError saying what is wrong otherwise; nothing in it is
called or compared but as plain data. What a student's class said at a position
is read field by field as it is judged (game_answers.PositionAnswers). This module runs in
the jail too."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Callable, ClassVar, Union

from players.remote.protocol import JailMoveRequest, JailStart, ProtocolError, shown
from players.remote.protocol import read_request as read_game_request

from .reading import Fields, call, count, link, said, string

REFERENCE_LIMIT = 300
"""The most characters of an answer's "reference" that the grader keeps."""

@dataclass(frozen=True)
class Load:
    """The grader's first request: load the student's source."""

    KIND: ClassVar[str] = 'load'
    source: str
    filename: str
    """The file's name, shown in the student's error messages."""
    folder: bool
    """Whether the file is the entry of a submission folder, the jail's working folder."""
    functions: tuple[str, ...]
    """The functions the grader looks for."""
    allow_reference: bool
    """Whether the student's code may use the project's reference implementations."""

    def message(self) -> dict[str, Any]:
        """The request as the jail reads it."""
        return {'type': self.KIND, **asdict(self), 'functions': list(self.functions)}

    @classmethod
    def read(cls, message: Any) -> Load:
        """The request a message is; raise ProtocolError if it is not one."""
        got = Fields(message, cls)
        return cls(got.text('source'), got.text('filename'), got.flag('folder'),
                   got.items('functions', string, 'strings'), got.flag('allow_reference'))


@dataclass(frozen=True)
class SearchRequest:
    """Run the student's search function on a position (see plain.build)."""

    KIND: ClassVar[str] = 'search'
    function: str
    position: dict[str, Any]
    """The position's plain spec."""
    limit: int
    """The most states the search may generate before it is stopped."""
    game_source: dict[str, Any] | None
    """The source of a game from a file (games.game_files.message), or None."""

    def message(self) -> dict[str, Any]:
        """The request as the jail reads it."""
        return {'type': self.KIND, **asdict(self)}

    @classmethod
    def read(cls, message: Any) -> SearchRequest:
        """The request a message is; raise ProtocolError if it is not one."""
        got = Fields(message, cls)
        return cls(got.text('function'), got.object('position'), got.whole('limit'),
                   got.object('game_source', null=True))


@dataclass(frozen=True)
class PerftRequest:
    """Count the move sequences of the student's Game class from its start (see rules)."""

    KIND: ClassVar[str] = 'perft'
    game: str
    """The class's call, such as 'GameOfNim(board=[3, 1])'."""
    seconds: float
    """The time each call of the class's methods may take."""
    depth: int
    limit: int
    """Stop before a length with more sequences than this (see perft.count_sequences)."""

    def message(self) -> dict[str, Any]:
        """The request as the jail reads it."""
        return {'type': self.KIND, **asdict(self)}

    @classmethod
    def read(cls, message: Any) -> PerftRequest:
        """The request a message is; raise ProtocolError if it is not one."""
        got = Fields(message, cls)
        return cls(got.text('game'), got.number('seconds'), got.whole('depth'),
                   got.whole('limit'))


@dataclass(frozen=True)
class PositionsRequest:
    """Say what the student's Game class answers at positions numbered from first, each
    reached by a move from an earlier one (see rules)."""

    KIND: ClassVar[str] = 'positions'
    game: str
    """The class's call, such as 'GameOfNim(board=[3, 1])'."""
    seconds: float
    """The time each call of the class's methods may take."""
    first: int
    positions: tuple[tuple[int | None, Any], ...]
    """For each position, the index of the position before it and the move from
    there as plain data (None and None for the start)."""

    def message(self) -> dict[str, Any]:
        """The request as the jail reads it."""
        return {'type': self.KIND, 'game': self.game, 'seconds': self.seconds,
                'first': self.first, 'positions': [list(link) for link in self.positions]}

    @classmethod
    def read(cls, message: Any) -> PositionsRequest:
        """The request a message is; raise ProtocolError if it is not one."""
        got = Fields(message, cls)
        return cls(got.text('game'), got.number('seconds'), got.whole('first'),
                   got.items('positions', link, '[index or null, move]'))


@dataclass(frozen=True)
class Loaded:
    """The answer to Load: the functions the file defines, of those asked for."""

    KIND: ClassVar[str] = 'loaded'
    defined: tuple[str, ...]
    reference: str | None = None

    def message(self) -> dict[str, Any]:
        """The answer as the jail sends it."""
        return {'type': self.KIND, 'defined': list(self.defined), 'reference': self.reference}

    @classmethod
    def read(cls, message: Any) -> Loaded:
        """The answer a message is; raise ProtocolError if it is not one."""
        got = Fields(message, cls)
        return cls(got.items('defined', string, 'strings'), got.maybe_text('reference'))


@dataclass(frozen=True)
class LoadFailed:
    """The answer to Load when the file cannot be loaded: why."""

    KIND: ClassVar[str] = 'load_failed'
    error: str
    reference: str | None = None

    def message(self) -> dict[str, Any]:
        """The answer as the jail sends it."""
        return {'type': self.KIND, **asdict(self)}

    @classmethod
    def read(cls, message: Any) -> LoadFailed:
        """The answer a message is; raise ProtocolError if it is not one."""
        got = Fields(message, cls)
        return cls(got.text('error'), got.maybe_text('reference'))


@dataclass(frozen=True)
class Calls:
    """Some of a search's calls of result that made a state, in order: each the key
    of the state it was made on (plain.state_key) and the move, as plain data."""

    KIND: ClassVar[str] = 'calls'
    calls: tuple[tuple[str, Any], ...]
    reference: str | None = None

    def message(self) -> dict[str, Any]:
        """The answer as the jail sends it."""
        return {'type': self.KIND, 'calls': [list(call) for call in self.calls],
                'reference': self.reference}

    @classmethod
    def read(cls, message: Any) -> Calls:
        """The answer a message is; raise ProtocolError if it is not one."""
        got = Fields(message, cls)
        return cls(got.items('calls', call, '[state key, move]'), got.maybe_text('reference'))


@dataclass(frozen=True)
class SearchDone:
    """The end of the answer to a SearchRequest: the move the search chose, as plain
    data, or why there is none (error, not_implemented, or stopped after too many
    states)."""

    KIND: ClassVar[str] = 'search_done'
    move: Any = None
    error: str | None = None
    not_implemented: bool = False
    stopped: bool = False
    reference: str | None = None

    def message(self) -> dict[str, Any]:
        """The answer as the jail sends it."""
        return {'type': self.KIND, **asdict(self)}

    @classmethod
    def read(cls, message: Any) -> SearchDone:
        """The answer a message is; raise ProtocolError if it is not one."""
        got = Fields(message, cls)
        return cls(got.plain('move'), got.maybe_text('error'), got.flag('not_implemented'),
                   got.flag('stopped'), got.maybe_text('reference'))


@dataclass(frozen=True)
class PerftDone:
    """The answer to a PerftRequest: the counts at depth 1, 2, ..., as far as they
    went, or why they cannot be counted (or the class made)."""

    KIND: ClassVar[str] = 'perft_done'
    perft: tuple[int, ...]
    error: str | None = None
    reference: str | None = None

    def message(self) -> dict[str, Any]:
        """The answer as the jail sends it."""
        return {'type': self.KIND, 'perft': list(self.perft), 'error': self.error,
                'reference': self.reference}

    @classmethod
    def read(cls, message: Any) -> PerftDone:
        """The answer a message is; raise ProtocolError if it is not one."""
        got = Fields(message, cls)
        return cls(got.items('perft', count, 'whole numbers'), got.maybe_text('error'),
                   got.maybe_text('reference'))


@dataclass(frozen=True)
class PositionAnswers:
    """What the student's class says at some of the positions of a PositionsRequest,
    in order: each an object, read field by field as it is judged (game_answers.PositionAnswers);
    anything else is read as {}, saying nothing."""

    KIND: ClassVar[str] = 'said'
    positions: tuple[dict[str, Any], ...]
    reference: str | None = None

    def message(self) -> dict[str, Any]:
        """The answer as the jail sends it."""
        return {'type': self.KIND, 'positions': list(self.positions),
                'reference': self.reference}

    @classmethod
    def read(cls, message: Any) -> PositionAnswers:
        """The answer a message is; raise ProtocolError if it is not one."""
        got = Fields(message, cls)
        return cls(got.items('positions', said, 'objects'), got.maybe_text('reference'))


@dataclass(frozen=True)
class RulesDone:
    """The end of the answer to a PositionsRequest; error: why the class cannot be
    made, if it cannot."""

    KIND: ClassVar[str] = 'rules_done'
    error: str | None = None
    reference: str | None = None

    def message(self) -> dict[str, Any]:
        """The answer as the jail sends it."""
        return {'type': self.KIND, **asdict(self)}

    @classmethod
    def read(cls, message: Any) -> RulesDone:
        """The answer a message is; raise ProtocolError if it is not one."""
        got = Fields(message, cls)
        return cls(got.maybe_text('error'), got.maybe_text('reference'))


Request = Union[Load, SearchRequest, PerftRequest, PositionsRequest]
"""A request of the grader's own (a game's are players.remote.protocol's)."""
Answer = Union[Loaded, LoadFailed, Calls, SearchDone, PerftDone, PositionAnswers, RulesDone]
"""An answer of the jail's."""
REQUESTS: dict[str, Callable[[Any], Request]] = {
    record.KIND: record.read for record in (Load, SearchRequest, PerftRequest, PositionsRequest)}
ANSWERS: dict[str, Callable[[Any], Answer]] = {
    record.KIND: record.read
    for record in (Loaded, LoadFailed, Calls, SearchDone, PerftDone, PositionAnswers, RulesDone)}


def read_request(message: Any) -> Request | JailStart | JailMoveRequest:
    """In the jail: the request a message of the grader's is, by its kind (a game's
    start or a request for a move as players.remote.protocol reads them); raise
    ProtocolError for a message of no kind or of the wrong shape."""
    kind = message.get('type') if isinstance(message, dict) else None
    if isinstance(kind, str) and kind in REQUESTS:
        return REQUESTS[kind](message)
    return read_game_request(message)


def read_answer(message: Any) -> Answer:
    """In the grader: the answer a message of the jail's is, by its kind, each field
    read as its type; raise ProtocolError, saying what is wrong, for a message of no
    kind the grader knows or of the wrong shape."""
    kind = message.get('type') if isinstance(message, dict) else None
    if not (isinstance(kind, str) and kind in ANSWERS):
        raise ProtocolError(f'a message of no kind the grader knows: {shown(message, 60)}')
    return ANSWERS[kind](message)
