//! Mapping a stream over worker threads while keeping its order, with a
//! bounded amount of input in flight so memory does not grow with it.
//!
//! [`map_ordered`] applies a function to every item of an iterator on
//! several threads and hands the results to a sink on the calling thread.
//! What it promises:
//!
//! - **Order.** The sink sees the results in the items' order, whatever
//!   the number of threads and however long each item takes.
//! - **Bounded memory.** At most about [`AHEAD`] batches a worker are read
//!   ahead of the sink (a batch being up to [`BATCH`] items or
//!   [`BATCH_WEIGHT`] of the caller's weight), so a long input costs no more
//!   memory than a short one: the reading waits while the sink is behind.
//! - **Streaming release.** A result reaches the sink as soon as it and
//!   every result before it are done; when the work waits for input the
//!   sink hears [`Delivery::Idle`] (the moment to flush buffered output), so
//!   the end of a pipeline sees each result of a slow producer without
//!   waiting for the next item.
//! - **Errors.** An error from the sink (a broken pipe, a limit reached)
//!   stops the run early and is returned; a panic on a reader or worker
//!   thread ends the run with an error (a worker's panic reaches the caller
//!   once the others have stopped). A reader thread blocked on its input
//!   may outlive the call, and ends with the process.
//!
//! ```
//! use mancala_parallel::{Delivery, Reading, map_ordered};
//!
//! let mut squares = Vec::new();
//! map_ordered(
//!     1..=100u64,
//!     Reading::OwnThread, // the items may wait (a pipe): a reader thread
//!     4,                  // worker threads
//!     |_| 1,              // every item weighs the same
//!     |n| n * n,          // the work, on the workers
//!     |delivery| {
//!         // The sink, on the calling thread, in input order.
//!         if let Delivery::Result(square) = delivery {
//!             squares.push(*square);
//!         }
//!         Ok(())
//!     },
//! )?;
//! assert_eq!(squares, (1..=100u64).map(|n| n * n).collect::<Vec<_>>());
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! How it works: items travel in numbered batches and the calling thread
//! writes the results in batch order. How the batches are read depends on
//! the input:
//!
//! - Input that never waits for a producer ([`Reading::InTurns`]: files):
//!   each worker reads a batch in its turn and works on it
//!   ([`map_in_turns`]). An item is read, checked and dropped by one thread
//!   while it is in that core's cache, and no reader thread takes a core
//!   from the workers: the instructions are those of one job within 1%,
//!   and so, near enough, is the CPU time (moving every item to another
//!   core, and sharing the cores with a reader, cost several percent).
//! - Any other input ([`Reading::OwnThread`]: a pipe, a terminal): a reader thread of its own,
//!   which may wait for ever without holding anything back. It closes the
//!   items into batches itself, which the workers take in turn. An item
//!   costs the reader a lock that no other thread wants (the batch it is
//!   forming), so a fast input costs the threads a meeting per batch, not
//!   per item. A batch closes early when a worker has nothing to do: the
//!   calling thread then takes the forming batch as it stands, or, when it
//!   is empty, asks the reader to close it at the next item. So a slow
//!   producer's items travel one by one and their results come out as the
//!   items come in, even while the reader waits for the next one.

use std::collections::{BTreeMap, VecDeque};
use std::io;
use std::mem;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;

/// Items handed to a worker at a time, at most: enough that handing them
/// over costs little beside the work (a short game takes microseconds).
pub const BATCH: usize = 256;

/// A batch closes once its items weigh this much (bytes of input, say), so
/// that large items travel a few at a time and memory stays small.
pub const BATCH_WEIGHT: usize = 256 << 10;

/// The weight of an item that should travel alone: one whose work takes
/// far longer than handing it over (a game to analyse).
pub const HEAVY: usize = BATCH_WEIGHT;

/// Full batches read ahead per worker, at most: enough that a worker never
/// waits for the reader while an earlier batch is still being worked on,
/// few enough that memory stays small.
pub const AHEAD: usize = 4;

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

