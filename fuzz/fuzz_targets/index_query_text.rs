//! The text a user gives an index query (`chessbits explore/search`): the position
//! (`resolve_position`: a FEN, an EPD line or `startpos`, then SAN/UCI moves with move numbers),
//! the filters (`Filters::speeds`, `ratings`, `since`, `until`), a position key in hex
//! (`PositionKey::from_hex`) and the date and month texts the tables store
//! (`model::game::pack_date`, `month_number`).
//!
//! The input is text (invalid UTF-8 replaced); its first line is the FEN (an empty line: none,
//! no line break at all: the whole input is the moves), the rest the moves. Every line is also
//! tried as each filter, key, date and month.
//!
//! Nothing panics, and what parses is what it says: a resolved position writes a FEN that reads
//! back to the same position (same key); the rating bands parsed are bands; a month number
//! written back as `YYYY-MM` reads back to itself, so does a packed date written back as a date;
//! a key read from hex writes back to the same digits.
#![no_main]

use chessbits::position::{Position, Validation};
use chessbits_index::model::game::{date_text, month_number, pack_date};
use chessbits_index::{resolve_position, Filters, PositionKey, RATING_BANDS};
use libfuzzer_sys::fuzz_target;

fn check_line(line: &str) {
    if let Ok(filters) = Filters::default().speeds(line) {
        assert!(filters.speeds.len() <= line.split(',').count());
    }
    if let Ok(filters) = Filters::default().ratings(line) {
        assert!(filters.ratings.iter().all(|band| RATING_BANDS.contains(band)));
    }
    let since = Filters::default().since(line).ok().and_then(|f| f.since);
    let until = Filters::default().until(line).ok().and_then(|f| f.until);
    assert_eq!(since, until, "since and until read months alike");
    if let Some(month) = month_number(line) {
        let text = format!("{:04}-{:02}", month / 12, month % 12 + 1);
        assert_eq!(month_number(&text), Some(month), "month {line:?} written as {text}");
    }
    let date = pack_date(line);
    match date_text(date) {
        Some(text) => assert_eq!(pack_date(&text), date, "date {line:?} written as {text}"),
        None => assert_eq!(date, 0),
    }
    if let Some(key) = PositionKey::from_hex(line) {
        assert!(key.to_string().eq_ignore_ascii_case(line));
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (fen, moves) = match text.split_once('\n') {
        Some((fen, moves)) => ((!fen.is_empty()).then_some(fen), moves),
        None => (None, &*text),
    };
    if let Ok(pos) = resolve_position(fen, moves) {
        let fen = pos.fen();
        let back = Position::from_fen_with(&fen, Validation::Composed).expect("a resolved position's FEN reads");
        assert_eq!(PositionKey::of(&back), PositionKey::of(&pos), "{fen}");
        assert_eq!(back.fen(), fen);
    }
    for line in text.lines().take(8) {
        check_line(line);
    }
});
