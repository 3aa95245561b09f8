//! Reading only a game's main line: tags, start, main-line moves and the comments after them,
//! checking the variations without keeping them. The fast way to the data of a row or a record.

use super::replay::{Lines, StartTags};
use super::syntax::SyntaxError;
#[cfg(doc)]
use super::text::Tag;
use super::text::{RawComment, RawTag};
use super::tree::{GameError, GameErrorKind};
use super::visitor::{GameResult, SanToken, Skip, Visitor};
use crate::moves::Move;
use crate::position::Position;

/// A game's main line as [`MainLineReader`] reads it: what a [`GameTree`](super::GameTree) of
/// the same game holds in its tags, start position, result, main-line moves and each main-line
/// move's `comments_after`, without variations, NAGs and comments before moves.
///
/// ```
/// use chessbits::pgn::{MainLineReader, PgnReader};
/// let pgn = b"[White \"Ann\"]\n\n1. e4 {[%clk 0:03:00]} e5 (1... c5 {Sicilian}) 2. Nf3 {a} {b} 1-0";
/// let game = PgnReader::new(&pgn[..]).read_game(&mut MainLineReader::new()).unwrap().unwrap().unwrap();
/// let (name, value) = game.tags().next().unwrap();
/// assert_eq!((name, value.decode().as_ref()), (&b"White"[..], "Ann"));
/// assert_eq!(game.moves.len(), 3);
/// assert_eq!(game.comments_after(0).collect::<Vec<_>>(), [&b"[%clk 0:03:00]"[..]]);
/// assert_eq!(game.comments_after(1).count(), 0, "the variation's comment is not the main line's");
/// assert_eq!(game.comments_after(2).collect::<Vec<_>>(), [&b"a"[..], &b"b"[..]]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MainLineGame {
    /// The start position (from `[FEN]`, else the standard one).
    pub start: Position,
    /// The main line ([`Move::NULL`] for a null move).
    pub moves: Vec<Move>,
    /// The result token that ended the movetext; `Unknown` for `*` or none.
    pub result: GameResult,
    /// The comments' bytes, one after another.
    comment_bytes: Vec<u8>,
    /// Per comment: the ply it follows and where its bytes end in `comment_bytes`, in order.
    comments: Vec<(u32, u32)>,
    /// The tags' names and raw values, one after another (no allocation per tag).
    tag_bytes: Vec<u8>,
    /// Per tag: where its name ends and where its value ends in `tag_bytes`.
    tag_ends: Vec<(u32, u32)>,
}

impl MainLineGame {
    /// The tag pairs in the file's order: the name and the value as written between the quotes
    /// ([`RawTag::decode`] unescapes and decodes it; [`Tag::from_raw`] makes an owned tag).
    ///
    /// ```
    /// use chessbits::pgn::{MainLineReader, PgnReader};
    /// let pgn = b"[Event \"A \\\"B\\\"\"]\n[Round \"2\"]\n\n*";
    /// let game = PgnReader::new(&pgn[..]).read_game(&mut MainLineReader::new()).unwrap().unwrap().unwrap();
    /// let tags: Vec<_> = game.tags().map(|(name, value)| (name, value.decode().into_owned())).collect();
    /// assert_eq!(tags, [(&b"Event"[..], "A \"B\"".to_string()), (&b"Round"[..], "2".to_string())]);
    /// ```
    pub fn tags(&self) -> impl Iterator<Item = (&[u8], RawTag<'_>)> + '_ {
        let mut start = 0;
        self.tag_ends.iter().map(move |&(name_end, value_end)| {
            let (name_end, value_end) = (name_end as usize, value_end as usize);
            let name = &self.tag_bytes[start..name_end];
            let value = RawTag(&self.tag_bytes[name_end..value_end]);
            start = value_end;
            (name, value)
        })
    }

    /// The comments after main-line move `ply` (0-based), in the file's order.
    ///
    /// ```
    /// use chessbits::pgn::{MainLineReader, PgnReader};
    /// let pgn = b"1. d4 d5 {x} *";
    /// let game = PgnReader::new(&pgn[..]).read_game(&mut MainLineReader::new()).unwrap().unwrap().unwrap();
    /// assert_eq!(game.comments_after(1).next(), Some(&b"x"[..]));
    /// assert_eq!(game.comments_after(7).next(), None);
    /// ```
    pub fn comments_after(&self, ply: usize) -> impl Iterator<Item = &[u8]> + '_ {
        // Comments are stored by ply in order: the run for `ply` starts after the last earlier one.
        let first = self.comments.partition_point(|&(p, _)| (p as usize) < ply);
        let mut start = match first {
            0 => 0,
            i => self.comments[i - 1].1 as usize,
        };
        self.comments[first..]
            .iter()
            .take_while(move |&&(p, _)| p as usize == ply)
            .map(move |&(_, end)| {
                let text = &self.comment_bytes[start..end as usize];
                start = end as usize;
                text
            })
    }

