//! PGN games to [Apache Parquet](https://parquet.apache.org/), one row per game.
//!
//! The first 17 columns are those of the lichess Parquet dataset
//! ([`Lichess/standard-chess-games`](https://huggingface.co/datasets/Lichess/standard-chess-games)),
//! with its names and types (but `UTCTime`, see below), so queries written for it work on an
//! export; its 18th, `movetext`, is written only when asked for ([`ExportOptions::movetext`],
//! `chessbits export --movetext`): every game's PGN is rebuilt from its row ([PGN from a
//! row](#pgn-from-a-row)), so the text the other columns already hold (three quarters of the
//! file's bytes) is not stored twice. The others are ours. Every column has a type that pyarrow, pandas, polars, DuckDB and
//! Spark (3.5 and 4) read (`scripts/reader_matrix.sh` checks it).
//!
//! # Schema
//!
//! | column | type | meaning | null when |
//! |---|---|---|---|
//! | `Event`, `Site`, `White`, `Black`, `Result`, `WhiteTitle`, `BlackTitle` | utf8 | the tag's value (unescaped) | the game has no such tag |
//! | `WhiteElo`, `BlackElo` | int16 | the tag as a number (int16 as in the lichess dataset) | no tag, or its text is not the number's (`?`, `-`, `+1500`, `01500`, ` 1500`): see below |
//! | `WhiteRatingDiff`, `BlackRatingDiff` | int16 | the tag as a number (`+11` is 11) | same (the text must be `+11`, `-4`, `+0`) |
//! | `UTCDate` | date32 | the `UTCDate` tag (`yyyy.mm.dd`) | no tag, or not a complete valid date written `yyyy.mm.dd` |
//! | `UTCTime` | utf8 | the `UTCTime` tag as `hh:mm:ss` (zero-padded: `1:2:3` is `01:02:03`). The dataset's column is a Parquet TIME (pyarrow's time32), which Spark cannot read (3.5 and 4.x stop with `Illegal Parquet type: INT32 (TIME(MILLIS,false))` on every query), so ours holds the tag's text: a dataset value `t` is `t.strftime("%H:%M:%S")` here, and `CAST("UTCTime" AS TIME)` (DuckDB) or `datetime.time.fromisoformat` (Python) turns ours into the dataset's; as text it sorts in time order | no tag, or not a valid time (hours 0–23, minutes 0–59, seconds 0–60) written `hh:mm:ss` |
//! | `ECO`, `Opening`, `Termination`, `TimeControl` | utf8 | the tag's value | no such tag |
//! | `movetext` | utf8, not null | only with [`ExportOptions::movetext`], after `TimeControl`: the movetext as in the file, from the first token after the tags to the last one (the result token included), comments, variations and line breaks as written | never |
//! | `moves` | binary | the main line in a move code of the library, from the start position: the entropy code ([`chessbits::codec::moves::entropy`]) by default, or one byte a move (see [`MovesCode`]); the file's key-value metadata `chessbits.moves_code` names it (the field's metadata too in versions 1 to 3) | the main line has a null move (`--`), which the codes cannot hold |
//! | `plies` | int32, not null | the number of moves of the main line | never |
//! | `clock_deltas` | list\<int32\> | per ply of the main line, the clock as a delta ([`clock_deltas`]): the first clock of each side as is, every later one as the side's previous clock minus it (the seconds it fell: time used less the increment, negative when the increment was more). A clock is the first `%clk` command in the comments after that move whose value [`chessbits::pgn::parse_clock`] reads (`h:mm:ss` or `m:ss`, unsigned, minutes and seconds below 60), in whole seconds (the fraction dropped). See [Clocks](#clocks) for the clocks back in SQL | the list: no ply has a clock; an item: that ply has none (`[%clk -0:00:01]`, `[%clk 0:61:00]` are none) |
//! | `evals` | list\<int32\> | per ply, the first `%eval` after the move that [`chessbits::pgn::Eval::parse`] reads: centipawns from White's view (`[%eval -1.5]` is −150; digits past the hundredths cut off), or a mate as `±(100000 − n)` (see [`mate_score`]) | the list: no ply has an eval; an item: that ply has none |
//! | `annotations` | utf8 | what the other columns cannot give back (see [Annotations](#annotations)): the movetext as in the file, or the whole game (tags as written, a blank line, the movetext; it then starts with `[`) when its tags do not come back as written, in either the clock and eval comments and the main line's moves the columns give back left out (a mark byte each) | the row's columns rebuild the game exactly (most lichess games) |
//! | `start_fen` | utf8 | the FEN of the start position (from the `[FEN]` tag, normalised) | the game starts from the standard position |
//! | `other_tags` | map\<utf8, utf8\> | every other tag, name → value, in the file's order (`Date`, `Round`, `FEN`, `Variant`, `Annotator`, ...; a second tag of a column's name too; a tag of a number, date or time column whose text is not the one the column writes back, and any later tag of that name) | never (an empty map) |
//! | `non_utf8` | bool, not null | some tag (name or value) or the movetext was not UTF-8 | never |
//! | `latin1_fields` | list\<utf8\> | the strings of the row read as Latin-1 (see [Text](#text)): column names (`White`, `annotations`, `movetext` when written, ...), `other_tags[i].key`, `other_tags[i].value` (`i` the entry's index, from 0) | `non_utf8` is false |
//!
//! # Text
//!
//! Tag values are unescaped (`\"` is `"`). Each string is decoded on its own: each tag name, each
//! tag value and the movetext. One that is UTF-8 is kept as it is; one that is not (old Latin-1
//! files, or files that mix both) is read as Latin-1, every byte one character (U+0000 to U+00FF),
//! and `latin1_fields` names it. So the original bytes of every string are recoverable, field by
//! field: the UTF-8 bytes of a string `latin1_fields` does not name, the characters as bytes of
//! one it names (in Python: `s.encode("latin-1")`). A UTF-8 `café` and a Latin-1 `caf\xe9` in one
//! row thus stay apart. Rows whose bytes are all UTF-8 (nearly all) have `non_utf8 = false` and a
//! null `latin1_fields`; `non_utf8` is true exactly when `latin1_fields` is not null (a
//! movetext that is not UTF-8 always has its `annotations`, which are then named: the columns
//! hold ASCII only).
//!
//! The file's key-value metadata names the schema version: `chessbits.export_version`
//! ([`EXPORT_VERSION_KEY`]) is `4` ([`EXPORT_VERSION`]). Version 3 had the same columns and
//! values, with the Arrow schema embedded (`ARROW:schema`), so the moves code was also the
//! `moves` field's metadata; version 4 has no Arrow schema (the Parquet types say the same:
//! int16 ratings, date32 `UTCDate`, lists and a map) and names the code in the file's
//! key-value metadata alone ([`moves_code_of`] reads either). Version 2 had the same columns, but
//! its `annotations` kept the main line's moves as text (its bytes `0x04` and `0x05` are the
//! input's: [`rows_from_batch`] escapes them when the batch's schema metadata says version 2).
//! Version 1 (files without the entry) had `movetext` in every row, no `annotations`, the
//! clocks themselves in a column `clocks` (read as such), and stored a number, date or time tag
//! whose text was not canonical as null (dropped) or rewritten; [`ExportReader`] reads all
//! three, and refuses a newer version with [`ReadError::Version`], which names it.
//!
//! Decoding `moves` (Rust; the Python package will wrap the same):
//!
//! ```
//! use chessbits::codec::moves::entropy::decode_game;
//! use chessbits::position::Position;
//! # let (bytes, plies, start_fen, variant): (Vec<u8>, usize, Option<&str>, Option<&str>) = (Vec::new(), 0, None, None);
//! let mut start = match start_fen {
//!     Some(fen) => Position::from_fen(fen).unwrap(),
//!     None => Position::startpos(),
//! };
//! // Chess960 games say so in other_tags["Variant"].
//! if variant.is_some_and(|v| v.contains("960")) {
//!     start.set_chess960(true);
//! }
//! let moves = decode_game(&start, &bytes, plies).unwrap();
//! assert_eq!(moves.len(), plies);
//! ```
//!
//! # PGN from a row
//!
//! [`GameRow::to_pgn`] rebuilds a game from its row's columns without reading `movetext`
//! ([`ExportReader`] does it for every row of an export directory, in [`part_files`] order, with
//! [`rows_from_batch`] turning Arrow batches back into rows). A row whose `annotations` is not
//! null is written from it: the whole game it holds, or the row's tags (below), a blank line and
//! the movetext it holds. Any other row from its columns:
//!
//! - **Tags**: every tag column that is not null, and every entry of `other_tags`. A number is
//!   written as a number (`WhiteElo` 1500 as `1500`), a rating difference with its sign (`+11`,
//!   `-4`, `+0`), `UTCDate` as `YYYY.MM.DD`, `UTCTime` as `hh:mm:ss`: the text the column took
//!   (a tag written otherwise is in `other_tags`, as written). The original order is not
//!   stored (the columns have none), so the tags come in a canonical order: the columns in
//!   [`TAG_ORDER`] (the lichess database's: `Event`, `Site`, `Date`, `Round`, `White`, `Black`,
//!   `Result`, `UTCDate`, `UTCTime`, `WhiteElo`, `BlackElo`, `WhiteRatingDiff`,
//!   `BlackRatingDiff`, `WhiteTitle`, `BlackTitle`, `ECO`, `Opening`, `TimeControl`,
//!   `Termination`), merged with `other_tags` in their order: an entry named in `TAG_ORDER`
//!   takes its place there (after a column of the same name), one that is not takes the place of
//!   the next entry that is (or comes last). A lichess game's tags thus come back in the file's
//!   order (a game whose tags would not has them in `annotations`). A string named in
//!   `latin1_fields` is written as its Latin-1 bytes.
//! - **Start**: `start_fen` (Chess960 when the last `Variant` of `other_tags` names it); the
//!   `FEN` and `SetUp` tags are those of `other_tags`, and when `start_fen` is set but
//!   `other_tags` has no `FEN`, `[SetUp "1"]` and `[FEN start_fen]` are added.
//! - **Moves**: the main line decoded from `moves` in the code the file names,
//!   written in SAN, as [`chessbits::pgn::GameTree::write_pgn`] writes (lines of at most 80
//!   columns, `12...` after a comment).
//! - **Clocks and evals**: after a move with a clock or an eval, one comment as lichess writes
//!   it, `{ [%eval E] [%clk C] }` (either command alone when the other is null): the clock as
//!   `h:mm:ss` ([`clock_text`]), the eval as pawns with up to two decimals or `#n` for a mate
//!   ([`eval_text`]).
//! - **Result**: the token is the `Result` column when it is `1-0`, `0-1` or `1/2-1/2`, else `*`.
//!
//! A row whose `moves` is null (its main line holds a null move `--`) always has `annotations`;
//! without them (a version-1 export: its `movetext` is read instead) it cannot be rebuilt
//! ([`RebuildError::NullMove`]); nor can one whose `moves` does not decode.
//!
//! # Annotations
//!
//! The exporter decides, game by game, whether the columns give the game back exactly, and
//! leaves `annotations` null only then. The check is conservative (a cheap pass over the
//! movetext's bytes, no second parse): the tags [`GameRow::tags`] writes (with `SetUp`/`FEN`)
//! must be the input's, name and value bytes, in order; and the movetext must hold nothing but
//! move numbers, the main line's moves (no `!`/`?` suffix, no null move), after a move at most
//! one comment whose text is byte for byte the one the rebuild writes for it (and one wherever
//! the rebuild writes one), and last the result token the rebuild writes. Anything else — a
//! NAG, a variation, another comment, a comment before the first move, a `;` comment or `%`
//! line, an eval with a depth (`0.2,30`), a clock with a fraction, commands in another order or
//! spacing, a result token the `Result` tag does not give, no result token — keeps the
//! movetext. So every row rebuilds to a game equal to the input's as parsed (by this library
//! and by python-chess): tags in order, start, main line, comments (clocks and evals among
//! them), NAGs, variations, result. What is not kept is the formatting: line breaks, move
//! numbers, SAN spelled otherwise (`Ng1f3` comes back as `Nf3`), the spacing between tokens.
//!
//! In `annotations`, what the columns give back is left out: reading the text from the start,
//! a comment `{C}` whose `C` is the text the rebuild writes for a main-line ply that has one
//! (` [%eval E] [%clk C] `, either alone; the plies in order, the next one or one of the 7 after
//! it) is the byte `0x01`; each such ply passed over (its comment not found: a clock with a
//! fraction, other spacing) is `0x02` before it. Outside comments and variations (and tag
//! pairs, `;` comments), the next main-line move, where the text has it as this crate writes
//! its SAN (`Nf3`, `exd8=Q+`, `O-O`) at the start of a token and not followed by a letter, digit
//! or `=+#-`, is `0x04`, or `0x05` when it comes with its number as lichess writes it (`12.
//! Nf3`, `12... Nf6`: the full-move number of the position before the move, one space); after
//! a move written otherwise (`Ng1f3`) the moves stay text. A byte `0x01` to `0x05` of the input
//! is `0x03` and itself. The rebuild writes each `0x01` back as `{C}` of the next such ply and
//! each `0x04`/`0x05` as the next main-line move (decoded from `moves`), so the text comes back
//! byte for byte; an analysed lichess game's `annotations` is then little more than its NAGs
//! (`\x05 \x01 \x05?! \x01 ...`). A row whose `moves` is null keeps its comments and moves
//! (only escapes).
//!
//! # Clocks
//!
//! `clock_deltas` holds a side's first clock and then how much its clock fell at each of its
//! moves (a dictionary of a few small numbers: half the bytes of the clocks themselves). The
//! clocks back: in Rust [`clocks_from_deltas`] ([`ExportReader`] and
//! [`rows_from_batch`] give [`GameRow::clocks`], and so the Python package); in DuckDB (each side's running sum, the
//! first clock counted up and the deltas down):
//!
//! ```sql
//! SELECT game, ply, SUM(CASE WHEN nth = 1 THEN delta ELSE -delta END)
//!          OVER (PARTITION BY game, ply % 2, delta IS NULL ORDER BY ply) AS clock
//! FROM (SELECT game, ply, delta,
//!              ROW_NUMBER() OVER (PARTITION BY game, ply % 2, delta IS NULL ORDER BY ply) AS nth
//!       FROM (SELECT ROW_NUMBER() OVER () AS game, UNNEST(clock_deltas) AS delta,
//!                    generate_subscripts(clock_deltas, 1) - 1 AS ply
//!             FROM 'export/**/*.parquet'))
//! WHERE delta IS NOT NULL
//! ```

