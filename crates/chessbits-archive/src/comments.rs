//! Comments, with lichess' `[%clk h:mm:ss]` and `[%eval x.xx]` / `[%eval #n]` commands stored
//! as small delta-coded integers.
//!
//! A comment becomes a *template* in the comments section: its text with every clock command
//! replaced by byte `0x01` and every evaluation command by byte `0x02`, their values going to
//! the clocks and evals sections. A command is replaced only if writing its value back gives
//! the very same bytes (`[%clk 0:05:00]` yes, `[%clk 0:5:00]` no), so every comment comes back
//! exactly. A comment that already contains byte 1 or 2 is stored literally.
//!
//! Comments section, one entry per comment: varint `0` = the same template as the previous
//! comment of the block, else varint `((len << 1) | is_template) + 1` and `len` bytes.
//!
//! Clocks section, one varint per clock: `(zigzag(seconds - predicted) << 1) | has_tenths`,
//! then if `has_tenths` one varint with the tenths digit. Predicted: the last clock of the same
//! side in this game, else the last clock of the other side, else 0.
//!
//! Evals section, one varint per evaluation: `zigzag(centipawns - previous) << 1` for a score
//! (previous: the last score of this game, 0 at its start), `(zigzag(n) << 1) | 1` for `#n`.

use super::error::{Corrupt, DecodeResult};
use super::varint::{put_varint, unzigzag, zigzag, ByteReader};
use chessbits::pgn::{self, parse_clock, Score};
use chessbits::types::Color;

const CLOCK_MARK: u8 = 1;
const EVAL_MARK: u8 = 2;
const CLOCK_PREFIX: &[u8] = b"[%clk ";
const EVAL_PREFIX: &[u8] = b"[%eval ";

/// A clock reading: whole seconds, and tenths if the comment wrote them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Clock {
    seconds: u64,
    tenths: Option<u8>,
}

impl Clock {
    /// The clock of a `%clk` value as [`chessbits::pgn::parse_clock`] reads it, if its text is the
    /// canonical spelling (hours of at most six digits, the tenths digit or none).
    fn parse(text: &[u8]) -> Option<Clock> {
        let duration = parse_clock(text)?;
        if text.iter().position(|&b| b == b':')? > 6 {
            return None;
        }
        let tenths = text.contains(&b'.').then(|| (duration.subsec_millis() / 100) as u8);
        let clock = Clock {
            seconds: duration.as_secs(),
            tenths,
        };
        // Only the canonical spelling is replaced: writing it back must give the same text.
        (clock.render().as_bytes() == text).then_some(clock)
    }

    fn render(&self) -> String {
        let (h, m, s) = (self.seconds / 3600, self.seconds / 60 % 60, self.seconds % 60);
        match self.tenths {
            Some(t) => format!("{h}:{m:02}:{s:02}.{t}"),
            None => format!("{h}:{m:02}:{s:02}"),
        }
    }
}

/// An engine evaluation: centipawns from White's view, or mate in n (negative: Black mates).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Eval {
    Centipawns(i64),
    Mate(i64),
}

impl Eval {
    /// The score of a `%eval` value as [`chessbits::pgn::Eval::parse`] reads it, if its text is
    /// lichess' spelling (no depth, at most 12 bytes).
    fn parse(text: &[u8]) -> Option<Eval> {
        if text.len() > 12 {
            return None;
        }
        let parsed = pgn::Eval::parse(text)?;
        let eval = match (parsed.score, parsed.depth) {
            (Score::Centipawns(cp), None) => Eval::Centipawns(cp),
            (Score::Mate(n), None) => Eval::Mate(n),
            (_, Some(_)) => return None,
        };
        (eval.render().as_bytes() == text).then_some(eval)
    }

    /// Lichess' spelling: pawns with one or two decimals, a trailing zero dropped.
    fn render(&self) -> String {
        match *self {
            Eval::Mate(n) => format!("#{n}"),
            Eval::Centipawns(cp) => {
                let sign = if cp < 0 { "-" } else { "" };
                let abs = cp.unsigned_abs();
                if abs % 10 == 0 {
                    format!("{sign}{}.{}", abs / 100, abs % 100 / 10)
                } else {
                    format!("{sign}{}.{:02}", abs / 100, abs % 100)
                }
            }
        }
    }
}

/// Per-game prediction state shared by the encoder and the decoder.
#[derive(Clone, Debug, Default)]
struct Predictor {
    clocks: [Option<u64>; 2],
    last_centipawns: i64,
}

impl Predictor {
    fn predict_clock(&self, side: Color) -> u64 {
        self.clocks[side.index()]
            .or(self.clocks[side.other().index()])
            .unwrap_or(0)
    }
}

