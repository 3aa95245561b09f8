#!/usr/bin/env python3
"""Drives chessbits-engine through python-chess's UCI client, as a GUI would, and checks what it
answers: identification and options, analysis with scores and legal principal variations, a mate
found, MultiPV, Chess960, `go infinite` stopped, pondering, a short game against itself with a
clock (every move legal, no loss on time), garbage lines that must not break the engine, and a
Polyglot book (keyed by python-chess) at a Latin-1 path, then /dev/zero as a book.

Usage: uci_python_chess.py PATH/TO/chessbits-engine
Exit status 0 when every check passed; each failure is printed.
"""
import os
import struct
import subprocess
import sys
import tempfile
import time

import chess
import chess.engine
import chess.polyglot

FAILURES = []
PASSED = []


def check(name, condition, detail=""):
    (PASSED if condition else FAILURES).append(name)
    if not condition:
        print(f"FAILED: {name}: {detail}", flush=True)


def legal_line(board, moves):
    board = board.copy()
    for m in moves:
        if m not in board.legal_moves:
            return False
        board.push(m)
    return True


def raw_dialogue(path):
    """Garbage, a malformed FEN and an illegal move, then a search: the engine must keep going."""
    lines = [
        "uci",
        "this is not a command",
        "position fen 8/8/8/8 w - - 0 1",
        "position startpos moves e2e4 e7e5 e1e8",
        "setoption name Hash value lots",
        "go depth banana",
        "\x00\x01\x02",
        "isready",
        "position startpos moves e2e4",
        "go depth 4",
    ]
    proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    for line in lines:
        proc.stdin.write(line + "\n")
    proc.stdin.flush()
    out = []
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        out.append(line.strip())
        if line.startswith("bestmove"):
            break
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait(timeout=10)
    errors = [l for l in out if l.startswith("info string")]
    check("garbage lines answered with info string", len(errors) >= 4, errors)
    check("isready answered after garbage", "readyok" in out, out[-5:])
    best = [l for l in out if l.startswith("bestmove")]
    board = chess.Board()
    board.push_uci("e2e4")
    ok = bool(best) and chess.Move.from_uci(best[0].split()[1]) in board.legal_moves
    check("search after garbage returns a legal move", ok, best)
    check("engine exits 0 on quit", proc.returncode == 0, proc.returncode)


def book_dialogue(path):
    """A one-entry book (1. g4, keyed by python-chess) at a path that is not UTF-8, sent as raw
    bytes as a GUI on a Latin-1 system does; then /dev/zero, which must be refused."""
    with tempfile.TemporaryDirectory() as tmp:
        book = os.path.join(os.fsencode(tmp), b"jos\xe9.bin")
        g2g4 = (1 << 9) | (6 << 6) | (3 << 3) | 6
        with open(book, "wb") as f:
            f.write(struct.pack(">QHHI", chess.polyglot.zobrist_hash(chess.Board()), g2g4, 1, 0))
        lines = [
            b"setoption name OwnBook value true",
            b"setoption name BookFile value " + book,
            b"isready",
            b"position startpos",
            b"go depth 1",
            b"setoption name BookFile value /dev/zero",
            b"isready",
            b"go depth 1",
        ]
        proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        proc.stdin.write(b"".join(line + b"\n" for line in lines))
        proc.stdin.flush()
        out = []
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and sum(l.startswith("bestmove") for l in out) < 2:
            line = proc.stdout.readline()
            if not line:
                break
            out.append(line.decode("utf-8", "replace").strip())
        proc.stdin.write(b"quit\n")
        proc.stdin.flush()
        proc.wait(timeout=10)
    best = [l for l in out if l.startswith("bestmove")]
    check("book at a Latin-1 path plays its move", best[:1] == ["bestmove g2g4"], out)
    check("both readyok answered", out.count("readyok") == 2, out)
    refused = [l for l in out if l.startswith("info string") and "not a regular file" in l]
    check("/dev/zero as a book is refused with info string", len(refused) == 1, out)
    ok = len(best) == 2 and chess.Move.from_uci(best[1].split()[1]) in chess.Board().legal_moves
    check("search after a refused book returns a legal move", ok, best)
    check("engine exits 0 on quit after the book dialogue", proc.returncode == 0, proc.returncode)


def main():
    path = sys.argv[1]
    raw_dialogue(path)
    book_dialogue(path)
    engine = chess.engine.SimpleEngine.popen_uci(path)
    try:
        check("id name", "chessbits" in engine.id.get("name", "").lower(), engine.id)
        for option in ["Hash", "Threads", "MultiPV", "Move Overhead", "UCI_Chess960", "OwnBook", "BookFile", "Ponder",
                       "UCI_LimitStrength", "UCI_Elo"]:
            check(f"option {option}", option in engine.options, sorted(engine.options))

        board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
        info = engine.analyse(board, chess.engine.Limit(depth=6))
        check("finds mate in one (Qxf7#)", info["score"].white() == chess.engine.Mate(1), info.get("score"))
        check("mate PV is legal", legal_line(board, info.get("pv", [])), info.get("pv"))

        board = chess.Board("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1")
        info = engine.analyse(board, chess.engine.Limit(depth=7))
        check("finds mate in two", info["score"].white() == chess.engine.Mate(2), info.get("score"))

        board = chess.Board()
        infos = engine.analyse(board, chess.engine.Limit(depth=6), multipv=3)
        check("MultiPV 3 gives three lines", len(infos) == 3, len(infos))
        firsts = {i["pv"][0] for i in infos if i.get("pv")}
        check("MultiPV lines start with distinct legal moves",
              len(firsts) == 3 and all(m in board.legal_moves for m in firsts), firsts)
        info = infos[0]
        for key in ["depth", "seldepth", "nodes", "nps", "time", "hashfull", "score", "pv"]:
            check(f"info has {key}", key in info, sorted(info))

        board = chess.Board("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", chess960=True)
        result = engine.play(board, chess.engine.Limit(depth=6))
        check("Chess960 move is legal", result.move in board.legal_moves, result.move)

        board = chess.Board()
        with engine.analysis(board) as analysis:
            time.sleep(0.5)
            analysis.stop()
            best = analysis.wait()
        check("go infinite stops with a legal bestmove", best.move in board.legal_moves, best)

        result = engine.play(board, chess.engine.Limit(time=0.2), ponder=True)
        board2 = board.copy()
        board2.push(result.move)
        check("ponder move is legal", result.ponder is None or result.ponder in board2.legal_moves, result)

        # A short game against itself on a clock: 3 s + 0.05 s each, at most 80 plies.
        board = chess.Board()
        clocks = {chess.WHITE: 3.0, chess.BLACK: 3.0}
        problems = []
        while not board.is_game_over(claim_draw=True) and len(board.move_stack) < 80:
            start = time.monotonic()
            result = engine.play(board, chess.engine.Limit(white_clock=clocks[chess.WHITE],
                                                            black_clock=clocks[chess.BLACK],
                                                            white_inc=0.05, black_inc=0.05))
            clocks[board.turn] -= time.monotonic() - start
            if clocks[board.turn] < 0:
                problems.append(f"time forfeit at ply {len(board.move_stack)}")
                break
            clocks[board.turn] += 0.05
            if result.move not in board.legal_moves:
                problems.append(f"illegal move {result.move}")
                break
            board.push(result.move)
        check("self-play game: legal moves, no loss on time", not problems, problems)
    finally:
        engine.quit()
    print(f"python-chess UCI client: {len(PASSED)} checks passed, {len(FAILURES)} failed")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
