//! The `.cbits` archive: packed PGN collections, lossless for tags, moves, comments, NAGs and
//! variations.
//!
//! - [`ArchiveWriter`] takes [`pgn::GameTree`](chessbits::pgn::GameTree)s and writes an archive in
//!   constant memory: games fill a block, full blocks are encoded in parallel (rayon) and
//!   written in order, the index and footer come last.
//! - [`ArchiveReader`] opens one ([`open`](ArchiveReader::open) strictly,
//!   [`recover`](ArchiveReader::recover) for damaged files), reads the games in order, finds
//!   game N through the index, and reads blocks one by one with their checksums verified.
//! - Every failure is an [`ArchiveError`] naming what is damaged (the block, the index, ...);
//!   no input makes the reader panic.
//!
//! Nothing is lost and nothing changed: a game comes back equal (`==`) to the game that was
//! added (tags in their order, names and values byte for byte, comments byte for byte, NAGs,
//! variations, the result token or its absence), provided its SAN is the one
//! [`san_of`](chessbits::notation::san::san_of) writes, which is what the PGN reader produces: the
//! archive stores moves, not their spelling. A game given as PGN text
//! ([`ArchiveWriter::add_pgn`]) that cannot be stored as moves (it does not read without error,
//! a variant, ...) is stored as its text and comes back byte for byte as
//! [`StoredGame::Text`].
//!
//! Memory is bounded on both sides: a block closes at about 1 MiB of games (a larger game gets
//! a block of its own), the raw sections of a block may declare at most
//! [`MAX_BLOCK_RAW_BYTES`] (checked before anything is decompressed), and
//! [`ArchiveReader::decode_blocks`] keeps at most [`DECODE_BUDGET_BYTES`] of declared sections
//! in work: about 200 MB at most for any file, crafted ones included.
//!
//! # Stability
//!
//! The byte layout below is frozen for format version 2 and move model version 1. An archive
//! records both in its header (bytes 8-9 the format version [`FORMAT_VERSION`], byte 11 the move
//! model version [`MODEL_VERSION`]) and each block its move codec id ([`MoveCodec::id`]); this
//! library reads exactly the versions it writes, and any other gives a typed error
//! ([`ArchiveError::UnsupportedVersion`], [`ArchiveError::UnsupportedModel`],
//! [`ArchiveError::UnknownCodec`]), never a wrong game. A change to the layout is a new format
//! version; a retuned entropy model (or any change to the moves the
//! [`entropy`](chessbits::codec::moves::entropy) codec writes, the legal move order included) is
//! a new model version; a new move code is a new codec id (ids are never reused). The golden
//! archives of `tests/golden/` (a few games packed once with each codec) are read and written
//! again on every test run, so no such change happens by accident.
//!
//! ```
//! use chessbits_archive::{ArchiveReader, ArchiveWriter, MoveCodec, WriterOptions};
//! use chessbits::pgn::GameTree;
//! use std::io::Cursor;
//!
//! let pgn = "[Event \"Rated Blitz game\"]\n[WhiteElo \"1500\"]\n\n\
//!            1. e4 { [%eval 0.17] [%clk 0:03:00] } 1... e5 $2 (1... c5 {Sicilian}) 2. Nf3 1-0\n";
//! let game = GameTree::from_pgn(pgn.as_bytes()).unwrap();
//! let options = WriterOptions { codec: MoveCodec::IndexBits, ..WriterOptions::default() };
//! let mut writer = ArchiveWriter::new(Cursor::new(Vec::new()), options).unwrap();
//! writer.add_game(&game).unwrap();
//! let (file, summary) = writer.finish().unwrap();
//! assert_eq!(summary.games, 1);
//!
//! let mut reader = ArchiveReader::open(Cursor::new(file.into_inner())).unwrap();
//! let back = reader.games().next().unwrap().unwrap();
//! assert_eq!(back, game);
//! assert_eq!(back.game().unwrap().to_pgn(), game.to_pgn());
//! ```
//!
//! # Byte layout (format version 2)
//!
//! All fixed-width integers are little-endian. `varint` is LEB128 (7 bits a byte, low groups
//! first, high bit = more; at most 10 bytes). `zigzag(x)` = `(x << 1) ^ (x >> 63)`. CRC-32 is
//! the IEEE polynomial of zlib and PNG. Game and block numbers count from 0.
//!
//! ```text
//! file    = header block* index footer
//!
//! header  (16 bytes)
//!   0   8  magic 89 43 42 49 54 53 0D 0A  ("\x89CBITS\r\n")
//!   8   2  format version, u16 = 2
//!  10   1  default move codec id (see MoveCodec: 1 index-byte, 2 index, 3 entropy)
//!  11   1  move model version (MODEL_VERSION = 1)
//!  12   4  CRC-32 of bytes 0..12
//!
//! block   = block header (36 bytes) + payload
//!   0   4  "CBLK"
//!   4   4  payload length, u32
//!   8   8  number of the block's first game, u64
//!  16   4  games in the block, u32
//!  20   4  block number, u32
//!  24   1  move codec id of this block
//!  25   3  reserved, zero
//!  28   4  CRC-32 of the payload
//!  32   4  CRC-32 of header bytes 0..32
//!
//! index   (at the offset the footer gives; 12 + 20 × blocks bytes)
//!   0   4  "CIDX"
//!   4   4  block count, u32
//!   8  20  per block: offset of its header u64, first game u64, game count u32
//!   ..  4  CRC-32 of every index byte before it
//!
//! footer  (the last 32 bytes)
//!   0   8  offset of the index, u64
//!   8   8  total games, u64
//!  16   4  block count, u32
//!  20   4  CRC-32 of footer bytes 0..20
//!  24   8  "CBITSEND"
//! ```
//!
//! Blocks follow the header back to back: block 0 at offset 16, each next one where the
//! previous payload ends, the index right after the last. A reader checks that the entries
//! tile the file exactly, so every byte of an archive is under some checksum.
//!
//! ## Payload
//!
//! The payload is a table of sections and their bytes (details in the `block` module):
//! `varint count`, then per section `u8 kind, u8 compression (0 stored, 1 zstd frame),
//! varint raw length, varint stored length`, in increasing kind order, then the stored bytes in
//! table order. An absent section is empty. Kinds ([`SectionKind`]): 1 structure, 2 flags,
//! 3 moves, 4 tag names, 5 tag values, 6 comments, 7 clocks, 8 evals, 9 positions, 10 text.
//! The raw lengths of all sections add up to at most [`MAX_BLOCK_RAW_BYTES`].
//!
//! The games of a block are visited in order; for each game its header (structure section)
//! and, unless it is stored as text, its tags and main line. Text (names, values, comments) is
//! stored as the bytes the PGN had, in any encoding:
//!
//! - **tag names** (one entry per game stored as moves): varint `0` = the names of the
//!   previous game; else `count + 1` then `count` name ids; an id equal to the dictionary size
//!   introduces a new name (length-prefixed bytes follow).
//! - **tag values**: varint column count (= name dictionary size), then each column
//!   length-prefixed; a column holds the values of one name in game order, each varint `0` =
//!   same as the previous value of the column, or `len + 1` and the bytes.
//! - **structure**, per game: varint `result | 4·(start is a FEN) | 8·(Chess960) | 16·(no
//!   result token: only written by earlier versions, read as `*`) | 32·(stored as text)` with
//!   result 0 `*`, 1 `1-0`, 2 `0-1`, 3 `1/2-1/2` (0 with bit 16); the FEN (Shredder castling) is the next length-prefixed
//!   string of the **positions** section. A game stored as text is exactly `32`: its PGN text
//!   is the next length-prefixed entry of the **text** section, and nothing else of it is
//!   anywhere. Otherwise the main line follows.
//! - A **line**: structure varint `(nodes << 1) | has line comments`; if set, a varint count
//!   and that many comments (comments of a line without moves). Then each node:
//!   - one **flags** byte: bit 0 null move; bits 1-2 comments before, bits 3-4 comments after,
//!     bits 5-6 NAGs, each 0, 1, 2 or 3 = "3 + a structure varint"; bit 7 has variations;
//!   - the comments before; the move (from the **moves** section in the block's codec, given
//!     the position, not for a null move); the NAG bytes (structure); the comments after;
//!     if bit 7, a structure varint `count - 1` and the variations, each a line from the
//!     position before this node's move.
//! - A **comment** (comments section): varint `0` = the same template as the previous comment
//!   of the block, else `((len << 1) | is_template) + 1` and `len` bytes. In a template byte 1
//!   stands for `[%clk H:MM:SS]` or `[%clk H:MM:SS.t]` and byte 2 for `[%eval P.PP]`
//!   (pawns, one or two decimals, trailing zero dropped) or `[%eval #N]`. A **clock** is
//!   varint `(zigzag(seconds - predicted) << 1) | has_tenths` (+ varint tenths) in the clocks
//!   section, predicted = this game's last clock of the side that made the move the comment is
//!   on (line comments: the side to move), else the other side's, else 0. An **eval** is
//!   varint `zigzag(centipawns - last) << 1` (last: the game's previous centipawn eval, 0 at
//!   its start) or `(zigzag(n) << 1) | 1` for mate in n, in the evals section.
//!
//! Every section must be consumed exactly. SAN is not stored: it is regenerated from the move.
//!
//! Move codecs ([`MoveCodec`]): `index-byte` (id 1) one byte = the index of the move in
//! [`Position::legal_moves`](chessbits::position::Position::legal_moves); `index` (id 2) the same
//! index in ⌈log₂ n⌉ bits (MSB first, no bits when n = 1), the block's moves packed into one
//! bit stream, zero-padded to a byte; `entropy` (id 3, the default) one range-coder stream
//! per block ([`range_coder`](chessbits::codec::range_coder)) coding each move
//! with the frequencies of [`MoveModel`](chessbits::codec::moves::entropy::model::MoveModel),
//! reset at each game start and fed every coded move in visiting order (see [`MoveCodec`]).
//! A moves section must end exactly where its moves end: for `entropy`, bytes the writer would
//! not have written for the block's move counts (a read that needs bytes past the section's
//! end, beyond what the coder's final flush leaves out, or bytes left over) are a
//! [`ArchiveError::CorruptPayload`]. The one thing the section cannot show is bytes that are
//! exactly the section of other moves of the same counts (the code stores no length: see
//! [`entropy`](chessbits::codec::moves::entropy#what-decoding-detects)); the block's CRC-32s
//! catch that damage.

mod block;
mod codec;
mod comments;
mod deserialize;
mod error;
mod format;
mod pgn_text;
mod pipeline;
mod reader;
mod scan;
mod serialize;
mod stored;
mod stream;
mod tags;
mod varint;
mod writer;

pub use block::{SectionKind, SectionSizes, MAX_BLOCK_RAW_BYTES};
pub use codec::{MoveCodec, UnknownCodecName};
pub use error::ArchiveError;
pub use format::{BlockInfo, FOOTER_MAGIC, FORMAT_VERSION, MAGIC, MODEL_VERSION};
pub use pgn_text::{archive_damage, is_pgn_name, open_pgn_text, ArchiveDamage, ArchivePgn};
pub use reader::{ArchiveReader, Games, RawBlock, DECODE_BUDGET_BYTES};
pub use serialize::BlockStats;
pub use stored::StoredGame;
pub use stream::{is_archive_file, BlockStream};
pub use writer::{ArchiveSummary, ArchiveWriter, StoredAsText, WriterOptions};
