//! External sort in bounded memory: records gather in a buffer; a full buffer is sorted (on all
//! cores), its equal groups combined, and written to a run file; at the end the runs are merged
//! (k-way, a heap of run heads) into one sorted stream with equal groups combined again.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use rayon::slice::ParallelSliceMut;

use super::records::{ExplorerRecord, PositionRecord};
use crate::error::IndexError;

/// A record the sorter handles: fixed-size bytes in run files, an order, and a way to combine
/// two records of the same group.
pub(crate) trait Record: Copy + Send + Sync {
    /// Bytes of one record in a run file.
    const BYTES: usize;
    /// What the records are sorted by.
    type Order: Ord + Copy + Send;
    fn order(&self) -> Self::Order;
    fn encode(&self, out: &mut Vec<u8>);
    fn decode(bytes: &[u8]) -> Self;
    /// Adds `other` into `self` when both are of one group (same order); `false` when records
    /// never combine.
    fn combine(&mut self, other: &Self) -> bool;
}

impl Record for PositionRecord {
    const BYTES: usize = 24;
    type Order = (u128, u32, u16, u16);
    fn order(&self) -> Self::Order {
        (self.key, self.game, self.ply, self.mv)
    }
    fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.key.to_le_bytes());
        out.extend_from_slice(&self.game.to_le_bytes());
        out.extend_from_slice(&self.ply.to_le_bytes());
        out.extend_from_slice(&self.mv.to_le_bytes());
    }
    fn decode(b: &[u8]) -> Self {
        PositionRecord {
            key: u128::from_le_bytes(b[0..16].try_into().expect("16 bytes")),
            game: u32::from_le_bytes(b[16..20].try_into().expect("4 bytes")),
            ply: u16::from_le_bytes(b[20..22].try_into().expect("2 bytes")),
            mv: u16::from_le_bytes(b[22..24].try_into().expect("2 bytes")),
        }
    }
    fn combine(&mut self, _: &Self) -> bool {
        false
    }
}

impl Record for ExplorerRecord {
    const BYTES: usize = 16 + 2 + 1 + 1 + 2 + 4 * 4 + 8 + 4 + 4;
    type Order = (u128, u16, u8, u8, u16);
    fn order(&self) -> Self::Order {
        self.group()
    }
    fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.key.to_le_bytes());
        out.extend_from_slice(&self.mv.to_le_bytes());
        out.push(self.speed);
        out.push(self.band);
        out.extend_from_slice(&self.month.to_le_bytes());
        for v in [self.white, self.draws, self.black, self.rated] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.rating_sum.to_le_bytes());
        out.extend_from_slice(&self.last_date.to_le_bytes());
        out.extend_from_slice(&self.last_game.to_le_bytes());
    }
    fn decode(b: &[u8]) -> Self {
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"));
        ExplorerRecord {
            key: u128::from_le_bytes(b[0..16].try_into().expect("16 bytes")),
            mv: u16::from_le_bytes(b[16..18].try_into().expect("2 bytes")),
            speed: b[18],
            band: b[19],
            month: u16::from_le_bytes(b[20..22].try_into().expect("2 bytes")),
            white: u32_at(22),
            draws: u32_at(26),
            black: u32_at(30),
            rated: u32_at(34),
            rating_sum: u64::from_le_bytes(b[38..46].try_into().expect("8 bytes")),
            last_date: u32_at(46),
            last_game: u32_at(50),
        }
    }
    fn combine(&mut self, other: &Self) -> bool {
        if self.group() != other.group() {
            return false;
        }
        self.absorb(other);
        true
    }
}

/// Records of one kind being sorted: a buffer and the runs spilled so far.
pub(crate) struct Sorter<R: Record> {
    dir: PathBuf,
    name: &'static str,
    buffer: Vec<R>,
    capacity: usize,
    runs: Vec<PathBuf>,
}

impl<R: Record> Sorter<R> {
    /// A sorter spilling into `dir` (files `name-N.run`) whenever `capacity` records are held.
    pub fn new(dir: &Path, name: &'static str, capacity: usize) -> Sorter<R> {
        Sorter {
            dir: dir.to_path_buf(),
            name,
            buffer: Vec::new(),
            capacity: capacity.max(1024),
            runs: Vec::new(),
        }
    }

    /// Takes `records` (emptying the vector), spilling when the buffer is full.
    pub fn extend(&mut self, records: &mut Vec<R>) -> Result<(), IndexError> {
        if self.buffer.capacity() == 0 {
            // The whole buffer at once (untouched pages cost nothing): growing it by doubling
            // copied every record several times.
            self.buffer.reserve_exact(self.capacity.min(1 << 26) + 65536);
        }
        self.buffer.append(records);
        if self.buffer.len() >= self.capacity {
            self.spill()?;
        }
        Ok(())
    }

    /// Sorts and combines the buffer in place.
    fn sort_buffer(&mut self) {
        self.buffer.par_sort_unstable_by_key(|r| r.order());
        let mut kept = 0;
        for i in 0..self.buffer.len() {
            let record = self.buffer[i];
            if kept > 0 && self.buffer[kept - 1].combine(&record) {
                continue;
            }
            self.buffer[kept] = record;
            kept += 1;
        }
        self.buffer.truncate(kept);
    }

