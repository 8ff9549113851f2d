//! The page side of a sweep: a pool of sweep workers (one per core the
//! browser reports, at most [`MAX_WORKERS`]) each running one cell at a
//! time, and [`SweepJob`], the job a card shows — its rows as they come,
//! its progress in cells, and a Cancel that stops the pool and keeps the
//! cells finished.
//!
//! The engine's one worker runs everything else one request at a time; a
//! sweep is independent runs, so it gets workers of its own and the studio
//! stays answerable while it runs. The cells are the engine's
//! (`SweepSpec::run_cell`), the same a `skyplan sweep` run computes.
//!
//! The page calls no engine function on a sweep (ARCHITECTURE.md, "The
//! page links no engine algorithm"): the first worker to be ready plans it
//! ([`CellAsk::Plan`]: the engine checks it and counts its cells, or says
//! why it is refused), and only then are cells handed out.

use super::job::Job;
use super::protocol::{CellAnswer, CellAsk, SWEEP_WORKER};
use crate::client::start_worker_named;
use crate::page::Page;
use crate::protocol::{decode, encode, js_error_text};
use leptos::prelude::*;
use skyplan_engine::sweep::{CellRow, SweepResult, SweepSpec};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Event, MessageEvent, Worker};

/// The most sweep workers a pool starts: each holds the engine's wasm
/// (tens of MB once running), and a laptop's other cores have other work.
pub const MAX_WORKERS: usize = 4;

/// Sweep workers for this browser: the cores it reports, at least one, at
/// most [`MAX_WORKERS`].
pub fn pool_size() -> usize {
    let cores = web_sys::window()
        .map(|w| w.navigator().hardware_concurrency())
        .unwrap_or(1.0);
    (cores as usize).clamp(1, MAX_WORKERS)
}

/// A sweep as a card keeps it: the job (its last result — a whole sweep,
/// or the cells a cancelled one finished — its progress in cells and its
/// error line), the rows of the run out as they arrive, and how many
/// workers run it.
pub struct SweepJob {
    /// The job: `view` is the last result.
    pub job: Job<SweepResult>,
    /// The rows of the run out, in the order they finished.
    pub rows: RwSignal<Vec<CellRow>>,
    /// Workers running the sweep out (0 when none is).
    pub workers: RwSignal<usize>,
    pool: StoredValue<Rc<RefCell<Pool>>, LocalStorage>,
}

impl Clone for SweepJob {
    fn clone(&self) -> Self {
        *self
    }
}

impl Copy for SweepJob {}

/// One worker of the pool.
struct Member {
    worker: Worker,
    ready: bool,
    /// Whether it is planning the sweep or running a cell.
    busy: bool,
}

/// The run out: what is asked, what came back.
struct Run {
    ticket: u32,
    spec: SweepSpec,
    json: String,
    /// How the plan stands: not asked yet, asked, or the number of cells.
    plan: Plan,
    next: usize,
    rows: Vec<CellRow>,
}

/// A run's plan, which a sweep worker makes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Plan {
    /// No worker was asked yet.
    Unasked,
    /// A worker is planning.
    Asked,
    /// The sweep has this many cells.
    Cells(usize),
}

impl Run {
    /// Cells in the grid (0 before the plan).
    fn cells(&self) -> usize {
        match self.plan {
            Plan::Cells(n) => n,
            Plan::Unasked | Plan::Asked => 0,
        }
    }
}

/// The workers and the run out.
#[derive(Default)]
struct Pool {
    members: Vec<Member>,
    run: Option<Run>,
}

impl SweepJob {
    /// Nothing run yet. The engine's Cancel (which restarts the engine
    /// worker) stops a sweep out too, keeping its finished cells.
    pub fn new(page: Page) -> SweepJob {
        let sweep = SweepJob {
            job: Job::new(page),
            rows: RwSignal::new(Vec::new()),
            workers: RwSignal::new(0),
            pool: StoredValue::new_local(Rc::new(RefCell::new(Pool::default()))),
        };
        page.on_cancel(move || {
            sweep.stop();
            None
        });
        sweep
    }

