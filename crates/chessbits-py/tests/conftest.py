"""Shared fixtures: the bundled PGN corpus (testdata/pgn/*.pgn) read by chessbits and by
python-chess, once per session."""

import io
import pathlib

import chess
import chess.pgn
import pytest

import chessbits

ROOT = pathlib.Path(__file__).resolve().parents[3]
PGN_FILES = sorted((ROOT / "testdata" / "pgn").glob("*.pgn"))


def python_chess_games(path):
    """Every game of a file as python-chess reads it."""
    games = []
    with open(path, encoding="utf-8-sig", errors="replace") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                return games
            games.append(game)


@pytest.fixture(scope="session")
def corpus():
    """Per file: (path, chessbits table, rejected games, python-chess games)."""
    assert PGN_FILES, "no testdata/pgn/*.pgn"
    out = []
    for path in PGN_FILES:
        errors = []
        table = chessbits.read_pgn(path, batch_size=50, errors=errors).read_all()
        out.append((path, table, errors, python_chess_games(path)))
    return out
