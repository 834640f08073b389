//! Mapping a stream over worker threads while keeping its order, with a
//! bounded amount of input in flight so memory does not grow with it.
//!
//! A reader thread reads the items and the calling thread hands them to the
//! workers in batches of whatever has arrived within [`LINGER`] (up to
//! [`BATCH`] items or [`BATCH_WEIGHT`]): from a file that makes full
//! batches, from a slow producer batches of one, so results still come out
//! as their items come in.

use std::collections::{BTreeMap, VecDeque};
use std::io;
use std::sync::mpsc::{self, TryRecvError};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::Duration;

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

/// What the sink of [`map_ordered`] is handed.
#[derive(Debug)]
pub enum Delivery<T> {
    /// The result of the next item, in input order.
    Result(T),
    /// No result is ready and the workers wait for input, or the input for
    /// the workers: the moment to flush buffered output, so that the end of
    /// a pipeline sees each result without waiting for the next.
    Idle,
}

/// What the calling thread hears from the reader and the workers.
enum Event<X, T> {
    Item(X, usize),
    End,
    /// The results of batch number `.0`.
    Done(usize, Vec<T>),
}

/// The weight of the items read and not yet written: the reader waits while
/// it is over a cap, so that a fast input does not pile up in memory.
struct Budget {
    state: Mutex<(usize, bool)>,
    changed: Condvar,
}

impl Budget {
    /// Waits until `weight` fits under `cap` (or nothing is held: a single
    /// heavy item still goes); `false` once the budget is closed.
    fn acquire(&self, weight: usize, cap: usize) -> bool {
        let Ok(mut state) = self.state.lock() else {
            return false;
        };
        while !state.1 && state.0 > 0 && state.0 + weight > cap {
            state = match self.changed.wait(state) {
                Ok(state) => state,
                Err(_) => return false,
            };
        }
        state.0 += weight;
        !state.1
    }

    fn release(&self, weight: usize) {
        if let Ok(mut state) = self.state.lock() {
            state.0 = state.0.saturating_sub(weight);
            self.changed.notify_all();
        }
    }

    /// Lets a waiting reader go: nothing more is wanted.
    fn close(&self) {
        if let Ok(mut state) = self.state.lock() {
            state.1 = true;
            self.changed.notify_all();
        }
    }
}

/// Applies `work` to every item on `jobs` threads and hands the results to
/// `sink` in input order. Items travel to the workers in batches of what
/// has been read, up to [`BATCH`] items or [`BATCH_WEIGHT`] of `weight`
/// (each item counting as at least a [`BATCH`]th of it); with more than one
/// job, `sink` also hears when the work waits ([`Delivery::Idle`]). Stops
/// early when `sink` fails (e.g. a broken pipe); the reader thread may then
/// still be waiting for input, and ends with the process.
pub fn map_ordered<I, T, W, S>(
    items: I,
    jobs: usize,
    weight: impl Fn(&I::Item) -> usize + Send + 'static,
    work: W,
    mut sink: S,
) -> io::Result<()>
where
    I: Iterator + Send + 'static,
    I::Item: Send + 'static,
    T: Send + 'static,
    W: Fn(I::Item) -> T + Sync,
    S: FnMut(Delivery<T>) -> io::Result<()>,
{
    if jobs <= 1 {
        for item in items {
            sink(Delivery::Result(work(item)))?;
        }
        return Ok(());
    }
    let window = 2 * jobs;
    let cap = (window + 1) * BATCH_WEIGHT;
    let (event_tx, events) = mpsc::channel::<Event<I::Item, T>>();
    let budget = Arc::new(Budget {
        state: Mutex::new((0, false)),
        changed: Condvar::new(),
    });
    // Not scoped: after a failed write the caller returns at once, even
    // if the reader is blocked on its input.
    let reader_tx = event_tx.clone();
    let reader_budget = Arc::clone(&budget);
    thread::Builder::new().spawn(move || {
        for item in items {
            let weighs = weight(&item).max(BATCH_WEIGHT / BATCH);
            if !reader_budget.acquire(weighs, cap)
                || reader_tx.send(Event::Item(item, weighs)).is_err()
            {
                return;
            }
        }
        let _ = reader_tx.send(Event::End);
    })?;
    let (job_tx, job_rx) = mpsc::sync_channel::<(usize, Vec<I::Item>)>(window);
    let job_rx = Mutex::new(job_rx);
    let result = thread::scope(|scope| {
        let mut workers = 0;
        for _ in 0..jobs {
            let event_tx = event_tx.clone();
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
                    if event_tx.send(Event::Done(seq, results)).is_err() {
                        return;
                    }
                }
            });
            if spawned.is_err() {
                break;
            }
            workers += 1;
        }
        // Only the reader and the workers hold senders now: if they all
        // stop, the loop below hears of it.
        drop(event_tx);
        if workers == 0 {
            return Err(io::Error::other("cannot start any worker thread"));
        }
        let dispatcher = Dispatcher {
            jobs: &job_tx,
            window,
            budget: &budget,
            sink: &mut sink,
            pending: VecDeque::new(),
            pending_weight: 0,
            in_flight: VecDeque::new(),
            ready: BTreeMap::new(),
            sent: 0,
            emitted: 0,
            ended: false,
            written: false,
        };
        let result = dispatcher.run(&events);
        // Closing the job channel lets the workers finish.
        drop(job_tx);
        result
    });
    budget.close();
    result
}