//! # Files
//!
//! An export is a directory (see [`ParquetExporter`]): `part-0.parquet`, or with partitioning
//! `year=YYYY/month=MM/part-0.parquet` (Hive style, from `UTCDate`, else `Date`; an unknown year
//! or month is `__HIVE_DEFAULT_PARTITION__`, what Hive, Spark, DuckDB, polars and pyarrow read as
//! null; pandas needs the partitions' schema for it, `pd.read_parquet(dir,
//! partitioning=pyarrow.dataset.partitioning(pa.schema([("year", pa.int32()), ("month",
//! pa.int32())]), flavor="hive"))`, else it fails with "Cannot yet unify dictionaries with nulls",
//! pandas issue 55400);
//! games that cannot be read go, byte for byte, to `_rejected.pgn`, with `_rejected.tsv` saying
//! where they came from and why. Files are zstd-compressed, written in row groups of
//! [`ExportOptions::row_group_size`] games. Encodings by measurement (BENCHMARKS.md): `Site`,
//! `UTCTime`, `White`, `Black`, `moves` and the items of `evals` plain; `WhiteElo`, `BlackElo`
//! and `plies` `DELTA_BINARY_PACKED`; the others dictionary-encoded where that pays (the
//! `parquet` crate's default), `clock_deltas` and `annotations` among them (all read, value for
//! value, by pyarrow, pandas, polars, DuckDB and Spark 3.5.3, 3.5.9 and 4:
//! `scripts/reader_matrix.sh`). Not `DELTA_LENGTH_BYTE_ARRAY`, smaller for names and moves:
//! Spark 3.5.3 misreads it (SPARK-52240). No embedded Arrow schema. Row-group
//! statistics (minimum, maximum, nulls; strings cut to 16 bytes) are written for the ratings,
//! rating differences, `plies`, `UTCDate` and `UTCTime` only; there is no page index (rows in
//! input order leave page minima and maxima nothing to prune).

