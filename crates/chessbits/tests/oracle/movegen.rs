//! The oracle's moves: attack tests by 0x88 square differences over the enemy piece list (sliders
//! confirmed by stepping along the line), pseudo-legal generation by stepping offsets until the
//! `0x88` test or a piece stops it, and legality by playing each move on a copy of the board and
//! asking whether the mover's king is attacked. Slow and plain on purpose.

use super::board::*;

const KNIGHT_STEPS: [i16; 8] = [-33, -31, -18, -14, 14, 18, 31, 33];
const KING_STEPS: [i16; 8] = [-17, -16, -15, -1, 1, 15, 16, 17];
const DIAGONALS: [i16; 4] = [-17, -15, 15, 17];
const STRAIGHTS: [i16; 4] = [-16, -1, 1, 16];

// What can attack across a square difference `target - attacker` (indexed `+ 119`), ignoring
// what stands between.
const CAN_KNIGHT: u8 = 1;
const CAN_KING: u8 = 2;
const CAN_DIAGONAL: u8 = 4;
const CAN_STRAIGHT: u8 = 8;
const CAN_WHITE_PAWN: u8 = 16;
const CAN_BLACK_PAWN: u8 = 32;

/// Per difference: who can attack across it, and the unit step a slider takes along it.
const TABLES: ([u8; 239], [i16; 239]) = tables();

const fn tables() -> ([u8; 239], [i16; 239]) {
    let mut can = [0u8; 239];
    let mut step = [0i16; 239];
    let mut i = 0;
    while i < 8 {
        can[(KNIGHT_STEPS[i] + 119) as usize] |= CAN_KNIGHT;
        can[(KING_STEPS[i] + 119) as usize] |= CAN_KING;
        i += 1;
    }
    let mut d = 0;
    while d < 4 {
        let mut k = 1;
        while k < 8 {
            let diag = DIAGONALS[d] * k;
            can[(diag + 119) as usize] |= CAN_DIAGONAL;
            step[(diag + 119) as usize] = DIAGONALS[d];
            let straight = STRAIGHTS[d] * k;
            can[(straight + 119) as usize] |= CAN_STRAIGHT;
            step[(straight + 119) as usize] = STRAIGHTS[d];
            k += 1;
        }
        d += 1;
    }
    // A white pawn attacks up the board (+15, +17), a black one down.
    can[(15 + 119) as usize] |= CAN_WHITE_PAWN;
    can[(17 + 119) as usize] |= CAN_WHITE_PAWN;
    can[(119 - 15) as usize] |= CAN_BLACK_PAWN;
    can[(119 - 17) as usize] |= CAN_BLACK_PAWN;
    (can, step)
}

/// A move of the oracle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OracleMove {
    pub from: u8,
    /// Where the moving piece (for a castle, the king) lands.
    pub to: u8,
    /// Promotion role, 0 for none.
    pub promotion: u8,
    pub kind: Kind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Normal,
    DoublePush,
    EnPassant,
    /// A castle with the rook standing on this square.
    Castle(u8),
}

impl OracleMove {
    /// UCI: `e2e4`, `e7e8q`; a castle as the king's destination (`e1g1`), or in Chess960 as the
    /// king taking its own rook (`e1h1`).
    pub fn uci(&self, chess960: bool) -> String {
        let to = match self.kind {
            Kind::Castle(rook) if chess960 => rook,
            _ => self.to,
        };
        let mut s = square_name(self.from) + &square_name(to);
        if self.promotion != 0 {
            s.push(b" pnbrqk"[self.promotion as usize] as char);
        }
        s
    }
}

fn step(sq: u8, delta: i16) -> Option<u8> {
    let t = sq as i16 + delta;
    if (0..128).contains(&t) && t & 0x88 == 0 {
        Some(t as u8)
    } else {
        None
    }
}

