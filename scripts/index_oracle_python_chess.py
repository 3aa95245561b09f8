"""The position index against python-chess: every game of the PGN files replayed by python-chess,
positions identified by python-chess's EPD (placement, side to move, castling, legal en passant
square), and for a sample of positions the counts that `chessbits explore --json` and
`chessbits search --json` print compared with the replay's.

    python scripts/index_oracle_python_chess.py CHESSBITS INDEX PGN_DIR [--positions N]

INDEX must be built from exactly the PGN files of PGN_DIR (`chessbits index build PGN_DIR -o
INDEX`). Variant games (which chessbits does not index) are skipped by both. Prints one line;
exits 1 at the first difference.
"""

import collections
import json
import os
import subprocess
import sys

import chess
import chess.pgn


def pgn_files(directory):
    found = []
    for root, _, names in os.walk(directory):
        found.extend(os.path.join(root, n) for n in names if n.endswith(".pgn"))
    return sorted(found)


def outcome(game):
    result = game.headers.get("Result", "*").strip()
    return result if result in ("1-0", "0-1", "1/2-1/2") else None


def replay(files):
    """Per position (EPD): per game number, the plies and the move played at the first."""
    seen = collections.defaultdict(dict)
    results = []
    for path in files:
        with open(path, encoding="utf-8-sig", errors="replace") as handle:
            while True:
                game = chess.pgn.read_game(handle)
                if game is None:
                    break
                if game.errors or "Variant" in game.headers and game.headers["Variant"].lower() not in (
                    "standard",
                    "chess960",
                    "fischerandom",
                    "from position",
                ):
                    continue
                number = len(results)
                results.append(outcome(game))
                board = game.board()
                moves = list(game.mainline_moves())
                for ply in range(len(moves) + 1):
                    epd = board.epd()
                    move = None
                    if ply < len(moves):
                        m = moves[ply]
                        move = chess_uci(board, m)
                    games = seen[epd]
                    if number not in games:
                        games[number] = ([], move)
                    games[number][0].append(ply)
                    if ply < len(moves):
                        board.push(moves[ply])
    return seen, results


def chess_uci(board, move):
    """UCI as the index writes it: a castle with the king on the e-file and the rook in the
    corner as the king's two-step (e1g1), any other (Chess960) castle as king takes rook."""
    if not board.is_castling(move):
        return move.uci()
    king_takes_rook = board.uci(move, chess960=True)
    rook = chess.parse_square(king_takes_rook[2:4])
    if chess.square_file(move.from_square) == 4 and chess.square_file(rook) in (0, 7):
        return board.uci(move, chess960=False)
    return king_takes_rook


def run_json(binary, args):
    out = subprocess.run([binary, *args], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def main():
    args = sys.argv[1:]
    wanted = 300
    if "--positions" in args:
        i = args.index("--positions")
        wanted = int(args[i + 1])
        del args[i : i + 2]
    binary, index, directory = args
    seen, results = replay(pgn_files(directory))
    info = run_json(binary, ["index", "info", index, "--json"])
    if info["games"] != len(results):
        print(f"the index has {info['games']} games, python-chess read {len(results)}")
        return 1
    # A deterministic sample: positions of several games, of one game, reached twice in a game.
    keys = sorted(seen)
    several = [k for k in keys if len(seen[k]) > 1]
    single = [k for k in keys if len(seen[k]) == 1]
    twice = [k for k in keys if any(len(p) > 1 for p, _ in seen[k].values())]
    sample = []
    for group, share in ((several, 0.4), (single, 0.4), (twice, 0.2)):
        n = max(1, int(wanted * share))
        step = max(1, len(group) // n)
        sample.extend(group[::step][:n])
    for epd in sample:
        games = seen[epd]
        fen = epd + " 0 1"
        search = run_json(binary, ["search", index, "--fen", fen, "--json", "--limit", "1000000"])
        plies = sorted(tuple(g["plies"]) for g in search["games"])
        want_plies = sorted(tuple(p) for p, _ in games.values())
        if search["total"] != len(games) or plies != want_plies:
            print(f"{fen}: search finds {search['total']} games {plies[:5]}, python-chess {len(games)} {want_plies[:5]}")
            return 1
        explorer = run_json(binary, ["explore", index, "--fen", fen, "--json", "--top-games", "0", "--recent-games", "0"])
        totals = collections.Counter()
        per_move = collections.defaultdict(collections.Counter)
        for number, (_, move) in games.items():
            result = results[number]
            if result is None:
                continue
            totals[result] += 1
            if move is not None:
                per_move[move][result] += 1
        got_totals = (explorer["white"], explorer["draws"], explorer["black"])
        want_totals = (totals["1-0"], totals["1/2-1/2"], totals["0-1"])
        if got_totals != want_totals:
            print(f"{fen}: explore totals {got_totals}, python-chess {want_totals}")
            return 1
        got_moves = {m["uci"]: (m["white"], m["draws"], m["black"]) for m in explorer["moves"]}
        want_moves = {m: (c["1-0"], c["1/2-1/2"], c["0-1"]) for m, c in per_move.items()}
        if got_moves != want_moves:
            print(f"{fen}: explore moves {got_moves}, python-chess {want_moves}")
            return 1
    print(f"python-chess {chess.__version__} agrees with chessbits on {len(sample)} positions of {len(results)} games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
