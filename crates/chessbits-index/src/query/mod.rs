//! Reading an index: [`Index::open`] once, then any number of [`Index::explore`] and
//! [`Index::search`] queries (footers and page indexes are read at open, not per query).

mod explore;
mod filters;
mod json;
mod pgn_text;
mod position;
mod replay;
mod search;
mod table;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub use explore::{ExploreOptions, Explorer, ExplorerMove};
pub use filters::Filters;
pub use position::resolve_position;
pub use search::{SearchOptions, SearchResult, SortOrder};

use crate::error::IndexError;
use crate::key::PositionKey;
use crate::manifest::{checksum, Manifest};
use crate::model::game::GameRow;
use crate::model::positions::{self, key_prefix, Candidate};
use crate::model::sources::SourceRow;
use crate::model::top_games::{self, TopGameRow};
use crate::model::{explorer, explorer_summary, games, sources};
use table::TableFile;

/// Per game number: the plies where a game stands in a position, and the move it played at the
/// first.
pub(crate) type Hits = BTreeMap<u64, Plies>;

/// The plies where a game stands in a position and the move it played at the first.
pub(crate) type Plies = (Vec<u32>, Option<String>);

/// An open index.
///
/// ```
/// use chessbits::position::Position;
/// use chessbits_index::{BuildOptions, ExploreOptions, Index, IndexBuilder, SearchOptions, SourceInfo};
/// let dir = tempfile::tempdir().unwrap();
/// let out = dir.path().join("index");
/// let mut builder = IndexBuilder::create(&out, BuildOptions::default()).unwrap();
/// let pgn = b"[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n[Result \"0-1\"]\n\n1. d4 d5 0-1\n";
/// builder.add_reader(&pgn[..], SourceInfo::named("two.pgn")).unwrap();
/// builder.finish().unwrap();
///
/// let index = Index::open(&out).unwrap();
/// let explorer = index.explore(&Position::startpos(), &ExploreOptions::default()).unwrap();
/// assert_eq!((explorer.white, explorer.draws, explorer.black), (1, 0, 1));
/// assert_eq!(explorer.moves.iter().map(|m| m.san.as_str()).collect::<Vec<_>>(), ["d4", "e4"]);
/// let found = index.search(&explorer.position_after("e2e4").unwrap(), &SearchOptions::default()).unwrap();
/// assert_eq!((found.total, found.games[0].plies.clone()), (1, vec![1]));
/// ```
pub struct Index {
    dir: PathBuf,
    manifest: Manifest,
    explorer: Vec<TableFile>,
    positions: Vec<TableFile>,
    /// Each positions file's key bits (its footer's, see [`crate::model::positions`]).
    positions_bits: Vec<u32>,
    games: Vec<TableFile>,
    /// One per positions file (see [`crate::model::top_games`]).
    top_games: Vec<TableFile>,
    /// One per explorer file (see [`crate::model::explorer_summary`]).
    explorer_summary: Vec<TableFile>,
    sources: Vec<SourceRow>,
}

/// A game as queries return it: its row of the `games` table, the plies at which it stands in
/// the queried position, and the move it played there first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameHit {
    pub row: GameRow,
    /// Plies where the game stands in the position (ascending).
    pub plies: Vec<u32>,
    /// The move played at the first of them (UCI); `None` when the game ended there.
    pub uci: Option<String>,
}