mod annotations;
mod batch;
mod export;
pub mod footer;
mod moves_code;
mod parts;
mod read;
mod rebuild;
mod row;

use std::sync::Arc;

use arrow_schema::{DataType, Field, Fields, Schema, SchemaRef};

pub use batch::{rows_to_batch, rows_to_batch_with};
pub use export::{ExportError, ExportOptions, ExportSummary, ParquetExporter, DEFAULT_BLOCK_SIZE, DEFAULT_PARTITION};
pub use moves_code::{MovesCode, MOVES_CODE_KEY};

/// The file-level key-value metadata entry that names an export's schema version
/// ([`EXPORT_VERSION`]); an export without it is version 1.
pub const EXPORT_VERSION_KEY: &str = "chessbits.export_version";

/// The schema version this crate writes, and the newest it reads: 1 had `movetext` in every
/// row, no `annotations` and `clocks`; 2 has `annotations`, `clock_deltas`, and `movetext`
/// only when asked for; 3 marks the main line's moves in `annotations` too (bytes `0x04` and
/// `0x05`, which version 2 kept as text: [`rows_from_batch`] reads a version-2 batch's as
/// such); 4 has the same columns as 3 without the embedded Arrow schema (the moves code in the
/// file's key-value metadata only).
pub const EXPORT_VERSION: u32 = 4;
pub use parts::{is_export_dir, part_files, PartFile};
pub use read::{export_version, moves_code_of, rows_from_batch, ExportGame, ExportReader, ReadError};
pub use rebuild::{clock_text, date_text, eval_text, start_position, RebuildError, TAG_ORDER};
pub use row::{mate_score, movetext, GameRow, MATE_BASE};

