#!/usr/bin/env python3
"""Plays a match between two chess engines through python-chess and reports W-D-L, the score and
an Elo difference with its 95% interval. Every move is checked for legality and every clock for
a forfeit; such games count as losses and are listed.

Usage:
  match.py ENGINE_A ENGINE_B [--games N] [--tc BASE+INC | --tc MOVES/BASE+INC | --movetime S |
           --nodes N] [--a-option NAME=VALUE ...] [--b-option NAME=VALUE ...]
           [--b-protocol uci|xboard] [--openings FILE] [--pgn OUT] [--seed S]
           [--concurrency N]

An engine is a command line (`"gnuchess --uci"` works); `--b-protocol xboard` drives engines that
speak only CECP (phalanx). Options are UCI options (`--b-option UCI_LimitStrength=true
--b-option UCI_Elo=2000`); `Threads` and `Hash` are set to 1 and 16 for both engines unless given.

Openings: each pair of games plays the same opening with colours swapped. They are drawn
(seeded, so runs repeat) from the lichess opening tables (`crates/chessbits/data/openings/*.tsv`
or `../shared/data/openings/`), lines of 6 to 12 plies; `--openings FILE` takes a file of
openings instead, one per line: a FEN/EPD, or moves in SAN (the `pgn` column of a TSV works).

Time: `--tc 10+0.1` is 10 s a game plus 0.1 s a move; `--tc 40/10+0` gives 10 s for every 40
moves (sent as movestogo); `--movetime 0.1` is 100 ms a move; `--nodes 20000` searches that many
nodes a move (no clock: results do not depend on the machine's load, but node counts of
different engines are not comparable). A game loses on time when an engine's clock goes below
zero; the time python-chess measures includes process overhead, so keep the machine quiet.

Concurrency: `--concurrency 2` plays two games at a time, each with its own pair of engine
processes (one search runs per game at any moment, so N games want N free cores). Game g always
plays opening g // 2 with the same colours, so the games and their openings do not depend on N;
with a clock, which moves the engines find does.
"""
import argparse
import glob
import math
import os
import random
import shlex
import sys
import threading
import time

import chess
import chess.engine
import chess.pgn

HERE = os.path.dirname(os.path.abspath(__file__))
OPENING_DIRS = [
    os.path.join(HERE, "..", "crates", "chessbits", "data", "openings"),
    os.path.join(HERE, "..", "..", "shared", "data", "openings"),
]


def load_openings(path, rng, count):
    """Start positions (FEN) with the moves leading there, `count` of them."""
    lines = []
    if path:
        with open(path) as f:
            lines = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    else:
        for directory in OPENING_DIRS:
            files = sorted(glob.glob(os.path.join(directory, "*.tsv")))
            if files:
                for name in files:
                    with open(name) as f:
                        for row in f:
                            cols = row.rstrip("\n").split("\t")
                            if len(cols) >= 3 and cols[0] != "eco":
                                lines.append(cols[2])
                break
    openings = []
    for line in lines:
        board = chess.Board()
        try:
            if "/" in line.split()[0]:
                board = chess.Board(" ".join(line.split()[:4]) + " 0 1")
            else:
                for token in line.split():
                    if token[0].isdigit():
                        continue
                    board.push_san(token)
        except ValueError:
            continue
        if path or 6 <= len(board.move_stack) <= 12:
            if not board.is_game_over():
                openings.append(board)
    if not openings:
        openings = [chess.Board()]
    rng.shuffle(openings)
    return [openings[i % len(openings)] for i in range(count)]


def parse_options(pairs):
    options = {}
    for pair in pairs or []:
        name, _, value = pair.partition("=")
        options[name] = value
    return options


def open_engine(command, protocol, options):
    argv = shlex.split(command)
    if protocol == "xboard":
        engine = chess.engine.SimpleEngine.popen_xboard(argv)
    else:
        engine = chess.engine.SimpleEngine.popen_uci(argv)
    wanted = {"Threads": "1", "Hash": "16"}
    wanted.update(options)
    config = {}
    for name, value in wanted.items():
        if name in engine.options:
            config[name] = value
        elif name in options:
            raise SystemExit(f"{command}: no option {name!r} (it has {sorted(engine.options)})")
    engine.configure(config)
    return engine


