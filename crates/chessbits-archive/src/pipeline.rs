//! Jobs run on a rayon pool while the caller goes on, their results taken back in submission
//! order: blocks are encoded while the next games are parsed, decoded while the previous
//! games are written.

use std::collections::VecDeque;
use std::sync::mpsc::{self, Receiver};

/// An ordered queue of jobs: at most `limit` in flight.
pub(crate) struct Pipeline<T: Send + 'static> {
    pool: Option<rayon::ThreadPool>,
    in_flight: VecDeque<Receiver<T>>,
    limit: usize,
}

impl<T: Send + 'static> Pipeline<T> {
    /// `threads` workers (0: one per core); with one, jobs run at once on the caller's thread.
    pub(crate) fn new(threads: usize) -> Pipeline<T> {
        let threads = if threads == 0 {
            rayon::current_num_threads()
        } else {
            threads
        };
        let pool = if threads > 1 {
            rayon::ThreadPoolBuilder::new().num_threads(threads).build().ok()
        } else {
            None
        };
        let limit = if pool.is_some() { threads } else { 1 };
        Pipeline {
            pool,
            in_flight: VecDeque::new(),
            limit,
        }
    }

    /// Whether another job may be submitted without exceeding the limit.
    pub(crate) fn has_room(&self) -> bool {
        self.in_flight.len() < self.limit
    }

    /// Starts a job (or, without a pool, runs it).
    pub(crate) fn submit(&mut self, job: impl FnOnce() -> T + Send + 'static) {
        let (sender, receiver) = mpsc::sync_channel(1);
        match &self.pool {
            Some(pool) => pool.spawn(move || {
                // The receiver is gone only if the pipeline was dropped: nobody wants the result.
                let _ = sender.send(job());
            }),
            None => {
                let _ = sender.send(job());
            }
        }
        self.in_flight.push_back(receiver);
    }

    /// The oldest job's result, waiting for it; `None` if nothing is in flight, `Some(Err)` if
    /// the job died without a result (it panicked).
    pub(crate) fn next(&mut self) -> Option<Result<T, JobLost>> {
        let receiver = self.in_flight.pop_front()?;
        Some(receiver.recv().map_err(|_| JobLost))
    }

    /// The oldest job's result if it is already there.
    pub(crate) fn next_ready(&mut self) -> Option<Result<T, JobLost>> {
        let result = match self.in_flight.front()?.try_recv() {
            Ok(value) => Ok(value),
            Err(mpsc::TryRecvError::Empty) => return None,
            Err(mpsc::TryRecvError::Disconnected) => Err(JobLost),
        };
        self.in_flight.pop_front();
        Some(result)
    }
}

/// A job that ended without a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct JobLost;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_submission_order() {
        for threads in [1, 3] {
            let mut pipeline = Pipeline::new(threads);
            let mut results = Vec::new();
            for i in 0..20u64 {
                while !pipeline.has_room() {
                    results.push(pipeline.next().unwrap().unwrap());
                }
                pipeline.submit(move || {
                    std::thread::sleep(std::time::Duration::from_millis((20 - i) % 3));
                    i * i
                });
                while let Some(result) = pipeline.next_ready() {
                    results.push(result.unwrap());
                }
            }
            while let Some(result) = pipeline.next() {
                results.push(result.unwrap());
            }
            assert!(pipeline.next().is_none());
            assert_eq!(results, (0..20).map(|i| i * i).collect::<Vec<_>>());
        }
    }
}
