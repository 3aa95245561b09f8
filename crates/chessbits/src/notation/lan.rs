//! Long Algebraic Notation (LAN): `Ng1-f3`, `e7xd8=Q+`, `O-O`.
//!
//! Like SAN, but the origin square is always written, followed by `-` for a move or `x` for a
//! capture; castles are `O-O` and `O-O-O`, the null move `--`.
//!
//! ```
//! use chessbits::notation::lan::{lan_of, Lan};
//! use chessbits::notation::uci::parse_uci;
//! use chessbits::position::Position;
//!
//! let pos = Position::startpos();
//! let m = parse_uci(&pos, "g1f3").unwrap();
//! assert_eq!(lan_of(&pos, m).to_string(), "Ng1-f3");
//! let lan: Lan = "Ng1-f3".parse().unwrap();
//! assert_eq!(lan.to_move(&pos), Ok(m));
//! ```

use core::fmt;
use core::str::FromStr;

use super::san::{from_str_by, split_suffix, suffix_of, write_with_suffix, San, SanError, Suffix};
use crate::moves::Move;
use crate::position::Position;
use crate::types::{display_padded, CastlingSide, Role, Square};

/// A move in LAN, without suffix.
///
/// ```
/// use chessbits::notation::lan::Lan;
/// use chessbits::types::{Role, Square};
/// let lan: Lan = "e7xd8=Q".parse().unwrap();
/// assert_eq!(lan, Lan::Normal { role: Role::Pawn, from: Square::E7, capture: true, to: Square::D8,
///                                promotion: Some(Role::Queen) });
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Lan {
    /// A piece or pawn move.
    Normal {
        /// The moving piece.
        role: Role,
        /// Its origin.
        from: Square,
        /// Whether it captures.
        capture: bool,
        /// Its target.
        to: Square,
        /// The promotion role.
        promotion: Option<Role>,
    },
    /// `O-O` or `O-O-O`.
    Castle(CastlingSide),
    /// `--`.
    Null,
}

/// A [`Lan`] with its check or mate suffix.
///
/// ```
/// use chessbits::notation::lan::LanPlus;
/// let lan: LanPlus = "Qd1xd8#".parse().unwrap();
/// assert_eq!(lan.to_string(), "Qd1xd8#");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct LanPlus {
    /// The move.
    pub lan: Lan,
    /// `+`, `#`, or nothing.
    pub suffix: Option<Suffix>,
}

impl Lan {
    /// The LAN of the legal move `m` in `pos` (unspecified, but no panic, for an illegal move).
    ///
    /// ```
    /// use chessbits::notation::lan::Lan;
    /// use chessbits::notation::uci::parse_uci;
    /// use chessbits::position::Position;
    /// let pos = Position::startpos();
    /// assert_eq!(Lan::from_move(&pos, parse_uci(&pos, "e2e4").unwrap()).to_string(), "e2-e4");
    /// ```
    pub fn from_move(pos: &Position, m: Move) -> Lan {
        if m.is_null() {
            return Lan::Null;
        }
        if let Some(side) = m.castling_side() {
            return Lan::Castle(side);
        }
        Lan::Normal {
            role: pos.board().role_at(m.from()).unwrap_or(Role::Pawn),
            from: m.from(),
            capture: m.is_capture(),
            to: m.to(),
            promotion: m.promotion(),
        }
    }

    /// The legal move this LAN names in `pos`; the role and capture mark must agree with the
    /// board.
    ///
    /// ```
    /// use chessbits::notation::lan::Lan;
    /// use chessbits::notation::san::SanError;
    /// use chessbits::position::Position;
    /// let wrong_piece: Lan = "Bg1-f3".parse().unwrap();
    /// assert_eq!(wrong_piece.to_move(&Position::startpos()), Err(SanError::Illegal));
    /// ```
    pub fn to_move(&self, pos: &Position) -> Result<Move, SanError> {
        let m = self.to_san().to_move(pos)?;
        if let Some((role, from, capture, _, _)) = self.parts() {
            if pos.board().role_at(from) != Some(role) || m.is_capture() != capture {
                return Err(SanError::Illegal);
            }
        }
        Ok(m)
    }

    /// The same move as SAN, disambiguated by the whole origin square.
    fn to_san(self) -> San {
        match self.parts() {
            Some((role, from, capture, to, promotion)) => San::Normal {
                role,
                file: Some(from.file()),
                rank: Some(from.rank()),
                capture,
                to,
                promotion,
            },
            None => match self {
                Lan::Castle(side) => San::Castle(side),
                _ => San::Null,
            },
        }
    }

    /// A piece or pawn move's role, origin, capture mark, target and promotion.
    fn parts(self) -> Option<(Role, Square, bool, Square, Option<Role>)> {
        match self {
            Lan::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => Some((role, from, capture, to, promotion)),
            _ => None,
        }
    }

