//! The parsing stage's output: rows by partition and rejected games, collected in input order
//! and handed to the writing thread a chunk at a time.

use std::collections::BTreeMap;
use std::sync::mpsc::SyncSender;

use super::chunk::Pending;
use crate::row::GameRow;

/// The partition of a row: year and month.
pub(super) type PartitionKey = (Option<u16>, Option<u8>);

/// Rows and rejected games on their way to the writing thread: rows by partition, and the games
/// that could not be read (with the error's line and reason), in input order.
#[derive(Default)]
pub(super) struct ParsedChunk {
    pub(super) groups: BTreeMap<PartitionKey, Vec<GameRow>>,
    pub(super) rejected: Vec<(Pending, u32, String)>,
    pub(super) games: usize,
}

/// Collects rows and rejected games in input order and hands them to the writing thread a chunk
/// at a time.
pub(super) struct Emitter {
    pub(super) chunk: ParsedChunk,
    pub(super) chunk_size: usize,
    pub(super) partition: bool,
    pub(super) sender: SyncSender<ParsedChunk>,
    /// The writing thread has stopped (it failed): nothing more is parsed.
    pub(super) stopped: bool,
}

impl Emitter {
    pub(super) fn row(&mut self, row: GameRow) {
        let key = if self.partition {
            row.partition_date
        } else {
            (None, None)
        };
        self.chunk.groups.entry(key).or_default().push(row);
        self.chunk.games += 1;
    }

    pub(super) fn rejected(&mut self, game: Pending, line: u32, reason: String) {
        self.chunk.rejected.push((game, line, reason));
        self.chunk.games += 1;
    }

    /// Hands the chunk over if it is full (`all`: if it holds anything).
    pub(super) fn flush(&mut self, all: bool) {
        if self.chunk.games >= self.chunk_size || (all && self.chunk.games > 0) {
            let chunk = std::mem::take(&mut self.chunk);
            self.stopped |= self.sender.send(chunk).is_err();
        }
    }
}