impl Index {
    /// Opens the index in `dir`: reads its manifest and every file's footer and page index,
    /// checking each file's length and row count against the manifest.
    pub fn open(dir: &Path) -> Result<Index, IndexError> {
        let manifest = Manifest::read(dir)?;
        let open_table = |table: &str| -> Result<Vec<TableFile>, IndexError> {
            let mut first_row = 0;
            let mut files = Vec::new();
            for entry in manifest.files(table) {
                files.push(TableFile::open(dir, entry, first_row)?);
                first_row += entry.rows;
            }
            Ok(files)
        };
        let (explorer, positions, games) = (open_table("explorer")?, open_table("positions")?, open_table("games")?);
        let positions_bits = positions
            .iter()
            .map(|f| f.key_bits())
            .collect::<Result<Vec<u32>, IndexError>>()?;
        let top_games = open_table("top_games")?;
        if top_games.len() != positions.len() {
            return Err(IndexError::format(
                &dir.join(crate::manifest::MANIFEST),
                "the top_games table must have one file per file of the positions table",
            ));
        }
        let explorer_summary = open_table("explorer_summary")?;
        if explorer_summary.len() != explorer.len() {
            return Err(IndexError::format(
                &dir.join(crate::manifest::MANIFEST),
                "the explorer_summary table must have one file per file of the explorer table",
            ));
        }
        let game_rows: u64 = games.iter().map(|f| f.rows).sum();
        if game_rows != manifest.games {
            return Err(IndexError::format(
                &dir.join(crate::manifest::MANIFEST),
                "the games table and `games` disagree",
            ));
        }
        let mut source_rows = Vec::new();
        for file in open_table("sources")? {
            for batch in file.all_rows(&["source", "path", "format", "bytes", "modified", "games", "first_game"])? {
                sources::from_batch(&batch, &file.path, &mut source_rows)?;
            }
        }
        Ok(Index {
            dir: dir.to_path_buf(),
            manifest,
            explorer,
            positions,
            positions_bits,
            games,
            top_games,
            explorer_summary,
            sources: source_rows,
        })
    }

    /// The index's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Games in the index.
    pub fn games(&self) -> u64 {
        self.manifest.games
    }

    /// The manifest: files, rows, bytes.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// The input files the games came from.
    pub fn sources(&self) -> &[SourceRow] {
        &self.sources
    }

    /// Reads every file of the index and checks its CRC-32 against the manifest; the first file
    /// that differs is the error.
    pub fn verify(&self) -> Result<(), IndexError> {
        for entry in self.manifest.tables.iter().flatten() {
            let path = self.dir.join(&entry.file);
            let (bytes, crc32) = checksum(&path)?;
            if (bytes, crc32) != (entry.bytes, entry.crc32) {
                return Err(IndexError::format(
                    &path,
                    "its checksum differs from the manifest's (the file is damaged)",
                ));
            }
        }
        Ok(())
    }

    /// The games that stand in the position of `key` (ascending), verified by replay (see
    /// [`crate::model::positions`]).
    pub(crate) fn hit_games(&self, key: PositionKey) -> Result<Vec<u64>, IndexError> {
        let mut games = Vec::new();
        for file in 0..self.positions.len() {
            games.extend(self.resolve(key, file, false)?.into_iter().map(|c| c.game));
        }
        games.sort_unstable();
        games.dedup();
        Ok(games)
    }

    /// The rows of `key`'s position in positions file `file`: its candidates (by key prefix)
    /// whose full key is `key`, found by replaying one game per key rank until one reaches the
    /// key. `solo_only`: only the `solo` rows are wanted (the pages without one are skipped, and
    /// a file without a `solo` candidate answers at once).
    pub(crate) fn resolve(&self, key: PositionKey, file: usize, solo_only: bool) -> Result<Vec<Candidate>, IndexError> {
        Ok(self.resolve_with_rows(key, file, solo_only)?.0)
    }