    /// Parses LAN from bytes: `[NBRQK]` origin `-`|`x` target `[=NBRQ]`, `O-O`, `O-O-O`, `--`.
    ///
    /// ```
    /// use chessbits::notation::lan::Lan;
    /// assert!(Lan::parse(b"Ng1-f3").is_ok());
    /// assert!(Lan::parse(b"Nf3").is_err());
    /// assert!(Lan::parse(b"g1f3").is_err()); // that is UCI
    /// ```
    pub fn parse(bytes: &[u8]) -> Result<Lan, SanError> {
        // The separator is mandatory in LAN; the lenient SAN parser checks the rest.
        let separator = bytes.iter().position(|&b| b == b'-' || b == b'x');
        let san = San::parse_lenient(bytes)?;
        if san.suffix.is_some() || !bytes.is_ascii() {
            return Err(SanError::Malformed);
        }
        match san.san {
            San::Normal {
                role,
                file: Some(file),
                rank: Some(rank),
                capture,
                to,
                promotion,
            } if separator.is_some() => {
                let lan = Lan::Normal {
                    role,
                    from: Square::from_coords(file, rank),
                    capture,
                    to,
                    promotion,
                };
                // Only the canonical spelling: `e8=Q`, no `P`, no `:`.
                if lan.to_string().as_bytes() == bytes {
                    Ok(lan)
                } else {
                    Err(SanError::Malformed)
                }
            }
            San::Castle(side) if bytes.starts_with(b"O") => Ok(Lan::Castle(side)),
            San::Null if bytes == b"--" => Ok(Lan::Null),
            _ => Err(SanError::Malformed),
        }
    }
}

impl LanPlus {
    /// The LAN of the legal move `m` in `pos` with its suffix (same as [`lan_of`]).
    ///
    /// ```
    /// use chessbits::notation::lan::LanPlus;
    /// use chessbits::position::Position;
    /// use chessbits::notation::uci::parse_uci;
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1").unwrap();
    /// assert_eq!(LanPlus::from_move(&pos, parse_uci(&pos, "a1a8").unwrap()).to_string(), "Ra1-a8+");
    /// ```
    pub fn from_move(pos: &Position, m: Move) -> LanPlus {
        LanPlus {
            lan: Lan::from_move(pos, m),
            suffix: suffix_of(pos, m),
        }
    }

    /// Parses LAN with an optional `+` or `#`.
    ///
    /// ```
    /// use chessbits::notation::lan::LanPlus;
    /// use chessbits::notation::san::Suffix;
    /// assert_eq!(LanPlus::parse(b"O-O-O#").unwrap().suffix, Some(Suffix::Checkmate));
    /// ```
    pub fn parse(bytes: &[u8]) -> Result<LanPlus, SanError> {
        let (body, suffix) = split_suffix(bytes);
        Ok(LanPlus {
            lan: Lan::parse(body)?,
            suffix,
        })
    }
}

/// The LAN of the legal move `m` in `pos`, with its check or mate suffix.
///
/// ```
/// use chessbits::notation::lan::lan_of;
/// use chessbits::notation::uci::parse_uci;
/// use chessbits::position::Position;
/// let pos = Position::from_fen("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1").unwrap();
/// assert_eq!(lan_of(&pos, parse_uci(&pos, "e7d8q").unwrap()).to_string(), "e7xd8=Q+");
/// ```
pub fn lan_of(pos: &Position, m: Move) -> LanPlus {
    LanPlus::from_move(pos, m)
}

from_str_by!(Lan, Lan::parse, "LAN, see [`Lan::parse`].");
from_str_by!(
    LanPlus,
    LanPlus::parse,
    "LAN with optional suffix, see [`LanPlus::parse`]."
);

impl fmt::Display for Lan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some((role, from, capture, to, promotion)) = self.parts() else {
            return self.to_san().fmt(f);
        };
        display_padded(f, |w| {
            if role != Role::Pawn {
                w.write_char(role.upper_char())?;
            }
            write!(w, "{from}{}{to}", if capture { 'x' } else { '-' })?;
            if let Some(role) = promotion {
                write!(w, "={}", role.upper_char())?;
            }
            Ok(())
        })
    }
}

impl fmt::Display for LanPlus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_with_suffix(f, &self.lan, self.suffix)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::uci::parse_uci;

    #[test]
    fn every_legal_move_round_trips_through_lan() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbqkb1r/pp1p1pPp/8/2p1pP2/1P1P4/3P3P/P1P1P3/RNBQKBNR w KQkq e6 0 1",
        ];
        let mut list = crate::lists::MoveList::new();
        for fen in fens {
            // The third has nine white pawns: a composed position.
            let pos = Position::from_fen_with(fen, crate::position::Validation::Composed).unwrap();
            pos.legal_moves_into(&mut list);
            for &m in list.iter() {
                let text = lan_of(&pos, m).to_string();
                let parsed: LanPlus = text.parse().unwrap_or_else(|e| panic!("{fen} {text}: {e}"));
                assert_eq!(parsed.lan.to_move(&pos), Ok(m), "{fen} {text}");
            }
        }
    }

    #[test]
    fn lan_rejects_mismatched_capture_and_sloppy_forms() {
        let pos = Position::startpos();
        let fake_capture: Lan = "e2xe4".parse().unwrap();
        assert_eq!(fake_capture.to_move(&pos), Err(SanError::Illegal));
        for bad in ["e2e4", "Pe2-e4", "e7-e8Q", "0-0", "Z0", "e2-e4!", "Ng1-f3+"] {
            assert!(bad.parse::<Lan>().is_err(), "{bad}");
        }
        assert_eq!(
            parse_uci(&pos, "e2e4").map(|m| Lan::from_move(&pos, m).to_string()),
            Ok("e2-e4".to_string())
        );
    }
}