    /// The rows a card shows: while a sweep runs, its rows so far in cell
    /// order (they arrive in the order they finish); otherwise the last
    /// result's.
    pub fn shown(self) -> Signal<Vec<CellRow>> {
        Signal::derive(move || {
            if self.job.running.get() {
                let mut rows = self.rows.get();
                rows.sort_by_key(|r| r.cell);
                rows
            } else {
                self.job
                    .view
                    .with(|v| v.as_ref().map(|r| r.rows.clone()).unwrap_or_default())
            }
        })
    }

    /// Starts `spec` on the pool (a run out is superseded: its workers
    /// are stopped). A spec the engine refuses is refused by the first
    /// worker ready, before any cell runs.
    pub fn start(self, spec: SweepSpec) {
        let json = match serde_json::to_string(&spec) {
            Ok(j) => j,
            Err(e) => {
                self.job
                    .refuse(format!("the sweep could not be written: {e}"));
                return;
            }
        };
        self.terminate();
        let ticket = self.job.start();
        self.job.progress.set((0, 0));
        self.rows.set(Vec::new());
        let size = pool_size();
        let pool = self.pool.get_value();
        pool.borrow_mut().run = Some(Run {
            ticket,
            spec,
            json,
            plan: Plan::Unasked,
            next: 0,
            rows: Vec::new(),
        });
        for i in 0..size {
            match start_worker_named(Some(SWEEP_WORKER)) {
                Ok(worker) => {
                    listen(self, i, &worker);
                    pool.borrow_mut().members.push(Member {
                        worker,
                        ready: false,
                        busy: false,
                    });
                }
                Err(e) if i == 0 => {
                    self.job.refuse(format!(
                        "Could not start a sweep worker: {}",
                        js_error_text(&e)
                    ));
                    pool.borrow_mut().run = None;
                    return;
                }
                // Fewer workers than cores: the sweep runs on those.
                Err(_) => break,
            }
        }
        self.workers.set(pool.borrow().members.len());
    }

    /// Stops the run out, keeping the cells it finished as the job's result
    /// (a partial sweep) and saying how many.
    pub fn cancel(self) {
        if !self.job.running.get_untracked() {
            return;
        }
        self.stop();
    }

    /// Ends the workers; a run out becomes the job's partial result.
    fn stop(self) {
        let run = self.pool.get_value().borrow_mut().run.take();
        self.terminate();
        let Some(run) = run else { return };
        if !self.job.is_current(run.ticket) || !self.job.running.get_untracked() {
            return;
        }
        let cells = run.cells();
        let kept = run.rows.len();
        let result = result_of(run);
        self.job.cancel();
        self.job.view.set(Some(result));
        self.job.error.set(Some(format!(
            "Cancelled: {kept} of {cells} cells finished and kept."
        )));
    }

    /// Ends every worker of the pool.
    fn terminate(self) {
        let pool = self.pool.get_value();
        let members = std::mem::take(&mut pool.borrow_mut().members);
        for m in members {
            end(&m.worker);
        }
        self.workers.set(0);
    }

    /// Worker `i` said `answer`.
    fn receive(self, i: usize, answer: CellAnswer) {
        let pool = self.pool.get_value();
        match answer {
            CellAnswer::Ready => {
                if let Some(m) = pool.borrow_mut().members.get_mut(i) {
                    m.ready = true;
                }
                self.dispatch(i);
            }
            CellAnswer::Planned { ticket, cells } => self.planned(i, ticket, cells),
            CellAnswer::Cell { ticket, row } => {
                let row: CellRow = match serde_json::from_str(&row) {
                    Ok(r) => r,
                    Err(e) => return self.fail(ticket, format!("a cell's row is unreadable: {e}")),
                };
                let finished = {
                    let mut p = pool.borrow_mut();
                    if let Some(m) = p.members.get_mut(i) {
                        m.busy = false;
                    }
                    let Some(run) = p.run.as_mut().filter(|r| r.ticket == ticket) else {
                        return;
                    };
                    run.rows.push(row.clone());
                    (run.rows.len(), run.cells())
                };
                self.rows.update(|rows| rows.push(row));
                self.job.progress.set(finished);
                if finished.0 == finished.1 {
                    let run = pool.borrow_mut().run.take();
                    self.terminate();
                    if let Some(run) = run {
                        let ticket = run.ticket;
                        self.job.done(ticket, result_of(run));
                    }
                } else {
                    self.dispatch(i);
                }
            }
            CellAnswer::Refused { ticket, message } => self.fail(ticket, message),
        }
    }

