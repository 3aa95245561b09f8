"""read_pgn + decode_moves + positions against python-chess on the bundled corpus: tags,
mainline moves (UCI and SAN), start positions and the FEN after every ply."""

import datetime

import chess
import pytest

import chessbits

INT16_TAGS = ["WhiteElo", "BlackElo", "WhiteRatingDiff", "BlackRatingDiff"]
TEXT_TAGS = ["Event", "Site", "White", "Black", "Result", "WhiteTitle", "BlackTitle", "ECO",
             "Opening", "Termination", "TimeControl"]
ROSTER_DEFAULTS = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?",
                   "Black": "?", "Result": "*"}


def as_int16(text):
    """What the int16 columns hold for a tag value."""
    try:
        value = int(text.strip().lstrip("+"))
    except ValueError:
        return None
    return value if -32768 <= value <= 32767 else None


def as_date(text):
    try:
        y, m, d = (int(part) for part in text.split("."))
        return datetime.date(y, m, d)
    except ValueError:
        return None


def as_time(text):
    """The export's UTCTime: the tag as zero-padded hh:mm:ss text, None if not a valid time."""
    try:
        h, m, s = (int(part) for part in text.split(":"))
    except (ValueError, TypeError):
        return None
    return f"{h:02}:{m:02}:{s:02}" if 0 <= h < 24 and 0 <= m < 60 and 0 <= s <= 60 else None


def row_tags(row):
    """A row's tags as name -> value, from the columns and other_tags."""
    tags = {name: row[name] for name in TEXT_TAGS if row[name] is not None}
    for name, value in row["other_tags"]:
        tags.setdefault(name, value)
    return tags


def readable(games):
    """The python-chess games chessbits is expected to read (python-chess found no error)."""
    return [g for g in games if not g.errors]


def test_every_game_is_read(corpus):
    for path, table, errors, games in corpus:
        assert table.num_rows + len(errors) == len(games), path
        assert table.num_rows == len(readable(games)), (path, errors[:3])
        assert table.schema.names[:5] == ["Event", "Site", "White", "Black", "Result"]


def test_tags(corpus):
    compared = 0
    for path, table, _, games in corpus:
        for row, game in zip(table.to_pylist(), readable(games)):
            tags = row_tags(row)
            for name, value in game.headers.items():
                if name in INT16_TAGS:
                    assert row[name] == as_int16(value), (path, name, value)
                elif name == "UTCDate":
                    assert row[name] == as_date(value), (path, name, value)
                elif name == "UTCTime":
                    assert row[name] == as_time(value), (path, name, value)
                elif name in tags:
                    assert tags[name] == value, (path, name)
                else:
                    # python-chess fills in the seven tag roster.
                    assert ROSTER_DEFAULTS.get(name) == value, (path, name, value)
                compared += 1
    assert compared > 5000


def test_mainline_moves(corpus):
    plies = 0
    for path, table, _, games in corpus:
        uci = chessbits.decode_moves(table["moves"], table["plies"], start_fens=table["start_fen"]).to_pylist()
        san = chessbits.decode_moves(table["moves"], table["plies"], notation="san",
                                     start_fens=table["start_fen"]).to_pylist()
        for i, game in enumerate(readable(games)):
            board = game.board()
            expected_san = []
            for move in game.mainline_moves():
                expected_san.append(board.san(move))
                board.push(move)
            assert uci[i] == [m.uci() for m in game.mainline_moves()], (path, i)
            assert san[i] == expected_san, (path, i)
            plies += len(uci[i])
    assert plies > 30000


def test_start_positions(corpus):
    for path, table, _, games in corpus:
        for fen, game in zip(table["start_fen"].to_pylist(), readable(games)):
            expected = game.board().fen()
            assert (fen or chess.STARTING_FEN) == expected, path


