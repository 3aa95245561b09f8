//! The `.cbits` archive: packed PGN collections (container, blocks, checksums, index).