    /// Every comment after a main-line move, with the move's ply (0-based), in the file's order
    /// (the plies never decrease): one pass instead of [`comments_after`](Self::comments_after)
    /// for each ply.
    ///
    /// ```
    /// use chessbits::pgn::{MainLineReader, PgnReader};
    /// let pgn = b"1. d4 {a} d5 {b} {c} *";
    /// let game = PgnReader::new(&pgn[..]).read_game(&mut MainLineReader::new()).unwrap().unwrap().unwrap();
    /// let all: Vec<(usize, &[u8])> = game.comments().collect();
    /// assert_eq!(all, [(0, &b"a"[..]), (1, &b"b"[..]), (1, &b"c"[..])]);
    /// ```
    pub fn comments(&self) -> impl Iterator<Item = (usize, &[u8])> + '_ {
        let mut start = 0;
        self.comments.iter().map(move |&(ply, end)| {
            let text = &self.comment_bytes[start..end as usize];
            start = end as usize;
            (ply as usize, text)
        })
    }

    /// Empties the game, keeping its buffers.
    fn clear(&mut self) {
        self.start = Position::default();
        self.moves.clear();
        self.result = GameResult::Unknown;
        self.comment_bytes.clear();
        self.comments.clear();
        self.tag_bytes.clear();
        self.tag_ends.clear();
    }

    fn push_comment(&mut self, ply: usize, text: &[u8]) {
        self.comment_bytes.extend_from_slice(text);
        self.comments.push((ply as u32, self.comment_bytes.len() as u32));
    }
}

/// A [`Visitor`] that reads a game's [`MainLineGame`], or the first error of the game: the same
/// games fail, with the same errors, as with [`GameBuilder`](super::GameBuilder) (variations are
/// replayed and checked), and the main line, its comments after moves and the tags are the same,
/// at a fraction of the cost (no SAN is written back, no node or comment is allocated).
///
/// ```
/// use chessbits::pgn::{MainLineReader, PgnReader};
/// let pgn = b"1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *\n\n1. e4 e5 (1... c4) 2. Nf3 *";
/// let mut reader = PgnReader::new(&pgn[..]);
/// let mut main_line = MainLineReader::new();
/// assert_eq!(reader.read_game(&mut main_line).unwrap().unwrap().unwrap().moves.len(), 3);
/// let error = reader.read_game(&mut main_line).unwrap().unwrap().unwrap_err();
/// assert_eq!(error.to_string(), "line 3: illegal move 'c4'");
/// ```
#[derive(Default)]
pub struct MainLineReader {
    start_tags: StartTags,
    game: MainLineGame,
    lines: Lines,
    /// A variation closed since the main line's last move: a comment now comes before the next
    /// move, not after the last one.
    after_variation: bool,
    /// Comments waiting for the main line's next move (dropped when it comes, the last move's at
    /// the end of the game): `(start, end)` in `pending_bytes`.
    pending: Vec<(usize, usize)>,
    pending_bytes: Vec<u8>,
    error: Option<GameError>,
}

