//! A game cut into the records the index sorts: one [`PositionRecord`] per position of its main
//! line; and, for the unaggregated rows of [`export_records`](super::export_records), one
//! [`ExplorerRecord`] per distinct position of a decided game. (The build itself makes the
//! explorer records from the sorted positions records: [`ExplorerTally`].)

use chessbits::pgn::{GameResult, MainLineGame};
use chessbits::position::Position;
use chessbits::Move;

use crate::key::KeyTracker;
use chessbits::codec::moves::entropy::{EntropyError, GameEncoder};

use crate::model::game::{pack_date, packed_month, rating_band, GameRow, Outcome, Replay, Speed};
use crate::model::top_games::GameKey;

/// No move: the game ended in this position.
pub(crate) const NO_MOVE: u16 = u16::MAX;

/// "Game `game` stands in position `key` at ply `ply` and plays `mv` there" (`NO_MOVE` at its
/// end). Sorted by key, then game, then ply.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct PositionRecord {
    pub key: u128,
    pub game: u32,
    pub ply: u16,
    pub mv: u16,
}

/// One game's vote for a move of a position: counts of one group of the explorer table. Records
/// with equal [`group`](Self::group) add up.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct ExplorerRecord {
    pub key: u128,
    pub mv: u16,
    /// [`Speed::code`].
    pub speed: u8,
    /// Index into `RATING_BANDS` plus one; 0 when the game has no average rating.
    pub band: u8,
    /// [`packed_month`]: 0 when unknown.
    pub month: u16,
    pub white: u32,
    pub draws: u32,
    pub black: u32,
    /// Games with an average rating, and the sum of those averages.
    pub rated: u32,
    pub rating_sum: u64,
    /// The latest game of the group: its packed date and number.
    pub last_date: u32,
    pub last_game: u32,
}

impl ExplorerRecord {
    /// What records must share to add up.
    pub fn group(&self) -> (u128, u16, u8, u8, u16) {
        (self.key, self.mv, self.speed, self.band, self.month)
    }

    /// Adds `other` (same group) into `self`.
    pub fn absorb(&mut self, other: &ExplorerRecord) {
        self.white += other.white;
        self.draws += other.draws;
        self.black += other.black;
        self.rated += other.rated;
        self.rating_sum += other.rating_sum;
        if (other.last_date, other.last_game) > (self.last_date, self.last_game) {
            self.last_date = other.last_date;
            self.last_game = other.last_game;
        }
    }
}

/// The tags of a game the index keeps, read into a [`GameRow`] (its place in the source is
/// filled by the caller).
pub(crate) fn game_row(game: &MainLineGame, number: u32) -> GameRow {
    let tags = game.tags().map(|(name, value)| (name, value.decode()));
    row_from_tags(tags, game.moves.len(), game.result, number)
}

/// [`game_row`] from the parts of a game: its tags in the file's order (names and decoded
/// values; a later tag of a name replaces an earlier one), its main line's length and the
/// movetext's result token. The result is [`GameResult::declared`]'s: the token, else (for `*`
/// or none) the `Result` tag. Every kind of source (PGN, archive, export) goes through here, so a
/// game gives the same row whatever it was read from.
pub(crate) fn row_from_tags<'a>(
    tags: impl Iterator<Item = (&'a [u8], std::borrow::Cow<'a, str>)>,
    plies: usize,
    movetext_result: GameResult,
    number: u32,
) -> GameRow {
    let mut row = GameRow {
        game: number,
        plies: plies.min(u16::MAX as usize) as u16,
        ..GameRow::default()
    };
    let (mut utc_date, mut date, mut result_tag) = (None, None, None);
    for (name, value) in tags {
        let text = || value.to_string();
        match name {
            b"White" => row.white = Some(text()),
            b"Black" => row.black = Some(text()),
            b"WhiteElo" => row.white_elo = elo(&value),
            b"BlackElo" => row.black_elo = elo(&value),
            b"Result" => result_tag = Some(text()),
            b"UTCDate" => utc_date = Some(pack_date(&value)),
            b"Date" => date = Some(pack_date(&value)),
            b"TimeControl" => {
                let tc = text();
                row.speed = Speed::from_time_control(&tc);
                row.time_control = Some(tc);
            }
            b"Event" => row.event = Some(text()),
            b"Site" => row.site = Some(text()),
            b"FEN" => row.fen = Some(text()),
            _ => {}
        }
    }
    row.date = utc_date.filter(|&d| d != 0).or(date).unwrap_or(0);
    // The core's one rule: the movetext's result token, else the `Result` tag.
    row.result = GameResult::declared(movetext_result, result_tag.as_deref()).to_string();
    row
}

fn elo(text: &str) -> Option<u16> {
    let text = text.trim();
    (!text.is_empty() && text.len() <= 4 && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse::<u16>().ok())
        .flatten()
        .filter(|&elo| elo > 0)
}