/// How a tag column holds its tag ([`TAG_COLUMN_KINDS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TagColumnKind {
    /// The tag's own text (utf8).
    Text,
    /// The tag as a number (int16, as in the lichess dataset).
    Number,
    /// The tag as a date (`UTCDate`: date32).
    Date,
    /// The tag's time written `hh:mm:ss` (`UTCTime`: utf8).
    Time,
}

/// The tags that have a column of their own, in column order, and how each holds its tag (the
/// one list the schema, [`TAG_COLUMNS`], [`TEXT_TAG_COLUMNS`] and [`NUMBER_TAG_COLUMNS`] come
/// from).
///
/// ```
/// use chessbits_parquet::{TagColumnKind, TAG_COLUMN_KINDS};
/// assert_eq!(TAG_COLUMN_KINDS[7], ("WhiteElo", TagColumnKind::Number));
/// ```
pub const TAG_COLUMN_KINDS: [(&str, TagColumnKind); 17] = {
    use TagColumnKind::{Date, Number, Text, Time};
    [
        ("Event", Text),
        ("Site", Text),
        ("White", Text),
        ("Black", Text),
        ("Result", Text),
        ("WhiteTitle", Text),
        ("BlackTitle", Text),
        ("WhiteElo", Number),
        ("BlackElo", Number),
        ("WhiteRatingDiff", Number),
        ("BlackRatingDiff", Number),
        ("UTCDate", Date),
        ("UTCTime", Time),
        ("ECO", Text),
        ("Opening", Text),
        ("Termination", Text),
        ("TimeControl", Text),
    ]
};

