"""Hostile and malformed input: clear exceptions, never a crash; and read_pgn's handling of
games it cannot read (errors list, strict, warning), compressed input, batches."""

import gzip
import os
import random

import pyarrow as pa
import pytest

import chessbits

GOOD = '[Event "a"]\n[White "Ann"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n'
BAD = '[Event "b"]\n\n1. e4 e5 2. Ke3 *\n\n'


def write(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    return path


def test_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError) as info:
        chessbits.read_pgn(tmp_path / "nope.pgn")
    assert "nope.pgn" in str(info.value)


def test_directory(tmp_path):
    # A directory stands for the PGN files below it (test_read_inputs.py): none is an error.
    with pytest.raises(ValueError, match="no .pgn"):
        chessbits.read_pgn(tmp_path)


def test_utf16(tmp_path):
    path = write(tmp_path, "u16.pgn", GOOD.encode("utf-16"))
    with pytest.raises(chessbits.ChessbitsError, match="UTF-16"):
        chessbits.read_pgn(path)


def test_bad_batch_size(tmp_path):
    with pytest.raises(ValueError):
        chessbits.read_pgn(write(tmp_path, "g.pgn", GOOD), batch_size=0)


def test_errors_list(tmp_path):
    path = write(tmp_path, "mixed.pgn", GOOD + BAD + GOOD)
    errors = []
    table = chessbits.read_pgn(path, errors=errors).read_all()
    assert table.num_rows == 2
    assert len(errors) == 1
    assert (errors[0].line, errors[0].error) == (8, "illegal move 'Ke3'")
    assert errors[0].pgn.startswith('[Event "b"]')


def test_strict(tmp_path):
    path = write(tmp_path, "mixed.pgn", GOOD + BAD + GOOD)
    reader = chessbits.read_pgn(path, batch_size=10, strict=True)
    first = reader.read_next_batch()  # the game before the bad one
    assert first.num_rows == 1
    with pytest.raises(ValueError, match=r"line 8: illegal move 'Ke3'"):
        reader.read_next_batch()


def test_strict_stops_at_an_endless_game():
    # /dev/zero is one game that never ends: strict raises once it passes the size limit.
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    with pytest.raises(ValueError, match=r"/dev/zero: line 1: game longer than 33554432 bytes"):
        chessbits.read_pgn("/dev/zero", strict=True).read_all()


def test_strict_reports_an_oversized_game_after_the_games_before_it(tmp_path):
    path = tmp_path / "huge.pgn"
    with open(path, "wb") as f:
        f.write((GOOD + GOOD).encode())
        f.write(b"\0" * (33 << 20))
        f.write(b" *\n\n" + GOOD.encode())
    reader = chessbits.read_pgn(path, batch_size=10, strict=True)
    assert reader.read_next_batch().num_rows == 2
    with pytest.raises(ValueError, match=r"line 11: game longer than 33554432 bytes"):
        reader.read_next_batch()
    # Not strict: skipped to its end and listed, the game after it read.
    errors = []
    assert chessbits.read_pgn(path, errors=errors).read_all().num_rows == 3
    assert [(e.line, e.error, e.pgn) for e in errors] == [(11, "game longer than 33554432 bytes", "")]


def test_warning(tmp_path):
    path = write(tmp_path, "mixed.pgn", GOOD + BAD + BAD)
    with pytest.warns(chessbits.PgnWarning, match=r"2 game\(s\) could not be read.*line 8"):
        table = chessbits.read_pgn(path).read_all()
    assert table.num_rows == 1


def test_batches(tmp_path):
    path = write(tmp_path, "many.pgn", GOOD * 25)
    sizes = [batch.num_rows for batch in chessbits.read_pgn(path, batch_size=10)]
    assert sizes == [10, 10, 5]


def test_compressed(tmp_path):
    plain = chessbits.read_pgn(write(tmp_path, "g.pgn", GOOD * 3)).read_all()
    gz = chessbits.read_pgn(write(tmp_path, "g.pgn.gz", gzip.compress((GOOD * 3).encode()))).read_all()
    zst = pa.compress((GOOD * 3).encode(), codec="zstd", asbytes=True)
    zs = chessbits.read_pgn(write(tmp_path, "g.pgn.zst", zst)).read_all()
    assert plain.equals(gz) and plain.equals(zs)


def test_truncated_gzip(tmp_path):
    data = gzip.compress((GOOD * 200).encode())
    path = write(tmp_path, "cut.pgn.gz", data[: len(data) // 2])
    with pytest.raises(OSError):
        chessbits.read_pgn(path).read_all()


def test_garbage_file(tmp_path):
    rng = random.Random(7)
    for i in range(20):
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 5000)))
        if data[:2] in (b"\x1f\x8b", b"\xff\xfe", b"\xfe\xff") or data[:4] == b"\x28\xb5\x2f\xfd":
            continue
        path = write(tmp_path, f"garbage{i}.pgn", data)
        errors = []
        try:
            chessbits.read_pgn(path, errors=errors).read_all()
        except (ValueError, OSError):
            pass  # clear errors are fine; crashes are not


def test_non_utf8(tmp_path):
    path = write(tmp_path, "latin1.pgn", '[White "Tal, Mikha\xefl"]\n\n1. e4 *\n'.encode("latin-1"))
    row = chessbits.read_pgn(path).read_all().to_pylist()[0]
    assert row["White"] == "Tal, Mikha\xefl" and row["non_utf8"]
    # Only the field that was not UTF-8 is named; its bytes come back as Latin-1.
    assert row["latin1_fields"] == ["White"] and row["White"].encode("latin-1") == b"Tal, Mikha\xefl"


