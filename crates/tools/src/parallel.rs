//! Mapping a stream over worker threads while keeping its order, with a
//! bounded amount of input in flight so memory does not grow with it.
//!
//! A reader thread reads the items and the calling thread hands them to the
//! workers in batches of whatever has arrived within [`LINGER`] (up to
//! [`BATCH`] items or [`BATCH_WEIGHT`]): from a file that makes full
//! batches, from a slow producer batches of one, so results still come out
//! as their items come in.
//!
//! The three kinds of thread meet in one [`Inbox`] under one lock. A thread
//! wakes another only when that one waits for what it brings: the reader
//! wakes the calling thread for an item only when there is room to hand it
//! on, so a fast input costs a wake-up per batch, not per item.

use std::collections::{BTreeMap, VecDeque};
use std::io;
use std::mem;
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;
use std::time::Duration;

/// Items handed to a worker at a time, at most: enough that handing them
/// over costs little beside the work (a short game takes microseconds).
const BATCH: usize = 256;

/// A batch closes once its items weigh this much (bytes of input, say), so
/// that large items travel a few at a time and memory stays small.
const BATCH_WEIGHT: usize = 256 << 10;

/// The weight of an item that should travel alone: one whose work takes
/// far longer than handing it over (a game to analyse).
pub const HEAVY: usize = BATCH_WEIGHT;

/// How long a partial batch waits for more items: long enough for a fast
/// input to fill batches, short enough that a slow one is not held up.
const LINGER: Duration = Duration::from_micros(200);

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

/// What the reader and the workers leave for the calling thread, and what
/// it tells them back.
struct Inbox<X, T> {
    /// Items read and not yet taken, with their weights.
    items: Vec<(X, usize)>,
    /// Results of batches, by batch number and worker, not yet taken.
    results: Vec<(usize, usize, Vec<T>)>,
    /// Batches the workers are done with, for the reader to drop: memory is
    /// best freed by the thread that allocated it (glibc's allocator takes
    /// the allocating thread's arena lock otherwise, and the reader and the
    /// workers then wait on each other's frees).
    spent: Vec<Vec<X>>,
    /// Results written, for the worker that made them to drop (by worker),
    /// for the same reason.
    written: Vec<Vec<Vec<T>>>,
    /// The weight of the items read and not yet written: the reader waits
    /// while it is over the cap, so that a fast input does not pile up.
    held: usize,
    /// The reader has read every item.
    ended: bool,
    /// The reader or a worker stopped before its end (it panicked).
    failed: bool,
    /// Nothing more is wanted: the reader stops.
    closed: bool,
    /// The calling thread waits for results, and for items when `wants_items`.
    waiting: bool,
    wants_items: bool,
    /// The reader waits for room under the cap.
    reader_waiting: bool,
}

/// The [`Inbox`] and the two places where threads wait on it.
struct Shared<X, T> {
    inbox: Mutex<Inbox<X, T>>,
    /// The calling thread waits here.
    dispatcher: Condvar,
    /// The reader waits here.
    reader: Condvar,
}

impl<X, T> Shared<X, T> {
    /// The inbox; `None` when a thread panicked holding it.
    fn lock(&self) -> Option<MutexGuard<'_, Inbox<X, T>>> {
        self.inbox.lock().ok()
    }

    /// Wakes the calling thread if it waits (for items too when `item`).
    fn wake_dispatcher(&self, inbox: &Inbox<X, T>, item: bool) {
        if inbox.waiting && (!item || inbox.wants_items) {
            self.dispatcher.notify_one();
        }
    }

    /// Lets a waiting reader go: nothing more is wanted.
    fn close(&self) {
        if let Some(mut inbox) = self.lock() {
            inbox.closed = true;
            self.reader.notify_one();
        }
    }
}

/// Marks the inbox failed when its thread ends by a panic, so that the
/// calling thread does not wait for it for ever.
struct FailOnUnwind<'a, X, T>(&'a Shared<X, T>);

