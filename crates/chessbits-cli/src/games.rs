//! Reading the games of PGN inputs one at a time, for `pgn stats`, `pgn filter` and
//! `pgn positions`: each game's bytes exactly as they stand in the input
//! ([`PgnReader::read_raw_game`]) and the game read from them, with its errors.

use std::path::{Path, PathBuf};

use chessbits::eco::{Classification, EcoTable};
use chessbits::pgn::{GameTree, PgnReader, RawGame, SyntaxError};
use chessbits::position::Position;
use indicatif::ProgressBar;

use crate::inputs::{expand_inputs, expand_inputs_for_output, open_input, progress_bar, read_error, total_len};

/// One game of the input.
pub struct InputGame<'a> {
    /// The index of the input among the expanded inputs.
    pub source: usize,
    /// Where the game stands.
    pub raw: RawGame,
    /// Its bytes as they stand in the input (empty when `raw.too_long`).
    pub bytes: &'a [u8],
    /// The game, or `file:line: reason`.
    pub game: Result<GameTree, String>,
}

/// Inputs shorter than this get no progress bar.
const PROGRESS_MIN_BYTES: u64 = 16 << 20;

/// `paths` expanded (directories to their PGN files and archives) and a progress bar over them (hidden unless
/// stderr is a terminal and the input is long).
pub fn expand_with_progress(paths: &[PathBuf]) -> Result<(Vec<PathBuf>, ProgressBar), String> {
    with_progress(expand_inputs(paths)?)
}

/// [`expand_with_progress`] for a command writing the file `output`, left out of the directories
/// when it is an archive already ([`expand_inputs_for_output`]).
pub fn expand_with_progress_for_output(
    paths: &[PathBuf],
    output: &Path,
) -> Result<(Vec<PathBuf>, ProgressBar), String> {
    with_progress(expand_inputs_for_output(paths, output)?)
}

fn with_progress(files: Vec<PathBuf>) -> Result<(Vec<PathBuf>, ProgressBar), String> {
    let total = total_len(&files);
    let bar = match total.is_some_and(|len| len < PROGRESS_MIN_BYTES) {
        true => ProgressBar::hidden(),
        false => progress_bar(total, "bytes"),
    };
    Ok((files, bar))
}

/// The name of an input in messages.
pub fn input_name(path: &Path) -> String {
    match path.as_os_str() == "-" {
        true => "<stdin>".to_string(),
        false => path.display().to_string(),
    }
}

