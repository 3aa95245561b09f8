#!/usr/bin/env python3
"""Plays quick games between two UCI engines with python-chess, checking every move is legal
and no engine loses on time.

Usage: selfplay.py ENGINE_A ENGINE_B [--games N] [--tc SECONDS+INC | --nodes N] [--threads T]

With --nodes every move searches that many nodes (no clock): results do not depend on the
machine's load.

Games alternate colours and start from the start position with a few random opening plies
(seeded, so runs repeat the same openings; each pair of games shares its opening). Prints each result and the score of ENGINE_A.
"""
import argparse
import random
import sys
import time

import chess
import chess.engine


def play(white, black, base, inc, rng, nodes=None):
    board = chess.Board()
    for _ in range(rng.randint(2, 6)):
        board.push(rng.choice(list(board.legal_moves)))
    clocks = {chess.WHITE: base, chess.BLACK: base}
    engines = {chess.WHITE: white, chess.BLACK: black}
    while not board.is_game_over(claim_draw=True):
        side = board.turn
        if nodes:
            limit = chess.engine.Limit(nodes=nodes)
        else:
            limit = chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
                                       white_inc=inc, black_inc=inc)
        start = time.monotonic()
        result = engines[side].play(board, limit)
        used = time.monotonic() - start
        clocks[side] -= used
        if clocks[side] < 0 and not nodes:
            why = f"time forfeit: {used * 1000:.0f} ms used with {(clocks[side] + used) * 1000:.0f} ms left"
            return ("0-1" if side == chess.WHITE else "1-0"), why, board
        clocks[side] += inc
        if result.move is None or result.move not in board.legal_moves:
            return ("0-1" if side == chess.WHITE else "1-0"), f"illegal move {result.move}", board
        board.push(result.move)
    outcome = board.outcome(claim_draw=True)
    return board.result(claim_draw=True), outcome.termination.name.lower(), board


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--tc", default="2+0.05")
    ap.add_argument("--nodes", type=int, default=None)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    base, inc = (float(x) for x in args.tc.split("+"))
    a = chess.engine.SimpleEngine.popen_uci(args.a)
    b = chess.engine.SimpleEngine.popen_uci(args.b)
    for e in (a, b):
        # Not every engine has the option (toga2 calls it "Number of Threads").
        if "Threads" in e.options:
            e.configure({"Threads": args.threads})
    score = 0.0
    problems = 0
    for g in range(args.games):
        white, black = (a, b) if g % 2 == 0 else (b, a)
        # Each pair of games plays the same opening with colours swapped.
        rng = random.Random(1000 + g // 2)
        result, why, board = play(white, black, base, inc, rng, args.nodes)
        a_white = g % 2 == 0
        points = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
        score += points if a_white else 1.0 - points
        if "forfeit" in why or "illegal" in why:
            problems += 1
        print(f"game {g + 1}: {result} ({why}, {board.fullmove_number} moves)", flush=True)
    a.quit()
    b.quit()
    print(f"A scored {score}/{args.games}; {problems} forfeits or illegal moves")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