/// Writes the comments, clocks and evals sections of a block.
#[derive(Default)]
pub(crate) struct CommentWriter {
    pub texts: Vec<u8>,
    pub clocks: Vec<u8>,
    pub evals: Vec<u8>,
    previous: Option<Vec<u8>>,
    state: Predictor,
    template: Vec<u8>,
}

impl CommentWriter {
    /// Forgets the clocks and scores of the previous game.
    pub(crate) fn start_game(&mut self) {
        self.state = Predictor::default();
    }

    /// Writes one comment, made at a move of `side`.
    pub(crate) fn write(&mut self, bytes: &[u8], side: Color) {
        self.template.clear();
        let literal = bytes.iter().any(|&b| b == CLOCK_MARK || b == EVAL_MARK);
        let mut rest = bytes;
        while !literal && !rest.is_empty() {
            if let Some((clock, len)) = command(rest, CLOCK_PREFIX, Clock::parse) {
                let predicted = self.state.predict_clock(side);
                let delta = zigzag(clock.seconds as i64 - predicted as i64);
                put_varint(&mut self.clocks, delta << 1 | u64::from(clock.tenths.is_some()));
                if let Some(t) = clock.tenths {
                    put_varint(&mut self.clocks, u64::from(t));
                }
                self.state.clocks[side.index()] = Some(clock.seconds);
                self.template.push(CLOCK_MARK);
                rest = &rest[len..];
            } else if let Some((eval, len)) = command(rest, EVAL_PREFIX, Eval::parse) {
                let code = match eval {
                    Eval::Centipawns(cp) => {
                        let code = zigzag(cp - self.state.last_centipawns) << 1;
                        self.state.last_centipawns = cp;
                        code
                    }
                    Eval::Mate(n) => zigzag(n) << 1 | 1,
                };
                put_varint(&mut self.evals, code);
                self.template.push(EVAL_MARK);
                rest = &rest[len..];
            } else {
                self.template.push(rest[0]);
                rest = &rest[1..];
            }
        }
        let template = if literal { bytes } else { &self.template[..] };
        if self.previous.as_deref() == Some(template) {
            put_varint(&mut self.texts, 0);
        } else {
            put_varint(
                &mut self.texts,
                ((template.len() as u64) << 1 | u64::from(!literal)) + 1,
            );
            self.texts.extend_from_slice(template);
            self.previous = Some(template.to_vec());
        }
    }
}

/// If `text` starts with `prefix`, a value and `]`, the value and the bytes the command takes.
fn command<T>(text: &[u8], prefix: &[u8], parse: fn(&[u8]) -> Option<T>) -> Option<(T, usize)> {
    let body = text.strip_prefix(prefix)?;
    let end = body.iter().take(16).position(|&b| b == b']')?;
    let value = parse(&body[..end])?;
    Some((value, prefix.len() + end + 1))
}

/// Reads the comments, clocks and evals sections of a block.
pub(crate) struct CommentReader<'a> {
    texts: ByteReader<'a>,
    clocks: ByteReader<'a>,
    evals: ByteReader<'a>,
    previous: Option<(&'a [u8], bool)>,
    state: Predictor,
}

