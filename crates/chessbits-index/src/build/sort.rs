//! External sort in bounded memory: records gather in a buffer; a full buffer is sorted (on all
//! cores) and written to a run file; at the end the runs are merged (k-way, a heap of run heads)
//! into one sorted stream, as often as the caller asks (the build merges them twice at once: one
//! stream for the `positions` table, one for the `explorer` table).

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use rayon::slice::ParallelSliceMut;

use super::records::PositionRecord;
use crate::error::IndexError;

/// A record the sorter handles: fixed-size bytes in run files and an order.
pub(crate) trait Record: Copy + Send + Sync {
    /// Bytes of one record in a run file.
    const BYTES: usize;
    /// What the records are sorted by.
    type Order: Ord + Copy + Send;
    fn order(&self) -> Self::Order;
    fn encode(&self, out: &mut Vec<u8>);
    fn decode(bytes: &[u8]) -> Self;
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

    fn spill(&mut self) -> Result<(), IndexError> {
        self.buffer.par_sort_unstable_by_key(|r| r.order());
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

    /// Ends the input: the records held are sorted (in memory when no run was spilled, else
    /// spilled as the last run). Then [`merge`](Self::merge) reads them.
    pub fn finish(&mut self) -> Result<(), IndexError> {
        match self.runs.is_empty() {
            true => self.buffer.par_sort_unstable_by_key(|r| r.order()),
            false if !self.buffer.is_empty() => self.spill()?,
            false => {}
        }
        Ok(())
    }

    /// Every record, sorted, handed to `visit` in order (after [`finish`](Self::finish)). Takes
    /// `&self`: two merges may run at once, each reading the runs on its own.
    pub fn merge(&self, mut visit: impl FnMut(R) -> Result<(), IndexError>) -> Result<(), IndexError> {
        if self.runs.is_empty() {
            for &record in &self.buffer {
                visit(record)?;
            }
            return Ok(());
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
        while let Some(Head { record, run }) = heap.pop() {
            if let Some(next) = readers[run].next()? {
                heap.push(Head { record: next, run });
            }
            visit(record)?;
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

    fn record(key: u128, game: u32) -> PositionRecord {
        PositionRecord {
            key,
            game,
            ply: 0,
            mv: 1,
        }
    }

    #[test]
    fn spilled_runs_merge_to_the_in_memory_result() {
        let dir = tempfile::tempdir().unwrap();
        let records: Vec<PositionRecord> = (0..20_000u32).map(|i| record((i * 7919 % 1000) as u128, i)).collect();
        let collect = |capacity: usize| {
            let mut sorter = Sorter::new(dir.path(), "t", capacity);
            for chunk in records.chunks(333) {
                sorter.extend(&mut chunk.to_vec()).unwrap();
            }
            sorter.finish().unwrap();
            let mut merged = [Vec::new(), Vec::new()];
            // Two merges at once, as the build runs them.
            std::thread::scope(|scope| {
                for out in &mut merged {
                    let sorter = &sorter;
                    scope.spawn(move || {
                        sorter
                            .merge(|r| {
                                out.push(r);
                                Ok(())
                            })
                            .unwrap()
                    });
                }
            });
            let [first, second] = merged;
            assert_eq!(first, second);
            (first, sorter.runs.len())
        };
        let (in_memory, runs) = collect(usize::MAX);
        assert_eq!(runs, 0);
        let (spilled, runs) = collect(1024);
        assert!(runs > 10, "{runs} runs");
        assert_eq!(in_memory.len(), records.len());
        assert_eq!(in_memory, spilled);
        let mut sorted = records.clone();
        sorted.sort();
        assert_eq!(in_memory, sorted);
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
    }
}
