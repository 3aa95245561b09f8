"""The position index (build_index, Index, position_key) against a brute-force replay of the
bundled corpus with python-chess, the Parquet tables read back by pyarrow (and DuckDB where it is
installed), and hostile input."""

import collections
import os
import pathlib
import shutil

import chess
import pyarrow as pa
import pytest

import chessbits

from conftest import PGN_FILES, ROOT, python_chess_games

RESULTS = {"1-0": "white", "1/2-1/2": "draws", "0-1": "black"}


def readable(games):
    """The games chessbits reads (python-chess found no error): the index numbers these."""
    return [g for g in games if not g.errors]


def board_fen(board):
    return board.fen(shredder=board.chess960)


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    """The bundled corpus indexed (its top-level *.pgn files, sorted: the directory itself would
    stand for its subdirectories' files too), its summary, and the games as python-chess reads
    them, numbered as the index numbers them."""
    out = tmp_path_factory.mktemp("index") / "corpus"
    summary = chessbits.build_index([str(path) for path in PGN_FILES], out, threads=2)
    games = [g for path in PGN_FILES for g in readable(python_chess_games(path))]
    return out, summary, games


@pytest.fixture(scope="session")
def oracle(built):
    """Brute force: per position (python-chess's transposition key), per game number, the plies
    where the game stands in it and the move played at the first (None: the game ended there);
    and a FEN of each position."""
    _, _, games = built
    visits = collections.defaultdict(dict)
    fens = {}
    for number, game in enumerate(games):
        board = game.board()
        moves = list(game.mainline_moves())
        for ply in range(len(moves) + 1):
            key = board._transposition_key()
            fens.setdefault(key, board_fen(board))
            plies, first = visits[key].get(number, ([], moves[ply].uci() if ply < len(moves) else None))
            visits[key][number] = (plies + [ply], first)
            if ply < len(moves):
                board.push(moves[ply])
    return visits, fens


def query_keys(built, oracle):
    """Positions to ask about: the start, openings, transpositions (a position reached by two
    move orders), plies 10, 30 and 50 of some games, final positions, positions a game reaches
    twice."""
    _, _, games = built
    visits, fens = oracle
    keys = []
    for game in games[::7]:
        board = game.board()
        moves = list(game.mainline_moves())
        for ply, move in enumerate(moves + [None]):
            if ply in (0, 2, 4, 10, 30, 50) or move is None:
                keys.append(board._transposition_key())
            if move is not None:
                board.push(move)
    repeated = [k for k, v in visits.items() if any(len(p) > 1 for p, _ in v.values())]
    keys += repeated[:20]
    assert repeated, "the corpus has a position reached twice in one game"
    popular = [k for k, v in visits.items() if len(v) > 1]
    keys += popular[:200]
    return list(dict.fromkeys(keys))


def expected_counts(games, hits):
    """Explorer counts of brute-force hits: totals and per move, decided games only."""
    totals = collections.Counter()
    moves = collections.defaultdict(collections.Counter)
    for number, (_, first) in hits.items():
        outcome = RESULTS.get(games[number].headers.get("Result"))
        if outcome is None:
            continue
        totals[outcome] += 1
        if first is not None:
            moves[first][outcome] += 1
    return totals, moves


def test_summary_and_open(built):
    out, summary, games = built
    assert summary["games"] == len(games) > 400
    assert summary["errors"] == len(summary["error_messages"])
    assert summary["positions"] > summary["games"] * 20
    index = chessbits.Index(out)
    assert index.games == len(games)
    assert [pathlib.Path(s["path"]).name for s in index.sources] == [p.name for p in PGN_FILES]
    assert sum(s["games"] for s in index.sources) == len(games)
    assert "games=" in repr(index)