/// Where [`game_records`] puts a game's explorer records: one per distinct position of a decided
/// game, at its first ply there (`seen`: the keys visited, cleared per game).
pub(crate) struct ExplorerSink<'a> {
    pub records: &'a mut Vec<ExplorerRecord>,
    pub seen: &'a mut KeySet,
}

/// Appends the records of a game: `row` says who played and how it ended, `start` and `moves`
/// (its main line) where it went. Fills `row.replay` with what replays the positions recorded
/// (see [`crate::model::game::Replay`]). `coded`, when the caller has it, is the entropy code
/// of all of `moves` played from `start` (an export's `moves` column that decoded to them): it
/// is the replay's code whenever the replay keeps the whole line, which is then not encoded
/// again. `explorer`: where the game's explorer records go, if the caller wants them.
pub(crate) fn game_records(
    start: &Position,
    moves: &[Move],
    coded: Option<&[u8]>,
    row: &mut GameRow,
    positions: &mut Vec<PositionRecord>,
    mut explorer: Option<ExplorerSink<'_>>,
) {
    // A null move (`--`) in the main line: the positions after it are not positions of a game.
    let mut plies = moves.iter().position(|m| m.is_null()).unwrap_or(moves.len());
    plies = plies.min(u16::MAX as usize);
    row.replay = match coded {
        // No null move and not too long: the replay holds every move, and the code of every
        // move is `coded` (one encoder, one start position).
        Some(bytes) if plies == moves.len() => Replay {
            moves: bytes.to_vec(),
            ..replay_start(start, plies)
        },
        _ => replay_of(start, &moves[..plies]),
    };
    // The moves are legal (the reader replayed them), so the encoder takes them all; were it
    // to refuse one, the positions would stop where the stored moves stop.
    plies = row.replay.plies as usize;
    let template = explorer_record(row, 0, NO_MOVE);
    if row.outcome().is_none() {
        explorer = None;
    }
    if let Some(sink) = &mut explorer {
        sink.seen.clear();
    }
    let mut pos: Position = start.clone();
    let mut keys = KeyTracker::default();
    for ply in 0..=plies {
        let key = keys.key(&pos).0;
        let mv = match moves.get(ply) {
            Some(&m) if ply < plies => m.bits(),
            _ => NO_MOVE,
        };
        positions.push(PositionRecord {
            key,
            game: row.game,
            ply: ply as u16,
            mv,
        });
        if let Some(sink) = &mut explorer
            && sink.seen.insert(key)
        {
            sink.records.push(ExplorerRecord { key, mv, ..template });
        }
        if ply < plies {
            pos.play_unchecked(moves[ply]);
        }
    }
}

/// The stored form of `moves` (no null move among them) played from `start`; when the encoder
/// refuses a move, the moves before it.
fn replay_of(start: &Position, moves: &[Move]) -> Replay {
    thread_local! {
        static ENCODER: std::cell::RefCell<GameEncoder> = std::cell::RefCell::new(GameEncoder::new());
    }
    let mut replay = replay_start(start, moves.len());
    ENCODER.with_borrow_mut(|encoder| {
        let mut moves = moves;
        while let Err(e) = encoder.encode_into(start, moves, &mut replay.moves) {
            let ply = match e {
                EntropyError::IllegalMove { ply, .. } => ply,
                _ => 0,
            };
            moves = &moves[..ply.min(moves.len().saturating_sub(1))];
            replay.plies = moves.len() as u16;
        }
    });
    replay
}

/// A replay of `plies` moves from `start`, its code left empty.
fn replay_start(start: &Position, plies: usize) -> Replay {
    let standard = !start.is_chess960() && start.fen() == Position::startpos().fen();
    Replay {
        moves: Vec::new(),
        plies: plies as u16,
        start_fen: (!standard).then(|| start.fen()),
        chess960: start.is_chess960(),
    }
}

/// The explorer record of game `row` at `key`, playing `mv` there (its counts are zero when the
/// game has no decided result): [`explorer_record_of`] its [`GameKey`].
pub(crate) fn explorer_record(row: &GameRow, key: u128, mv: u16) -> ExplorerRecord {
    explorer_record_of(&GameKey::of(row), row.game, key, mv)
}

/// The explorer record of game number `game` (what the build keeps of it: `facts`) at `key`,
/// playing `mv` there. The build's records, [`export_records`](super::export_records)' rows and a
/// query's rows for a `solo` position (see [`crate::model::positions`]) all come from here.
pub(crate) fn explorer_record_of(facts: &GameKey, game: u32, key: u128, mv: u16) -> ExplorerRecord {
    let outcome = facts.outcome;
    let average = facts.rating;
    ExplorerRecord {
        key,
        mv,
        speed: Speed::code(facts.speed),
        band: average.map_or(0, |a| {
            let band = rating_band(a);
            crate::model::game::RATING_BANDS
                .iter()
                .position(|&b| b == band)
                .unwrap_or(0) as u8
                + 1
        }),
        month: packed_month(facts.date),
        white: (outcome == Some(Outcome::WhiteWins)) as u32,
        draws: (outcome == Some(Outcome::Draw)) as u32,
        black: (outcome == Some(Outcome::BlackWins)) as u32,
        rated: average.is_some() as u32,
        rating_sum: average.unwrap_or(0) as u64,
        last_date: facts.date,
        last_game: game,
    }
}