impl<X, T> Drop for FailOnUnwind<'_, X, T> {
    fn drop(&mut self) {
        if thread::panicking() {
            // A poisoned lock tells the calling thread as much.
            if let Some(mut inbox) = self.0.lock() {
                inbox.failed = true;
                self.0.wake_dispatcher(&inbox, false);
            }
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
    W: Fn(&I::Item) -> T + Sync,
    S: FnMut(Delivery<&T>) -> io::Result<()>,
{
    if jobs <= 1 {
        for item in items {
            sink(Delivery::Result(&work(&item)))?;
        }
        return Ok(());
    }
    let window = 2 * jobs;
    let cap = (window + 1) * BATCH_WEIGHT;
    let shared = Arc::new(Shared {
        inbox: Mutex::new(Inbox {
            items: Vec::new(),
            results: Vec::new(),
            spent: Vec::new(),
            written: (0..jobs).map(|_| Vec::new()).collect(),
            held: 0,
            ended: false,
            failed: false,
            closed: false,
            waiting: false,
            wants_items: false,
            reader_waiting: false,
        }),
        dispatcher: Condvar::new(),
        reader: Condvar::new(),
    });
    // Not scoped: after a failed write the caller returns at once, even
    // if the reader is blocked on its input.
    let reader_shared = Arc::clone(&shared);
    thread::Builder::new().spawn(move || read_into(&reader_shared, items, weight, cap))?;
    let (job_tx, job_rx) = mpsc::sync_channel::<(usize, Vec<I::Item>)>(window);
    let job_rx = Mutex::new(job_rx);
    let result = thread::scope(|scope| {
        let mut workers = 0;
        for worker in 0..jobs {
            let (shared, job_rx, work) = (&*shared, &job_rx, &work);
            // The system may refuse more threads: work with those it gave.
            let spawned = thread::Builder::new().spawn_scoped(scope, move || {
                let _fail = FailOnUnwind(shared);
                let mut written = Vec::new();
                loop {
                    let job = match job_rx.lock() {
                        Ok(rx) => rx.recv(),
                        Err(_) => return,
                    };
                    let Ok((seq, batch)) = job else { return };
                    let results = batch.iter().map(work).collect();
                    // Dropped here, after the lock is let go.
                    written.clear();
                    let Some(mut inbox) = shared.lock() else {
                        return;
                    };
                    inbox.results.push((seq, worker, results));
                    inbox.spent.push(batch);
                    mem::swap(&mut written, &mut inbox.written[worker]);
                    shared.wake_dispatcher(&inbox, false);
                }
            });
            if spawned.is_err() {
                break;
            }
            workers += 1;
        }
        if workers == 0 {
            return Err(io::Error::other("cannot start any worker thread"));
        }
        let dispatcher = Dispatcher {
            shared: &shared,
            jobs: &job_tx,
            window,
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
        let result = dispatcher.run();
        // Closing the job channel lets the workers finish.
        drop(job_tx);
        result
    });
    shared.close();
    result
}

/// The reader thread: every item into the inbox, waiting while the weight
/// held is over `cap` (a single heavy item still goes).
fn read_into<I: Iterator, T>(
    shared: &Shared<I::Item, T>,
    items: I,
    weight: impl Fn(&I::Item) -> usize,
    cap: usize,
) {
    let _fail = FailOnUnwind(shared);
    let mut spent = Vec::new();
    for item in items {
        let weighs = weight(&item).max(BATCH_WEIGHT / BATCH);
        // Dropped here, after the lock is let go.
        spent.clear();
        let Some(mut inbox) = shared.lock() else {
            return;
        };
        mem::swap(&mut spent, &mut inbox.spent);
        while !inbox.closed && inbox.held > 0 && inbox.held + weighs > cap {
            inbox.reader_waiting = true;
            inbox = match shared.reader.wait(inbox) {
                Ok(inbox) => inbox,
                Err(_) => return,
            };
            inbox.reader_waiting = false;
        }
        if inbox.closed {
            return;
        }
        inbox.held += weighs;
        inbox.items.push((item, weighs));
        shared.wake_dispatcher(&inbox, true);
    }
    if let Some(mut inbox) = shared.lock() {
        inbox.ended = true;
        shared.wake_dispatcher(&inbox, true);
    }
}

/// The calling thread's part: batches what has arrived, hands batches to
/// the workers (at most `window` at a time) and writes results in order.
struct Dispatcher<'a, X, T, S> {
    shared: &'a Shared<X, T>,
    jobs: &'a mpsc::SyncSender<(usize, Vec<X>)>,
    window: usize,
    sink: S,
    /// Items taken from the inbox and not yet handed over, oldest first.
    pending: VecDeque<(X, usize)>,
    pending_weight: usize,
    /// The weight of each batch handed over and not yet written, in order.
    in_flight: VecDeque<usize>,
    /// Results come in, by batch number: the worker and the results.
    ready: BTreeMap<usize, (usize, Vec<T>)>,
    sent: usize,
    emitted: usize,
    ended: bool,
    /// Results were written since the sink last heard of a wait.
    written: bool,
}

fn stopped() -> io::Error {
    io::Error::other("a worker thread stopped unexpectedly")
}

impl<X, T, S: FnMut(Delivery<&T>) -> io::Result<()>> Dispatcher<'_, X, T, S> {
    fn run(mut self) -> io::Result<()> {
        let mut lingered = false;
        let mut results = Vec::new();
        loop {
            // Take in whatever has arrived.
            {
                let mut inbox = self.shared.lock().ok_or_else(stopped)?;
                if inbox.failed {
                    return Err(stopped());
                }
                for (item, weighs) in inbox.items.drain(..) {
                    self.pending_weight += weighs;
                    self.pending.push_back((item, weighs));
                }
                mem::swap(&mut results, &mut inbox.results);
                self.ended = inbox.ended;
            }
            for (seq, worker, batch) in results.drain(..) {
                self.ready.insert(seq, (worker, batch));
            }
            self.emit()?;
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
            self.wait()?;
        }
    }

    /// Waits until a result comes in, or an item or the end of the input
    /// when there is room to hand it on.
    fn wait(&self) -> io::Result<()> {
        let room = self.room();
        let mut inbox = self.shared.lock().ok_or_else(stopped)?;
        while !inbox.failed
            && inbox.results.is_empty()
            && !(room && (!inbox.items.is_empty() || inbox.ended != self.ended))
        {
            inbox.waiting = true;
            inbox.wants_items = room;
            inbox = self.shared.dispatcher.wait(inbox).map_err(|_| stopped())?;
            inbox.waiting = false;
        }
        Ok(())
    }

    fn room(&self) -> bool {
        self.sent - self.emitted < self.window
    }

    fn full(&self) -> bool {
        self.pending.len() >= BATCH || self.pending_weight >= BATCH_WEIGHT
    }

    /// Writes the results that are next in order, and lets the reader read
    /// as much again as they weighed.
    fn emit(&mut self) -> io::Result<()> {
        while let Some((worker, results)) = self.ready.remove(&self.emitted) {
            self.emitted += 1;
            for result in &results {
                (self.sink)(Delivery::Result(result))?;
            }
            self.written = true;
            let weighed = self.in_flight.pop_front().unwrap_or(0);
            let mut inbox = self.shared.lock().ok_or_else(stopped)?;
            inbox.held = inbox.held.saturating_sub(weighed);
            if inbox.reader_waiting {
                self.shared.reader.notify_one();
            }
            inbox.written[worker].push(results);
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
                    out.push(*v);
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
            |i| *i,
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
                        out.push(*v);
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

    /// Runs `run` on a thread of its own and waits for it at most 20 s: a
    /// run that hangs fails the test instead of stopping it.
    fn ends<R: Send + 'static>(run: impl FnOnce() -> R + Send + 'static) -> thread::Result<R> {
        let (done_tx, done_rx) = mpsc::channel();
        thread::spawn(move || {
            let _ = done_tx.send(std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)));
        });
        done_rx
            .recv_timeout(Duration::from_secs(20))
            .expect("the run waits for a thread that stopped")
    }

    #[test]
    fn a_reader_that_panics_ends_the_run_with_an_error() {
        let result = ends(|| {
            let items = (0..10_000u32).inspect(|&i| assert!(i != 700, "the reader fails"));
            map_ordered(items, 2, |_| 1, |i| *i, |_| Ok(()))
        });
        assert!(matches!(result, Ok(Err(_))));
    }

    #[test]
    fn a_worker_that_panics_ends_the_run() {
        let result = ends(|| {
            let work = |i: &u32| {
                assert!(*i != 700, "the worker fails");
                *i
            };
            map_ordered(0..10_000u32, 2, |_| 1, work, |_| Ok(()))
        });
        // The worker's panic reaches the caller, once the others have
        // stopped.
        assert!(result.is_err());
    }

    /// Counts the values dropped on the thread that made them, and the others.
    struct Tracked {
        made_on: thread::ThreadId,
        drops: Arc<Mutex<[usize; 2]>>,
    }

    impl Tracked {
        fn new(drops: &Arc<Mutex<[usize; 2]>>) -> Tracked {
            Tracked {
                made_on: thread::current().id(),
                drops: Arc::clone(drops),
            }
        }
    }

    impl Drop for Tracked {
        fn drop(&mut self) {
            let elsewhere = thread::current().id() != self.made_on;
            self.drops.lock().unwrap()[usize::from(elsewhere)] += 1;
        }
    }

    /// Items are dropped by the reader that made them and results by the
    /// worker that made them, but for the last few batches (still in the
    /// inbox at the end): glibc's allocator would otherwise make the
    /// threads wait on each other's arena locks.
    #[test]
    fn values_are_freed_where_they_were_made() {
        let items = Arc::new(Mutex::new([0, 0]));
        let results = Arc::new(Mutex::new([0, 0]));
        let (made_items, made_results) = (Arc::clone(&items), Arc::clone(&results));
        let mut written = 0;
        map_ordered(
            (0..20_000).map(move |_| Tracked::new(&made_items)),
            2,
            |_| 1,
            |_| Tracked::new(&made_results),
            |delivery| {
                written += usize::from(matches!(delivery, Delivery::Result(_)));
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(written, 20_000);
        for drops in [items, results] {
            // The reader thread is not joined: it may still hold the last
            // of the inbox for a moment.
            let deadline = std::time::Instant::now() + Duration::from_secs(20);
            while drops.lock().unwrap().iter().sum::<usize>() < 20_000
                && std::time::Instant::now() < deadline
            {
                thread::sleep(Duration::from_millis(1));
            }
            let [here, elsewhere] = *drops.lock().unwrap();
            assert_eq!(here + elsewhere, 20_000);
            // But for the last window of batches (and those freed while
            // the reader waited for room), at most a few thousand.
            assert!(here >= 16_000, "{here} of 20000 freed where made");
        }
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
                    out.push(*v);
                }
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(out, (1..=300).collect::<Vec<_>>());
    }
}
