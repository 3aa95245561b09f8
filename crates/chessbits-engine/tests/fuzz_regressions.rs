//! Inputs found by the fuzz targets (`fuzz/`, see FUZZING.md), built here, each pinning its fix.

use chessbits::position::{Position, Validation};
use chessbits_engine::datagen::format::{header, FormatError, GameReader, GameWriter, TrainingGame, Wdl};

/// `training_data`: the writer stored a composed start position (more material than a game can
/// give), which the reader then refused as corrupt, so a file written without error did not read
/// back. The writer now refuses the game and writes nothing of it.
#[test]
fn a_composed_start_position_is_refused_by_the_writer() {
    let fen = "kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1";
    let start = Position::from_fen_with(fen, Validation::Composed).unwrap();
    let game = TrainingGame {
        start,
        moves: Vec::new(),
        scores: Vec::new(),
        result: Wdl::WhiteWins,
    };
    let mut writer = GameWriter::new(Vec::new()).unwrap();
    let error = writer.write_game(&game).unwrap_err();
    assert!(
        matches!(&error, FormatError::InvalidGame(why) if why.starts_with("start position")),
        "{error}"
    );
    let normal = TrainingGame {
        start: Position::startpos(),
        ..game
    };
    writer.write_game(&normal).unwrap();
    let file = writer.finish().unwrap();
    assert!(file.starts_with(&header()));
    let mut reader = GameReader::new(&file[..]).unwrap();
    assert_eq!(reader.next_game().unwrap(), Some(normal));
    assert_eq!(reader.next_game().unwrap(), None);
}