/// Makes the `explorer` table's records from the `positions` records in table order (key,
/// game, ply): for each key, one record per decided game at its first ply there
/// ([`explorer_record_of`]), records of one [group](ExplorerRecord::group) added up, handed on
/// in group order. A key that one decided game reaches gets none (its `positions` row is
/// `solo`, see [`crate::model::positions`]). The build keeps only the positions records in its
/// sorted runs, so the explorer's are not spilled to disk.
pub(crate) struct ExplorerTally<'a> {
    /// What the build keeps of each game, by game number minus `first_game`.
    games: &'a [GameKey],
    first_game: u32,
    key: Option<u128>,
    game: Option<u32>,
    decided: u64,
    records: Vec<ExplorerRecord>,
    /// Records held before they are added up in place (doubled when that keeps most of them).
    limit: usize,
}

impl<'a> ExplorerTally<'a> {
    pub fn new(games: &'a [GameKey], first_game: u32) -> ExplorerTally<'a> {
        ExplorerTally {
            games,
            first_game,
            key: None,
            game: None,
            decided: 0,
            records: Vec::new(),
            limit: 4096,
        }
    }

    /// Takes the next positions record; a finished key's records go to `out`.
    pub fn push(
        &mut self,
        r: PositionRecord,
        out: &mut impl FnMut(ExplorerRecord) -> Result<(), crate::error::IndexError>,
    ) -> Result<(), crate::error::IndexError> {
        if self.key != Some(r.key) {
            self.end_key(out)?;
            self.key = Some(r.key);
        }
        // A game's records at a key are consecutive: its first is its first ply there.
        if self.game == Some(r.game) {
            return Ok(());
        }
        self.game = Some(r.game);
        let facts = GameKey::of_game(self.games, self.first_game, r.game);
        let Some(facts) = facts.filter(|f| f.decided()) else {
            return Ok(());
        };
        self.decided += 1;
        self.records.push(explorer_record_of(facts, r.game, r.key, r.mv));
        if self.records.len() >= self.limit {
            self.combine();
            if self.records.len() * 2 > self.limit {
                self.limit *= 2;
            }
        }
        Ok(())
    }

    /// Ends the stream (or the current key).
    pub fn end_key(
        &mut self,
        out: &mut impl FnMut(ExplorerRecord) -> Result<(), crate::error::IndexError>,
    ) -> Result<(), crate::error::IndexError> {
        if self.decided >= 2 {
            self.combine();
            for r in self.records.drain(..) {
                out(r)?;
            }
        }
        self.records.clear();
        (self.decided, self.game) = (0, None);
        Ok(())
    }

    /// Sorts the held records by group and adds up those of one group.
    fn combine(&mut self) {
        self.records.sort_unstable_by_key(ExplorerRecord::group);
        let mut kept = 0;
        for i in 0..self.records.len() {
            let record = self.records[i];
            if kept > 0 && self.records[kept - 1].group() == record.group() {
                self.records[kept - 1].absorb(&record);
                continue;
            }
            self.records[kept] = record;
            kept += 1;
        }
        self.records.truncate(kept);
    }
}

/// The UCI text of a stored move: standard castling as the king's two-step (`e1g1`), Chess960
/// castling as king takes rook (`e1h1`), as lichess writes them.
pub(crate) fn uci_text(mv: u16) -> Option<&'static str> {
    // Formatted once per process for every code (a few hundred KB): writing a table formats a
    // move per row.
    static TEXT: std::sync::OnceLock<Vec<Option<Box<str>>>> = std::sync::OnceLock::new();
    let table = TEXT.get_or_init(|| {
        (0..=u16::MAX)
            .map(|bits| {
                let m = Move::from_bits(bits).filter(|_| bits != NO_MOVE)?;
                Some(m.uci(!m.is_standard_castle()).to_string().into_boxed_str())
            })
            .collect()
    });
    table[mv as usize].as_deref()
}

/// The keys a game has visited (to count it once per position): a hash set whose hash is the
/// key itself (keys are uniformly random already).
pub(crate) type KeySet = std::collections::HashSet<u128, std::hash::BuildHasherDefault<KeyHasher>>;

/// Hashes a key by folding its two halves.
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn write_u128(&mut self, key: u128) {
        self.0 = key as u64 ^ (key >> 64) as u64;
    }
}