/// Calls `visit` with every game of `files` in order. A file that cannot be opened or read is an
/// error (status 2: nothing after it is read); a game that cannot be read is handed over as its
/// error.
pub fn for_each_game(
    files: &[PathBuf],
    bar: &ProgressBar,
    mut visit: impl FnMut(InputGame<'_>) -> Result<(), String>,
) -> Result<(), String> {
    let mut bytes = Vec::new();
    for (source, path) in files.iter().enumerate() {
        let name = input_name(path);
        let mut reader = PgnReader::new(open_input(path, bar)?);
        loop {
            let line = reader.line();
            bytes.clear();
            let raw = match reader.read_raw_game(&mut bytes) {
                Ok(Some(raw)) => raw,
                Ok(None) => break,
                Err(error) => return Err(read_error(&name, line, &error)),
            };
            let game = if raw.too_long {
                Err(format!("{name}:{}: {}", raw.first_line, SyntaxError::GameTooLong))
            } else {
                match raw.reader(&bytes).read_owned_game() {
                    Ok(Some(Ok(game))) => Ok(game),
                    Ok(Some(Err(error))) => Err(format!("{name}:{}: {}", error.line, error.kind)),
                    // Reading from memory cannot fail, and a raw game is never empty.
                    Ok(None) | Err(_) => Err(format!("{name}:{}: unreadable game", raw.first_line)),
                }
            };
            visit(InputGame {
                source,
                raw,
                bytes: &bytes,
                game,
            })?;
        }
    }
    Ok(())
}

/// Messages of the games that could not be read: each printed to standard error as it comes,
/// all counted, the first [`ErrorLog::KEPT`] kept for the JSON report (memory stays bounded).
#[derive(Default)]
pub struct ErrorLog {
    pub count: u64,
    pub kept: Vec<String>,
}

impl ErrorLog {
    /// Messages kept for `error_messages`.
    pub const KEPT: usize = 1000;

    pub fn record(&mut self, bar: &ProgressBar, message: &str) {
        bar.suspend(|| eprintln!("{message}"));
        self.count += 1;
        if self.kept.len() < Self::KEPT {
            self.kept.push(message.to_string());
        }
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The `error_messages` array of a JSON report.
    pub fn messages_json(&self) -> crate::json::Json {
        crate::json::Json::Arr(self.kept.iter().map(|e| crate::json::Json::from(e.as_str())).collect())
    }
}

/// The positions of a game's main line: the start, then one after each move.
pub fn mainline_positions(game: &GameTree) -> Vec<Position> {
    game.positions().collect()
}

/// Where a game's ECO code came from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EcoSource {
    /// The game's `ECO` tag.
    Tag,
    /// Classified from the moves by the lichess opening tables.
    Classified,
}

/// The game's ECO code: its `ECO` tag when it has a well-formed one (`A00`..`E99`), else the
/// classification of its main line (only the first `MAX_ECO_PLIES` plies are looked at); `None`
/// if neither gives one.
pub fn eco_of(game: &GameTree) -> Option<(String, EcoSource)> {
    if let Some(tag) = game.tag("ECO") {
        let tag = tag.trim();
        if is_eco_code(tag) {
            return Some((tag.to_string(), EcoSource::Tag));
        }
    }
    classify(game).map(|c| (c.eco.to_string(), EcoSource::Classified))
}

/// The deepest plies a named line of the lichess tables reaches is under 40: later positions
/// are not looked up.
const MAX_ECO_PLIES: usize = 60;

/// The opening of the game's main line by the lichess tables. Games from a set-up position
/// (a `FEN` tag) are classified too: their positions are looked up the same way.
pub fn classify(game: &GameTree) -> Option<Classification> {
    let mut keys = Vec::with_capacity(MAX_ECO_PLIES + 1);
    let mut pos = game.start.clone();
    keys.push(pos.key());
    for m in game.mainline().take(MAX_ECO_PLIES) {
        if m.is_null() {
            pos.make_null_move();
        } else {
            pos.play_unchecked(m);
        }
        keys.push(pos.key());
    }
    EcoTable::lichess().classify_keys(&keys)
}

/// Whether `text` is an ECO code: a letter `A`–`E` and two digits.
pub fn is_eco_code(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 3 && (b'A'..=b'E').contains(&b[0]) && b[1].is_ascii_digit() && b[2].is_ascii_digit()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(pgn: &str) -> GameTree {
        PgnReader::new(pgn.as_bytes())
            .read_owned_game()
            .unwrap()
            .unwrap()
            .unwrap()
    }

    #[test]
    fn eco_from_the_tag_or_the_moves() {
        let tagged = game("[ECO \"C20\"]\n\n1. d4 d5 2. c4 e6 *");
        assert_eq!(eco_of(&tagged), Some(("C20".to_string(), EcoSource::Tag)));
        let untagged = game("[ECO \"?\"]\n\n1. d4 d5 2. c4 e6 3. a3 a6 *");
        assert_eq!(eco_of(&untagged), Some(("D30".to_string(), EcoSource::Classified)));
        assert_eq!(eco_of(&game("*")), None);
        assert!(is_eco_code("E99") && !is_eco_code("F00") && !is_eco_code("A0"));
    }
}

#[cfg(test)]
mod lichess_tests {
    use super::*;

    /// lichess names the opening of each game from the same tables: the classification agrees
    /// with its `ECO` tags (119 of 120) and `Opening` tags (113: the games were named with the
    /// tables of 2025, which lacked a few of today's names, "Polish Opening, with d5" say).
    #[test]
    fn classification_agrees_with_lichess_tags() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../testdata/pgn/shakmaty_lichess_db_1000k.pgn"
        );
        let text = std::fs::read(path).unwrap();
        let (mut games, mut same_name, mut same_eco) = (0, 0, 0);
        for game in PgnReader::new(&text[..]).into_games() {
            let game = game.unwrap();
            games += 1;
            let found = classify(&game);
            if found.map(|c| c.name) == game.tag("Opening").as_deref() {
                same_name += 1;
            }
            if found.map(|c| c.eco) == game.tag("ECO").as_deref() {
                same_eco += 1;
            }
        }
        assert_eq!(games, 120);
        assert!(same_name * 100 >= games * 90, "{same_name} of {games}");
        assert!(same_eco * 100 >= games * 95, "{same_eco} of {games}");
    }
}