    /// [`resolve`](Self::resolve), and the rows of the games it replayed to decide, read with
    /// [`games::LOOKUP_COLUMNS`]: usually the position's own game, which a query of a rare
    /// position then need not read again.
    fn resolve_with_rows(
        &self,
        key: PositionKey,
        file: usize,
        solo_only: bool,
    ) -> Result<(Vec<Candidate>, Vec<GameRow>), IndexError> {
        let (table, bits) = (&self.positions[file], self.positions_bits[file]);
        let prefix = key_prefix(key.0, bits);
        if solo_only {
            // Whether the prefix has a `solo` row at all (two columns of the flagged pages).
            let mut any = false;
            for batch in table.pages_with_prefix(prefix, Some("solo"), &["key_prefix", "solo"])? {
                any |= positions::has_solo_with_prefix(&batch, prefix, &table.path)?;
            }
            if !any {
                return Ok((Vec::new(), Vec::new()));
            }
        }
        let mut candidates = Vec::new();
        for batch in table.pages_with_prefix(prefix, None, &["key_prefix", "key_rank", "game", "solo"])? {
            positions::candidates_with_prefix(&batch, prefix, &table.path, &mut candidates)?;
        }
        let mut open: std::collections::BTreeSet<i32> = candidates.iter().map(|c| c.rank).collect();
        let mut found = None;
        let mut replayed_rows = Vec::new();
        while let Some(&rank) = open.first() {
            // The ranks of a game (ascending: rows come by rank, then game) stand for its
            // distinct keys of this prefix, in the same order.
            let game = candidates.iter().find(|c| c.rank == rank).map_or(0, |c| c.game);
            let ranks: Vec<i32> = candidates.iter().filter(|c| c.game == game).map(|c| c.rank).collect();
            let row = self
                .game_columns(&[game], &games::LOOKUP_COLUMNS)?
                .pop()
                .ok_or_else(|| IndexError::format(&table.path, "a game beyond the games table"))?;
            let replayed = replay::replay(&row, &self.games_path())?;
            replayed_rows.push(row);
            let keys = replayed.keys_with_prefix(prefix, bits);
            if keys.len() != ranks.len() {
                return Err(IndexError::format(
                    &table.path,
                    format!(
                        "game {game} has {} rows of a key prefix where its replay has {} keys",
                        ranks.len(),
                        keys.len()
                    ),
                ));
            }
            match keys.iter().position(|&k| k == key.0) {
                Some(i) => {
                    found = Some(ranks[i]);
                    break;
                }
                None => ranks.iter().for_each(|r| {
                    open.remove(r);
                }),
            }
        }
        let candidates = candidates
            .into_iter()
            .filter(|c| Some(c.rank) == found && (c.solo || !solo_only))
            .collect();
        Ok((candidates, replayed_rows))
    }

    /// The rows of positions file `file` (numbered across the file) where the games stand in
    /// `key`'s position, when its key prefix has one rank: then they are one run, found from the
    /// page index and verified by replaying the run's first game (see
    /// [`crate::model::positions`]). `None` when the prefix has several ranks.
    pub(crate) fn key_run(&self, key: PositionKey, file: usize) -> Result<Option<std::ops::Range<u64>>, IndexError> {
        let (table, bits) = (&self.positions[file], self.positions_bits[file]);
        let prefix = key_prefix(key.0, bits);
        let rows = table.run_of("key_prefix", prefix, 0..table.rows)?;
        if rows.is_empty() {
            return Ok(Some(rows));
        }
        if table.run_of("key_rank", 0, rows.clone())? != rows {
            return Ok(None);
        }
        let game = self.run_game(file, rows.start)?;
        let row = self
            .game_columns(&[game], &games::REPLAY_COLUMNS)?
            .pop()
            .ok_or_else(|| IndexError::format(&table.path, "a key's run without a game"))?;
        let keys = replay::replay(&row, &self.games_path())?.keys_with_prefix(prefix, bits);
        if keys.len() != 1 {
            return Err(IndexError::format(
                &table.path,
                format!(
                    "game {} has one rank of a key prefix where its replay has {} keys",
                    row.game,
                    keys.len()
                ),
            ));
        }
        Ok(Some(match keys[0] == key.0 {
            true => rows,
            false => rows.start..rows.start,
        }))
    }

    /// The game of row `row` of positions file `file`.
    pub(crate) fn run_game(&self, file: usize, row: u64) -> Result<u64, IndexError> {
        let table = &self.positions[file];
        let batches = table.row_range(row..row + 1, &["game"])?;
        let game = batches
            .iter()
            .find(|b| b.num_rows() > 0)
            .map(|b| crate::model::column::<arrow_array::Int64Array>(b, "game", &table.path))
            .transpose()?
            .map(|games| games.value(0));
        game.and_then(|g| u64::try_from(g).ok())
            .ok_or_else(|| IndexError::format(&table.path, format!("no game at row {row}")))
    }