/// A batch: its number (batches are numbered in input order), its items
/// and their weight.
struct Batch<X> {
    seq: usize,
    items: Vec<X>,
    weight: usize,
}

/// The batch the reader is forming, under a lock of its own: the reader
/// takes it for every item, another thread only to close the batch early.
struct Forming<X> {
    items: Vec<X>,
    weight: usize,
    /// The number the batch gets when it closes.
    seq: usize,
    /// A worker waits for work: close the batch at the next item.
    wanted: bool,
    /// Nothing more is wanted: the reader stops.
    closed: bool,
}

/// What the threads leave each other, batch by batch.
struct Board<X, T> {
    /// Batches closed and not yet taken by a worker, oldest first.
    queue: VecDeque<Batch<X>>,
    /// Results of batches, not yet taken by the calling thread.
    results: Vec<Done<T>>,
    /// Batches the workers are done with, for the reader to drop (or fill
    /// again): memory is best freed by the thread that allocated it
    /// (glibc's allocator takes the allocating thread's arena lock
    /// otherwise, and the threads then wait on each other's frees).
    spent: Vec<Vec<X>>,
    /// Results written, for the worker that made them to drop (by worker),
    /// for the same reason.
    written: Vec<Vec<Vec<T>>>,
    /// The weight of the batches closed and not yet written: the reader
    /// waits while it is over the cap, so that a fast input does not pile
    /// up.
    held: usize,
    /// The number of batches, once the reader has read every item.
    ended: Option<usize>,
    /// The reader or a worker stopped before its end (it panicked).
    failed: bool,
    /// Nothing more is wanted: the workers and the reader stop.
    closed: bool,
    /// Workers waiting for a batch.
    idle: usize,
    /// The calling thread waits for a result or the end.
    caller_waiting: bool,
    /// The reader waits for room under the cap.
    reader_waiting: bool,
}

/// A worker's results for a batch.
struct Done<T> {
    seq: usize,
    worker: usize,
    weight: usize,
    results: Vec<T>,
}

/// The two locks and the places where threads wait on the board.
struct Shared<X, T> {
    forming: Mutex<Forming<X>>,
    board: Mutex<Board<X, T>>,
    /// The calling thread waits here.
    caller: Condvar,
    /// The reader waits here.
    reader: Condvar,
    /// Idle workers wait here.
    workers: Condvar,
}

impl<X, T> Shared<X, T> {
    /// The board; `None` when a thread panicked holding it.
    fn board(&self) -> Option<MutexGuard<'_, Board<X, T>>> {
        self.board.lock().ok()
    }

    fn forming(&self) -> Option<MutexGuard<'_, Forming<X>>> {
        self.forming.lock().ok()
    }

    /// Closes the forming batch (not empty) and queues it for the workers,
    /// `spare` taking its place. The caller holds the forming lock, which
    /// keeps the queue in batch order; the board is handed back locked.
    fn close_batch(
        &self,
        forming: &mut Forming<X>,
        spare: Vec<X>,
    ) -> Option<MutexGuard<'_, Board<X, T>>> {
        let batch = Batch {
            seq: forming.seq,
            items: mem::replace(&mut forming.items, spare),
            weight: mem::take(&mut forming.weight),
        };
        forming.seq += 1;
        forming.wanted = false;
        let mut board = self.board()?;
        board.held += batch.weight;
        board.queue.push_back(batch);
        if board.idle > 0 {
            self.workers.notify_one();
        }
        Some(board)
    }

    /// Lets every thread go: nothing more is wanted.
    fn close(&self) {
        if let Some(mut forming) = self.forming() {
            forming.closed = true;
        }
        if let Some(mut board) = self.board() {
            board.closed = true;
            self.reader.notify_one();
            self.workers.notify_all();
        }
    }
}

