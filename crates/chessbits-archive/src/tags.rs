//! Tags: a per-block dictionary of tag names, and the values stored column by column (all the
//! `White` values together, all the `Date` values together, ...) so that the general-purpose
//! compressor that runs over the section finds the repetitions.
//!
//! Tag names section, one entry per game: varint `0` = the same names as the previous game of
//! the block; else varint `count + 1` and `count` name ids. A name id below the size of the
//! dictionary refers to it; an id equal to its size is a new name, whose length-prefixed bytes
//! follow and which joins the dictionary. Names are stored in game order.
//!
//! Tag values section: varint `columns` (the size of the name dictionary), then per name id a
//! length-prefixed column; a column is the values of that name in game order, each varint `0` =
//! the same value as the previous one in this column, or varint `len + 1` and `len` bytes.
//!
//! Names and values are the bytes of the file (values as between their quotes, escapes
//! included), in any encoding: nothing is decoded or checked.

use super::error::{Corrupt, DecodeResult};
use super::varint::{put_bytes, put_varint, ByteReader};
use chessbits::pgn::Tag;

/// Writes the tag sections of a block.
#[derive(Default)]
pub(crate) struct TagWriter {
    pub names: Vec<u8>,
    dictionary: Vec<Vec<u8>>,
    columns: Vec<(Vec<u8>, Option<Vec<u8>>)>,
    previous_ids: Option<Vec<usize>>,
    ids: Vec<usize>,
}

impl TagWriter {
    /// Writes the tags of one game.
    pub(crate) fn write(&mut self, tags: &[Tag]) {
        self.ids.clear();
        let mut new_names = Vec::new();
        for tag in tags {
            let id = match self.dictionary.iter().position(|known| known == tag.name()) {
                Some(id) => id,
                None => {
                    self.dictionary.push(tag.name().to_vec());
                    self.columns.push((Vec::new(), None));
                    new_names.push(self.dictionary.len() - 1);
                    self.dictionary.len() - 1
                }
            };
            self.ids.push(id);
        }
        if new_names.is_empty() && self.previous_ids.as_ref() == Some(&self.ids) {
            put_varint(&mut self.names, 0);
        } else {
            put_varint(&mut self.names, self.ids.len() as u64 + 1);
            for &id in &self.ids {
                put_varint(&mut self.names, id as u64);
                if new_names.first() == Some(&id) {
                    new_names.remove(0);
                    put_bytes(&mut self.names, &self.dictionary[id]);
                }
            }
            self.previous_ids = Some(self.ids.clone());
        }
        for (&id, tag) in self.ids.iter().zip(tags) {
            let (column, previous) = &mut self.columns[id];
            let value = tag.raw_value();
            if previous.as_deref() == Some(value) {
                put_varint(column, 0);
            } else {
                put_varint(column, value.len() as u64 + 1);
                column.extend_from_slice(value);
                *previous = Some(value.to_vec());
            }
        }
    }

    /// The tag values section.
    pub(crate) fn values(&self) -> Vec<u8> {
        let mut out = Vec::new();
        put_varint(&mut out, self.columns.len() as u64);
        for (column, _) in &self.columns {
            put_bytes(&mut out, column);
        }
        out
    }
}

/// Reads the tag sections of a block.
pub(crate) struct TagReader<'a> {
    names: ByteReader<'a>,
    dictionary: Vec<&'a [u8]>,
    columns: Vec<(ByteReader<'a>, Option<&'a [u8]>)>,
    previous_ids: Option<Vec<usize>>,
}

