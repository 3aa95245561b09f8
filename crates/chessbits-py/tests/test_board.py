"""Position's board queries as python-chess names them (piece_at, attackers, is_attacked_by,
board), against python-chess on the corpus's positions; and their bad arguments."""

import chess
import pytest

import chessbits


def corpus_fens(corpus, every=7):
    fens = []
    for _, table, _, _ in corpus:
        games = chessbits.positions(table["moves"], table["plies"], every=every, start_fens=table["start_fen"])
        for game in games.to_pylist()[::4]:
            fens.extend(game)
    return fens


def test_board_queries_agree_with_python_chess(corpus):
    fens = corpus_fens(corpus)
    assert len(fens) >= 300
    attacked = 0
    for i, fen in enumerate(fens):
        pos, board = chessbits.Position(fen), chess.Board(fen)
        assert pos.board() == str(board), fen
        for square in chess.SQUARES:
            piece = board.piece_at(square)
            symbol = None if piece is None else piece.symbol()
            name = chess.square_name(square)
            assert pos.piece_at(square) == symbol == pos.piece_at(name), (fen, name)
            for color in chess.COLORS:
                expected = list(board.attackers(color, square))
                assert pos.attackers(color, square) == expected, (fen, name, color)
                assert pos.is_attacked_by(color, square) == board.is_attacked_by(color, square)
                attacked += bool(expected)
            if i % 10 == 0:  # the names of colors and squares: the same answers
                for color, color_name in ((chess.WHITE, "white"), (chess.BLACK, "black")):
                    assert pos.attackers(color_name, name) == list(board.attackers(color, square))
                    assert pos.is_attacked_by(color_name, name) == board.is_attacked_by(color, square)
    assert attacked > 1000


def test_board_follows_the_moves():
    pos, board = chessbits.Position(), chess.Board()
    for san in ["e4", "d5", "exd5", "Qxd5", "Nc3", "Qa5", "d4", "c6", "Nf3", "Bg4", "Be2", "e6", "O-O"]:
        pos.push_san(san)
        board.push_san(san)
        assert pos.board() == str(board)
    assert pos.piece_at("g1") == "K" and pos.piece_at(chess.F1) == "R"
    # A pinned piece still attacks, as python-chess counts it (the knight pinned by the rook).
    pinned = chessbits.Position("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1")
    assert pinned.attackers(True, "d4") == [chess.E2] == list(chess.Board(pinned.fen()).attackers(chess.WHITE, chess.D4))
    assert str(pos).splitlines()[0] == "8 r n . . k b n r"


@pytest.mark.parametrize("square", [64, -1, 1000, "e9", "E4x", "", "i1"])
def test_bad_squares_are_value_errors(square):
    pos = chessbits.Position()
    with pytest.raises(ValueError, match="square"):
        pos.piece_at(square)
    with pytest.raises(ValueError, match="square"):
        pos.attackers(True, square)
    with pytest.raises(ValueError, match="square"):
        pos.is_attacked_by("white", square)


@pytest.mark.parametrize("square", [None, 1.5, b"e4", ["e4"], chess.Move.from_uci("e2e4")])
def test_wrong_square_types_are_type_errors(square):
    pos = chessbits.Position()
    with pytest.raises(TypeError, match="square"):
        pos.piece_at(square)
    with pytest.raises(TypeError, match="square"):
        pos.is_attacked_by(True, square)


def test_bad_colors():
    pos = chessbits.Position()
    for color in ("red", "White", "w", ""):
        with pytest.raises(ValueError, match="color"):
            pos.attackers(color, "e4")
    for color in (None, 1, 0, 1.0, b"white"):
        with pytest.raises(TypeError, match="color"):
            pos.is_attacked_by(color, "e4")
