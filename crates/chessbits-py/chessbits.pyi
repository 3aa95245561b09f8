"""Type stubs of the chessbits extension module (maturin installs them as chessbits/__init__.pyi,
with py.typed). The docstrings, with examples, are on the objects themselves."""

import os
import pathlib
from typing import Any, Iterable, Literal, Optional, Sequence, Union, final

import pyarrow as pa

__version__: str
__all__ = [
    "__version__",
    "ChessbitsError",
    "DecodeError",
    "IllegalMoveError",
    "Index",
    "InvalidFenError",
    "Outcome",
    "PgnWarning",
    "Position",
    "RejectedGame",
    "build_index",
    "decode_moves",
    "encode_moves",
    "export_parts",
    "export_records",
    "position_key",
    "position_key_hex",
    "positions",
    "read_pgn",
    "seal_index",
    "to_pgn",
    "validate",
]

_Notation = Literal["uci", "san"]
_OnError = Literal["raise", "null"]
# An Arrow array (or ChunkedArray, or any object with __arrow_c_array__) or a Python sequence.
_Array = Union[pa.Array, pa.ChunkedArray, Sequence[object]]
# None, one value for every row, or one per row.
_StartFens = Union[None, str, pa.Array, pa.ChunkedArray, Sequence[Optional[str]]]
_Chess960 = Union[None, bool, pa.Array, pa.ChunkedArray, Sequence[Optional[bool]]]
_Path = Union[str, os.PathLike[str]]
# read_pgn's inputs: a file or directory, or a file's content (PGN text, gzip, zstd or .cbits).
_PgnInput = Union[str, os.PathLike[str], bytes, bytearray, memoryview]
# A square as python-chess numbers it (0 = a1 ... 63 = h8) or its name ("e4"); a color as
# python-chess gives it (True: white) or its name.
_Square = Union[int, str]
_Color = Union[bool, Literal["white", "black"]]
# Index filters: a comma-separated string or a list ("blitz,rapid", [1600, 1800]).
_Speeds = Union[None, str, Sequence[str]]
_Ratings = Union[None, str, Sequence[Union[int, str]]]

class ChessbitsError(ValueError):
    """Base class of the package's errors."""

class InvalidFenError(ChessbitsError):
    """A FEN that does not describe a legal position."""

class IllegalMoveError(ChessbitsError):
    """A move that is malformed, ambiguous or illegal in its position."""

class DecodeError(ChessbitsError):
    """Bytes of a moves column that are not a game's entropy code from its start position."""

class PgnWarning(UserWarning):
    """Some games of a PGN file could not be read (read_pgn without strict or errors)."""

@final
class RejectedGame:
    """A game read_pgn could not read."""

    @property
    def source(self) -> str: ...
    @property
    def line(self) -> int: ...
    @property
    def error(self) -> str: ...
    @property
    def pgn(self) -> str: ...

@final
class Outcome:
    """How a game ended."""

    @property
    def winner(self) -> Optional[Literal["white", "black"]]: ...
    @property
    def termination(
        self,
    ) -> Literal[
        "checkmate",
        "stalemate",
        "insufficient_material",
        "seventyfive_moves",
        "fivefold_repetition",
        "fifty_moves",
        "threefold_repetition",
    ]: ...
    @property
    def result(self) -> Literal["1-0", "0-1", "1/2-1/2"]: ...

@final
class Position:
    """A chess position and the moves played to reach it from its start."""

    def __new__(
        cls, fen: Optional[str] = None, chess960: bool = False, *, allow_impossible: bool = False
    ) -> Position: ...
    def push_san(self, san: str) -> str: ...
    def push_uci(self, uci: str) -> str: ...
    def pop(self) -> Optional[str]: ...
    def legal_moves(self, notation: _Notation = "uci") -> list[str]: ...
    def san(self, uci: str) -> str: ...
    @property
    def moves(self) -> list[str]: ...
    @property
    def turn(self) -> Literal["white", "black"]: ...
    def fen(self) -> str: ...
    def epd(self) -> str: ...
    def is_check(self) -> bool: ...
    def is_checkmate(self) -> bool: ...
    def is_stalemate(self) -> bool: ...
    def is_insufficient_material(self) -> bool: ...
    def piece_at(self, square: _Square) -> Optional[str]: ...
    def attackers(self, color: _Color, square: _Square) -> list[int]: ...
    def is_attacked_by(self, color: _Color, square: _Square) -> bool: ...
    def board(self) -> str: ...
    def outcome(self, claim_draw: bool = False) -> Optional[Outcome]: ...
    def copy(self) -> Position: ...
    def __copy__(self) -> Position: ...
    def __eq__(self, other: object, /) -> bool: ...
    def svg(
        self,
        *,
        flipped: bool = False,
        size: int = 400,
        lastmove: bool = True,
        coordinates: bool = True,
        shapes: str = "",
        comment: str = "",
    ) -> str: ...
    def _repr_svg_(self) -> str: ...