def test_garbage_moves_column():
    rng = random.Random(11)
    codes = [bytes(rng.randrange(256) for _ in range(rng.randrange(0, 40))) for _ in range(500)]
    plies = [rng.randrange(0, 120) for _ in codes]
    result = chessbits.decode_moves(codes, plies, on_error="null").to_pylist()
    assert len(result) == 500
    failed = result.index(None)
    with pytest.raises(chessbits.DecodeError, match=f"row {failed}: "):
        chessbits.decode_moves(codes, plies)
    with pytest.raises(chessbits.DecodeError):
        chessbits.positions(codes, plies)
    assert chessbits.positions(codes, plies, on_error="null").null_count > 0


def test_cut_codes_and_extra_plies(corpus):
    # The code stores no length: bytes that are the code of another game of the asked length
    # decode (to that game), which a code cut by a byte or plies one or two too high often
    # are; everything else is a DecodeError, as a code cut in half nearly always is.
    table = corpus[0][1]
    codes, plies = table["moves"].to_pylist(), table["plies"].to_pylist()
    cases = [(code[:-1], n) for code, n in zip(codes, plies) if code]
    cases += [(code, n + extra) for code, n in zip(codes, plies) for extra in (1, 2)]
    halves = [(code[: len(code) // 2], n) for code, n in zip(codes, plies) if len(code) > 4]
    decoded = chessbits.decode_moves([c for c, _ in cases + halves], [n for _, n in cases + halves],
                                     on_error="null").to_pylist()
    accepted = [(code, moves) for (code, _), moves in zip(cases + halves, decoded) if moves is not None]
    assert 0 < len(accepted) < len(cases)
    assert sum(moves is not None for moves in decoded[len(cases):]) * 10 < len(halves)
    # What decodes is exactly another game's code.
    again = chessbits.encode_moves([moves for _, moves in accepted]).to_pylist()
    assert again == [code for code, _ in accepted]
    failed = decoded.index(None)
    with pytest.raises(chessbits.DecodeError, match=f"row {failed}: "):
        chessbits.decode_moves([c for c, _ in cases], [n for _, n in cases])


@pytest.mark.parametrize("plies, error", [([-1], ValueError), ([1, 2], ValueError), ([None], ValueError)])
def test_bad_plies(plies, error):
    code = chessbits.encode_moves([["e2e4"]])
    with pytest.raises(error):
        chessbits.decode_moves(code, plies)


def test_bad_arguments():
    code = chessbits.encode_moves([["e2e4"]])
    with pytest.raises(ValueError, match="notation"):
        chessbits.decode_moves(code, [1], notation="lan")
    with pytest.raises(ValueError, match="every"):
        chessbits.positions(code, [1], every=0)
    with pytest.raises(chessbits.InvalidFenError):
        chessbits.decode_moves(code, [1], start_fens="nonsense")
    with pytest.raises(ValueError, match="start_fens"):
        chessbits.decode_moves(code, [1], start_fens=["8/8/8/8/8/8/8/8 w - - 0 1", None])
    assert chessbits.decode_moves(code, [1], start_fens=["8/8 w"], on_error="null").to_pylist() == [None]
    with pytest.raises(TypeError):
        chessbits.decode_moves(pa.array([1.5]), [1])


def test_encode_errors():
    with pytest.raises(chessbits.IllegalMoveError, match=r"row 1: ply 2: illegal move 'Ke3'"):
        chessbits.encode_moves([["e4"], ["e4", "e5", "Ke3"]], notation="san")
    with pytest.raises(chessbits.IllegalMoveError, match="row 0: ply 0"):
        chessbits.encode_moves([["e2e5"]])
    with pytest.raises(chessbits.IllegalMoveError, match="null move"):
        chessbits.encode_moves([["e2e4", None]])
    assert chessbits.encode_moves([None, []]).to_pylist() == [None, b""]


def test_validate():
    games = pa.array([["e4", "e5", "Nf3"], ["e4", "e4"], [], None, ["d4", "zz"]])
    assert chessbits.validate(games).to_pylist() == [
        {"ok": True, "ply": None, "error": None},
        {"ok": False, "ply": 1, "error": "illegal move 'e4'"},
        {"ok": True, "ply": None, "error": None},
        None,
        {"ok": False, "ply": 1, "error": "malformed move 'zz'"},
    ]
    uci = chessbits.validate([["e2e4", "e7e5", "e1e2", "e8e7"], ["e2e4", "e2e4"]], notation="uci")
    assert uci.field("ok").to_pylist() == [True, False]
    bad_fen = chessbits.validate([["e4"]], start_fens=["nope"]).to_pylist()[0]
    assert bad_fen["ok"] is False and bad_fen["ply"] is None and "FEN" in bad_fen["error"]


def test_chunked_and_large_types():
    codes = chessbits.encode_moves([["e2e4"], ["d2d4", "d7d5"]])
    chunked = pa.chunked_array([codes.slice(0, 1), codes.slice(1)]).cast(pa.large_binary())
    moves = chessbits.decode_moves(chunked, pa.array([1, 2], pa.int8()))
    assert moves.to_pylist() == [["e2e4"], ["d2d4", "d7d5"]]
    large = pa.array([["e2e4"]], pa.large_list(pa.large_string()))
    assert chessbits.encode_moves(large).to_pylist() == codes.to_pylist()[:1]


def test_numbers_of_rows_agree():
    assert len(chessbits.decode_moves([], [])) == 0
    assert len(chessbits.validate([])) == 0