impl MainLineReader {
    /// A reader, reusable for any number of games.
    ///
    /// ```
    /// let _reader = chessbits::pgn::MainLineReader::new();
    /// ```
    pub fn new() -> MainLineReader {
        MainLineReader::default()
    }

    /// Hands back a game this reader (or any) returned, once done with it: the next game is read
    /// into its buffers, which saves allocating and growing them for every game.
    ///
    /// ```
    /// use chessbits::pgn::{MainLineReader, PgnReader};
    /// let pgn = b"1. e4 {a} e5 *\n\n1. d4 *";
    /// let mut reader = PgnReader::new(&pgn[..]);
    /// let mut main_line = MainLineReader::new();
    /// let first = reader.read_game(&mut main_line).unwrap().unwrap().unwrap();
    /// assert_eq!(first.moves.len(), 2);
    /// main_line.recycle(first);
    /// let second = reader.read_game(&mut main_line).unwrap().unwrap().unwrap();
    /// assert_eq!((second.moves.len(), second.comments_after(0).count()), (1, 0));
    /// ```
    pub fn recycle(&mut self, game: MainLineGame) {
        self.game = game;
        self.game.clear();
    }

    fn play(&mut self, token: &SanToken<'_>) -> Result<(), GameErrorKind> {
        let Some(m) = self.lines.play(token)? else {
            return Ok(());
        };
        if self.lines.depth() == 1 {
            self.game.moves.push(m);
            self.after_variation = false;
            self.pending.clear();
            self.pending_bytes.clear();
        }
        Ok(())
    }
}

impl Visitor for MainLineReader {
    type Output = Result<MainLineGame, GameError>;

    fn begin_game(&mut self) {
        self.start_tags.clear();
        self.game.clear();
        self.lines.clear();
        self.after_variation = false;
        self.pending.clear();
        self.pending_bytes.clear();
        self.error = None;
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>, line: u32) {
        self.start_tags.tag(name, value, line);
        let game = &mut self.game;
        game.tag_bytes.extend_from_slice(name);
        let name_end = game.tag_bytes.len() as u32;
        game.tag_bytes.extend_from_slice(value.as_bytes());
        game.tag_ends.push((name_end, game.tag_bytes.len() as u32));
    }

    fn end_tags(&mut self) -> Skip {
        let Some(pos) = self.start_tags.start_position(&mut self.error) else {
            return Skip(true);
        };
        self.game.start = pos.clone();
        self.lines.start(pos);
        Skip(false)
    }

    fn san(&mut self, token: SanToken<'_>) {
        if self.error.is_none() {
            if let Err(kind) = self.play(&token) {
                self.error = Some(GameError { line: token.line, kind });
            }
        }
    }

    fn comment(&mut self, comment: RawComment<'_>, _line: u32) {
        if self.lines.depth() != 1 {
            return;
        }
        let text = comment.as_bytes();
        match self.game.moves.len() {
            plies if plies > 0 && !self.after_variation => self.game.push_comment(plies - 1, text),
            _ => {
                let start = self.pending_bytes.len();
                self.pending_bytes.extend_from_slice(text);
                self.pending.push((start, self.pending_bytes.len()));
            }
        }
    }

    fn syntax_error(&mut self, error: SyntaxError, line: u32) {
        let kind = GameErrorKind::Syntax(error);
        GameError::record(&mut self.error, GameError { line, kind });
    }

    fn begin_variation(&mut self, _line: u32) -> Skip {
        Skip(self.error.is_some() || !self.lines.begin_variation())
    }

    fn end_variation(&mut self, _line: u32) {
        if self.lines.end_variation() && self.lines.depth() == 1 {
            self.after_variation = true;
        }
    }

    fn result(&mut self, result: GameResult, _line: u32) {
        self.game.result = result;
    }