impl<'a> TagReader<'a> {
    pub(crate) fn new(names: &'a [u8], values: &'a [u8]) -> DecodeResult<TagReader<'a>> {
        let mut values = ByteReader::new(values, "tag values");
        let count = values.count(1)?;
        let mut columns = Vec::with_capacity(count);
        for _ in 0..count {
            columns.push((ByteReader::new(values.prefixed()?, "tag values"), None));
        }
        values.expect_end()?;
        Ok(TagReader {
            names: ByteReader::new(names, "tag names"),
            dictionary: Vec::new(),
            columns,
            previous_ids: None,
        })
    }

    /// Reads the tags of one game.
    pub(crate) fn read(&mut self) -> DecodeResult<Vec<Tag>> {
        let count = self.names.count(0)?;
        let ids = if count == 0 {
            self.previous_ids
                .clone()
                .ok_or_else(|| Corrupt::new("tag names repeat before the first game"))?
        } else {
            let count = count - 1;
            let mut ids = Vec::with_capacity(count.min(1024));
            for _ in 0..count {
                let id = self.names.count(0)?;
                if id == self.dictionary.len() {
                    let name = self.names.prefixed()?;
                    self.dictionary.push(name);
                } else if id > self.dictionary.len() {
                    return Err(Corrupt(format!("tag name id {id} beyond the dictionary")));
                }
                ids.push(id);
            }
            self.previous_ids = Some(ids.clone());
            ids
        };
        let mut tags = Vec::with_capacity(ids.len());
        for id in ids {
            let (column, previous) = self
                .columns
                .get_mut(id)
                .ok_or_else(|| Corrupt(format!("no value column for tag name {id}")))?;
            let code = column.varint()?;
            let value = if code == 0 {
                previous.ok_or_else(|| Corrupt::new("tag value repeats before the first"))?
            } else {
                let len = usize::try_from(code - 1).map_err(|_| Corrupt::new("tag value too long"))?;
                let value = column.bytes(len)?;
                *previous = Some(value);
                value
            };
            let name = self.dictionary.get(id).copied().unwrap_or_default();
            tags.push(Tag::from_raw(name, value));
        }
        Ok(tags)
    }

    pub(crate) fn expect_end(&self) -> DecodeResult<()> {
        self.names.expect_end()?;
        if self.columns.len() != self.dictionary.len() {
            return Err(Corrupt::new("tag value columns disagree with the name dictionary"));
        }
        self.columns.iter().try_for_each(|(column, _)| column.expect_end())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tags(pairs: &[(&str, &str)]) -> Vec<Tag> {
        pairs.iter().map(|(n, v)| Tag::new(n, v)).collect()
    }

    #[test]
    fn tags_round_trip_with_repeats_and_new_names() {
        let games = [
            tags(&[("Event", "Rated Blitz"), ("Site", "x"), ("White", "a")]),
            tags(&[("Event", "Rated Blitz"), ("Site", "y"), ("White", "b")]),
            tags(&[
                ("Event", "Rated Blitz"),
                ("Site", "y"),
                ("White", "b"),
                ("ECO", "C46"),
                ("Event", "dup"),
            ]),
            tags(&[]),
            tags(&[("ECO", ""), ("Annotator", "Café")]),
            vec![
                Tag::from_raw(b"White", b"M\xfcller \"\"x\\"),
                Tag::from_raw(b"\xff", b""),
            ],
        ];
        let mut writer = TagWriter::default();
        let mut names_len = Vec::new();
        for game in &games {
            writer.write(game);
            names_len.push(writer.names.len());
        }
        let values = writer.values();
        let mut reader = TagReader::new(&writer.names, &values).unwrap();
        for game in &games {
            assert_eq!(reader.read().as_ref(), Ok(game));
        }
        assert_eq!(reader.expect_end(), Ok(()));
        assert_eq!(
            names_len[1] - names_len[0],
            1,
            "game 2 repeats the names of game 1: one byte"
        );
    }

    #[test]
    fn garbage_gives_errors() {
        assert!(TagReader::new(&[], &[5]).is_err());
        let mut reader = TagReader::new(&[0], &[0]).unwrap();
        assert!(reader.read().is_err());
        let mut reader = TagReader::new(&[2, 3], &[0]).unwrap();
        assert!(reader.read().is_err());
    }
}