/// Runs its closure when its thread ends by a panic: marks the work
/// failed, so that the calling thread does not wait for it for ever.
struct OnPanic<F: Fn()>(F);

impl<F: Fn()> Drop for OnPanic<F> {
    fn drop(&mut self) {
        if thread::panicking() {
            (self.0)();
        }
    }
}

/// Marks the board failed, when a thread holding `shared` panics.
fn fail_on_panic<X, T>(shared: &Shared<X, T>) -> OnPanic<impl Fn() + '_> {
    OnPanic(move || {
        // A poisoned lock tells the calling thread as much.
        if let Some(mut board) = shared.board() {
            board.failed = true;
            shared.caller.notify_one();
        }
    })
}

/// How the items of [`map_ordered`] are read, which the caller knows from
/// its input (the items themselves do not say).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Taking the next item never waits for a producer (regular files): the
    /// workers read in turn.
    InTurns,
    /// It may wait for ever (a pipe, a terminal): a reader thread of its own.
    OwnThread,
}

/// Applies `work` to every item on `jobs` threads and hands the results to
/// `sink` in input order. Items travel to the workers in batches of what
/// has been read, up to [`BATCH`] items or [`BATCH_WEIGHT`] of `weight`
/// (each item counting as at least a [`BATCH`]th of it); `sink` also hears
/// when the work waits ([`Delivery::Idle`]), except with one job over an
/// input that never waits, which the calling thread reads and works on
/// alone. (One job over an input that may wait gets a reader thread too:
/// the output of the items read must go on while it waits.) Stops early
/// when `sink` fails (e.g. a broken pipe); a reader thread may then still
/// be waiting for input, and ends with the process.
pub fn map_ordered<I, T, W, S>(
    items: I,
    reading: Reading,
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
    if jobs <= 1 && reading == Reading::InTurns {
        for item in items {
            sink(Delivery::Result(&work(&item)))?;
        }
        return Ok(());
    }
    if reading == Reading::InTurns {
        return map_in_turns(items, jobs, weight, &work, sink);
    }
    let jobs = jobs.max(1);
    let cap = AHEAD * jobs * BATCH_WEIGHT;
    let shared = Arc::new(Shared {
        forming: Mutex::new(Forming {
            items: Vec::new(),
            weight: 0,
            seq: 0,
            // Every worker waits at the start.
            wanted: true,
            closed: false,
        }),
        board: Mutex::new(Board {
            queue: VecDeque::new(),
            results: Vec::new(),
            spent: Vec::new(),
            written: (0..jobs).map(|_| Vec::new()).collect(),
            held: 0,
            ended: None,
            failed: false,
            closed: false,
            idle: 0,
            caller_waiting: false,
            reader_waiting: false,
        }),
        caller: Condvar::new(),
        reader: Condvar::new(),
        workers: Condvar::new(),
    });
    // Not scoped: after a failed write the caller returns at once, even
    // if the reader is blocked on its input.
    let reader_shared = Arc::clone(&shared);
    thread::Builder::new().spawn(move || read_into(&reader_shared, items, weight, cap))?;
    let result = thread::scope(|scope| {
        let mut workers = 0;
        for worker in 0..jobs {
            let (shared, work) = (&*shared, &work);
            // The system may refuse more threads: work with those it gave.
            let spawned =
                thread::Builder::new().spawn_scoped(scope, move || work_on(shared, worker, work));
            if spawned.is_err() {
                break;
            }
            workers += 1;
        }
        if workers == 0 {
            return Err(io::Error::other("cannot start any worker thread"));
        }
        let result = Writer {
            shared: &shared,
            sink: &mut sink,
            ready: BTreeMap::new(),
            emitted: 0,
            written: false,
        }
        .run();
        // Lets the workers finish.
        shared.close();
        result
    });
    shared.close();
    result
}

