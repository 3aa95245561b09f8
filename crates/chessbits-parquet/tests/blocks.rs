//! An input exported in blocks (`add_pgn`: cut without lexing, read on the pool, stitched in
//! order) gives the export of the same input cut game by game by one reader (`read_raw_game`,
//! `add_raw_game`): the same rows, the same rejected games byte for byte, the same lines, for
//! every block size, on hostile inputs built here, random inputs and the bundled files.

use std::fs::{self, File};
use std::path::{Path, PathBuf};

use arrow_array::RecordBatch;
use chessbits::pgn::PgnReader;
use chessbits_parquet::{ExportOptions, ExportSummary, ParquetExporter};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

/// What an export wrote: the summary, the tables read back, the rejected files.
#[derive(Debug, PartialEq)]
struct Exported {
    summary: ExportSummary,
    tables: Vec<(PathBuf, Vec<RecordBatch>)>,
    rejected_pgn: Option<Vec<u8>>,
    rejected_tsv: Option<String>,
}

fn options(block_size: usize) -> ExportOptions {
    ExportOptions {
        threads: 2,
        block_size,
        partition: true,
        ..ExportOptions::default()
    }
}

fn read_export(dir: &Path, summary: ExportSummary) -> Exported {
    let tables = summary
        .files
        .iter()
        .map(|relative| {
            let file = File::open(dir.join(relative)).unwrap();
            let reader = ParquetRecordBatchReaderBuilder::try_new(file).unwrap().build().unwrap();
            (relative.clone(), reader.map(Result::unwrap).collect())
        })
        .collect();
    Exported {
        summary,
        tables,
        rejected_pgn: fs::read(dir.join("_rejected.pgn")).ok(),
        rejected_tsv: fs::read_to_string(dir.join("_rejected.tsv")).ok(),
    }
}

/// The reference: the inputs cut game by game by one reader each.
fn export_by_games(inputs: &[&[u8]]) -> Exported {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let mut exporter = ParquetExporter::create(&out, options(1)).unwrap();
    for (i, input) in inputs.iter().enumerate() {
        let source = exporter.add_source(&format!("input{i}"));
        let mut reader = PgnReader::new(*input);
        let mut bytes = Vec::new();
        while let Some(raw) = reader.read_raw_game(&mut bytes).unwrap() {
            exporter.add_raw_game(source, std::mem::take(&mut bytes), raw).unwrap();
        }
    }
    let summary = exporter.finish().unwrap();
    read_export(&out, summary)
}

fn export_by_blocks(inputs: &[&[u8]], block_size: usize) -> Exported {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let mut exporter = ParquetExporter::create(&out, options(block_size)).unwrap();
    for (i, input) in inputs.iter().enumerate() {
        let source = exporter.add_source(&format!("input{i}"));
        exporter.add_pgn(source, *input).unwrap();
    }
    let summary = exporter.finish().unwrap();
    read_export(&out, summary)
}

fn assert_same(inputs: &[&[u8]], block_sizes: impl IntoIterator<Item = usize>) {
    let expected = export_by_games(inputs);
    for block_size in block_sizes {
        let got = export_by_blocks(inputs, block_size);
        if got != expected {
            panic!(
                "block size {block_size}, inputs {:?}:\nexpected {:?}\n{:?}\ngot {:?}\n{:?}",
                inputs.iter().map(|i| String::from_utf8_lossy(i)).collect::<Vec<_>>(),
                expected.summary,
                expected.rejected_tsv,
                got.summary,
                got.rejected_tsv,
            );
        }
    }
}

const GAME: &str =
    "[Event \"e\"]\n[Site \"s\"]\n[UTCDate \"2024.05.01\"]\n\n1. e4 { [%clk 0:03:00] } e5 2. Nf3 Nc6 1-0\n\n";