/// The names of [`TAG_COLUMN_KINDS`] of `kind` (all of them with `None`), in column order; `N`
/// must be their count (checked when the constant is evaluated).
const fn tag_columns_of<const N: usize>(kind: Option<TagColumnKind>) -> [&'static str; N] {
    let mut out = [""; N];
    let (mut i, mut n) = (0, 0);
    while i < TAG_COLUMN_KINDS.len() {
        let (name, k) = TAG_COLUMN_KINDS[i];
        if kind.is_none() || matches!(kind, Some(want) if want as u8 == k as u8) {
            out[n] = name;
            n += 1;
        }
        i += 1;
    }
    assert!(n == N, "the count of tag columns of a kind");
    out
}

/// The tags that have a column of their own, in column order.
pub const TAG_COLUMNS: [&str; 17] = tag_columns_of(None);

/// The tag columns that hold the tag's own text (utf8): all of [`TAG_COLUMNS`] but the numbers
/// ([`NUMBER_TAG_COLUMNS`]), `UTCDate` (a date) and `UTCTime` (the time written `hh:mm:ss`).
///
/// ```
/// use chessbits_parquet::{NUMBER_TAG_COLUMNS, TAG_COLUMNS, TEXT_TAG_COLUMNS};
/// assert_eq!(TEXT_TAG_COLUMNS.len() + NUMBER_TAG_COLUMNS.len() + 2, TAG_COLUMNS.len());
/// assert_eq!(TEXT_TAG_COLUMNS[..3], ["Event", "Site", "White"]);
/// assert!(TEXT_TAG_COLUMNS.contains(&"Opening"));
/// ```
pub const TEXT_TAG_COLUMNS: [&str; 11] = tag_columns_of(Some(TagColumnKind::Text));