class Clock:
    def __init__(self, spec):
        self.moves, self.base, self.inc = None, 0.0, 0.0
        if "/" in spec:
            moves, spec = spec.split("/", 1)
            self.moves = int(moves)
        base, _, inc = spec.partition("+")
        self.base, self.inc = float(base), float(inc or 0)


def play(white, black, opening, args, spent):
    """Plays one game; returns (result, reason, board, forfeit_side). Adds each engine's time
    and moves to spent[engine] = [seconds, moves]."""
    board = opening.copy()
    engines = {chess.WHITE: white, chess.BLACK: black}
    clock = Clock(args.tc) if args.tc else None
    clocks = {chess.WHITE: clock.base, chess.BLACK: clock.base} if clock else None
    moves_made = {chess.WHITE: 0, chess.BLACK: 0}
    while not board.is_game_over(claim_draw=True):
        side = board.turn
        if args.nodes:
            limit = chess.engine.Limit(nodes=args.nodes)
        elif args.movetime:
            limit = chess.engine.Limit(time=args.movetime)
        else:
            movestogo = None
            if clock.moves:
                movestogo = clock.moves - moves_made[side] % clock.moves
            limit = chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
                                       white_inc=clock.inc, black_inc=clock.inc, remaining_moves=movestogo)
        start = time.monotonic()
        try:
            result = engines[side].play(board, limit)
        except chess.engine.EngineError as error:
            return ("0-1" if side == chess.WHITE else "1-0"), f"engine error: {error}", board, side
        used = time.monotonic() - start
        spent[engines[side]][0] += used
        spent[engines[side]][1] += 1
        if clocks is not None:
            clocks[side] -= used
            if clocks[side] < 0:
                why = f"time forfeit: {used * 1000:.0f} ms used with {(clocks[side] + used) * 1000:.0f} ms left"
                return ("0-1" if side == chess.WHITE else "1-0"), why, board, side
            clocks[side] += clock.inc
            moves_made[side] += 1
            if clock.moves and moves_made[side] % clock.moves == 0:
                clocks[side] += clock.base
        if result.move is None or result.move not in board.legal_moves:
            return ("0-1" if side == chess.WHITE else "1-0"), f"illegal move {result.move}", board, side
        board.push(result.move)
    outcome = board.outcome(claim_draw=True)
    return board.result(claim_draw=True), outcome.termination.name.lower(), board, None