def read_pgn(
    path: Union[_PgnInput, Sequence[_PgnInput]],
    batch_size: int = 16384,
    *,
    strict: bool = False,
    errors: Optional[list[RejectedGame]] = None,
) -> pa.RecordBatchReader:
    """The games of PGN files (plain, gzip, zstd; directories, .cbits archives, bytes, a list of them)
    as record batches of the Parquet export's schema."""

def decode_moves(
    moves: _Array,
    plies: _Array,
    *,
    notation: _Notation = "uci",
    start_fens: _StartFens = None,
    chess960: _Chess960 = None,
    on_error: _OnError = "raise",
    codec: Literal["entropy", "index-byte", "index"] = "entropy",
) -> pa.ListArray:
    """A moves column (entropy or index-byte move code) to lists of UCI or SAN moves."""

def encode_moves(
    games: Union[pa.Array, pa.ChunkedArray, Iterable[Optional[Sequence[str]]]],
    *,
    notation: _Notation = "uci",
    start_fens: _StartFens = None,
    chess960: _Chess960 = None,
) -> pa.BinaryArray:
    """Lists of UCI or SAN moves to the entropy move code (the inverse of decode_moves)."""

def positions(
    moves: _Array,
    plies: _Array,
    *,
    every: int = 1,
    format: Literal["fen", "epd"] = "fen",
    start_fens: _StartFens = None,
    chess960: _Chess960 = None,
    on_error: _OnError = "raise",
    codec: Literal["entropy", "index-byte", "index"] = "entropy",
) -> pa.ListArray:
    """FEN or EPD of each game's positions, after plies 0, every, 2*every, ..."""

def validate(
    games: Union[pa.Array, pa.ChunkedArray, Iterable[Optional[Sequence[str]]]],
    *,
    notation: _Notation = "san",
    start_fens: _StartFens = None,
    chess960: _Chess960 = None,
) -> pa.StructArray:
    """Per game {ok, ply, error}: whether every move is legal, else the first bad one."""

def position_key(fen: Optional[str] = None, moves: str = "") -> bytes:
    """The 16 bytes of a position's key, as the `key` column of a position index holds them."""

def position_key_hex(fen: Optional[str] = None, moves: str = "") -> str:
    """The position key as 32 hexadecimal digits."""

def build_index(
    inputs: Union[_Path, Sequence[_Path]],
    output: _Path,
    *,
    threads: int = 0,
    force: bool = False,
) -> dict[str, object]:
    """Builds a position index from PGN files (a directory: its *.pgn files); returns the summary."""

def export_parts(export_dir: _Path) -> list[dict[str, Any]]:
    """The part files of a Parquet export in the order that numbers its games (first_game, rows)."""

def export_records(
    batch: pa.RecordBatch,
    game: Any,
    source: Any,
    row: Any,
    *,
    files: Optional[Sequence[str]] = None,
    moves_code: Optional[str] = None,
) -> tuple[pa.RecordBatch, pa.RecordBatch, pa.RecordBatch, list[str]]:
    """Export rows to the index's games, positions and (unaggregated) explorer rows, and the errors."""

def seal_index(path: _Path, export_dir: _Path) -> dict[str, Any]:
    """Makes a directory of tables written by another tool (Spark) from an export a position index."""

def to_pgn(table: Union[pa.Table, pa.RecordBatch], *, moves_code: Optional[str] = None) -> list[str]:
    """Rows of a Parquet export as PGN text, rebuilt from the columns and annotations (movetext unread)."""

@final
class Index:
    """A position index, opened once: explorer and search queries as pyarrow tables."""

    def __new__(cls, path: _Path) -> Index: ...
    @property
    def games(self) -> int: ...
    @property
    def path(self) -> pathlib.Path: ...
    @property
    def sources(self) -> list[dict[str, object]]: ...
    def explore(
        self,
        fen: Optional[str] = None,
        moves: str = "",
        *,
        speeds: _Speeds = None,
        ratings: _Ratings = None,
        since: Optional[str] = None,
        until: Optional[str] = None,
        player: Optional[str] = None,
        max_moves: Optional[int] = None,
    ) -> pa.Table: ...
    def explore_json(
        self,
        fen: Optional[str] = None,
        moves: str = "",
        *,
        speeds: _Speeds = None,
        ratings: _Ratings = None,
        since: Optional[str] = None,
        until: Optional[str] = None,
        player: Optional[str] = None,
        max_moves: Optional[int] = None,
        top_games: int = 4,
        recent_games: int = 4,
    ) -> dict[str, object]: ...
    def search(
        self,
        fen: Optional[str] = None,
        moves: str = "",
        *,
        speeds: _Speeds = None,
        ratings: _Ratings = None,
        since: Optional[str] = None,
        until: Optional[str] = None,
        player: Optional[str] = None,
        sort: Literal["index", "date", "rating"] = "index",
        offset: int = 0,
        limit: int = 20,
    ) -> pa.Table: ...
    def game_text(self, game: int) -> bytes: ...
