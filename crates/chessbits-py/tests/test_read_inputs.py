"""read_pgn's inputs besides one path: directories, lists, bytes (plain, gzip, zstd, .cbits
archives; what Spark hands a worker), each giving the games the same file read by path gives;
and hostile inputs: wrong types, empty and garbage bytes, damaged archives."""

import gzip
import os
import random
import shutil

import pyarrow as pa
import pytest

import chessbits
from conftest import PGN_FILES, ROOT

GOLDEN = ROOT / "crates" / "chessbits-archive" / "tests" / "golden"
GOOD = '[Event "a"]\n[White "Ann"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n'
BAD = '[Event "b"]\n\n1. e4 e5 2. Ke3 *\n\n'


def read(source, **kwargs):
    return chessbits.read_pgn(source, batch_size=37, **kwargs).read_all()


def concat(tables):
    return pa.concat_tables(tables)


def zstd(data):
    return pa.compress(data, codec="zstd", asbytes=True)


@pytest.fixture(scope="module")
def by_path():
    """Each bundled PGN file read by path."""
    return {path: read(path) for path in PGN_FILES}


def test_bytes_plain_gzip_zstd_give_the_games_of_the_path(by_path):
    for path, expected in by_path.items():
        data = path.read_bytes()
        assert expected.num_rows > 0
        for form in (data, bytearray(data), memoryview(data), gzip.compress(data), zstd(data),
                     # Two gzip members, as `cat a.gz b.gz` makes.
                     gzip.compress(data[:1000]) + gzip.compress(data[1000:])):
            table = read(form)
            assert table.equals(expected), (path.name, type(form))


def test_a_list_is_its_items_in_order(by_path):
    paths = list(by_path)
    expected = concat([by_path[p] for p in paths[::-1]])
    assert read(paths[::-1]).equals(expected)
    assert read(tuple(str(p) for p in paths[::-1])).equals(expected)
    # Paths and bytes mixed.
    mixed = [paths[0], paths[1].read_bytes()]
    assert read(mixed).equals(concat([by_path[paths[0]], by_path[paths[1]]]))
    # Nothing: no games, the schema all the same.
    empty = read([])
    assert empty.num_rows == 0 and empty.schema == expected.schema


def test_a_directory_is_its_pgn_files_and_archives_below_it_sorted(tmp_path, by_path):
    first, second = list(by_path)[:2]
    d = tmp_path / "games"
    (d / "sub").mkdir(parents=True)
    (d / "b.pgn").write_bytes(first.read_bytes())
    (d / "A.PGN").write_bytes(second.read_bytes())
    (d / "sub" / "c.pgn.gz").write_bytes(gzip.compress(GOOD.encode()))
    (d / "d.pgn.zst").write_bytes(zstd(BAD.encode() + GOOD.encode()))
    shutil.copy(GOLDEN / "games.entropy.cbits", d / "e.cbits")
    # Not inputs: other names (whatever they hold), a FIFO.
    (d / "notes.txt").write_text(GOOD)
    (d / "f.gz").write_bytes(gzip.compress(GOOD.encode()))
    if hasattr(os, "mkfifo"):
        os.mkfifo(d / "fifo.pgn")
    if hasattr(os, "symlink"):
        os.symlink(".", d / "sub" / "loop")  # a link back up is read once
        os.symlink("b.pgn", d / "z-link.pgn")  # the same file again: read once
    errors = []
    table = read(d, errors=errors)
    order = [d / "A.PGN", d / "b.pgn", d / "d.pgn.zst", d / "e.cbits", d / "sub" / "c.pgn.gz"]
    parts_errors = []
    expected = concat([read(p, errors=parts_errors) for p in order])
    assert table.equals(expected)
    assert [(e.source, e.line, e.error) for e in errors] == [(e.source, e.line, e.error) for e in parts_errors]
    assert {e.source for e in errors} == {str(d / "d.pgn.zst"), str(d / "e.cbits")}
    # A directory inside a list, beside a file.
    assert read([d / "sub", first]).equals(concat([read(d / "sub" / "c.pgn.gz"), by_path[first]]))


def test_an_empty_directory_is_an_error(tmp_path):
    (tmp_path / "notes.txt").write_text(GOOD)
    with pytest.raises(ValueError, match="no .pgn, .pgn.gz, .pgn.zst or .cbits file"):
        chessbits.read_pgn(tmp_path)