    fn end_game(&mut self) -> Result<MainLineGame, GameError> {
        if let Some(error) = self.error.take() {
            return Err(error);
        }
        // Comments left after the last variation belong to the last move (as in a GameTree).
        if let Some(last) = self.game.moves.len().checked_sub(1) {
            for &(start, end) in &self.pending {
                self.game.push_comment(last, &self.pending_bytes[start..end]);
            }
        }
        Ok(std::mem::take(&mut self.game))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::{GameBuilder, GameTree, PgnReader, Tag};

    /// Tags, start, main line, result and each main-line move's comments.
    type Seen = (Vec<Tag>, Position, Vec<Move>, GameResult, Vec<Vec<Vec<u8>>>);

    /// The main line of a game as a GameTree holds it.
    fn from_tree(tree: &GameTree) -> Seen {
        let comments = tree
            .moves
            .nodes
            .iter()
            .map(|node| node.comments_after.iter().map(|c| c.as_bytes().to_vec()).collect())
            .collect();
        (
            tree.tags.clone(),
            tree.start.clone(),
            tree.mainline().collect(),
            tree.result,
            comments,
        )
    }

    fn from_main_line(game: &MainLineGame) -> Seen {
        let comments = (0..game.moves.len())
            .map(|ply| game.comments_after(ply).map(<[u8]>::to_vec).collect())
            .collect();
        (
            game.tags()
                .map(|(name, value)| Tag::from_raw(name, value.as_bytes()))
                .collect(),
            game.start.clone(),
            game.moves.clone(),
            game.result,
            comments,
        )
    }

    fn assert_same(pgn: &[u8]) -> usize {
        let mut trees = PgnReader::new(pgn);
        let mut lines = PgnReader::new(pgn);
        let (mut builder, mut reader) = (GameBuilder::new(), MainLineReader::new());
        let mut games = 0;
        loop {
            let tree = trees.read_game(&mut builder).unwrap();
            let line = lines.read_game(&mut reader).unwrap();
            match (tree, line) {
                (None, None) => return games,
                (Some(Ok(tree)), Some(Ok(line))) => assert_eq!(from_tree(&tree), from_main_line(&line)),
                (Some(Err(a)), Some(Err(b))) => assert_eq!(a, b),
                (a, b) => panic!("game {games}: {a:?} against {b:?}"),
            }
            games += 1;
        }
    }

    #[test]
    fn comments_go_where_the_tree_puts_them() {
        let pgn: &[&[u8]] = &[
            b"{game} 1. e4 {a} (1. d4 {in variation}) {after variation} e5 {b} *",
            b"1. e4 (1. d4) {only after a variation} *",
            b"1. e4 {a} (1. d4) {b} (1. c4) {c} *",
            b"{before} {all} *",
            b"1. e4 e5 (1... c5 (1... e6 {deep}) 2. Nf3) {x} 2. Nf3 {y} 1-0",
            b"1. e4 -- 2. d4 {null} *",
            b"[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. O-O {castled} *",
            b"1. e4 e5 (1... c4) {bad variation} *",
            b"1. e4 e5 2. Qh5 {[%clk 0:01:00]} Nc6 3. Bc4 Nf6 4. Qxf7# {mate} 1-0",
        ];
        for game in pgn {
            assert_eq!(assert_same(game), 1, "{}", String::from_utf8_lossy(game));
        }
    }

    fn files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                files(&path, out);
            } else {
                out.push(path);
            }
        }
    }

    /// Every bundled file, the hostile ones included (errors must be the tree's errors too).
    #[test]
    fn same_as_the_tree_on_the_bundled_games() {
        let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata"));
        let mut paths = Vec::new();
        files(&root.join("pgn"), &mut paths);
        files(&root.join("pgn-edgecases"), &mut paths);
        let games: usize = paths
            .iter()
            .map(|path| assert_same(&std::fs::read(path).unwrap()))
            .sum();
        assert!(games > 400, "{games}");
    }
}