    /// Worker `i` planned run `ticket`: it has `cells` cells. Workers
    /// beyond the cells end; every other one ready gets a cell.
    fn planned(self, i: usize, ticket: u32, cells: usize) {
        let pool = self.pool.get_value();
        let size = {
            let mut p = pool.borrow_mut();
            let Pool { members, run } = &mut *p;
            let Some(run) = run.as_mut().filter(|r| r.ticket == ticket) else {
                return;
            };
            run.plan = Plan::Cells(cells);
            if let Some(m) = members.get_mut(i) {
                m.busy = false;
            }
            // Only the last workers are ended, so the others keep their
            // numbers (their listeners know them by it).
            for m in members.drain(cells.max(1).min(members.len())..) {
                end(&m.worker);
            }
            members.len()
        };
        self.workers.set(size);
        self.job.progress.set((0, cells));
        if cells == 0 {
            let run = pool.borrow_mut().run.take();
            self.terminate();
            if let Some(run) = run {
                self.job.done(ticket, result_of(run));
            }
            return;
        }
        for k in 0..size {
            self.dispatch(k);
        }
    }

    /// Run `ticket` cannot go on: its workers end, the message is shown.
    fn fail(self, ticket: u32, message: String) {
        let pool = self.pool.get_value();
        let current = pool.borrow().run.as_ref().map(|r| r.ticket);
        if current != Some(ticket) && ticket != 0 {
            return;
        }
        pool.borrow_mut().run = None;
        self.terminate();
        if let Some(t) = current {
            self.job.failed(&super::protocol::Failure::new(t, message));
        }
    }

    /// Gives worker `i`, if it is ready and idle, the sweep to plan (when
    /// no worker was asked yet) or the next cell (when one is left).
    fn dispatch(self, i: usize) {
        let pool = self.pool.get_value();
        let mut p = pool.borrow_mut();
        let Pool { members, run } = &mut *p;
        let (Some(m), Some(run)) = (members.get_mut(i), run.as_mut()) else {
            return;
        };
        if !m.ready || m.busy {
            return;
        }
        let ask = match run.plan {
            Plan::Unasked => CellAsk::Plan {
                ticket: run.ticket,
                sweep: run.json.clone(),
            },
            Plan::Cells(cells) if run.next < cells => CellAsk::Cell {
                ticket: run.ticket,
                sweep: run.json.clone(),
                cell: run.next,
            },
            Plan::Asked | Plan::Cells(_) => return,
        };
        match encode(&ask, None)
            .and_then(|msg| m.worker.post_message(&msg).map_err(|e| js_error_text(&e)))
        {
            Ok(()) => {
                m.busy = true;
                match ask {
                    CellAsk::Plan { .. } => run.plan = Plan::Asked,
                    CellAsk::Cell { .. } => run.next += 1,
                }
            }
            Err(e) => {
                let ticket = run.ticket;
                drop(p);
                self.fail(ticket, format!("Could not reach a sweep worker: {e}"));
            }
        }
    }
}

/// A run's rows as the sweep's result, in cell order.
fn result_of(run: Run) -> SweepResult {
    let cells = run.cells();
    let mut rows = run.rows;
    rows.sort_by_key(|r| r.cell);
    SweepResult {
        cells,
        sweep: run.spec,
        rows,
    }
}

/// Ends `worker`, its listeners first (nothing it still says is read).
fn end(worker: &Worker) {
    worker.set_onmessage(None);
    worker.set_onerror(None);
    worker.terminate();
}

/// Hands worker `i`'s messages and errors to `sweep`.
fn listen(sweep: SweepJob, i: usize, worker: &Worker) {
    let onmessage =
        Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            match decode::<CellAnswer>(&event.data()) {
                Ok((answer, _)) => sweep.receive(i, answer),
                Err(e) => sweep.fail(0, format!("an unreadable message from a sweep worker: {e}")),
            }
        });
    let onerror = Closure::<dyn FnMut(Event)>::new(move |_: Event| {
        sweep.fail(0, "a sweep worker failed to load or crashed".to_owned());
    });
    worker.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    worker.set_onerror(Some(onerror.as_ref().unchecked_ref()));
    // The worker holds them while it lives; a pool's few closures per run
    // are leaked when it ends.
    onmessage.forget();
    onerror.forget();
}
