"""Position against python-chess: legal moves (UCI and SAN), FEN, check, outcome, over random
games and the corpus's positions."""

import random

import chess
import pytest

import chessbits

# Positions with castling, en passant, promotions and pins to start random games from.
START_FENS = [
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "4k3/1P6/8/3pP3/8/8/6p1/4K3 w - d6 0 1",
]


def outcome_of(board, claim_draw=False):
    outcome = board.outcome()
    if outcome is not None:
        winner = None if outcome.winner is None else ("white" if outcome.winner else "black")
        return (winner, outcome.termination.name.lower(), outcome.result())
    # python-chess's claim_draw also counts a claim announced with the move that repeats or
    # reaches fifty moves (FIDE 9.2.1.1, 9.3.1); ours, as the library's, only the position's own.
    if claim_draw and board.is_repetition(3):
        return (None, "threefold_repetition", "1/2-1/2")
    if claim_draw and board.halfmove_clock >= 100:
        return (None, "fifty_moves", "1/2-1/2")
    return None


def check_same(pos, board):
    assert pos.fen() == board.fen()
    assert sorted(pos.legal_moves()) == sorted(m.uci() for m in board.legal_moves)
    assert sorted(pos.legal_moves("san")) == sorted(board.san(m) for m in board.legal_moves)
    assert pos.is_check() == board.is_check()
    assert pos.turn == ("white" if board.turn else "black")
    for claim in (False, True):
        ours = pos.outcome(claim_draw=claim)
        assert (None if ours is None else (ours.winner, ours.termination, ours.result)) == outcome_of(board, claim)


def test_random_games():
    rng = random.Random(20261125)
    checked = 0
    for game in range(60):
        fen = START_FENS[game % len(START_FENS)]
        board, pos = chess.Board(fen), chessbits.Position(fen)
        for _ in range(rng.randrange(20, 200)):
            check_same(pos, board)
            checked += 1
            if board.outcome() is not None:
                break
            move = rng.choice(list(board.legal_moves))
            if rng.random() < 0.5:
                assert pos.push_uci(move.uci()) == board.san(move)
            else:
                assert pos.push_san(board.san(move)) == move.uci()
            board.push(move)
        assert pos.moves == [m.uci() for m in board.move_stack]
    assert checked >= 300


def test_corpus_positions(corpus):
    """Every 10th position of the corpus's games."""
    checked = 0
    for _, table, _, _ in corpus:
        fens = chessbits.positions(table["moves"], table["plies"], every=10, start_fens=table["start_fen"])
        for game in fens.to_pylist()[::3]:
            for fen in game:
                check_same(chessbits.Position(fen), chess.Board(fen))
                checked += 1
    assert checked >= 300


def test_pop_and_repr():
    pos = chessbits.Position()
    assert pos.pop() is None
    pos.push_san("Nf3")
    copy = pos.copy()
    assert pos.pop() == "g1f3"
    assert pos == chessbits.Position() and copy != pos
    assert repr(pos) == f"Position('{chess.STARTING_FEN}')"
    assert pos.san("e2e4") == "e4"
    assert str(pos).splitlines()[0].startswith("8 r n b q k b n r")


def test_repetition_outcome():
    pos = chessbits.Position()
    for _ in range(2):
        for uci in ["g1f3", "g8f6", "f3g1", "f6g8"]:
            pos.push_uci(uci)
    assert pos.outcome() is None
    assert pos.outcome(claim_draw=True).termination == "threefold_repetition"


def test_chess960_castling():
    fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
    pos, board = chessbits.Position(fen, chess960=True), chess.Board(fen, chess960=True)
    assert sorted(pos.legal_moves()) == sorted(m.uci() for m in board.legal_moves)


@pytest.mark.parametrize("fen", ["", "not a fen", "8/8/8/8/8/8/8/8 w - - 0 1",
                                 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"])
def test_bad_fen(fen):
    with pytest.raises(chessbits.InvalidFenError) as info:
        chessbits.Position(fen)
    assert isinstance(info.value, ValueError) and str(info.value)


@pytest.mark.parametrize("fen, why", [
    ("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", "more material than a game can give"),
    ("4k3/8/3N4/8/B3R3/8/8/4K3 b - - 0 1", "a check that no move could have given"),
])
def test_impossible_positions_need_allow_impossible(fen, why):
    with pytest.raises(chessbits.InvalidFenError, match=why):
        chessbits.Position(fen)
    pos = chessbits.Position(fen, allow_impossible=True)
    assert pos.fen() == fen and pos.legal_moves()


@pytest.mark.parametrize("push, move", [("push_san", "Ke2"), ("push_san", "Nd4"), ("push_san", "xyz"),
                                        ("push_san", "--"), ("push_uci", "e2e5"), ("push_uci", "0000"),
                                        ("push_uci", "zz"), ("san", "e1e2")])
def test_illegal_moves(push, move):
    pos = chessbits.Position()
    with pytest.raises(chessbits.IllegalMoveError) as info:
        getattr(pos, push)(move)
    assert isinstance(info.value, ValueError)
    assert pos.fen() == chess.STARTING_FEN


def test_svg_diagram():
    import xml.etree.ElementTree as ET

    pos = chessbits.Position()
    for san in ["e4", "f6", "d4", "g5", "Qh5+"]:
        pos.push_san(san)
    svg = pos._repr_svg_()
    root = ET.fromstring(svg)  # well-formed XML, or this raises
    ns = {"s": "http://www.w3.org/2000/svg"}
    assert root.get("width") == "390"
    pieces = root.findall("s:use", ns)
    assert len(pieces) == 32 == len(chess.Board(pos.fen()).piece_map())
    classes = [e.get("class") for e in root.iter()]
    assert "check e8" in classes
    assert {"last-move d1", "last-move h5"} <= set(classes)
    assert root.find("s:desc", ns).text == pos.fen()

    flipped = ET.fromstring(pos.svg(flipped=True, size=200, lastmove=False, shapes="Ga1a8,Rd4", comment="[%cal Be2e4]"))
    h1 = next(e for e in flipped.iter() if (e.get("class") or "").endswith("square light h1"))
    assert (h1.get("x"), h1.get("y")) == ("30", "30")
    classes = [e.get("class") for e in flipped.iter()]
    assert "arrow green a1a8" in classes and "arrow blue e2e4" in classes and "mark red d4" in classes
    assert not any(c and c.startswith("last-move") for c in classes)

    with pytest.raises(ValueError, match="Xa1a2"):
        pos.svg(shapes="Ga1a8,Xa1a2")