/// How long a partial batch waits for more items: long enough for a fast
/// input to fill batches, short enough that a slow one is not held up.
const LINGER: Duration = Duration::from_micros(200);

/// The calling thread's part: batches what has arrived, hands batches to
/// the workers (at most `window` at a time) and writes results in order.
struct Dispatcher<'a, X, T, S> {
    jobs: &'a mpsc::SyncSender<(usize, Vec<X>)>,
    window: usize,
    budget: &'a Budget,
    sink: S,
    pending: VecDeque<(X, usize)>,
    pending_weight: usize,
    /// The weight of each batch handed over and not yet written, in order.
    in_flight: VecDeque<usize>,
    ready: BTreeMap<usize, Vec<T>>,
    sent: usize,
    emitted: usize,
    ended: bool,
    /// Results were written since the sink last heard of a wait.
    written: bool,
}

fn stopped() -> io::Error {
    io::Error::other("a worker thread stopped unexpectedly")
}

impl<X, T, S: FnMut(Delivery<T>) -> io::Result<()>> Dispatcher<'_, X, T, S> {
    fn run(mut self, events: &mpsc::Receiver<Event<X, T>>) -> io::Result<()> {
        let mut lingered = false;
        loop {
            // Take in whatever has arrived.
            loop {
                match events.try_recv() {
                    Ok(event) => self.take(event)?,
                    Err(TryRecvError::Empty) => break,
                    Err(TryRecvError::Disconnected) => return Err(stopped()),
                }
            }
            if self.ended && self.pending.is_empty() && self.sent == self.emitted {
                return Ok(());
            }
            // Whole batches go at once, the rest once it has waited.
            while self.room() && !self.pending.is_empty() && (self.full() || lingered || self.ended)
            {
                self.hand_over()?;
                lingered = false;
            }
            if self.room() && !self.pending.is_empty() {
                thread::sleep(LINGER);
                lingered = true;
                continue;
            }
            // Nothing to do but wait for an item or a result.
            if self.written {
                self.written = false;
                (self.sink)(Delivery::Idle)?;
            }
            let event = events.recv().map_err(|_| stopped())?;
            self.take(event)?;
        }
    }

    fn room(&self) -> bool {
        self.sent - self.emitted < self.window
    }

    fn full(&self) -> bool {
        self.pending.len() >= BATCH || self.pending_weight >= BATCH_WEIGHT
    }

    fn take(&mut self, event: Event<X, T>) -> io::Result<()> {
        match event {
            Event::Item(item, weighs) => {
                self.pending.push_back((item, weighs));
                self.pending_weight += weighs;
            }
            Event::End => self.ended = true,
            Event::Done(seq, results) => {
                self.ready.insert(seq, results);
                while let Some(results) = self.ready.remove(&self.emitted) {
                    self.emitted += 1;
                    self.budget.release(self.in_flight.pop_front().unwrap_or(0));
                    for result in results {
                        (self.sink)(Delivery::Result(result))?;
                    }
                    self.written = true;
                }
            }
        }
        Ok(())
    }

    /// Hands the next batch of pending items to the workers.
    fn hand_over(&mut self) -> io::Result<()> {
        let (mut batch, mut weighed) = (Vec::new(), 0);
        while batch.len() < BATCH && weighed < BATCH_WEIGHT {
            let Some((item, weighs)) = self.pending.pop_front() else {
                break;
            };
            batch.push(item);
            weighed += weighs;
        }
        self.pending_weight -= weighed;
        // With room in the window the channel has room too.
        self.jobs.send((self.sent, batch)).map_err(|_| stopped())?;
        self.in_flight.push_back(weighed);
        self.sent += 1;
        Ok(())
    }
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
                if let Delivery::Result(v) = v {
                    out.push(v);
                }
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
            |v| {
                if matches!(v, Delivery::Idle) {
                    return Ok(());
                }
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

    /// Item `i + 1` is only produced once the result of item `i` is
    /// written: a dispatcher that waited for a batch to fill would wait for
    /// ever (the watchdog then fails the test).
    #[test]
    fn results_come_out_as_their_items_come_in() {
        let (done_tx, done_rx) = mpsc::channel();
        thread::spawn(move || {
            let (item_tx, item_rx) = mpsc::channel::<u32>();
            item_tx.send(0).unwrap();
            let mut out = Vec::new();
            let result = map_ordered(
                item_rx.into_iter().take(50),
                2,
                |_| 1,
                |i| i * 2,
                |v| {
                    if let Delivery::Result(v) = v {
                        out.push(v);
                        let _ = item_tx.send(v / 2 + 1);
                    }
                    Ok(())
                },
            );
            let _ = done_tx.send((result.is_ok(), out));
        });
        let (ok, out) = done_rx
            .recv_timeout(std::time::Duration::from_secs(20))
            .expect("results wait for items that come only after them");
        assert!(ok);
        assert_eq!(out, (0..50).map(|i| i * 2).collect::<Vec<_>>());
    }

    /// Many heavy items: the reader waits for room instead of reading ahead.
    #[test]
    fn heavy_items_keep_their_order() {
        let mut out = Vec::new();
        map_ordered(
            0..300u32,
            2,
            |_| BATCH_WEIGHT,
            |i| i + 1,
            |v| {
                if let Delivery::Result(v) = v {
                    out.push(v);
                }
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(out, (1..=300).collect::<Vec<_>>());
    }
}
