//! Mapping a stream over worker threads while keeping its order, with a
//! bounded number of items in flight so memory does not grow with the input.

use std::collections::BTreeMap;
use std::io;
use std::sync::{Mutex, mpsc};
use std::thread;

/// Items handed to a worker at a time, at most: enough that handing them
/// over costs little beside the work (a short game takes microseconds).
const BATCH: usize = 256;

/// A batch closes once its items weigh this much (bytes of input, say), so
/// that large items travel a few at a time and memory stays small.
const BATCH_WEIGHT: usize = 256 << 10;

/// The number of worker threads to use for `--jobs` (`None`: all cores).
#[must_use]
pub fn jobs(requested: Option<usize>) -> usize {
    requested
        .unwrap_or_else(|| thread::available_parallelism().map_or(1, usize::from))
        .max(1)
}

/// Applies `work` to every item on `jobs` threads and hands the results to
/// `sink` in input order. Items travel to the workers in batches of up to
/// [`BATCH`] items or [`BATCH_WEIGHT`] of `weight`. Stops early when `sink`
/// fails (e.g. a broken pipe).
pub fn map_ordered<I, T, W, S>(
    items: I,
    jobs: usize,
    weight: impl Fn(&I::Item) -> usize,
    work: W,
    mut sink: S,
) -> io::Result<()>
where
    I: Iterator,
    I::Item: Send,
    T: Send,
    W: Fn(I::Item) -> T + Sync,
    S: FnMut(T) -> io::Result<()>,
{
    if jobs <= 1 {
        for item in items {
            sink(work(item))?;
        }
        return Ok(());
    }
    let window = 2 * jobs;
    let (job_tx, job_rx) = mpsc::sync_channel::<(usize, Vec<I::Item>)>(window);
    let job_rx = Mutex::new(job_rx);
    let (done_tx, done_rx) = mpsc::channel::<(usize, Vec<T>)>();
    thread::scope(|scope| {
        let mut workers = 0;
        for _ in 0..jobs {
            let done_tx = done_tx.clone();
            let job_rx = &job_rx;
            let work = &work;
            // The system may refuse more threads: work with those it gave.
            let spawned = thread::Builder::new().spawn_scoped(scope, move || {
                loop {
                    let job = match job_rx.lock() {
                        Ok(rx) => rx.recv(),
                        Err(_) => return,
                    };
                    let Ok((seq, batch)) = job else { return };
                    let results = batch.into_iter().map(work).collect();
                    if done_tx.send((seq, results)).is_err() {
                        return;
                    }
                }
            });
            if spawned.is_err() {
                break;
            }
            workers += 1;
        }
        drop(done_tx);
        if workers == 0 {
            return Err(io::Error::other("cannot start any worker thread"));
        }
        let mut job_tx = Some(job_tx);
        let mut items = items.fuse();
        let (mut sent, mut emitted) = (0usize, 0usize);
        let mut ready: BTreeMap<usize, Vec<T>> = BTreeMap::new();
        let result = loop {
            while sent - emitted < window {
                let mut batch = Vec::with_capacity(BATCH);
                let mut weighed = 0;
                while batch.len() < BATCH && weighed < BATCH_WEIGHT {
                    let Some(item) = items.next() else { break };
                    weighed += weight(&item);
                    batch.push(item);
                }
                if batch.is_empty() {
                    job_tx = None;
                    break;
                }
                if let Some(tx) = &job_tx
                    && tx.send((sent, batch)).is_err()
                {
                    break;
                }
                sent += 1;
            }
            if sent == emitted {
                break Ok(());
            }
            let Ok((seq, results)) = done_rx.recv() else {
                break Err(io::Error::other("a worker thread stopped unexpectedly"));
            };
            ready.insert(seq, results);
            let mut failed = None;
            while let Some(results) = ready.remove(&emitted) {
                emitted += 1;
                for result in results {
                    if let Err(e) = sink(result) {
                        failed = Some(e);
                        break;
                    }
                }
                if failed.is_some() {
                    break;
                }
            }
            if let Some(e) = failed {
                break Err(e);
            }
        };
        // Closing the job channel lets the workers finish.
        drop(job_tx);
        result
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_input_order_on_many_threads() {
        let mut out = Vec::new();
        map_ordered(
            0..1000u64,
            4,
            |_| 1,
            |i| i * i,
            |v| {
                out.push(v);
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(out, (0..1000u64).map(|i| i * i).collect::<Vec<_>>());
    }

    #[test]
    fn stops_when_the_sink_fails() {
        let mut seen = 0;
        let err = map_ordered(
            0..100_000u32,
            3,
            |_| 1,
            |i| i,
            |_| {
                seen += 1;
                if seen == 10 {
                    Err(io::Error::from(io::ErrorKind::BrokenPipe))
                } else {
                    Ok(())
                }
            },
        )
        .unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::BrokenPipe);
        assert_eq!(seen, 10);
    }
}