    /// The rows of the games `ids` (sorted, distinct) with what replays them.
    fn replay_rows(&self, ids: &[u64]) -> Result<Vec<GameRow>, IndexError> {
        self.game_columns(ids, &games::REPLAY_COLUMNS)
    }

    /// A path for errors about the games table's moves.
    fn games_path(&self) -> PathBuf {
        self.games
            .first()
            .map_or_else(|| self.dir.join("games"), |f| f.path.clone())
    }

    /// Per game of `rows` (read with the replay columns, as [`game_rows`](Self::game_rows)
    /// reads them), the plies where it stands in `key` and the move it played at the first. A
    /// game that never does is a format error: the positions table said it does.
    pub(crate) fn plies_in(&self, key: PositionKey, rows: &[GameRow]) -> Result<Vec<Plies>, IndexError> {
        rows.iter()
            .map(|row| {
                replay::replay(row, &self.games_path())?.at(key.0).ok_or_else(|| {
                    IndexError::format(
                        &self.games_path(),
                        format!(
                            "game {} does not reach the position the positions table names",
                            row.game
                        ),
                    )
                })
            })
            .collect()
    }

    /// [`plies_in`](Self::plies_in) for the games `ids` (sorted, distinct), by game.
    pub(crate) fn plies_of(&self, key: PositionKey, ids: &[u64]) -> Result<Hits, IndexError> {
        let rows = self.replay_rows(ids)?;
        let plies = self.plies_in(key, &rows)?;
        Ok(ids.iter().copied().zip(plies).collect())
    }

    /// The `top_games` rows of a key in the table's file `file` (that of positions file `file`).
    fn top_game_rows(&self, key: PositionKey, file: usize) -> Result<Vec<TopGameRow>, IndexError> {
        let mut rows = Vec::new();
        let file = &self.top_games[file];
        for batch in file.pages_with_key(key.0, &top_games::QUERY_COLUMNS)? {
            top_games::rows_with_key(&batch, key.0, &file.path, &mut rows)?;
        }
        Ok(rows)
    }

    /// The `explorer` rows of a key. `summed`: per explorer file, the key's rows of its
    /// `explorer_summary` file when it has some (summed over months: their `month` is `None`),
    /// else its `explorer` rows; only for queries without a month filter. `groups`: read the
    /// `speed`, `rating` and `month` columns (a filter needs them); without, rows have them
    /// `None` and fewer pages are decoded ([`explorer::TOTAL_COLUMNS`]).
    pub(crate) fn explorer_rows(
        &self,
        key: PositionKey,
        summed: bool,
        groups: bool,
    ) -> Result<Vec<explorer::ExplorerRow>, IndexError> {
        let (columns, summary_columns, read): (&[&str], &[&str], _) = match groups {
            true => (&explorer::COLUMNS, &explorer_summary::COLUMNS, explorer::Groups::ALL),
            false => (
                &explorer::TOTAL_COLUMNS,
                &explorer::TOTAL_COLUMNS,
                explorer::Groups::NONE,
            ),
        };
        let mut rows = Vec::new();
        for (file, summary) in self.explorer.iter().zip(&self.explorer_summary) {
            if summed {
                let before = rows.len();
                for batch in summary.pages_with_key(key.0, summary_columns)? {
                    let read = explorer::Groups { month: false, ..read };
                    explorer::rows_with_key(&batch, key.0, &summary.path, read, &mut rows)?;
                }
                if rows.len() > before {
                    continue;
                }
            }
            for batch in file.pages_with_key(key.0, columns)? {
                explorer::rows_with_key(&batch, key.0, &file.path, read, &mut rows)?;
            }
        }
        rows.extend(self.solo_explorer_rows(key)?);
        Ok(rows)
    }

