"""export_parts, export_records and seal_index (the Spark build's pieces): hostile input is a
Python exception, never a crash."""

import os

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import chessbits


def export(tmp_path):
    pgn = tmp_path / "g.pgn"
    pgn.write_text('[Result "1-0"]\n\n1. e4 e5 1-0\n\n[Result "0-1"]\n\n1. d4 d5 0-1\n')
    out = tmp_path / "export"
    out.mkdir()
    pq.write_table(chessbits.read_pgn(str(pgn)).read_all(), str(out / "part-0.parquet"))
    return out


def test_export_records_numbers_the_rows_as_given(tmp_path):
    parts = chessbits.export_parts(export(tmp_path))
    assert [(p["rows"], p["first_game"], p["moves_code"]) for p in parts] == [(2, 0, "entropy")]
    table = pq.read_table(parts[0]["path"])
    games, positions, explorer, errors = chessbits.export_records(
        table.to_batches()[0], [0, 1], [0, 0], [0, 1], moves_code=parts[0]["moves_code"])
    assert games.column("game").to_pylist() == [0, 1]
    assert sorted(set(positions.column("game").to_pylist())) == [0, 1]
    assert positions.num_rows == 6 and explorer.num_rows == 6 and errors == []


def test_export_records_refuses_bad_numbers():
    batch = pa.record_batch({"movetext": ["1. e4 1-0"], "plies": pa.array([1], pa.int32())})
    with pytest.raises(ValueError, match="game: 2 rows, expected 1"):
        chessbits.export_records(batch, [0, 1], [0], [0])
    with pytest.raises(ValueError, match="a null number"):
        chessbits.export_records(batch, pa.array([None], pa.int64()), [0], [0])
    with pytest.raises(ValueError, match="moves_code"):
        chessbits.export_records(batch, [0], [0], [0], moves_code="morse")
    with pytest.raises(chessbits.ChessbitsError, match="`moves` or `movetext`"):
        chessbits.export_records(pa.record_batch({"plies": pa.array([1], pa.int32())}), [0], [0], [0])


def test_seal_index_refuses_a_directory_without_tables(tmp_path):
    out = export(tmp_path)
    empty = tmp_path / "tables"
    empty.mkdir()
    with pytest.raises(OSError):
        chessbits.seal_index(empty, out)
    assert os.listdir(empty) == []