def test_positions_every_ply(corpus):
    for path, table, _, games in corpus:
        fens = chessbits.positions(table["moves"], table["plies"], start_fens=table["start_fen"]).to_pylist()
        epds = chessbits.positions(table["moves"], table["plies"], format="epd", every=7,
                                   start_fens=table["start_fen"]).to_pylist()
        for i, game in enumerate(readable(games)):
            board = game.board()
            expected = [board.fen()]
            for move in game.mainline_moves():
                board.push(move)
                expected.append(board.fen())
            assert fens[i] == expected, (path, i)
            assert epds[i] == [" ".join(f.split()[:4]) for f in expected[::7]], (path, i)


def test_encode_round_trip(corpus):
    for path, table, _, _ in corpus:
        moves, plies, starts = table["moves"], table["plies"], table["start_fen"]
        for notation in ["uci", "san"]:
            lists = chessbits.decode_moves(moves, plies, notation=notation, start_fens=starts)
            again = chessbits.encode_moves(lists, notation=notation, start_fens=starts)
            assert again.to_pylist() == moves.to_pylist(), (path, notation)
            assert [len(x) for x in lists.to_pylist()] == plies.to_pylist()


def test_index_byte_codec(corpus):
    """The index-byte code (`chessbits export --moves-codec index`): each move is its index in
    the legal move list, which `Position.legal_moves()` lists in the same order."""
    games = 0
    for path, table, _, _ in corpus:
        uci = chessbits.decode_moves(table["moves"], table["plies"], start_fens=table["start_fen"]).to_pylist()
        codes = []
        for fen, moves in zip(table["start_fen"].to_pylist(), uci):
            pos = chessbits.Position(fen)
            code = bytearray()
            for move in moves:
                code.append(pos.legal_moves().index(move))
                pos.push_uci(move)
            codes.append(bytes(code))
        for name in ["index-byte", "index"]:
            again = chessbits.decode_moves(codes, table["plies"], start_fens=table["start_fen"], codec=name)
            assert again.to_pylist() == uci, path
        fens = chessbits.positions(codes, table["plies"], every=5, start_fens=table["start_fen"], codec="index-byte")
        assert fens.to_pylist() == chessbits.positions(table["moves"], table["plies"], every=5,
                                                       start_fens=table["start_fen"]).to_pylist(), path
        games += len(codes)
    assert games > 400
    with pytest.raises(ValueError, match="codec"):
        chessbits.decode_moves([b""], [0], codec="huffman")
    with pytest.raises(chessbits.DecodeError):
        chessbits.decode_moves([bytes([250])], [1], codec="index-byte")


def test_validate_corpus(corpus):
    for path, table, _, _ in corpus:
        san = chessbits.decode_moves(table["moves"], table["plies"], notation="san",
                                     start_fens=table["start_fen"])
        result = chessbits.validate(san, start_fens=table["start_fen"]).to_pylist()
        assert all(r == {"ok": True, "ply": None, "error": None} for r in result), path


def test_chess960_games():
    """Chess960 games (cutechess's "fischerandom"): castling moves and FENs as python-chess."""
    from conftest import ROOT, python_chess_games

    path = ROOT / "testdata/pgn/python-chess-tests/cutechess-fischerrandom.pgn"
    table = chessbits.read_pgn(path, strict=True).read_all()
    variant = [dict(tags).get("Variant", "").lower() for tags in table["other_tags"].to_pylist()]
    chess960 = ["960" in v or "fischer" in v for v in variant]
    assert all(chess960)
    args = dict(start_fens=table["start_fen"], chess960=chess960)
    uci = chessbits.decode_moves(table["moves"], table["plies"], **args).to_pylist()
    fens = chessbits.positions(table["moves"], table["plies"], **args).to_pylist()
    games = python_chess_games(path)
    assert len(games) == table.num_rows
    castles = 0
    for i, game in enumerate(games):
        board = game.board()
        expected = [board.fen()]
        for move in game.mainline_moves():
            castles += board.is_castling(move)
            board.push(move)
            expected.append(board.fen())
        assert uci[i] == [m.uci() for m in game.mainline_moves()]
        assert fens[i] == expected
    assert castles > 0