    /// The explorer rows that the `explorer` table leaves out for `key`: one per `solo` row of
    /// the `positions` table (see [`crate::model::positions`]), made from its game's row as the
    /// build would have made it, with the move its replay gives.
    fn solo_explorer_rows(&self, key: PositionKey) -> Result<Vec<explorer::ExplorerRow>, IndexError> {
        let mut ids = Vec::new();
        let mut known = Vec::new();
        for file in 0..self.positions.len() {
            let (candidates, rows) = self.resolve_with_rows(key, file, true)?;
            ids.extend(candidates.into_iter().map(|c| c.game));
            known.extend(rows);
        }
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        ids.sort_unstable();
        if ids.windows(2).any(|w| w[0] == w[1]) {
            let path = self
                .positions
                .first()
                .map_or_else(|| self.dir.clone(), |f| f.path.clone());
            return Err(IndexError::format(&path, "two `solo` rows of one game at one key"));
        }
        // The games replayed to resolve the key are usually these: read only the others.
        let mut known: std::collections::BTreeMap<u64, GameRow> =
            known.into_iter().map(|row| (row.game as u64, row)).collect();
        let missing: Vec<u64> = ids.iter().copied().filter(|id| !known.contains_key(id)).collect();
        for row in self.game_columns(&missing, &games::LOOKUP_COLUMNS)? {
            known.insert(row.game as u64, row);
        }
        let rows: Vec<GameRow> = ids.iter().filter_map(|id| known.remove(id)).collect();
        let moves = self.plies_in(key, &rows)?;
        Ok(rows
            .iter()
            .zip(moves)
            .map(|(game, (_, uci))| {
                let record = crate::build::records::explorer_record(game, key.0, crate::build::records::NO_MOVE);
                explorer::row_of_record(&record, uci)
            })
            .collect())
    }

    /// The rows of the games `ids` (sorted, distinct), in that order. An id the index does not
    /// have is a format error (the positions table names a game the games table lacks).
    pub fn game_rows(&self, ids: &[u64]) -> Result<Vec<GameRow>, IndexError> {
        self.game_columns(ids, &games::ALL_COLUMNS)
    }

    /// [`game_rows`](Self::game_rows) with the columns a move table shows of a move's only game
    /// ([`games::MOVE_GAME_COLUMNS`]).
    pub(crate) fn move_games(&self, ids: &[u64]) -> Result<Vec<GameRow>, IndexError> {
        self.game_columns(ids, &games::MOVE_GAME_COLUMNS)
    }

    /// [`game_rows`](Self::game_rows) with only the columns that filters and sorting need (the
    /// others empty): what a query reads for every game of a position.
    pub(crate) fn game_summaries(&self, ids: &[u64]) -> Result<Vec<GameRow>, IndexError> {
        self.game_columns(ids, &games::SUMMARY_COLUMNS)
    }

    fn game_columns(&self, ids: &[u64], columns: &[&str]) -> Result<Vec<GameRow>, IndexError> {
        let mut out = Vec::with_capacity(ids.len());
        let mut rest = ids;
        for file in &self.games {
            let end = file.first_row + file.rows;
            let here = rest.partition_point(|&id| id < end);
            let (mine, later) = rest.split_at(here);
            rest = later;
            if mine.is_empty() {
                continue;
            }
            let rows: Vec<u64> = mine.iter().map(|&id| id.saturating_sub(file.first_row)).collect();
            let before = out.len();
            for batch in file.rows(&rows, columns)? {
                games::from_batch(&batch, &file.path, &mut out)?;
            }
            let got: Vec<u64> = out[before..].iter().map(|r| r.game as u64).collect();
            if got != mine {
                return Err(IndexError::format(&file.path, "games are not numbered by their row"));
            }
        }
        if out.len() != ids.len() {
            let path = self.dir.join(crate::manifest::MANIFEST);
            return Err(IndexError::format(&path, "a game number beyond the games table"));
        }
        Ok(out)
    }

    /// The positions files in the wide layout of format 2 and of an index built elsewhere
    /// ([`positions::wide_schema`]: `key`, `game`, `ply`, `uci`, `solo`; one row per ply),
    /// one batch per file, in the manifest's order (see
    /// [`wide_positions_of_file`](Self::wide_positions_of_file)).
    pub fn wide_positions(&self) -> Result<Vec<arrow_array::RecordBatch>, IndexError> {
        (0..self.positions.len())
            .map(|f| self.wide_positions_of_file(f))
            .collect()
    }