/// The tag columns that hold the tag as a number (int16, as in the lichess dataset).
///
/// ```
/// use arrow_schema::DataType;
/// for name in chessbits_parquet::NUMBER_TAG_COLUMNS {
///     let schema = chessbits_parquet::schema();
///     assert_eq!(schema.field_with_name(name).unwrap().data_type(), &DataType::Int16);
/// }
/// ```
pub const NUMBER_TAG_COLUMNS: [&str; 4] = tag_columns_of(Some(TagColumnKind::Number));

/// The `clock_deltas` of `clocks` (a row's clocks, per ply): a ply's clock as is when it is the
/// first of its side (plies of one parity) that is not null, else the side's last clock before
/// it minus it (the seconds the clock fell: time used less the increment); null where the clock
/// is. [`clocks_from_deltas`] is the inverse (the arithmetic wraps, so every `i32` comes back).
///
/// ```
/// let clocks = [Some(180), Some(180), Some(178), None, Some(179), Some(170)];
/// let deltas = chessbits_parquet::clock_deltas(&clocks);
/// assert_eq!(deltas, [Some(180), Some(180), Some(2), None, Some(-1), Some(10)]);
/// assert_eq!(chessbits_parquet::clocks_from_deltas(&deltas), clocks);
/// // Any clocks come back, however far apart.
/// let odd = [Some(i32::MIN), Some(0), Some(i32::MAX), None, None, Some(-7)];
/// assert_eq!(chessbits_parquet::clocks_from_deltas(&chessbits_parquet::clock_deltas(&odd)), odd);
/// ```
pub fn clock_deltas(clocks: &[Option<i32>]) -> Vec<Option<i32>> {
    let mut last = [None; 2];
    let mut out = Vec::with_capacity(clocks.len());
    for (ply, &clock) in clocks.iter().enumerate() {
        out.push(clock.map(|c| match last[ply % 2] {
            Some(previous) => i32::wrapping_sub(previous, c),
            None => c,
        }));
        if clock.is_some() {
            last[ply % 2] = clock;
        }
    }
    out
}

/// The clocks whose [`clock_deltas`] are `deltas`.
///
/// ```
/// let deltas = [Some(60), Some(60), Some(3), Some(5)];
/// assert_eq!(chessbits_parquet::clocks_from_deltas(&deltas), [Some(60), Some(60), Some(57), Some(55)]);
/// ```
pub fn clocks_from_deltas(deltas: &[Option<i32>]) -> Vec<Option<i32>> {
    let mut last: [Option<i32>; 2] = [None; 2];
    let mut out = Vec::with_capacity(deltas.len());
    for (ply, &delta) in deltas.iter().enumerate() {
        let clock = delta.map(|d| match last[ply % 2] {
            Some(previous) => i32::wrapping_sub(previous, d),
            None => d,
        });
        if clock.is_some() {
            last[ply % 2] = clock;
        }
        out.push(clock);
    }
    out
}