/// A worker of [`map_in_turns`]: reads a batch in its turn, while the
/// batches read stay within `ahead` of those written, and works on it.
fn work_in_turns<I, F, T, W>(
    turns: &Mutex<Turns<I, F>>,
    desk: &Mutex<Desk<T>>,
    caller: &Condvar,
    room: &Condvar,
    worker: usize,
    ahead: usize,
    work: &W,
) where
    I: Iterator,
    F: Fn(&I::Item) -> usize,
    W: Fn(&I::Item) -> T,
{
    let _fail = OnPanic(|| {
        if let Ok(mut desk) = desk.lock() {
            desk.failed = true;
            caller.notify_one();
        }
    });
    let mut written: Vec<Vec<T>> = Vec::new();
    loop {
        if !wait_for_room(desk, room, ahead) {
            return;
        }
        let Some((seq, batch, weighed)) = read_in_turn(turns, desk, caller) else {
            return;
        };
        // The results written since the last batch, dropped here (outside
        // the locks); one holds this batch's.
        let mut results = Vec::new();
        for mut done in written.drain(..) {
            done.clear();
            if results.capacity() < done.capacity() {
                results = done;
            }
        }
        results.extend(batch.iter().map(work));
        drop(batch);
        let Ok(mut desk) = desk.lock() else { return };
        desk.results.push(Done {
            seq,
            worker,
            weight: weighed,
            results,
        });
        mem::swap(&mut written, &mut desk.written[worker]);
        if desk.caller_waiting {
            caller.notify_one();
        }
    }
}

/// Waits while the batches read are `ahead` of those written; false when
/// there is nothing more to read (closed, failed or ended).
fn wait_for_room<T>(desk: &Mutex<Desk<T>>, room: &Condvar, ahead: usize) -> bool {
    let Ok(mut desk) = desk.lock() else {
        return false;
    };
    while !desk.closed && desk.ended.is_none() && desk.read >= desk.emitted + ahead {
        desk.waiting += 1;
        desk = match room.wait(desk) {
            Ok(desk) => desk,
            Err(_) => return false,
        };
        desk.waiting -= 1;
    }
    !(desk.closed || desk.failed || desk.ended.is_some())
}

/// The next batch, read in this worker's turn: its number, its items and
/// their weight; `None` at the end of the input (or when a lock is
/// poisoned).
fn read_in_turn<I, F, T>(
    turns: &Mutex<Turns<I, F>>,
    desk: &Mutex<Desk<T>>,
    caller: &Condvar,
) -> Option<(usize, Vec<I::Item>, usize)>
where
    I: Iterator,
    F: Fn(&I::Item) -> usize,
{
    let mut turns = turns.lock().ok()?;
    let (mut batch, mut weighed) = (Vec::new(), 0);
    let mut end = false;
    while batch.len() < BATCH && weighed < BATCH_WEIGHT {
        let Some(item) = turns.items.next() else {
            end = true;
            break;
        };
        weighed += (turns.weight)(&item).max(BATCH_WEIGHT / BATCH);
        batch.push(item);
    }
    let seq = turns.seq;
    if !batch.is_empty() {
        turns.seq += 1;
    }
    let mut desk = desk.lock().ok()?;
    desk.read = turns.seq;
    if end {
        desk.ended = Some(turns.seq);
        caller.notify_one();
    }
    if batch.is_empty() {
        return None;
    }
    Some((seq, batch, weighed))
}

/// Where the threads of [`map_in_turns`] meet.
struct Desk<T> {
    /// Results of batches, not yet taken by the calling thread.
    results: Vec<Done<T>>,
    /// Results written, for the worker that made them to drop (by worker).
    written: Vec<Vec<Vec<T>>>,
    /// Batches taken by a reader, and written.
    read: usize,
    emitted: usize,
    /// The number of batches, once the input has ended.
    ended: Option<usize>,
    failed: bool,
    closed: bool,
    caller_waiting: bool,
    /// Workers waiting for room to read.
    waiting: usize,
}

