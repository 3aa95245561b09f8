//! The position a query asks about: a FEN or EPD (or `startpos`), then moves played from it.

use chessbits::notation::epd::Epd;
use chessbits::notation::uci::parse_uci;
use chessbits::position::Position;

use crate::error::IndexError;

/// The position after `moves` (SAN or UCI, separated by spaces; move numbers such as `1.` and
/// `12...` are skipped; a null move, `0000` or `--`, is an error) from `fen` (a FEN, an EPD
/// line, or `startpos`; the start position when `None`). Chess960 positions are given by their
/// FEN (Shredder or X-FEN castling).
///
/// ```
/// use chessbits_index::resolve_position;
/// let pos = resolve_position(None, "1. e4 e5 2.g1f3 Nc6 3. Bb5 a6 4. 0-0").unwrap();
/// assert_eq!(pos.fen(), "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 1 4");
/// let err = resolve_position(None, "e4 Ke7").unwrap_err();
/// assert_eq!(err.to_string(), "move 2 'Ke7': illegal move 'Ke7'");
/// assert!(resolve_position(Some("8/8/8/8/8/8/8/8 w - - 0 1"), "").is_err());
/// ```
pub fn resolve_position(fen: Option<&str>, moves: &str) -> Result<Position, IndexError> {
    let mut pos = match fen.map(str::trim) {
        None | Some("startpos") => Position::startpos(),
        Some(text) => match Position::from_fen(text) {
            Ok(pos) => pos,
            Err(fen_error) => match Epd::parse(text) {
                Ok(epd) => epd.position,
                Err(_) => return Err(IndexError::Query(format!("FEN: {fen_error}"))),
            },
        },
    };
    let mut played = 0;
    for token in moves.split_whitespace() {
        // Move numbers ("1.", "12...") and "1.e4" written together.
        let token = match token.rfind('.') {
            Some(dot) if token[..dot].bytes().all(|b| b.is_ascii_digit() || b == b'.') => &token[dot + 1..],
            _ => token,
        };
        if token.is_empty() {
            continue;
        }
        played += 1;
        let m = match pos.parse_san(token) {
            Ok(m) => m,
            Err(san_error) => match parse_uci(&pos, token) {
                Ok(m) => m,
                Err(_) => return Err(IndexError::Query(format!("move {played} '{token}': {san_error}"))),
            },
        };
        // `0000` is UCI's null move: no game of the index plays one (its positions end at a
        // null move), and `play_unchecked` would treat it as a move from a1.
        if m.is_null() {
            return Err(IndexError::Query(format!(
                "move {played} '{token}': a null move (games are indexed up to their first null move)"
            )));
        }
        pos.play_unchecked(m);
    }
    Ok(pos)
}