impl Board {
    /// Whether a piece of `by` attacks `target`.
    pub fn attacked(&self, target: u8, by: usize) -> bool {
        let (can, steps) = &TABLES;
        for &from in &self.list[by][..self.count[by]] {
            let diff = (target as i16 - from as i16 + 119) as usize;
            let mask = can[diff];
            if mask == 0 {
                continue;
            }
            let needed = match role_of(self.squares[from as usize]) {
                PAWN if by == WHITE => CAN_WHITE_PAWN,
                PAWN => CAN_BLACK_PAWN,
                KNIGHT => CAN_KNIGHT,
                KING => CAN_KING,
                BISHOP => CAN_DIAGONAL,
                ROOK => CAN_STRAIGHT,
                _ => CAN_DIAGONAL | CAN_STRAIGHT,
            };
            if mask & needed == 0 {
                continue;
            }
            if needed & (CAN_DIAGONAL | CAN_STRAIGHT) == 0 {
                return true;
            }
            let delta = steps[diff];
            let mut sq = from as i16 + delta;
            while sq != target as i16 && self.squares[sq as usize] == 0 {
                sq += delta;
            }
            if sq == target as i16 {
                return true;
            }
        }
        false
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.attacked(self.king[self.turn], 1 - self.turn)
    }

    /// The moves by the rules of each piece (castling only when fully legal).
    pub fn pseudo_legal_moves(&self) -> Vec<OracleMove> {
        let us = self.turn;
        let mut out = Vec::with_capacity(64);
        let normal = |from, to| OracleMove {
            from,
            to,
            promotion: 0,
            kind: Kind::Normal,
        };
        for &from in &self.list[us][..self.count[us]] {
            let role = role_of(self.squares[from as usize]);
            let (deltas, slides): (&[i16], bool) = match role {
                PAWN => {
                    self.pawn_moves(from, &mut out);
                    continue;
                }
                KNIGHT => (&KNIGHT_STEPS, false),
                BISHOP => (&DIAGONALS, true),
                ROOK => (&STRAIGHTS, true),
                QUEEN | KING => (&KING_STEPS, role == QUEEN),
                _ => unreachable!("bad role {role}"),
            };
            for &delta in deltas {
                let mut sq = from;
                while let Some(to) = step(sq, delta) {
                    let there = self.squares[to as usize];
                    if there != 0 {
                        if color_of(there) != us {
                            out.push(normal(from, to));
                        }
                        break;
                    }
                    out.push(normal(from, to));
                    if !slides {
                        break;
                    }
                    sq = to;
                }
            }
        }
        self.castles(&mut out);
        out
    }

    fn pawn_moves(&self, from: u8, out: &mut Vec<OracleMove>) {
        let us = self.turn;
        let (forward, start_rank, last_rank) = if us == WHITE { (16, 1, 7) } else { (-16, 6, 0) };
        let mut push = |to: u8, kind: Kind| {
            if rank_of(to) == last_rank {
                for promotion in [QUEEN, ROOK, BISHOP, KNIGHT] {
                    out.push(OracleMove {
                        from,
                        to,
                        promotion,
                        kind,
                    });
                }
            } else {
                out.push(OracleMove {
                    from,
                    to,
                    promotion: 0,
                    kind,
                });
            }
        };
        if let Some(one) = step(from, forward).filter(|&sq| self.squares[sq as usize] == 0) {
            push(one, Kind::Normal);
            if rank_of(from) == start_rank {
                if let Some(two) = step(one, forward).filter(|&sq| self.squares[sq as usize] == 0) {
                    push(two, Kind::DoublePush);
                }
            }
        }
        for side in [-1, 1] {
            let Some(to) = step(from, forward + side) else {
                continue;
            };
            let there = self.squares[to as usize];
            if there != 0 && color_of(there) != us {
                push(to, Kind::Normal);
            } else if there == 0 && self.ep == Some(to) {
                // The pawn that skipped `to` stands just behind it, seen from us.
                let victim = (to as i16 - forward) as u8;
                if self.squares[victim as usize] == piece(1 - us, PAWN) {
                    push(to, Kind::EnPassant);
                }
            }
        }
    }