/// The input's reading, taken in turn.
struct Turns<I, F> {
    items: I,
    weight: F,
    /// The number the next batch gets.
    seq: usize,
}

/// [`map_ordered`] for an input that never waits for a producer: each
/// worker reads a batch in its turn and works on it. The items are read,
/// worked on and dropped by the one thread, while they are in its cache,
/// and no reader thread takes a core from the workers. (A reader that may
/// wait needs a thread of its own: a worker waiting there would hold back
/// the items it has read, and the end of the run.)
fn map_in_turns<I, T, W, S>(
    items: I,
    jobs: usize,
    weight: impl Fn(&I::Item) -> usize + Send,
    work: &W,
    mut sink: S,
) -> io::Result<()>
where
    I: Iterator + Send,
    I::Item: Send,
    T: Send,
    W: Fn(&I::Item) -> T + Sync,
    S: FnMut(Delivery<&T>) -> io::Result<()>,
{
    let turns = Mutex::new(Turns {
        items,
        weight,
        seq: 0,
    });
    let desk = Mutex::new(Desk {
        results: Vec::new(),
        written: (0..jobs).map(|_| Vec::new()).collect(),
        read: 0,
        emitted: 0,
        ended: None,
        failed: false,
        closed: false,
        caller_waiting: false,
        waiting: 0,
    });
    let (caller, room) = (Condvar::new(), Condvar::new());
    let ahead = AHEAD * jobs;
    let close = || {
        if let Ok(mut desk) = desk.lock() {
            desk.closed = true;
            room.notify_all();
        }
    };
    thread::scope(|scope| {
        let mut workers = 0;
        for worker in 0..jobs {
            let (turns, desk, caller, room) = (&turns, &desk, &caller, &room);
            let spawned = thread::Builder::new().spawn_scoped(scope, move || {
                work_in_turns(turns, desk, caller, room, worker, ahead, work);
            });
            if spawned.is_err() {
                break;
            }
            workers += 1;
        }
        if workers == 0 {
            return Err(io::Error::other("cannot start any worker thread"));
        }
        let result = write_in_turns(&desk, &caller, &room, &mut sink);
        // Lets the workers finish.
        close();
        result
    })
}

/// The calling thread's part of [`map_in_turns`]: the results in batch
/// order.
fn write_in_turns<T>(
    desk: &Mutex<Desk<T>>,
    caller: &Condvar,
    room: &Condvar,
    mut sink: impl FnMut(Delivery<&T>) -> io::Result<()>,
) -> io::Result<()> {
    let lock = || desk.lock().map_err(|_| stopped());
    let mut ready = BTreeMap::new();
    let mut results = Vec::new();
    let (mut emitted, mut written) = (0, false);
    loop {
        let ended = {
            let mut desk = lock()?;
            if desk.failed {
                return Err(stopped());
            }
            mem::swap(&mut results, &mut desk.results);
            desk.ended
        };
        for done in results.drain(..) {
            ready.insert(done.seq, done);
        }
        while let Some(done) = ready.remove(&emitted) {
            emitted += 1;
            for result in &done.results {
                sink(Delivery::Result(result))?;
            }
            written = true;
            let mut desk = lock()?;
            desk.emitted = emitted;
            if desk.waiting > 0 {
                room.notify_one();
            }
            desk.written[done.worker].push(done.results);
        }
        if ended == Some(emitted) {
            return Ok(());
        }
        if written {
            written = false;
            sink(Delivery::Idle)?;
        }
        let mut desk = lock()?;
        while !desk.failed && desk.results.is_empty() && desk.ended == ended {
            desk.caller_waiting = true;
            desk = caller.wait(desk).map_err(|_| stopped())?;
            desk.caller_waiting = false;
        }
    }
}