    fn spill(&mut self) -> Result<(), IndexError> {
        self.sort_buffer();
        let path = self.dir.join(format!("{}-{}.run", self.name, self.runs.len()));
        let file = File::create(&path).map_err(|e| IndexError::io(&path, e))?;
        let mut out = BufWriter::with_capacity(1 << 20, file);
        let mut bytes = Vec::with_capacity(R::BYTES * 4096);
        for chunk in self.buffer.chunks(4096) {
            bytes.clear();
            chunk.iter().for_each(|r| r.encode(&mut bytes));
            out.write_all(&bytes).map_err(|e| IndexError::io(&path, e))?;
        }
        out.flush().map_err(|e| IndexError::io(&path, e))?;
        // Kept allocated: the next run fills the same pages.
        self.buffer.clear();
        self.runs.push(path);
        Ok(())
    }

    /// Every record, sorted, equal groups combined, handed to `visit` in order.
    pub fn drain(mut self, mut visit: impl FnMut(R) -> Result<(), IndexError>) -> Result<(), IndexError> {
        if self.runs.is_empty() {
            self.sort_buffer();
            for record in std::mem::take(&mut self.buffer) {
                visit(record)?;
            }
            return Ok(());
        }
        if !self.buffer.is_empty() {
            self.spill()?;
        }
        let mut readers = Vec::with_capacity(self.runs.len());
        for path in &self.runs {
            let file = File::open(path).map_err(|e| IndexError::io(path, e))?;
            readers.push(RunReader::<R>::new(
                BufReader::with_capacity(1 << 20, file),
                path.clone(),
            ));
        }
        let mut heap = BinaryHeap::with_capacity(readers.len());
        for (run, reader) in readers.iter_mut().enumerate() {
            if let Some(record) = reader.next()? {
                heap.push(Head { record, run });
            }
        }
        let mut pending: Option<R> = None;
        while let Some(Head { record, run }) = heap.pop() {
            if let Some(next) = readers[run].next()? {
                heap.push(Head { record: next, run });
            }
            let combined = pending.as_mut().is_some_and(|current| current.combine(&record));
            if !combined && let Some(done) = pending.replace(record) {
                visit(done)?;
            }
        }
        if let Some(done) = pending {
            visit(done)?;
        }
        for path in &self.runs {
            let _ = std::fs::remove_file(path);
        }
        Ok(())
    }
}

/// Reads the records of a run file back.
struct RunReader<R: Record> {
    input: BufReader<File>,
    path: PathBuf,
    bytes: Vec<u8>,
    _record: std::marker::PhantomData<R>,
}

impl<R: Record> RunReader<R> {
    fn new(input: BufReader<File>, path: PathBuf) -> RunReader<R> {
        RunReader {
            input,
            path,
            bytes: vec![0; R::BYTES],
            _record: std::marker::PhantomData,
        }
    }

    fn next(&mut self) -> Result<Option<R>, IndexError> {
        match self.input.read_exact(&mut self.bytes) {
            Ok(()) => Ok(Some(R::decode(&self.bytes))),
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(None),
            Err(e) => Err(IndexError::io(&self.path, e)),
        }
    }
}

/// A run's next record in the merge heap: the smallest order comes out first (ties: the earlier
/// run, so that the merge is stable).
struct Head<R: Record> {
    record: R,
    run: usize,
}

impl<R: Record> PartialEq for Head<R> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl<R: Record> Eq for Head<R> {}

impl<R: Record> PartialOrd for Head<R> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<R: Record> Ord for Head<R> {
    fn cmp(&self, other: &Self) -> Ordering {
        (other.record.order(), other.run).cmp(&(self.record.order(), self.run))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn explorer(key: u128, white: u32, last_game: u32) -> ExplorerRecord {
        ExplorerRecord {
            key,
            mv: 1,
            speed: 0,
            band: 0,
            month: 0,
            white,
            draws: 0,
            black: 0,
            rated: 0,
            rating_sum: 0,
            last_date: 0,
            last_game,
        }
    }

    #[test]
    fn spilled_runs_merge_to_the_in_memory_result() {
        let dir = tempfile::tempdir().unwrap();
        let records: Vec<ExplorerRecord> = (0..20_000u32)
            .map(|i| explorer((i * 7919 % 1000) as u128, 1, i))
            .collect();
        let collect = |capacity: usize| {
            let mut sorter = Sorter::new(dir.path(), "t", capacity);
            for chunk in records.chunks(333) {
                sorter.extend(&mut chunk.to_vec()).unwrap();
            }
            let mut out = Vec::new();
            sorter
                .drain(|r| {
                    out.push(r);
                    Ok(())
                })
                .unwrap();
            out
        };
        let in_memory = collect(usize::MAX);
        let spilled = collect(1024);
        assert_eq!(in_memory.len(), 1000);
        assert_eq!(in_memory, spilled);
        assert!(in_memory.iter().all(|r| r.white == 20));
        assert_eq!(in_memory[0].last_game, 19_000, "the latest game of the group");
        assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none(), "runs removed");
    }

    #[test]
    fn records_round_trip_through_run_bytes() {
        let p = PositionRecord {
            key: u128::MAX - 5,
            game: 77,
            ply: 300,
            mv: 0xabcd,
        };
        let mut bytes = Vec::new();
        p.encode(&mut bytes);
        assert_eq!(bytes.len(), PositionRecord::BYTES);
        assert_eq!(PositionRecord::decode(&bytes), p);
        let e = ExplorerRecord {
            rating_sum: 1 << 40,
            last_date: 20240101,
            band: 3,
            month: 24300,
            ..explorer(9, 4, 11)
        };
        bytes.clear();
        e.encode(&mut bytes);
        assert_eq!(bytes.len(), ExplorerRecord::BYTES);
        assert_eq!(ExplorerRecord::decode(&bytes), e);
    }
}