def test_explore_and_search_against_python_chess(built, oracle):
    out, _, games = built
    visits, fens = oracle
    index = chessbits.Index(out)
    keys = query_keys(built, oracle)
    assert len(keys) > 300
    for key in keys:
        fen, hits = fens[key], visits[key]
        found = index.search(fen, limit=10**6)
        assert int(found.schema.metadata[b"total"]) == len(hits) == found.num_rows, fen
        assert found.column("game").to_pylist() == sorted(hits), fen
        assert found.column("plies").to_pylist() == [hits[n][0] for n in sorted(hits)], fen
        assert found.column("uci").to_pylist() == [hits[n][1] for n in sorted(hits)], fen

        table = index.explore(fen)
        totals, moves = expected_counts(games, hits)
        meta = table.schema.metadata
        assert [int(meta[k.encode()]) for k in ("white", "draws", "black")] == [
            totals["white"], totals["draws"], totals["black"]], fen
        got = {r["uci"]: (r["white"], r["draws"], r["black"], r["games"]) for r in table.to_pylist()}
        want = {uci: (c["white"], c["draws"], c["black"], sum(c.values())) for uci, c in moves.items()}
        assert got == want, fen
        # Most played first.
        assert table.column("games").to_pylist() == sorted(table.column("games").to_pylist(), reverse=True)
        board = chess.Board(fen, chess960=" " in fen and any(c in "ABCDEFGHabcdefgh" for c in fen.split()[2]))
        assert table.column("san").to_pylist() == [board.san(chess.Move.from_uci(u)) for u in table.column("uci").to_pylist()]


def test_moves_and_fen_agree(built):
    out, _, _ = built
    index = chessbits.Index(out)
    by_moves = index.explore(moves="1. e4 c5 2. Nf3")
    board = chess.Board()
    for san in ["e4", "c5", "Nf3"]:
        board.push_san(san)
    assert by_moves.equals(index.explore(board.fen()))
    assert by_moves.schema.metadata[b"key"] == chessbits.position_key_hex(board.fen()).encode()
    assert by_moves.num_rows > 0


