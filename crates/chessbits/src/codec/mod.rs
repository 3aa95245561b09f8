//! Compact encodings: [`moves`] codes, [`position`] codes, and the [`bits`] and the
//! [`range_coder`] they are written with.
//!
//! # Stability
//!
//! The codes are stable formats: bytes written by one version of this crate decode to the same
//! moves and positions with every later version, and encoding gives the same bytes. What is
//! frozen, for every code of [`moves`] (index byte, index bits over the legal and the pseudo-legal
//! list, per-square, enumeration, direction-target, flagged, entropy, lichess) and of
//! [`position`] (stream, huffman, huffman-multi, huffman-tuned, compact):
//!
//! - the bit layout each module documents, and the byte framing (padding, end markers);
//! - what the codes depend on: the order of [`Position::legal_moves`](crate::position::Position::legal_moves)
//!   and [`Position::pseudo_legal_moves`](crate::position::Position::pseudo_legal_moves) (the
//!   index codes and the entropy coder number moves by it), the entropy coder's move model and
//!   range coder, the lichess ranking and Huffman table, the position codes' Huffman tables and the
//!   compact code's model, and the range coder both entropy-coded codes share.
//!
//! The crate's golden files (`tests/golden/`, checked by `tests/golden.rs`) hold the bytes of
//! every code for a set of games and positions, decoded and re-encoded on every test run. A
//! change to any of them is a new format, never a refactoring: it gets a new code (a new module
//! or function, the old one kept while data in it may exist), and containers record which one
//! they hold. The `.cbits` archive (crate `chessbits-archive`) does so with the format version
//! and move model version bytes of its header, and its move codec id per block; a retuned
//! entropy model is a new model version there.
//!
//! The tuning code (`ModelTrainer`, the model parameters' layout) and the Rust API around the
//! codes may change; the bytes may not.
//!
//! The promise holds from the first published release on. Before it, one code changed once: the
//! compact position code's modeled form moved to the shared [`range_coder`] (see CHANGELOG.md).

pub mod bits;
pub mod moves;
pub mod position;
pub mod range_coder;