def test_an_archive_by_path_by_bytes_and_compressed(tmp_path):
    """The golden archives (five games, one stored as text because a move is illegal): the games
    of the PGN they were packed from, whatever the codec, by path or as bytes, even gzipped."""
    pgn_errors = []
    pgn = read(GOLDEN / "games.pgn", errors=pgn_errors)
    assert pgn.num_rows == 4 and len(pgn_errors) == 1
    columns = ["White", "Black", "Result", "moves", "plies", "start_fen", "clock_deltas", "evals"]
    for codec in ("entropy", "index", "index-byte"):
        path = GOLDEN / f"games.{codec}.cbits"
        errors = []
        table = read(path, errors=errors)
        assert table.select(columns).equals(pgn.select(columns)), codec
        assert [e.error for e in errors] == [e.error for e in pgn_errors]
        data = path.read_bytes()
        for form in (data, memoryview(data), gzip.compress(data), zstd(data)):
            assert read(form, errors=[]).equals(table), codec
        # Named anything: the content decides.
        renamed = tmp_path / f"{codec}.pgn"
        renamed.write_bytes(data)
        assert read(renamed, errors=[]).equals(table)


def test_rejected_games_say_their_input(tmp_path):
    a = tmp_path / "a.pgn"
    a.write_text(GOOD + BAD)
    errors = []
    table = read([a, (GOOD + GOOD + BAD).encode()], errors=errors)
    assert table.num_rows == 3
    assert [(e.source, e.line) for e in errors] == [(str(a), 8), ("<bytes 1>", 13)]
    assert read(BAD.encode(), errors=errors).num_rows == 0 and errors[-1].source == "<bytes>"
    # The warning and strict's error name the input of the game.
    with pytest.warns(chessbits.PgnWarning, match=r"2 inputs: 2 game\(s\) could not be read.*first: .*a\.pgn: line 8"):
        read([a, BAD.encode()])
    reader = chessbits.read_pgn([GOOD.encode(), BAD.encode()], strict=True)
    assert reader.read_next_batch().num_rows == 1
    with pytest.raises(ValueError, match=r"<bytes 1>: line 3: illegal move 'Ke3'"):
        reader.read_next_batch()


@pytest.mark.parametrize("bad", [None, 12, 1.5, {"a.pgn"}, {"a": 1}, iter(["a.pgn"]), object()])
def test_wrong_types_are_type_errors(bad):
    with pytest.raises(TypeError, match="expected a path"):
        chessbits.read_pgn(bad)


@pytest.mark.parametrize("bad, where", [([b"1. e4 *", 3], r"path\[1\]"), ([["a.pgn"]], r"path\[0\]"),
                                        ((None,), r"path\[0\]")])
def test_wrong_items_are_type_errors_naming_them(bad, where):
    with pytest.raises(TypeError, match=where):
        chessbits.read_pgn(bad)


def test_missing_files_raise_when_called(tmp_path):
    good = tmp_path / "g.pgn"
    good.write_text(GOOD)
    with pytest.raises(FileNotFoundError, match="nope.pgn"):
        chessbits.read_pgn([good, tmp_path / "nope.pgn"])
    # PGN text passed as a file name: the error says how to pass it.
    with pytest.raises(FileNotFoundError, match=r"pass it as bytes"):
        chessbits.read_pgn(GOOD)


def test_empty_and_garbage_bytes():
    assert read(b"").num_rows == 0
    assert read([b"", bytearray()]).num_rows == 0
    rng = random.Random(27)
    for _ in range(40):
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 3000)))
        for form in (data, gzip.compress(data), zstd(data)):
            try:
                read(form, errors=[])
            except (ValueError, OSError) as e:
                assert str(e)  # a clear error; crashes are not
    with pytest.raises(chessbits.ChessbitsError, match="UTF-16"):
        chessbits.read_pgn(GOOD.encode("utf-16"))
    # Compressed bytes cut short: an error while reading, not garbage games.
    with pytest.raises(OSError):
        compressed = gzip.compress((GOOD * 200).encode())
        read(compressed[: len(compressed) // 2])


def test_damaged_archives():
    data = (GOLDEN / "games.entropy.cbits").read_bytes()
    # The magic and then nothing an archive has: refused when called.
    for bad in (data[:4], data[:12], data[:8] + b"\0" * 200):
        with pytest.raises(chessbits.ChessbitsError, match="damaged archive"):
            chessbits.read_pgn(bad)
    # A block damaged, the archive cut in a block or in its index: the games before it are
    # read, then a ValueError names the damage.
    for bad in (data[:600] + bytes([data[600] ^ 0xFF]) + data[601:], data[:30], data[:700], data[:-5]):
        reader = chessbits.read_pgn(bad, batch_size=1, errors=[])
        with pytest.raises(ValueError, match="<bytes>: damaged archive"):
            for _ in reader:
                pass
    # Random bytes after the magic.
    rng = random.Random(5)
    for _ in range(30):
        garbage = data[:rng.randrange(8, len(data))] + bytes(rng.randrange(256) for _ in range(rng.randrange(0, 400)))
        try:
            read(garbage, errors=[])
        except ValueError as e:
            assert "damaged archive" in str(e)