/// Inputs where a block cut anywhere lands inside something one reader reads across lines.
fn hostile() -> Vec<Vec<u8>> {
    let cases: &[&str] = &[
        // Games without results: each ends at the next game's tags.
        "[Event \"a\"]\n\n1. e4 e5\n\n[Event \"b\"]\n\n1. d4 d5\n\n[Event \"c\"]\n\n1. c4 *\n",
        // Tags separated by blank lines: one game.
        "[Event \"a\"]\n\n[Site \"b\"]\n\n[Round \"1\"]\n\n1. e4 e5 1-0\n\n[Event \"c\"]\n\n1. d4 0-1\n",
        // A comment open across a blank line and a tag line (it ends there), and a closed one
        // holding tag lines.
        "[Event \"a\"]\n\n1. e4 { open\n\n[Event \"b\"]\n\n1. d4 { a\n\n[Event \"x\"]\n} d5 1-0\n\n[Event \"c\"]\n1. c4 *\n",
        // A variation left open; a result inside a variation; a tag line inside a variation.
        "1. e4 (1. d4 d5\n\n[Event \"b\"]\n\n1. e4 (1. d4 1-0) e5 1-0\n\n1. e4 (1. d4\n[Event \"c\"]\n1. c4 *\n",
        // Escape lines and line comments holding results and tags.
        "%1-0\n[Event \"a\"]\n%[Event \"z\"]\n\n1. e4 ; 1-0\n\n[Event \"q\"]\ne5 1-0\n\n%comment\n\n[Event \"b\"]\n1. d4 *\n",
        // Old Mac line breaks only; then Windows ones.
        "[Event \"a\"]\r\r1. e4 e5 1-0\r\r[Event \"b\"]\r\r1. d4 *\r",
        "[Event \"a\"]\r\n\r\n1. e4 e5 1-0\r\n\r\n[Event \"b\"]\r\n\r\n1. d4 {x\r\n\r\ny} *\r\n\r\n",
        // Move numbers alone between games, stray tokens, a result glued to a move.
        "1. e4 1-0\n\n1.\n\n[Event \"a\"]\n1. d4 e5*\n\n2...\n\n[Event \"b\"]\n1. c4 ) } ] *\n\n12.\n",
        // Illegal moves, a bad FEN, a variant, null moves: rejected or null moves.
        "[Event \"a\"]\n\n1. e4 e4 *\n\n[FEN \"bad\"]\n\n1. e4 *\n\n[Variant \"Atomic\"]\n\n1. e4 *\n\n[Event \"n\"]\n\n1. e4 -- 2. d4 *\n",
        // A byte-order mark, NUL and non-UTF-8 bytes, form feeds and vertical tabs.
        "\u{feff}[Event \"a\"]\n\n1. e4 \u{0}e5 1-0\n\n\x0c\x0b[Event \"\u{e9}\"]\n\n1. d4 {\u{0}} *\n",
        // A tag value holding what looks like a tag line and a result.
        "[Event \"a\n\n[Event \\\"b\\\"] 1-0\"]\n\n1. e4 *\n\n[Site \"s\"]\n1. d4 *",
        // No line feed at all, and no line break.
        "1. e4 e5 1-0 1. d4 d5 0-1 [Event \"a\"] 1. c4 *",
        // Whitespace only, and nothing.
        "\n\n  \t\n",
        "",
        // A game longer than most blocks, with long comments.
        "[Event \"long\"]\n\n1. e4 {aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n\n} e5 2. Nf3 ( 2. Nc3 { x } Nc6 ) Nc6 3. Bb5 a6 1/2-1/2\n\n[Event \"after\"]\n1. e4 *",
    ];
    let mut inputs: Vec<Vec<u8>> = cases.iter().map(|c| c.as_bytes().to_vec()).collect();
    // Latin-1 bytes, not UTF-8.
    inputs.push(b"[Event \"caf\xe9\"]\n\n1. e4 {\xff} *\n\n[Event \"b\"]\n\n1. d4 1-0\n".to_vec());
    inputs
}

#[test]
fn hostile_inputs_read_the_same_in_blocks_of_any_size() {
    for input in hostile() {
        assert_same(&[&input], (1..=24).chain([31, 64, 1000]));
    }
}

#[test]
fn a_game_without_a_result_now_and_then_costs_nothing() {
    // Every seventh game has no result (it ends at the next game's tags), every eleventh is
    // illegal: hand-overs between blocks in every chunk, rejected games on both sides.
    let mut input = String::new();
    for i in 0..300 {
        let game = GAME.replace("Event \"e\"", &format!("Event \"{i}\""));
        let game = if i % 7 == 3 { game.replace(" 1-0", "") } else { game };
        let game = if i % 11 == 5 { game.replace("Nc6", "Nc5") } else { game };
        input.push_str(&game);
    }
    assert_same(&[input.as_bytes()], [1, 100, 300, 1000, 5000]);
}