/// The reader thread: every item into the forming batch, closing it when
/// full (or wanted), and waiting while the weight held is over `cap` (a
/// single heavy item still goes).
fn read_into<I: Iterator, T>(
    shared: &Shared<I::Item, T>,
    items: I,
    weight: impl Fn(&I::Item) -> usize,
    cap: usize,
) {
    let _fail = fail_on_panic(shared);
    // An emptied batch, to form the next one in.
    let mut spare = Vec::new();
    for item in items {
        let weighs = weight(&item).max(BATCH_WEIGHT / BATCH);
        let Some(mut forming) = shared.forming() else {
            return;
        };
        if forming.closed {
            return;
        }
        forming.items.push(item);
        forming.weight += weighs;
        let full = forming.items.len() >= BATCH || forming.weight >= BATCH_WEIGHT;
        if !(full || forming.wanted) {
            continue;
        }
        let Some(mut board) = shared.close_batch(&mut forming, mem::take(&mut spare)) else {
            return;
        };
        drop(forming);
        let spent = mem::take(&mut board.spent);
        drop(board);
        // Dropped here, outside the locks, and before waiting for room.
        for mut batch in spent {
            batch.clear();
            if spare.capacity() < batch.capacity() {
                spare = batch;
            }
        }
        let Some(mut board) = shared.board() else {
            return;
        };
        while !board.closed && board.held + BATCH_WEIGHT > cap {
            board.reader_waiting = true;
            board = match shared.reader.wait(board) {
                Ok(board) => board,
                Err(_) => return,
            };
            board.reader_waiting = false;
        }
        if board.closed {
            return;
        }
    }
    let Some(mut forming) = shared.forming() else {
        return;
    };
    let board = if forming.items.is_empty() {
        shared.board()
    } else {
        shared.close_batch(&mut forming, Vec::new())
    };
    if let Some(mut board) = board {
        board.ended = Some(forming.seq);
        if board.caller_waiting {
            shared.caller.notify_one();
        }
    }
}

/// A worker thread: takes the oldest batch queued, works on it and leaves
/// its results, until the board closes.
fn work_on<X, T, W: Fn(&X) -> T>(shared: &Shared<X, T>, worker: usize, work: &W) {
    let _fail = fail_on_panic(shared);
    let mut written: Vec<Vec<T>> = Vec::new();
    let Some(mut board) = shared.board() else {
        return;
    };
    loop {
        let batch = loop {
            if board.closed || board.failed {
                return;
            }
            if let Some(batch) = board.queue.pop_front() {
                break batch;
            }
            board.idle += 1;
            board = match shared.workers.wait(board) {
                Ok(board) => board,
                Err(_) => return,
            };
            board.idle -= 1;
        };
        drop(board);
        // The results written since the last batch, dropped here (outside
        // the lock); one of them holds this batch's results.
        let mut results = Vec::new();
        for mut done in written.drain(..) {
            done.clear();
            if results.capacity() < done.capacity() {
                results = done;
            }
        }
        results.extend(batch.items.iter().map(work));
        board = match shared.board() {
            Some(board) => board,
            None => return,
        };
        board.results.push(Done {
            seq: batch.seq,
            worker,
            weight: batch.weight,
            results,
        });
        board.spent.push(batch.items);
        mem::swap(&mut written, &mut board.written[worker]);
        if board.caller_waiting {
            shared.caller.notify_one();
        }
    }
}

/// The calling thread's part: writes the results in batch order, lets the
/// reader read as much again as they weighed, and closes the forming batch
/// early when a worker has nothing to do.
struct Writer<'a, X, T, S> {
    shared: &'a Shared<X, T>,
    sink: S,
    /// Results come in, by batch number.
    ready: BTreeMap<usize, Done<T>>,
    /// Batches written.
    emitted: usize,
    /// Results were written since the sink last heard of a wait.
    written: bool,
}

fn stopped() -> io::Error {
    io::Error::other("a worker thread stopped unexpectedly")
}