impl<'a> CommentReader<'a> {
    pub(crate) fn new(texts: &'a [u8], clocks: &'a [u8], evals: &'a [u8]) -> CommentReader<'a> {
        CommentReader {
            texts: ByteReader::new(texts, "comments"),
            clocks: ByteReader::new(clocks, "clocks"),
            evals: ByteReader::new(evals, "evals"),
            previous: None,
            state: Predictor::default(),
        }
    }

    pub(crate) fn start_game(&mut self) {
        self.state = Predictor::default();
    }

    /// Reads one comment, made at a move of `side`.
    pub(crate) fn read(&mut self, side: Color) -> DecodeResult<Vec<u8>> {
        let code = self.texts.varint()?;
        let (template, is_template) = if code == 0 {
            self.previous
                .ok_or_else(|| Corrupt::new("comment repeats a template before the first"))?
        } else {
            let code = code - 1;
            let len = usize::try_from(code >> 1).map_err(|_| Corrupt::new("comment too long"))?;
            let entry = (self.texts.bytes(len)?, code & 1 == 1);
            self.previous = Some(entry);
            entry
        };
        Ok(if is_template {
            let mut out = Vec::with_capacity(template.len() + 16);
            for &byte in template {
                match byte {
                    CLOCK_MARK => out.extend_from_slice(self.clock(side)?.as_bytes()),
                    EVAL_MARK => out.extend_from_slice(self.eval()?.as_bytes()),
                    _ => out.push(byte),
                }
            }
            out
        } else {
            template.to_vec()
        })
    }

    fn clock(&mut self, side: Color) -> DecodeResult<String> {
        let code = self.clocks.varint()?;
        let tenths = if code & 1 == 1 {
            Some(u8::try_from(self.clocks.varint_at_most(9)?).unwrap_or(0))
        } else {
            None
        };
        let predicted = self.state.predict_clock(side) as i64;
        let seconds = predicted
            .checked_add(unzigzag(code >> 1))
            .and_then(|s| u64::try_from(s).ok())
            .filter(|&s| s < 1 << 40)
            .ok_or_else(|| Corrupt::new("clock out of range"))?;
        self.state.clocks[side.index()] = Some(seconds);
        Ok(format!("[%clk {}]", Clock { seconds, tenths }.render()))
    }

    fn eval(&mut self) -> DecodeResult<String> {
        let code = self.evals.varint()?;
        let eval = if code & 1 == 1 {
            Eval::Mate(unzigzag(code >> 1))
        } else {
            let cp = self
                .state
                .last_centipawns
                .checked_add(unzigzag(code >> 1))
                .ok_or_else(|| Corrupt::new("evaluation out of range"))?;
            self.state.last_centipawns = cp;
            Eval::Centipawns(cp)
        };
        Ok(format!("[%eval {}]", eval.render()))
    }

    pub(crate) fn expect_end(&self) -> DecodeResult<()> {
        self.texts.expect_end()?;
        self.clocks.expect_end()?;
        self.evals.expect_end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(comments: &[(&str, Color)]) -> (usize, usize, usize) {
        let mut writer = CommentWriter::default();
        writer.start_game();
        for &(text, side) in comments {
            writer.write(text.as_bytes(), side);
        }
        let mut reader = CommentReader::new(&writer.texts, &writer.clocks, &writer.evals);
        reader.start_game();
        for &(text, side) in comments {
            assert_eq!(reader.read(side).as_deref(), Ok(text.as_bytes()));
        }
        assert_eq!(reader.expect_end(), Ok(()));
        (writer.texts.len(), writer.clocks.len(), writer.evals.len())
    }

    #[test]
    fn lichess_commands_become_numbers() {
        let sizes = round_trip(&[
            ("[%eval 0.17] [%clk 0:03:00]", Color::White),
            ("[%eval 0.2] [%clk 0:03:00]", Color::Black),
            ("[%eval -1.05] [%clk 0:02:58]", Color::White),
            ("[%eval #-3] [%clk 0:02:51]", Color::Black),
            ("[%eval 0.0] [%clk 1:30:00.5]", Color::White),
            ("[%eval 12.5] [%clk 10:00:00]", Color::Black),
        ]);
        // The template "\x02 \x01" once (length and three bytes), then "same as before".
        assert_eq!(sizes.0, 4 + 5, "{sizes:?}");
    }

    #[test]
    fn steady_clocks_take_a_byte_each() {
        let texts: Vec<String> = (0..40)
            .map(|ply| 299 - ply)
            .map(|s| format!("[%clk 0:{:02}:{:02}]", s / 60, s % 60))
            .collect();
        let comments: Vec<(&str, Color)> = texts
            .iter()
            .enumerate()
            .map(|(ply, text)| (text.as_str(), if ply % 2 == 0 { Color::White } else { Color::Black }))
            .collect();
        let (texts_len, clocks_len, evals_len) = round_trip(&comments);
        assert_eq!(texts_len, 2 + 39, "one template, then a byte per repeat");
        assert_eq!(clocks_len, 41, "the first clock takes two bytes, every other one");
        assert_eq!(evals_len, 0);
    }

    #[test]
    fn non_canonical_commands_stay_text() {
        round_trip(&[
            ("[%clk 0:5:00]", Color::White),
            ("[%eval 0.20]", Color::White),
            ("[%eval -0.0]", Color::White),
            ("[%eval #-0]", Color::White),
            ("[%eval +1.5]", Color::White),
            ("[%eval 1]", Color::White),
            ("[%clk 0:05:00", Color::White),
            ("[%clk 0:61:00]", Color::Black),
            ("a \u{1} b [%clk 0:05:00]", Color::Black),
            ("Café [%clk 0:05:00] [%eval 0.3,20]", Color::White),
            ("", Color::White),
        ]);
        assert_eq!(
            Clock::parse(b"0:05:00"),
            Some(Clock {
                seconds: 300,
                tenths: None
            })
        );
        assert_eq!(Eval::parse(b"-0.1"), Some(Eval::Centipawns(-10)));
        assert_eq!(Eval::parse(b"0.20"), None);
    }

    #[test]
    fn garbage_sections_give_errors() {
        let mut reader = CommentReader::new(&[0], &[], &[]);
        assert!(reader.read(Color::White).is_err());
        let mut reader = CommentReader::new(&[4, 1], &[], &[]);
        assert!(
            reader.read(Color::White).is_err(),
            "template needs a clock the section lacks"
        );
        // Any bytes are a comment: they come back as they were.
        let mut reader = CommentReader::new(&[5, 0xff, 0xfe], &[], &[]);
        assert_eq!(reader.read(Color::White), Ok(vec![0xff, 0xfe]));
    }
}
