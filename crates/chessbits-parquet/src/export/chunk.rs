//! What the reading thread (the caller's, in [`ParquetExporter`](super::ParquetExporter)) hands
//! the parsing thread: games cut one by one, or blocks.

use std::sync::Arc;

use chessbits::pgn::{PgnBlock, RawGame};

/// A game waiting to be parsed.
pub(crate) struct Pending {
    pub source: u32,
    pub bytes: Vec<u8>,
    pub raw: RawGame,
}

/// A chunk of an input.
pub(crate) enum Chunk {
    Games(Vec<Pending>),
    Blocks(Vec<SourceBlock>),
}

/// A block of one input (`source`).
pub(crate) struct SourceBlock {
    pub source: u32,
    /// Shared with the pool's task that parses it.
    pub block: Arc<PgnBlock>,
}