def elo(score, n, wins, draws, losses):
    """Elo difference of a score fraction and its 95% interval (normal approximation)."""
    def to_elo(s):
        if s <= 0:
            return -math.inf
        if s >= 1:
            return math.inf
        return -400 * math.log10(1 / s - 1)
    variance = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score ** 2) / n
    margin = 1.96 * math.sqrt(variance / n)
    return to_elo(score), to_elo(score - margin), to_elo(score + margin)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--tc", default=None)
    ap.add_argument("--movetime", type=float, default=None)
    ap.add_argument("--nodes", type=int, default=None)
    ap.add_argument("--a-option", action="append")
    ap.add_argument("--b-option", action="append")
    ap.add_argument("--a-protocol", default="uci", choices=["uci", "xboard"])
    ap.add_argument("--b-protocol", default="uci", choices=["uci", "xboard"])
    ap.add_argument("--openings", default=None)
    ap.add_argument("--pgn", default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--concurrency", type=int, default=1)
    args = ap.parse_args()
    if sum(x is not None for x in (args.tc, args.movetime, args.nodes)) > 1:
        ap.error("give one of --tc, --movetime, --nodes")
    if args.concurrency < 1:
        ap.error("--concurrency must be at least 1")
    if args.tc is None and args.movetime is None and args.nodes is None:
        args.tc = "10+0.1"
    rng = random.Random(args.seed)
    openings = load_openings(args.openings, rng, (args.games + 1) // 2)
    # One pair of engines per concurrent game, opened up front so a bad option fails at once.
    pairs = [(open_engine(args.a, args.a_protocol, parse_options(args.a_option)),
              open_engine(args.b, args.b_protocol, parse_options(args.b_option)))
             for _ in range(args.concurrency)]
    a, b = pairs[0]
    names = (a.id.get("name", args.a), b.id.get("name", args.b))
    limit = f"tc {args.tc}" if args.tc else (f"movetime {args.movetime}s" if args.movetime else f"nodes {args.nodes}")
    print(f"{names[0]} vs {names[1]}, {args.games} games, {limit}"
          + (f", {args.concurrency} at a time" if args.concurrency > 1 else ""), flush=True)
    tally = {"wins": 0, "draws": 0, "losses": 0}
    problems = []
    pgn_out = open(args.pgn, "w") if args.pgn else None
    # Wall time per move as the match sees it (search, pipe and start-up of the reply): with
    # --movetime an engine that overshoots, or keeps time in reserve, shows here.
    spent = {"A": [0.0, 0], "B": [0.0, 0]}
    lock = threading.Lock()
    next_game = iter(range(args.games))
    failures = []

    def record(g, a_white, result, why, board, forfeit):
        points = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
        points = points if a_white else 1.0 - points
        tally["wins"] += points == 1.0
        tally["draws"] += points == 0.5
        tally["losses"] += points == 0.0
        if forfeit is not None:
            loser = names[0] if (forfeit == chess.WHITE) == a_white else names[1]
            problems.append(f"game {g + 1}: {loser}: {why}")
        print(f"game {g + 1}: {'A' if a_white else 'B'} white: {result} ({why}, {board.fullmove_number} moves)"
              f"  [{tally['wins']}-{tally['draws']}-{tally['losses']}]", flush=True)
        if pgn_out:
            game = chess.pgn.Game.from_board(board)
            game.headers["Event"] = f"chessbits match, {limit}"
            game.headers["Round"] = str(g + 1)
            game.headers["White"], game.headers["Black"] = (names if a_white else names[::-1])
            game.headers["Result"] = result
            game.headers["Termination"] = why
            print(game, file=pgn_out, end="\n\n", flush=True)

    def worker(pair):
        a, b = pair
        mine = {a: [0.0, 0], b: [0.0, 0]}
        try:
            while True:
                with lock:
                    g = next(next_game, None)
                if g is None:
                    return
                a_white = g % 2 == 0
                white, black = (a, b) if a_white else (b, a)
                result, why, board, forfeit = play(white, black, openings[g // 2], args, mine)
                with lock:
                    record(g, a_white, result, why, board, forfeit)
        except Exception as error:  # reported after the other games finish
            with lock:
                failures.append(f"{type(error).__name__}: {error}")
        finally:
            with lock:
                for role, engine in (("A", a), ("B", b)):
                    spent[role][0] += mine[engine][0]
                    spent[role][1] += mine[engine][1]

    threads = [threading.Thread(target=worker, args=(pair,)) for pair in pairs]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        for pair in pairs:
            for engine in pair:
                engine.quit()
        if pgn_out:
            pgn_out.close()
    if failures:
        raise SystemExit("match stopped: " + "; ".join(failures))
    wins, draws, losses = tally["wins"], tally["draws"], tally["losses"]
    n = wins + draws + losses
    score = (wins + draws / 2) / n
    diff, low, high = elo(score, n, wins, draws, losses)
    print(f"A = {names[0]}, B = {names[1]}")
    print(f"A: +{wins} ={draws} -{losses}, {wins + draws / 2}/{n} ({100 * score:.1f}%), "
          f"Elo {diff:+.0f} (95%: {low:+.0f} to {high:+.0f})")
    per_move = [1000 * seconds / max(moves, 1) for seconds, moves in (spent["A"], spent["B"])]
    print(f"mean time a move: A {per_move[0]:.0f} ms, B {per_move[1]:.0f} ms")
    print(f"forfeits and illegal moves: {len(problems)}")
    for line in problems:
        print("  " + line)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