#[test]
fn several_inputs_keep_their_lines_and_games_apart() {
    let hostile = hostile();
    let inputs: Vec<&[u8]> = hostile.iter().map(Vec::as_slice).collect();
    assert_same(&inputs, [1, 7, 40, 1 << 15]);
    // An input whose last game has no result, then a clean one.
    let inputs: [&[u8]; 2] = [b"1. e4 e5", GAME.as_bytes()];
    assert_same(&inputs, [1, 3, 100]);
}

/// A small random generator (xorshift), so that failures repeat.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn random_inputs_read_the_same_in_blocks() {
    const TOKENS: &[&str] = &[
        "[Event \"x\"]",
        "[Site \"a]b\"]",
        "[UTCDate \"2023.01.02\"]",
        "\n",
        "\n",
        "\n\n",
        "\r\n",
        "\r",
        " ",
        " ",
        "\t",
        "1.",
        "2...",
        "e4",
        "e5",
        "Nf3",
        "Nc6",
        "d4",
        "exd4",
        "Bb5",
        "a6",
        "O-O",
        "--",
        "1-0",
        "0-1",
        "1/2-1/2",
        "*",
        "{",
        "}",
        "{ [%clk 0:01:00] }",
        "(",
        ")",
        ";c",
        "%e",
        "$1",
        "!?",
        "[",
        "]",
        "\"",
        "\u{feff}",
        "\x0c",
        "[FEN \"8/8/8/8/8/8/8/K1k5 w - - 0 1\"]",
        "Ka2",
        "Kb1",
    ];
    let mut random = Random(0x9e37_79b9_7f4a_7c15);
    for _ in 0..60 {
        let mut input = String::new();
        let tokens = 20 + random.below(120);
        for _ in 0..tokens {
            if random.below(4) == 0 {
                input.push_str(GAME);
            }
            input.push_str(TOKENS[random.below(TOKENS.len())]);
            if random.below(3) == 0 {
                input.push(' ');
            }
        }
        let sizes = [1, 2, 3, 5 + random.below(30), 40 + random.below(400)];
        assert_same(&[input.as_bytes()], sizes);
    }
}

#[test]
fn bundled_files_read_the_same_in_blocks() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/pgn");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    files.sort();
    for path in files {
        let bytes = fs::read(&path).unwrap();
        assert_same(&[&bytes], [97, 1 << 12, 1 << 15]);
    }
}

/// `MAX_BLOCK_BYTES` bytes without a line feed, games of a few moves, ending with `end`.
fn long_line(end: &[u8]) -> Vec<u8> {
    let pattern = b"1. e4 e5 1-0 ";
    let n = chessbits::pgn::MAX_BLOCK_BYTES;
    let games = (n - end.len()) / pattern.len();
    let mut line = vec![b' '; n - end.len() - games * pattern.len()];
    for _ in 0..games {
        line.extend_from_slice(pattern);
    }
    line.extend_from_slice(end);
    assert_eq!(line.len(), n);
    line
}

#[test]
fn a_block_cut_inside_a_line_is_not_a_line_start() {
    // A line longer than a block is cut inside it, right after a result: the next block's `%`
    // does not start an escape line (it is a bad move, the game is rejected).
    let mut input = long_line(b"");
    input.extend_from_slice(b"%x 1. d4 *\n");
    assert_same(&[&input], [1000]);
    // Cut between `\r` and `\n`: one line break, not two.
    let mut input = long_line(b"1-0\r");
    input.extend_from_slice(b"\n1. e4 e4 *\n");
    assert_same(&[&input], [1000]);
    // The same cuts reached by the reader that goes on across blocks (after a game without a
    // result).
    for (end, next) in [(&b""[..], &b"%x 1. d4 *\n"[..]), (b"1-0\r", b"\n1. e4 e4 *\n")] {
        let mut input = b"[Event \"a\"]\n".to_vec();
        input.extend(long_line(end));
        input.extend_from_slice(next);
        input.extend_from_slice(b"[Event \"b\"]\n1. c4 *\n");
        assert_same(&[&input], [1000]);
    }
}