def test_filters(built):
    out, _, games = built
    index = chessbits.Index(out)
    everything = index.search(limit=10**6)
    assert everything.num_rows == len(games)
    blitz = index.search(speeds=["blitz"], limit=10**6)
    assert 0 < blitz.num_rows < len(games)
    assert set(blitz.column("speed").to_pylist()) == {"blitz"}
    assert index.search(speeds="blitz", limit=10**6).equals(blitz)
    both = index.search(speeds="blitz,bullet", limit=10**6)
    assert both.num_rows > blitz.num_rows
    rated = index.search(ratings=[2000, 2200], limit=10**6)
    for w, b in zip(rated.column("white_elo").to_pylist(), rated.column("black_elo").to_pylist()):
        assert 2000 <= (w + b) // 2 < 2500
    name = everything.column("white").to_pylist()[0]
    mine = index.search(player=name.upper(), limit=10**6)
    assert mine.num_rows > 0
    assert all(name in (w, b) for w, b in zip(mine.column("white").to_pylist(), mine.column("black").to_pylist()))
    # The explorer with the player filter counts the same games.
    tree = index.explore(player=name)
    assert int(tree.schema.metadata[b"games"]) == sum(1 for r in mine.column("result").to_pylist() if r != "*")
    dates = [d for d in everything.column("date").to_pylist() if d and "?" not in d[:7]]
    month = sorted(dates)[len(dates) // 2][:7].replace(".", "-")
    since = index.search(since=month, limit=10**6).column("date").to_pylist()
    assert since and all(d[:7].replace(".", "-") >= month for d in since)
    until = index.search(until=month, limit=10**6).column("date").to_pylist()
    assert until and all(d[:7].replace(".", "-") <= month for d in until)


def test_search_pages_and_sort(built):
    out, _, _ = built
    index = chessbits.Index(out)
    all_games = index.search(moves="e4", limit=10**6)
    page = index.search(moves="e4", offset=5, limit=10)
    assert page.column("game").to_pylist() == all_games.column("game").to_pylist()[5:15]
    assert page.schema.metadata[b"total"] == all_games.schema.metadata[b"total"]
    by_date = index.search(moves="e4", sort="date", limit=10**6).column("date").to_pylist()
    known = [d for d in by_date if d is not None]
    assert known == sorted(known, reverse=True) and by_date[: len(known)] == known
    by_rating = index.search(moves="e4", sort="rating", limit=50).to_pylist()
    averages = [(r["white_elo"] + r["black_elo"]) // 2 for r in by_rating if r["white_elo"] and r["black_elo"]]
    assert averages == sorted(averages, reverse=True)


def test_game_text(built):
    out, _, games = built
    index = chessbits.Index(out)
    found = index.search(moves="d4 Nf6 c4", limit=3).to_pylist()
    assert found
    for row in found:
        text = index.game_text(row["game"])
        assert len(text) == row["length"]
        with open(row["source_path"], "rb") as f:
            f.seek(row["offset"])
            assert f.read(row["length"]) == text
        import io

        game = chess.pgn.read_game(io.StringIO(text.decode("utf-8")))
        assert game.headers == games[row["game"]].headers
    with pytest.raises(IndexError):
        index.game_text(index.games)


def test_explore_json_shape(built):
    out, _, _ = built
    index = chessbits.Index(out)
    tree = index.explore_json(moves="e4 c5", top_games=2, recent_games=3)
    assert set(tree) == {"opening", "white", "draws", "black", "moves", "topGames", "recentGames", "fen", "key"}
    assert tree["opening"]["eco"] == "B20"
    table = index.explore(moves="e4 c5")
    assert [m["uci"] for m in tree["moves"]] == table.column("uci").to_pylist()
    assert [m["averageRating"] for m in tree["moves"]] == table.column("average_rating").to_pylist()
    assert tree["white"] == int(table.schema.metadata[b"white"])
    assert len(tree["topGames"]) == 2 and len(tree["recentGames"]) == 3
    ratings = [(g["white"]["rating"] or 0) + (g["black"]["rating"] or 0) for g in tree["topGames"]]
    assert ratings == sorted(ratings, reverse=True)
    single = [m for m in tree["moves"] if m["white"] + m["draws"] + m["black"] == 1]
    assert single and all(m["game"]["uci"] == m["uci"] for m in single)
    assert index.explore_json(moves="e4", max_moves=2)["moves"].__len__() == 2


def test_position_key_is_the_key_column(built):
    """The key bytes select the explorer table's rows of the position, read without chessbits."""
    pq = pytest.importorskip("pyarrow.parquet")
    out, _, _ = built
    index = chessbits.Index(out)
    # The files by name: each part-N.parquet has a sidecar part-N.parquet.crc beside it.
    files = sorted(str(p) for p in (out / "explorer").glob("*.parquet"))
    rows = pa.concat_tables([pq.read_table(f) for f in files]).to_pylist()
    for moves in ["", "e4", "e4 c5 Nf3", "d4 Nf6 c4 e6"]:
        key = chessbits.position_key(moves=moves)
        assert isinstance(key, bytes) and len(key) == 16
        assert key.hex() == chessbits.position_key_hex(moves=moves)
        sums = collections.defaultdict(lambda: [0, 0, 0])
        for r in rows:
            if r["key"] == key and r["uci"] is not None:
                for i, col in enumerate(["white", "draws", "black"]):
                    sums[r["uci"]][i] += r[col]
        table = index.explore(moves=moves)
        assert {r["uci"]: [r["white"], r["draws"], r["black"]] for r in table.to_pylist()} == dict(sums)
        assert sums or moves == "d4 Nf6 c4 e6"


def test_position_key_in_duckdb(built):
    duckdb = pytest.importorskip("duckdb")
    out, _, _ = built
    index = chessbits.Index(out)
    key = chessbits.position_key(moves="e4")
    got = duckdb.execute(
        "SELECT uci, sum(white), sum(draws), sum(black) FROM read_parquet(?) WHERE key = ? AND uci IS NOT NULL "
        "GROUP BY uci",
        [str(out / "explorer" / "*.parquet"), key],
    ).fetchall()
    table = index.explore(moves="e4")
    assert {u: (w, d, b) for u, w, d, b in got} == {
        r["uci"]: (r["white"], r["draws"], r["black"]) for r in table.to_pylist()}


def test_position_key_values():
    start = chessbits.position_key()
    assert start[:8] == bytes.fromhex("463b96181691fc9c")  # the Polyglot key of the start
    assert chessbits.position_key("startpos") == start == chessbits.position_key(chess.STARTING_FEN)
    # Transpositions and move counters do not matter; side to move and castling do.
    assert chessbits.position_key(moves="Nf3 Nf6 Ng1 Ng8") == start
    assert chessbits.position_key(moves="Nf3") != chessbits.position_key("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1")
    # An en passant square no pawn can use is not part of the key.
    e4 = chessbits.position_key(moves="e4")
    assert e4 == chessbits.position_key("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")


@pytest.mark.parametrize("fen", ["not a fen", "8/8/8/8/8/8/8/8 w - - 0 1", ""])
def test_bad_fen(built, fen):
    index = chessbits.Index(built[0])
    for call in (lambda: index.explore(fen), lambda: index.search(fen), lambda: chessbits.position_key(fen)):
        with pytest.raises(chessbits.InvalidFenError) as info:
            call()
        assert isinstance(info.value, ValueError)


def test_bad_moves_and_filters(built):
    index = chessbits.Index(built[0])
    with pytest.raises(chessbits.IllegalMoveError, match="move 2 'Ke7'"):
        index.explore(moves="e4 Ke7")
    with pytest.raises(chessbits.IllegalMoveError):
        chessbits.position_key(moves="e5")
    with pytest.raises(ValueError, match="unknown speed 'hyper'"):
        index.search(speeds=["hyper"])
    with pytest.raises(ValueError, match="not a rating band"):
        index.explore(ratings=[1700])
    with pytest.raises(ValueError, match="not a month"):
        index.explore(since="2024-13")
    with pytest.raises(ValueError, match="sort"):
        index.search(sort="random")
    with pytest.raises(OverflowError):
        index.search(limit=-1)


def test_unknown_position(built):
    index = chessbits.Index(built[0])
    fen = "8/8/4k3/8/8/3K4/8/7R w - - 0 1"
    table = index.explore(fen)
    assert table.num_rows == 0 and table.schema.metadata[b"games"] == b"0"
    assert table.schema.names == ["uci", "san", "white", "draws", "black", "games", "average_rating", "last_date"]
    found = index.search(fen)
    assert found.num_rows == 0 and found.schema.metadata[b"total"] == b"0"
    assert found.schema.field("plies").type == pa.list_(pa.field("item", pa.int32(), nullable=False))
    assert index.explore_json(fen)["moves"] == []


def test_missing_and_damaged_index(built, tmp_path):
    with pytest.raises(FileNotFoundError):
        chessbits.Index(tmp_path / "nope")
    with pytest.raises(OSError):
        chessbits.Index(tmp_path)  # a directory without a manifest
    copy = tmp_path / "copy"
    shutil.copytree(built[0], copy)
    part = sorted((copy / "positions").glob("*.parquet"))[0]
    data = part.read_bytes()
    part.write_bytes(data[: len(data) // 2])  # truncated: footer gone
    with pytest.raises((chessbits.ChessbitsError, OSError)) as info:
        chessbits.Index(copy)
    assert "positions" in str(info.value)
    # The same length, bytes changed in the footer: still an error, not wrong counts.
    part.write_bytes(data[:-12] + b"\xff" * 8 + data[-4:])
    with pytest.raises((chessbits.ChessbitsError, OSError)):
        index = chessbits.Index(copy)
        index.explore(moves="e4")
        index.search(moves="e4")


def test_build_errors(tmp_path):
    pgn = tmp_path / "in" / "a.pgn"
    pgn.parent.mkdir()
    pgn.write_text('[Result "1-0"]\n\n1. e4 e5 1-0\n')
    with pytest.raises(FileNotFoundError):
        chessbits.build_index(tmp_path / "missing.pgn", tmp_path / "out")
    assert not (tmp_path / "out").exists()
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ValueError, match="no .pgn, .pgn.gz, .pgn.zst or .cbits file"):
        chessbits.build_index(empty, tmp_path / "out")
    out = tmp_path / "out"
    assert chessbits.build_index([pgn, pgn], out)["games"] == 2
    with pytest.raises(FileExistsError):
        chessbits.build_index(str(pgn), out)
    assert chessbits.build_index(str(pgn), out, force=True)["games"] == 1
    assert chessbits.Index(out).games == 1
    # A game chessbits cannot read is counted and left out.
    bad = tmp_path / "bad.pgn"
    bad.write_text('[Result "1-0"]\n\n1. e4 e5 1-0\n\n[Result "*"]\n\n1. e4 Ke7 *\n')
    summary = chessbits.build_index(bad, tmp_path / "out2")
    assert (summary["games"], summary["errors"]) == (1, 1)
    assert "Ke7" in summary["error_messages"][0]


def test_build_reads_what_the_cli_reads(tmp_path):
    """A directory stands for the PGN files and .cbits archives below it, at any depth; an
    archive is known by its content; a lone Parquet file is refused (give the export's
    directory)."""
    golden = ROOT / "crates" / "chessbits-archive" / "tests" / "golden" / "games.entropy.cbits"
    d = tmp_path / "games"
    (d / "sub").mkdir(parents=True)
    shutil.copy(golden, d / "sub" / "archive.cbits")
    (d / "a.pgn").write_text('[Result "1-0"]\n\n1. e4 e5 2. Nf3 1-0\n')
    (d / "notes.txt").write_text("not a game")
    archive_alone = chessbits.build_index(golden, tmp_path / "one")["games"]
    assert archive_alone > 0
    summary = chessbits.build_index(d, tmp_path / "all")
    assert summary["games"] == archive_alone + 1
    index = chessbits.Index(tmp_path / "all")
    assert int(index.search(moves="e4 e5 Nf3").schema.metadata[b"total"]) >= 1
    # An archive under any name is read as one.
    renamed = tmp_path / "archive.pgn"
    shutil.copy(golden, renamed)
    assert chessbits.build_index(renamed, tmp_path / "renamed")["games"] == archive_alone
    part = tmp_path / "part-0.parquet"
    part.write_bytes(b"PAR1" + bytes(8) + b"PAR1")
    with pytest.raises(chessbits.ChessbitsError, match="give the export's directory"):
        chessbits.build_index(part, tmp_path / "out")


def test_chess960_and_threads(tmp_path):
    start = "nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w GBgb - 0 1"
    pgn = tmp_path / "960.pgn"
    pgn.write_text(
        f'[Variant "Chess960"]\n[SetUp "1"]\n[FEN "{start}"]\n[Result "0-1"]\n\n1. e4 e5 2. Ng3 Ng6 0-1\n\n'
        '[Result "1-0"]\n\n1. e4 e5 1-0\n'
    )
    assert chessbits.build_index(pgn, tmp_path / "i")["games"] == 2
    index = chessbits.Index(tmp_path / "i")
    table = index.explore(start)
    assert table.to_pylist()[0]["uci"] == "e2e4" and table.schema.metadata[b"black"] == b"1"
    after = index.search(start, "e4 e5 Ng3")
    assert after.column("game").to_pylist() == [0] and after.column("fen").to_pylist() == [start]
    assert after.column("plies").to_pylist() == [[3]] and after.column("uci").to_pylist() == ["h8g6"]
    board = chess.Board(start, chess960=True)
    for san in ["e4", "e5"]:
        board.push_san(san)
    assert chessbits.position_key(board.fen(shredder=True)) == chessbits.position_key(start, "e4 e5")
    # Castling rights are part of the key.
    assert chessbits.position_key(start) != chessbits.position_key(start.replace("GBgb", "-"))
    # An open Index answers from several threads at once (queries release the GIL).
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(4) as pool:
        tables = list(pool.map(lambda m: index.search(moves=m).num_rows, ["", "e4", "e4 e5", "d4"] * 5))
    assert tables == [1, 1, 1, 0] * 5