    /// Castles that are legal: the king not in check; every square from the king to its target
    /// and from the rook to its target empty but for these two; no square the king crosses or
    /// lands on attacked (tested with king and rook off the board, where they will not be).
    fn castles(&self, out: &mut Vec<OracleMove>) {
        let us = self.turn;
        let king = self.king[us];
        let back = rank_of(king);
        for side in [KING_SIDE, QUEEN_SIDE] {
            let Some(rook) = self.castling[us][side] else {
                continue;
            };
            if self.squares[rook as usize] != piece(us, ROOK) {
                continue;
            }
            let (king_to, rook_to) = if side == KING_SIDE {
                (square(6, back), square(5, back))
            } else {
                (square(2, back), square(3, back))
            };
            let span = |a: u8, b: u8| a.min(b)..=a.max(b);
            let blocked = span(king, king_to)
                .chain(span(rook, rook_to))
                .any(|sq| sq != king && sq != rook && self.squares[sq as usize] != 0);
            if blocked || self.in_check() {
                continue;
            }
            let mut without = *self;
            without.remove(king);
            without.remove(rook);
            if span(king, king_to).any(|sq| without.attacked(sq, 1 - us)) {
                continue;
            }
            out.push(OracleMove {
                from: king,
                to: king_to,
                promotion: 0,
                kind: Kind::Castle(rook),
            });
        }
    }

    /// The position after `m` (pseudo-legal here).
    pub fn play(&self, m: OracleMove) -> Board {
        let us = self.turn;
        let mut b = *self;
        b.ep = None;
        let mover = self.squares[m.from as usize];
        match m.kind {
            Kind::Castle(rook) => {
                // King to g, rook to f; or king to c, rook to d.
                let rook_to = if file_of(m.to) == 6 { m.to - 1 } else { m.to + 1 };
                b.remove(m.from);
                b.remove(rook);
                b.add(m.to, mover);
                b.add(rook_to, piece(us, ROOK));
            }
            Kind::EnPassant => {
                let victim = square(file_of(m.to), rank_of(m.from));
                b.remove(victim);
                b.relocate(m.from, m.to);
            }
            Kind::Normal | Kind::DoublePush => {
                if b.squares[m.to as usize] != 0 {
                    b.remove(m.to);
                }
                b.relocate(m.from, m.to);
                if m.promotion != 0 {
                    b.remove(m.to);
                    b.add(m.to, piece(us, m.promotion));
                }
                if m.kind == Kind::DoublePush {
                    b.ep = Some((m.from + m.to) / 2);
                }
            }
        }
        if role_of(mover) == KING {
            b.castling[us] = [None; 2];
        }
        for rights in &mut b.castling {
            for right in rights.iter_mut() {
                if *right == Some(m.from) || *right == Some(m.to) {
                    *right = None;
                }
            }
        }
        b.turn = 1 - us;
        b
    }

    /// The legal moves: the pseudo-legal ones after which the mover's king is not attacked.
    pub fn legal_moves(&self) -> Vec<OracleMove> {
        let us = self.turn;
        self.pseudo_legal_moves()
            .into_iter()
            .filter(|&m| {
                let after = self.play(m);
                !after.attacked(after.king[us], 1 - us)
            })
            .collect()
    }

    /// The legal moves in UCI, sorted (castles written as [`Board::chess960`] says).
    pub fn legal_uci(&self) -> Vec<String> {
        let mut moves: Vec<String> = self.legal_moves().iter().map(|m| m.uci(self.chess960)).collect();
        moves.sort();
        moves
    }

    /// The legal move written `uci`, castles in this board's notation only (see [`Board::chess960`]).
    pub fn find_uci(&self, uci: &str) -> Option<OracleMove> {
        self.legal_moves().into_iter().find(|m| m.uci(self.chess960) == uci)
    }

    /// Leaf count of the legal move tree at `depth`.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|&m| self.play(m).perft(depth - 1)).sum()
    }
}