/// The item field of the `clock_deltas` and `evals` lists.
pub(crate) fn list_item() -> Arc<Field> {
    Arc::new(Field::new("item", DataType::Int32, true))
}

/// The item field of the `latin1_fields` list.
pub(crate) fn name_item() -> Arc<Field> {
    Arc::new(Field::new("item", DataType::Utf8, false))
}

/// The entries field of the `other_tags` map.
pub(crate) fn map_entries() -> Arc<Field> {
    let fields = Fields::from(vec![
        Field::new("keys", DataType::Utf8, false),
        Field::new("values", DataType::Utf8, true),
    ]);
    Arc::new(Field::new("entries", DataType::Struct(fields), false))
}

/// The Arrow schema of an export with the default moves code (see the [crate
/// documentation](crate) for each column).
///
/// ```
/// use arrow_schema::DataType;
/// let schema = chessbits_parquet::schema();
/// assert_eq!(schema.field(0).name(), "Event");
/// assert_eq!(schema.field_with_name("WhiteElo").unwrap().data_type(), &DataType::Int16);
/// assert_eq!(schema.field_with_name("UTCDate").unwrap().data_type(), &DataType::Date32);
/// assert_eq!(schema.field_with_name("UTCTime").unwrap().data_type(), &DataType::Utf8);
/// assert_eq!(schema.fields().len(), 26);
/// ```
pub fn schema() -> SchemaRef {
    schema_with(MovesCode::default())
}

/// The Arrow schema of an export whose `moves` column holds `code`: the `moves` field's metadata
/// says which ([`MOVES_CODE_KEY`]).
///
/// ```
/// use chessbits_parquet::{schema_with, MovesCode, MOVES_CODE_KEY};
/// let schema = schema_with(MovesCode::IndexByte);
/// let moves = schema.field_with_name("moves").unwrap();
/// assert_eq!(moves.metadata()[MOVES_CODE_KEY], "index-byte");
/// ```
pub fn schema_with(code: MovesCode) -> SchemaRef {
    schema_of(code, false)
}

/// The Arrow schema of an export whose `moves` column holds `code`, with the lichess dataset's
/// `movetext` column after `TimeControl` when `movetext` is true
/// ([`ExportOptions::movetext`]).
///
/// ```
/// use chessbits_parquet::{schema_of, MovesCode};
/// let schema = schema_of(MovesCode::default(), true);
/// assert_eq!(schema.index_of("movetext").unwrap(), 17);
/// assert_eq!(schema.fields().len(), 27);
/// assert!(chessbits_parquet::schema().index_of("movetext").is_err());
/// ```
pub fn schema_of(code: MovesCode, movetext: bool) -> SchemaRef {
    let text = |name: &str| Field::new(name, DataType::Utf8, true);
    let int16 = |name: &str| Field::new(name, DataType::Int16, true);
    // The tag columns, typed by their kinds.
    let mut fields: Vec<Field> = TAG_COLUMN_KINDS
        .iter()
        .map(|&(name, kind)| match kind {
            TagColumnKind::Date => Field::new(name, DataType::Date32, true),
            TagColumnKind::Number => int16(name),
            TagColumnKind::Text | TagColumnKind::Time => text(name),
        })
        .collect();
    fields.extend([
        Field::new("moves", DataType::Binary, true).with_metadata(
            [(MOVES_CODE_KEY.to_string(), code.name().to_string())]
                .into_iter()
                .collect(),
        ),
        Field::new("plies", DataType::Int32, false),
        Field::new("clock_deltas", DataType::List(list_item()), true),
        Field::new("evals", DataType::List(list_item()), true),
        text("annotations"),
        text("start_fen"),
        Field::new("other_tags", DataType::Map(map_entries(), false), false),
        Field::new("non_utf8", DataType::Boolean, false),
        Field::new("latin1_fields", DataType::List(name_item()), true),
    ]);
    if movetext {
        fields.insert(17, Field::new("movetext", DataType::Utf8, false));
    }
    Arc::new(Schema::new(fields))
}