    /// Writes [`wide_positions_of_file`](Self::wide_positions_of_file) as the Parquet file
    /// `out` (what another tool hands to [`crate::seal()`]); returns its rows.
    pub fn write_wide_positions(&self, file: usize, out: &Path) -> Result<u64, IndexError> {
        let batch = self.wide_positions_of_file(file)?;
        let mut writer = crate::model::create_writer(out, batch.schema(), true)?;
        writer.write(&batch).map_err(|e| IndexError::parquet(out, e))?;
        writer.close().map_err(|e| IndexError::parquet(out, e))?;
        Ok(batch.num_rows() as u64)
    }

    /// The rows of positions file `file` in the wide layout ([`positions::wide_schema`]),
    /// sorted by key, game, ply, `solo` as the file has it (on the first ply of its game at its
    /// key): each row's full key, plies and moves recovered by replaying its game. What
    /// [`crate::seal()`] takes from another tool, and full keys for tools that cannot replay.
    pub fn wide_positions_of_file(&self, file: usize) -> Result<arrow_array::RecordBatch, IndexError> {
        use crate::build::records::{PositionRecord, NO_MOVE};
        let (table, bits) = (&self.positions[file], self.positions_bits[file]);
        let mut by_game: BTreeMap<u64, Vec<(i64, i32, bool)>> = BTreeMap::new();
        for batch in table.all_rows(&["key_prefix", "key_rank", "game", "solo"])? {
            let prefixes = crate::model::column::<arrow_array::Int64Array>(&batch, "key_prefix", &table.path)?;
            let ranks = crate::model::column::<arrow_array::Int32Array>(&batch, "key_rank", &table.path)?;
            let games = crate::model::column::<arrow_array::Int64Array>(&batch, "game", &table.path)?;
            let solo = crate::model::column::<arrow_array::BooleanArray>(&batch, "solo", &table.path)?;
            for i in 0..batch.num_rows() {
                let game =
                    u64::try_from(games.value(i)).map_err(|_| IndexError::format(&table.path, "a negative game"))?;
                by_game
                    .entry(game)
                    .or_default()
                    .push((prefixes.value(i), ranks.value(i), solo.value(i)));
            }
        }
        let ids: Vec<u64> = by_game.keys().copied().collect();
        let mut rows = Vec::new();
        for (row, game) in self.replay_rows(&ids)?.iter().zip(&ids) {
            let replayed = replay::replay(row, &self.games_path())?;
            let mut stored = by_game.remove(game).unwrap_or_default();
            stored.sort_unstable();
            for group in stored.chunk_by(|a, b| a.0 == b.0) {
                let keys = replayed.keys_with_prefix(group[0].0, bits);
                if keys.len() != group.len() {
                    return Err(IndexError::format(
                        &table.path,
                        format!("game {game}: its rows of a key prefix and its replay disagree"),
                    ));
                }
                for (&key, &(_, _, solo)) in keys.iter().zip(group) {
                    for (i, ply) in (0..replayed.keys.len())
                        .filter(|&p| replayed.keys[p] == key)
                        .enumerate()
                    {
                        let mv = replayed.moves.get(ply).map_or(NO_MOVE, |m| m.bits());
                        let record = PositionRecord {
                            key,
                            game: *game as u32,
                            ply: ply as u16,
                            mv,
                        };
                        rows.push((record, solo && i == 0));
                    }
                }
            }
        }
        rows.sort_unstable_by_key(|r| r.0);
        let (records, solo): (Vec<PositionRecord>, Vec<bool>) = rows.into_iter().unzip();
        Ok(positions::to_wide_batch(&records, &solo))
    }

    /// The PGN text of a game, exactly as it stands in its source file (the source must not
    /// have changed since it was indexed).
    pub fn game_text(&self, row: &GameRow) -> Result<Vec<u8>, IndexError> {
        let source = self.sources.iter().find(|s| s.source == row.source).ok_or_else(|| {
            IndexError::format(
                &self.dir.join(crate::manifest::MANIFEST),
                format!("no source {}", row.source),
            )
        })?;
        pgn_text::read_game_text(source, row)
    }
}
