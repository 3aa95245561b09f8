//! Streaming PGN reader, owned game tree and writer.
//!
//! - [`PgnReader`] reads games one at a time from any [`std::io::Read`] in constant memory and
//!   hands their tokens to a [`Visitor`] (tags, moves, NAGs, comments, variations, result), each
//!   with its line number, as bytes borrowed from its buffer;
//! - [`Validator`] is the fast visitor that replays every move and reports the first error;
//! - [`GameBuilder`] builds the owned [`GameTree`]: tags, start position (`[FEN]`, `[Variant]`),
//!   main line and variations as [`Node`]s with [`Move`](crate::moves::Move), SAN, comments and
//!   NAGs, and the result;
//! - [`MainLineReader`] reads what most consumers of a game collection want, a
//!   [`MainLineGame`]: tags, start position, main line, result and the comments after each
//!   main-line move, with the same errors as [`GameBuilder`] (variations are checked, not kept)
//!   and no tree, SAN or comment allocated per move;
//! - [`GameTree::write_pgn`] writes export format;
//! - [`read_file`] and [`read`] read the games of a file or any reader in one call, plain or
//!   compressed ([`decompress`]: gzip and zstd with the `gzip` and `zstd` features);
//! - comment commands: [`Node::clock`] (`%clk`), [`Node::eval`] (`%eval`), [`Node::shapes`]
//!   (`%csl`, `%cal`), read from the comment bytes, which stay as they are.
//!
//! One bad game never stops a file: its error ([`GameError`], with the line and the token) is
//! returned in its place and reading goes on with the next game.
//!
//! ```
//! use chessbits::pgn::{GameTree, PgnReader};
//!
//! let pgn = "\u{feff}[Event \"Café\"]\r\n\r\n1. e4 {open} e5 2. Kf3?? *\r\n\r\n\
//!            [Event \"Next\"]\r\n\r\n1. d4 d5 (1... Nf6 2. c4) 2. c4 $1 1-0\r\n";
//! let mut games = PgnReader::new(pgn.as_bytes()).into_games();
//! let bad = games.next().unwrap().unwrap_err();
//! assert_eq!(bad.to_string(), "line 3: illegal move 'Kf3'");
//! let good = games.next().unwrap()?;
//! assert_eq!(good.tag("Event").as_deref(), Some("Next"));
//! assert_eq!(GameTree::from_pgn(good.to_pgn())?, good);
//! # Ok::<(), chessbits::pgn::PgnError>(())
//! ```

mod blocks;
mod build;
mod commands;
mod convert;
mod input;
mod mainline;
mod reader;
mod replay;
mod scan;
mod speed;
mod syntax;
mod text;
mod tree;
mod validate;
mod visitor;
mod write;

pub use blocks::{trim_end, PgnBlock, PgnBlocks, MAX_BLOCK_BYTES};
pub use build::{GameBuilder, Games, PgnError};
pub use commands::{commands, parse_clock, Brush, Command, Commands, Eval, Score, Shape};
pub use input::{decompress, read, read_file, read_full, Compression, Decompressed, InputError};
pub use mainline::{MainLineGame, MainLineReader};
pub use reader::{tag_pair_len, GameSpan, PgnReader, RawGame};
pub use speed::Speed;
pub use syntax::{SyntaxError, MAX_GAME_BYTES, MAX_TOKEN_BYTES, MAX_VARIATION_DEPTH};
pub use text::{decode as decode_text, Comment, RawComment, RawTag, Tag};
pub use tree::{is_chess960_variant, GameError, GameErrorKind, GameTree, Line, Node, SEVEN_TAG_ROSTER};
pub use validate::{GameSummary, Validator};
pub use visitor::{GameResult, Nag, SanToken, Skip, Visitor};
pub use write::{MoveNotation, WriteOptions};