impl<X, T, S: FnMut(Delivery<&T>) -> io::Result<()>> Writer<'_, X, T, S> {
    fn run(mut self) -> io::Result<()> {
        let mut results = Vec::new();
        loop {
            let (ended, starving) = {
                let mut board = self.shared.board().ok_or_else(stopped)?;
                if board.failed {
                    return Err(stopped());
                }
                mem::swap(&mut results, &mut board.results);
                (
                    board.ended,
                    board.ended.is_none() && board.queue.is_empty() && board.idle > 0,
                )
            };
            for done in results.drain(..) {
                self.ready.insert(done.seq, done);
            }
            self.emit()?;
            if ended == Some(self.emitted) {
                return Ok(());
            }
            if starving {
                self.feed()?;
            }
            if self.written {
                self.written = false;
                (self.sink)(Delivery::Idle)?;
            }
            self.wait(ended.is_some())?;
        }
    }

    /// A worker waits for work: the forming batch goes as it stands, or,
    /// when it is empty, at the reader's next item.
    fn feed(&self) -> io::Result<()> {
        let mut forming = self.shared.forming().ok_or_else(stopped)?;
        if forming.items.is_empty() {
            forming.wanted = true;
        } else {
            // The reader drops the spent batches at its next close.
            drop(
                self.shared
                    .close_batch(&mut forming, Vec::new())
                    .ok_or_else(stopped)?,
            );
        }
        Ok(())
    }

    /// Waits until a result comes in, or the end of the input when it has
    /// not been seen yet.
    fn wait(&self, ended: bool) -> io::Result<()> {
        let mut board = self.shared.board().ok_or_else(stopped)?;
        while !board.failed && board.results.is_empty() && board.ended.is_some() == ended {
            board.caller_waiting = true;
            board = self.shared.caller.wait(board).map_err(|_| stopped())?;
            board.caller_waiting = false;
        }
        Ok(())
    }

    /// Writes the results that are next in order, and lets the reader read
    /// as much again as they weighed.
    fn emit(&mut self) -> io::Result<()> {
        while let Some(done) = self.ready.remove(&self.emitted) {
            self.emitted += 1;
            for result in &done.results {
                (self.sink)(Delivery::Result(result))?;
            }
            self.written = true;
            let mut board = self.shared.board().ok_or_else(stopped)?;
            board.held = board.held.saturating_sub(done.weight);
            if board.reader_waiting {
                self.shared.reader.notify_one();
            }
            board.written[done.worker].push(done.results);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    #[test]
    fn keeps_input_order_on_many_threads() {
        let mut out = Vec::new();
        map_ordered(
            0..1000u64,
            Reading::OwnThread,
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
        for in_turns in [false, true] {
            let mut seen = 0;
            let sink = |v: Delivery<&u32>| {
                if matches!(v, Delivery::Idle) {
                    return Ok(());
                }
                seen += 1;
                if seen == 10 {
                    Err(io::Error::from(io::ErrorKind::BrokenPipe))
                } else {
                    Ok(())
                }
            };
            let items = 0..100_000u32;
            let ran = if in_turns {
                map_in_turns(items, 3, |_| 1, &|i: &u32| *i, sink)
            } else {
                map_ordered(items, Reading::OwnThread, 3, |_| 1, |i| *i, sink)
            };
            assert_eq!(ran.unwrap_err().kind(), io::ErrorKind::BrokenPipe);
            assert_eq!(seen, 10);
        }
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
                Reading::OwnThread,
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
            map_ordered(items, Reading::OwnThread, 2, |_| 1, |i| *i, |_| Ok(()))
        });
        assert!(matches!(result, Ok(Err(_))));
    }

    #[test]
    fn a_worker_that_panics_ends_the_run() {
        for in_turns in [false, true] {
            let result = ends(move || {
                let work = |i: &u32| {
                    assert!(*i != 700, "the worker fails");
                    *i
                };
                if in_turns {
                    map_in_turns(0..10_000u32, 2, |_| 1, &work, |_| Ok(()))
                } else {
                    map_ordered(0..10_000u32, Reading::OwnThread, 2, |_| 1, work, |_| Ok(()))
                }
            });
            // The worker's panic reaches the caller, once the others have
            // stopped.
            assert!(result.is_err());
        }
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
            Reading::OwnThread,
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
            Reading::OwnThread,
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

    /// The promise of bounded memory: however far the sink falls behind,
    /// the items taken from the input and not yet handed to the sink stay
    /// under [`AHEAD`] batches a worker (here one heavy item a batch), plus
    /// the batches being formed and worked on.
    #[test]
    fn the_input_read_ahead_of_the_sink_is_bounded() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let jobs = 2;
        for reading in [Reading::OwnThread, Reading::InTurns] {
            let taken = Arc::new(AtomicUsize::new(0));
            let counter = Arc::clone(&taken);
            let items = (0..400u32).inspect(move |_| {
                counter.fetch_add(1, Ordering::SeqCst);
            });
            let (mut delivered, mut most_ahead) = (0usize, 0usize);
            map_ordered(
                items,
                reading,
                jobs,
                |_| HEAVY,
                |i| *i,
                |v| {
                    if let Delivery::Result(_) = v {
                        // A slow sink: the input could run far ahead.
                        thread::sleep(Duration::from_micros(200));
                        delivered += 1;
                        let ahead = taken.load(Ordering::SeqCst) - delivered;
                        most_ahead = most_ahead.max(ahead);
                    }
                    Ok(())
                },
            )
            .unwrap();
            assert_eq!(delivered, 400);
            assert!(
                most_ahead <= AHEAD * jobs + jobs + 2,
                "{reading:?}: {most_ahead} items read ahead of the sink"
            );
        }
    }

    /// Runs [`map_in_turns`] and gathers its results.
    fn in_turns<T: Clone + Send>(
        items: impl Iterator<Item = u32> + Send,
        jobs: usize,
        weight: impl Fn(&u32) -> usize + Send,
        work: impl Fn(&u32) -> T + Sync,
    ) -> Vec<T> {
        let mut out = Vec::new();
        map_in_turns(items, jobs, weight, &work, |v| {
            if let Delivery::Result(v) = v {
                out.push(v.clone());
            }
            Ok(())
        })
        .unwrap();
        out
    }

    #[test]
    fn in_turns_keeps_input_order() {
        // Uneven work, so that batches finish out of order.
        let work = |i: &u32| (0..u64::from(i % 97) * 50).fold(u64::from(*i), |a, b| a ^ b);
        for jobs in [2, 3, 8] {
            let out = in_turns(0..20_000u32, jobs, |_| 1, work);
            assert_eq!(out, (0..20_000u32).map(|i| work(&i)).collect::<Vec<_>>());
        }
        assert_eq!(in_turns(0..0u32, 2, |_| 1, |i| *i), Vec::<u32>::new());
        // Heavy items travel alone.
        assert_eq!(
            in_turns(0..300u32, 2, |_| BATCH_WEIGHT, |i| i + 1),
            (1..=300).collect::<Vec<_>>()
        );
    }

    /// In turns, an item is read, worked on and dropped by one thread.
    #[test]
    fn in_turns_items_stay_on_the_thread_that_read_them() {
        let drops = Arc::new(Mutex::new([0, 0]));
        let made = Arc::clone(&drops);
        let items = (0..20_000).map(move |_| Tracked::new(&made));
        let mut written = 0;
        map_in_turns(
            items,
            2,
            |_| 1,
            &|item: &Tracked| item.made_on == thread::current().id(),
            |delivery| {
                if let Delivery::Result(here) = delivery {
                    assert!(*here, "an item worked on elsewhere");
                    written += 1;
                }
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(written, 20_000);
        assert_eq!(*drops.lock().unwrap(), [20_000, 0]);
    }
}
