//! Deterministic synthetic traces for import benchmarks.
//!
//! The native benchmark (`bench/benches/import.rs`) and the headless-Chrome
//! benchmark (`bench`) call these same functions, so both time the
//! importer on byte-identical input. Every generator is a pure function of
//! its arguments: no clock, no host randomness (the fixtures' seeded
//! [`skyplan_engine::numerics::Rng`]), so the text for a given size is the same on
//! every machine and every target.
//!
//! Each generator returns whole lines only, as many as fit in `target_bytes`
//! (the result is at most `target_bytes` long and within one line of it).
//! The text is written by the [`skyplan_engine::export`] writers, so the benchmarks
//! read exactly what skyplan itself writes.

use skyplan_engine::export;
pub use skyplan_engine::fixtures::{harvest_set, swim_like_jobs};
use skyplan_engine::import::LoadedFile;
use skyplan_engine::import::{Format, ImportOptions, Importer};
use skyplan_engine::model::{ContainerSize, JobRun, Resource, Skyline, UtilizationSeries};
use skyplan_engine::numerics::Rng;

/// Samples per synthetic utilization series: one week at 5 minutes, like the
/// NAB EC2 series.
const SERIES_LEN: usize = 7 * 24 * 12;
/// 2014-02-14 00:00:00 UTC, the start of the synthetic series.
const SERIES_START: i64 = 1_392_336_000;
/// 2016-05-02 00:00:00 UTC, the start of the synthetic jobs.
const JOBS_START: i64 = 1_462_147_200;
/// Runs rendered per call of the native-log writer.
const RUNS_PER_BLOCK: u64 = 1_000;

/// Cuts `text` after its last complete line that ends within `max` bytes.
fn cut_to_lines(mut text: String, max: usize) -> String {
    if text.len() > max {
        let end = text.as_bytes()[..max]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        text.truncate(end);
    }
    text
}

/// One synthetic server's CPU utilization over a week, 5-minute samples: a
/// daily cycle around a per-server base load, with noise, in percent.
fn synthetic_series(index: usize, rng: &mut Rng) -> UtilizationSeries {
    let mut s = UtilizationSeries::new(format!("server-{index:05}"), Resource::Cpu);
    let base = 10.0 + 50.0 * rng.unit();
    let swing = 5.0 + 30.0 * rng.unit();
    s.timestamps.reserve(SERIES_LEN);
    s.values.reserve(SERIES_LEN);
    for k in 0..SERIES_LEN {
        let t = SERIES_START + 300 * k as i64;
        let phase = (t % 86_400) as f64 / 86_400.0 * std::f64::consts::TAU;
        let v = base + swing * phase.sin() + 8.0 * (rng.unit() - 0.5);
        s.timestamps.push(t);
        s.values.push(v.clamp(0.0, 100.0));
    }
    s
}

/// A long-form utilization CSV (`timestamp,series,resource,value`, the format
/// [`skyplan_engine::Format::UtilizationLongCsv`] reads) of about `target_bytes`:
/// synthetic servers of one week of 5-minute CPU samples each, written by
/// [`export::utilization_long_csv`]. About 30 bytes a line.
pub fn utilization_long_csv(target_bytes: usize) -> String {
    let mut rng = Rng::new(0x5EED_0001);
    let mut out = String::with_capacity(target_bytes + 64 * 1024);
    let mut index = 0;
    while out.len() < target_bytes {
        let block = export::utilization_long_csv(&[synthetic_series(index, &mut rng)]);
        // Every block starts with the header; keep only the first one.
        let body = if out.is_empty() {
            block.as_str()
        } else {
            block.split_once('\n').map_or("", |(_, rest)| rest)
        };
        out.push_str(body);
        index += 1;
    }
    cut_to_lines(out, target_bytes)
}

/// One synthetic run: job `job` (of 200 recurring jobs), its `instance`-th
/// hourly run, with a skyline of 20 to 180 five-second samples that ramps up,
/// plateaus at 10 to 2,000 containers with jitter, and drains.
fn synthetic_run(job: u64, instance: u64, rng: &mut Rng) -> JobRun {
    let submit = JOBS_START + (instance * 3_600 + job * 17) as i64;
    let start = submit + rng.int(0, 30);
    let len = rng.int(20, 180) as usize;
    let peak = rng.int(10, 2_000) as f64;
    let containers = (0..len)
        .map(|k| {
            let ramp = (k + 1).min(len - k).min(8) as f64 / 8.0;
            let jitter = rng.uniform(0.0, peak / 10.0);
            (peak * ramp - jitter).round().max(1.0)
        })
        .collect();
    JobRun {
        job: format!("job_{job:03}"),
        instance: format!("job_{job:03}_{instance}"),
        submit,
        start,
        end: start + 5 * len as i64,
        input_available: None,
        output_first_read: None,
        container: ContainerSize::default(),
        skyline: Skyline::new(5, containers),
    }
}

/// A Hadoop ResourceEstimator native log ([`skyplan_engine::Format::NativeLog`]) of
/// about `target_bytes`: hourly runs of 200 recurring jobs (see
/// `synthetic_run`), written by [`export::native_log`]. About 2 KB a line.
pub fn native_log(target_bytes: usize) -> String {
    let mut rng = Rng::new(0x5EED_0002);
    let mut out = String::with_capacity(target_bytes + 1024 * 1024);
    let mut run = 0u64;
    while out.len() < target_bytes {
        let block: Vec<JobRun> = (run..run + RUNS_PER_BLOCK)
            .map(|r| synthetic_run(r % 200, r / 200, &mut rng))
            .collect();
        out.push_str(&export::native_log(&block));
        run += RUNS_PER_BLOCK;
    }
    cut_to_lines(out, target_bytes)
}

/// A benchmark input: a format and its generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// [`utilization_long_csv`].
    UtilizationLongCsv,
    /// [`native_log`].
    NativeLog,
}

impl Input {
    /// Both inputs, in table order.
    pub const ALL: [Input; 2] = [Input::UtilizationLongCsv, Input::NativeLog];

    /// The format the importer detects for it.
    pub fn format(self) -> Format {
        match self {
            Input::UtilizationLongCsv => Format::UtilizationLongCsv,
            Input::NativeLog => Format::NativeLog,
        }
    }

    /// Generates about `target_bytes` of it.
    pub fn generate(self, target_bytes: usize) -> String {
        match self {
            Input::UtilizationLongCsv => utilization_long_csv(target_bytes),
            Input::NativeLog => native_log(target_bytes),
        }
    }
}

/// Sizes the benchmarks run, in MB (10⁶ bytes).
pub const SIZES_MB: [usize; 3] = [1, 10, 100];

/// Chunk size the benchmarks push, as the studio's worker reads a `Blob`.
pub const CHUNK_BYTES: usize = 4 << 20;

/// Timed runs per size: more for small inputs, whose times are short.
pub fn repetitions(mb: usize) -> usize {
    match mb {
        0..=1 => 15,
        2..=10 => 7,
        _ => 3,
    }
}

/// Imports `text` through an [`Importer`] in [`CHUNK_BYTES`] chunks, with
/// the format detected, strict; panics if the input does not load (it is
/// generated to load). Never inlined: V8 swaps in a function's optimized
/// wasm code at its next call (it has no on-stack replacement for wasm), so
/// the warm-up loop of [`measure`] must call it, not contain it.
#[inline(never)]
pub fn import_in_chunks(text: &[u8]) -> LoadedFile {
    let mut importer = Importer::new("bench", ImportOptions::default());
    for chunk in text.chunks(CHUNK_BYTES) {
        importer.push(chunk);
    }
    importer.finish().expect("benchmark input imports")
}

/// Timings of one input at one size.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    /// What was imported.
    pub input: Input,
    /// Nominal size, MB.
    pub mb: usize,
    /// Actual size in bytes.
    pub bytes: usize,
    /// Records loaded (runs, or utilization samples).
    pub records: usize,
    /// Wall time of each timed run, milliseconds.
    pub runs_ms: Vec<f64>,
}

impl Measurement {
    /// Median run time, milliseconds.
    pub fn median_ms(&self) -> f64 {
        let mut v = self.runs_ms.clone();
        v.sort_by(f64::total_cmp);
        match v.len() {
            0 => f64::NAN,
            n if n % 2 == 1 => v[n / 2],
            n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
        }
    }

    /// Throughput at the median time, MB (10⁶ bytes) per second.
    pub fn mb_per_s(&self) -> f64 {
        self.bytes as f64 / 1e6 / (self.median_ms() / 1e3)
    }

    /// One machine-readable line, `BENCH <target> <format> <MB> <bytes>
    /// <records> <median ms> <MB/s>`, that `scripts/bench.sh` collects.
    pub fn line(&self, target: &str) -> String {
        format!(
            "BENCH {target} {} {} {} {} {:.3} {:.1}",
            self.input.format(),
            self.mb,
            self.bytes,
            self.records,
            self.median_ms(),
            self.mb_per_s()
        )
    }
}

/// Untimed warm-up before the timed runs, milliseconds: a JIT (V8 tiers wasm
/// up from its baseline compiler while it runs) must reach its optimized
/// code, or the first sizes would time the baseline code.
pub const WARM_UP_MS: f64 = 1_000.0;

/// Generates `input` at `mb` MB and imports it [`repetitions`] times, after
/// untimed warm-up runs for at least [`WARM_UP_MS`] (at least one run),
/// timing each with `now_ms`, a clock in milliseconds supplied by the caller
/// (the engine reads no clock itself).
pub fn measure(input: Input, mb: usize, now_ms: &mut dyn FnMut() -> f64) -> Measurement {
    let text = input.generate(mb * 1_000_000);
    let loaded = import_in_chunks(text.as_bytes());
    assert_eq!(loaded.format, input.format());
    let records = match input {
        Input::UtilizationLongCsv => loaded.data.series.iter().map(|s| s.len()).sum(),
        Input::NativeLog => loaded.data.runs.len(),
    };
    drop(loaded);
    let start = now_ms();
    while now_ms() - start < WARM_UP_MS {
        drop(import_in_chunks(text.as_bytes()));
    }
    let mut runs_ms = Vec::new();
    for _ in 0..repetitions(mb) {
        let t0 = now_ms();
        let loaded = import_in_chunks(text.as_bytes());
        runs_ms.push(now_ms() - t0);
        drop(loaded);
    }
    Measurement {
        input,
        mb,
        bytes: text.len(),
        records,
        runs_ms,
    }
}

/// `n` runs of one recurring job, each `k` one-minute steps long, for the
/// skyline LP benchmarks: a ramp, a wide stage and a narrowing tail with
/// run-to-run scale and per-step noise, seeded.
pub fn skyline_history(n: usize, k: usize, seed: u64) -> Vec<JobRun> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|i| {
            let scale = rng.uniform(0.85, 1.15);
            let containers: Vec<f64> = (0..k)
                .map(|j| {
                    let x = j as f64 / k as f64;
                    let shape = if x < 0.1 {
                        0.3 + 7.0 * x
                    } else if x < 0.6 {
                        1.0
                    } else {
                        1.0 - (x - 0.6) * 1.8
                    };
                    (shape * 80.0 * scale + rng.gauss(0.0, 4.0))
                        .round()
                        .max(1.0)
                })
                .collect();
            JobRun {
                job: "bench_job".into(),
                instance: format!("bench_job_{i}"),
                submit: JOBS_START + i as i64 * 86_400,
                start: JOBS_START + i as i64 * 86_400,
                end: JOBS_START + i as i64 * 86_400 + 60 * k as i64,
                input_available: None,
                output_first_read: None,
                container: ContainerSize::default(),
                skyline: Skyline::new(60, containers),
            }
        })
        .collect()
}

/// `n` periodic reservation requests for the agenda benchmark: skylines of
/// 10–60 one-minute steps, a quarter hourly and the rest daily, windows two
/// to four times the skyline's length, seeded.
pub fn agenda_requests(n: usize, seed: u64) -> Vec<skyplan_engine::agenda::ReservationRequest> {
    use skyplan_engine::agenda::{Recurrence, ReservationRequest};
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|i| {
            let len = rng.int(10, 60) as usize;
            let height = rng.uniform(2.0, 40.0);
            let sky: Vec<f64> = (0..len)
                .map(|j| {
                    (height * (0.6 + 0.4 * ((j as f64) / 5.0).sin().abs()))
                        .round()
                        .max(1.0)
                })
                .collect();
            let hourly = i % 4 == 0 && len <= 30;
            let (period, slack) = if hourly {
                (3_600, rng.int(len as i64, 60 - len as i64).max(len as i64))
            } else {
                (86_400, rng.int(2 * len as i64, 4 * len as i64))
            };
            let span = (len as i64 + slack).min(period / 60);
            let start = rng.int(0, period / 60 - span);
            ReservationRequest::from_skyline(
                format!("job{i}"),
                Recurrence::Periodic {
                    period_secs: period,
                },
                (start * 60, (start + span) * 60),
                ContainerSize::default(),
                &sky,
                60,
                1.0,
            )
        })
        .collect()
}

/// The cluster [`agenda_requests`] are placed on: 4,000 cores of 4 GB.
pub fn agenda_capacity() -> Vec<skyplan_engine::agenda::Capacity> {
    vec![skyplan_engine::agenda::Capacity {
        cores: 4000.0,
        memory_mb: 4000.0 * 4096.0,
    }]
}

/// The empty plan [`rigid_batch`]es are optimized on: 10,000 cores of
/// 1 GB, a 4-hour period.
pub fn rigid_batch_plan() -> skyplan_engine::agenda::Plan {
    use skyplan_engine::agenda::{AgendaParams, Capacity, Plan};
    let capacity = vec![Capacity {
        cores: 10_000.0,
        memory_mb: 10_000.0 * 1024.0,
    }];
    let params = AgendaParams {
        period_secs: 14_400,
        ..AgendaParams::default()
    };
    Plan::new(params, capacity).expect("plan")
}

/// `n` rigid one-off requests for the batch optimizer's benchmark (issue
/// 16): gangs of 5–40 containers for 5–30 one-minute steps (one stage,
/// gang = parallelism), windows 1–3× their length, on a 4-hour horizon
/// (`AgendaParams { period_secs: 14_400, .. }`), seeded. The same draws as
/// `rigid_batch` in `engine/tests/data/optimize_highs.py`, which records
/// HiGHS's optimum of each.
pub fn rigid_batch(n: usize, seed: u64) -> Vec<skyplan_engine::agenda::ReservationRequest> {
    use skyplan_engine::agenda::{Interpreter, Recurrence, ReservationRequest, Stage};
    const HORIZON: i64 = 240;
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|i| {
            let g = rng.int(5, 40) as f64;
            let len = rng.int(5, 30);
            let w = ((len as f64 * rng.uniform(1.0, 3.0) + 0.5).floor() as i64).min(HORIZON);
            let a = rng.int(0, HORIZON - w);
            ReservationRequest {
                name: format!("r{i}"),
                recurrence: Recurrence::OneOff,
                arrival_secs: a * 60,
                deadline_secs: (a + w) * 60,
                container: ContainerSize::default(),
                stages: vec![Stage {
                    demand: g * len as f64 * 60.0,
                    max_parallelism: g,
                    gang: g,
                }],
                interpreter: Interpreter::ROrderNoGap,
                problematic: false,
            }
        })
        .collect()
}

/// A job history of `n` finished jobs for the estimation benchmarks:
/// [`swim_like_jobs`] through [`skyplan_engine::estimate::history_from_swim`] with
/// its default processing-time model (three runs a job).
pub fn estimate_history(n: usize, seed: u64) -> Vec<skyplan_engine::model::WorkloadJob> {
    use skyplan_engine::estimate::{history_from_swim, HistoryParams};
    let params = HistoryParams {
        jobs: n,
        seed,
        ..HistoryParams::default()
    };
    let sources = swim_like_jobs(n.div_ceil(params.runs_per_job as usize), seed);
    history_from_swim(&sources, &params).unwrap_or_default()
}

/// Timings of [`measure_estimate`], milliseconds per repetition.
#[derive(Clone, Debug, PartialEq)]
pub struct EstimateMeasurement {
    /// History jobs trained on.
    pub jobs: usize,
    /// Fitting GP, OLS and same-job for both phases.
    pub train_ms: Vec<f64>,
    /// Estimating 100 new jobs (both phases, every method).
    pub predict_ms: Vec<f64>,
    /// Likelihood evaluations of the map and reduce GPs' searches (starts
    /// and refinement).
    pub evaluations: usize,
    /// Most jobs the hyperparameters of a phase were fitted on.
    pub hyper_points: usize,
}

/// Trains the estimators ([`skyplan_engine::estimate::Estimator`], GP settings `gp`)
/// on [`estimate_history`]`(jobs, 7)` and estimates 100 other jobs, `reps`
/// times, timed by `now_ms` (`Instant` natively, `performance.now()` in the
/// browser) — the work of `bench/benches/estimate.rs` and of the
/// headless-Chrome benchmark.
pub fn measure_estimate(
    jobs: usize,
    gp: &skyplan_engine::estimate::GpParams,
    reps: usize,
    now_ms: &mut dyn FnMut() -> f64,
) -> EstimateMeasurement {
    use skyplan_engine::estimate::{EstimateParams, Estimator, Phase};
    let history = estimate_history(jobs, 7);
    let queries = estimate_history(100, 8);
    let query: Vec<_> = queries
        .iter()
        .map(|j| (Some(j.name.as_str()), &j.features))
        .collect();
    let params = EstimateParams {
        gp: gp.clone(),
        ..EstimateParams::default()
    };
    let mut m = EstimateMeasurement {
        jobs: history.len(),
        train_ms: Vec::new(),
        predict_ms: Vec::new(),
        evaluations: 0,
        hyper_points: 0,
    };
    for _ in 0..reps.max(1) {
        let t = now_ms();
        let Ok(model) = Estimator::fit(&history, &params) else {
            break;
        };
        m.train_ms.push(now_ms() - t);
        let t = now_ms();
        let _ = model.estimate_many(&query);
        m.predict_ms.push(now_ms() - t);
        m.evaluations = 0;
        for phase in Phase::ALL {
            if let Ok(fit) = model.gp_fit(phase) {
                let polish = fit.polish.as_ref().map_or(0, |p| p.evaluations);
                m.evaluations += polish + fit.starts.iter().map(|s| s.evaluations).sum::<usize>();
                m.hyper_points = m.hyper_points.max(fit.hyper_points);
            }
        }
    }
    m
}

/// The cluster of the pricing benchmarks: 64 map and 32 reduce slots.
pub const PRICING_SLOTS: skyplan_engine::pricing::Slots = skyplan_engine::pricing::Slots {
    map: 64.0,
    reduce: 32.0,
};

/// A queue of `n` admitted jobs for the pricing benchmarks, on
/// [`PRICING_SLOTS`]: map work uniform in 200–6,000 slot-seconds, reduce
/// work in 50–2,000, deadlines one after the other with 30 % slack over
/// each job's processing time. Returns the queue and its mean processing
/// time (the slack unit γ).
pub fn pricing_queue(n: usize, seed: u64) -> (Vec<skyplan_engine::pricing::QueuedJob>, f64) {
    use skyplan_engine::pricing::{processing_secs, QueuedJob};
    let slots = PRICING_SLOTS;
    let mut rng = Rng::new(seed);
    let mut t = 0.0;
    let queue: Vec<QueuedJob> = (0..n)
        .map(|i| {
            let (m, r) = (rng.uniform(200.0, 6000.0), rng.uniform(50.0, 2000.0));
            t += processing_secs(m, r, slots) * 1.3;
            QueuedJob {
                name: format!("j{i}"),
                map_work: m,
                reduce_work: r,
                deadline: t.ceil(),
            }
        })
        .collect();
    let mean = queue
        .iter()
        .map(|q| processing_secs(q.map_work, q.reduce_work, slots))
        .sum::<f64>()
        / n.max(1) as f64;
    (queue, mean)
}

/// The price functions the pricing benchmarks time, with their labels.
pub const PRICING_FUNCTIONS: [(&str, skyplan_engine::pricing::PriceFunction); 3] = [
    (
        "eq. 13",
        skyplan_engine::pricing::PriceFunction::Mrm { kappa: 1.0 },
    ),
    (
        "eq. 14",
        skyplan_engine::pricing::PriceFunction::Exponential { kappa: 2.0 },
    ),
    ("eq. 16", skyplan_engine::pricing::PriceFunction::LoadAware),
];

/// Median milliseconds of `reps` quotes (40 deadlines) of a new job of
/// 3,000 + 800 slot-seconds against [`pricing_queue`]`(n, 5)` with
/// `function`, timed by `now_ms` — the work of `bench/benches/pricing.rs`
/// and of the headless-Chrome benchmark. `None` if the quote fails.
pub fn measure_quote(
    n: usize,
    function: skyplan_engine::pricing::PriceFunction,
    reps: usize,
    now_ms: &mut dyn FnMut() -> f64,
) -> Option<f64> {
    use skyplan_engine::pricing::{quote, PriceParams};
    let (queue, mean) = pricing_queue(n, 5);
    let params = PriceParams {
        function,
        mean_job_secs: mean,
        ..PriceParams::default()
    };
    let mut times = Vec::new();
    for _ in 0..reps.max(1) {
        let t = now_ms();
        let q = quote(&queue, PRICING_SLOTS, 3000.0, 800.0, &params).ok()?;
        times.push(now_ms() - t);
        if q.curve.len() != params.points {
            return None;
        }
    }
    times.sort_by(f64::total_cmp);
    Some(times[times.len() / 2])
}

/// One row of the forecasting benchmark: what was timed, the median and
/// mean milliseconds per step, and the steps timed.
#[derive(Clone, Debug, PartialEq)]
pub struct StepTiming {
    /// What one step does.
    pub label: &'static str,
    /// Median milliseconds per step.
    pub median_ms: f64,
    /// Mean milliseconds per step.
    pub mean_ms: f64,
    /// Steps timed.
    pub steps: usize,
}

/// The values of a `timestamp,value` CSV (NAB's), in order; the header and
/// lines that do not end in a number are skipped.
pub fn csv_values(text: &str) -> Vec<f64> {
    text.lines()
        .filter_map(|l| l.rsplit(',').next()?.trim().parse().ok())
        .collect()
}

fn timing(label: &'static str, mut t: Vec<f64>) -> StepTiming {
    t.sort_by(f64::total_cmp);
    let steps = t.len();
    StepTiming {
        label,
        median_ms: t.get(steps / 2).copied().unwrap_or(f64::NAN),
        mean_ms: t.iter().sum::<f64>() / steps.max(1) as f64,
        steps,
    }
}

/// Forecasting per step with h = 10 and N = 100 on the series `y` (§III-A):
/// the history-kernel GP updated incrementally (`steps` appends, each with
/// a one-step forecast; without refits and with ML-II every 25 values), 20
/// full GP fits, and `arima_steps` auto-ARIMA order searches over the grid
/// and as pmdarima's stepwise walk, each with its one-step forecast — the work of `bench/benches/forecast.rs` and of
/// the headless-Chrome benchmark, timed by `now_ms`.
///
/// # Errors
/// The engine's, when `y` is too short for the steps or a model fails.
pub fn measure_forecast(
    y: &[f64],
    steps: usize,
    arima_steps: usize,
    now_ms: &mut dyn FnMut() -> f64,
) -> Result<Vec<StepTiming>, skyplan_engine::forecast::ForecastError> {
    use skyplan_engine::forecast::{
        auto_arima, ForecastError, HistoryGp, HistoryGpParams, OrderSearch, SelectParams,
    };
    let (h, n) = (10, 100);
    let need = n + h + steps.max(arima_steps).max(200) + 1;
    if y.len() < need {
        return Err(ForecastError::TooShort {
            what: "the forecasting benchmark".into(),
            needed: need,
            got: y.len(),
        });
    }
    let start = y.len() - steps.max(arima_steps).max(200) - 1;
    let mut out = Vec::new();
    for (label, refit_every) in [
        (
            "GP, incremental update + 1-step forecast (no refit)",
            usize::MAX,
        ),
        (
            "GP, incremental, ML-II refit every 25 values (amortized)",
            25,
        ),
    ] {
        let params = HistoryGpParams {
            refit_every,
            ..HistoryGpParams::default()
        };
        let mut gp = HistoryGp::fit(&y[start - n - h..start], h, n, &params)?;
        let mut t = Vec::with_capacity(steps);
        for &v in &y[start..start + steps] {
            let t0 = now_ms();
            gp.append(v)?;
            let f = gp.forecast(1, 0.95)?;
            t.push(now_ms() - t0);
            std::hint::black_box(f);
        }
        out.push(timing(label, t));
    }
    let mut t = Vec::new();
    for k in 0..20 {
        let end = start + k * 10;
        let t0 = now_ms();
        let gp = HistoryGp::fit(&y[end - n - h..end], h, n, &HistoryGpParams::default())?;
        let f = gp.forecast(1, 0.95)?;
        t.push(now_ms() - t0);
        std::hint::black_box(f);
    }
    out.push(timing("GP, full ML-II fit + 1-step forecast", t));
    for (label, search) in [
        (
            "ARIMA, AIC order search (the grid) + 1-step forecast",
            OrderSearch::Grid,
        ),
        (
            "ARIMA, pmdarima's stepwise walk + 1-step forecast",
            OrderSearch::Stepwise,
        ),
    ] {
        let params = SelectParams {
            search,
            ..SelectParams::default()
        };
        let mut t = Vec::new();
        for k in 0..arima_steps {
            let end = start + k;
            let t0 = now_ms();
            let sel = auto_arima(&y[end - n - h..end], &params)?;
            let f = sel.model.forecast(1, 0.95)?;
            t.push(now_ms() - t0);
            std::hint::black_box(f);
        }
        out.push(timing(label, t));
    }
    Ok(out)
}

/// A tuning group of `n` jobs over four queues (priorities 2–8), 1–6 tasks
/// of 2–60 s in one or two stages, all waiting at 0: the group the
/// tuning benchmark searches (Fair, 4 queues, 27-point grid).
pub fn tuning_group(n: usize, seed: u64) -> Vec<skyplan_engine::tuning::TuneJob> {
    use skyplan_engine::tuning::{queue_for_priority, Task, TuneJob};
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|k| {
            let count = rng.int(1, 6) as usize;
            let two = rng.chance(0.5);
            let tasks: Vec<Task> = (0..count)
                .map(|i| Task {
                    stage: u32::from(two && i > count / 2),
                    secs: rng.uniform(2.0, 60.0).round(),
                })
                .collect();
            let q = queue_for_priority(rng.int(2, 8) as u8, 4);
            let mut j = TuneJob::new(format!("b{k}"), 0.0, q, tasks);
            j.mem_gb = if rng.chance(0.3) { 4.0 } else { 2.0 };
            j
        })
        .collect()
}

/// `m` groups for Algorithm 3: each `lower` containers (its AMs) and
/// `span` more with falling latencies (`L*` drops by a random 0–10 s a
/// container, shrinking), so `R = m·(lower + span)` holds every upper
/// bound and `r_sum` reaches `r_Alloc = m·span` at the last group.
pub fn tuning_curves(
    m: usize,
    lower: u32,
    span: u32,
    seed: u64,
) -> Vec<skyplan_engine::tuning::GroupCurve> {
    let mut rng = Rng::new(seed);
    (0..m)
        .map(|k| {
            let mut lat = vec![rng.uniform(200.0, 600.0)];
            for i in 0..span {
                let last = *lat.last().unwrap_or(&0.0);
                lat.push(last - rng.uniform(0.0, 10.0) / f64::from(i + 1).sqrt());
            }
            skyplan_engine::tuning::GroupCurve::from_latencies(format!("g{k}"), lower, &lat)
        })
        .collect()
}

/// Sizes of the tuning group searched by both benchmarks: (jobs,
/// containers).
pub const GROUP_SEARCH_SIZES: [(usize, u32); 3] = [(20, 8), (50, 16), (200, 48)];

/// One group's search timed by [`GroupSearch::measure`]: evaluations and
/// median milliseconds of 5, exhaustive and RRS.
#[derive(Clone, Debug)]
pub struct GroupSearchTiming {
    /// Candidates the exhaustive search evaluated.
    pub exhaustive_evaluations: usize,
    /// The exhaustive search, ms.
    pub exhaustive_ms: f64,
    /// Candidates RRS evaluated.
    pub rrs_evaluations: usize,
    /// RRS (p = 0.99, γ = 0.5), ms.
    pub rrs_ms: f64,
}

/// The group-level search the tuning benchmarks time: Fair with 4 queues,
/// the paper's 27-point grid, limits and placement, Algorithm 2.
pub struct GroupSearch {
    space: skyplan_engine::tuning::SearchSpace,
    rules: skyplan_engine::tuning::RuleSet,
}

impl GroupSearch {
    /// The grid and the rules of its first configuration.
    pub fn paper() -> Self {
        use skyplan_engine::tuning::{
            ConstraintRule, ExecRule, RuleSet, SchedulerKind, SearchSpace,
        };
        let space = SearchSpace::paper(SchedulerKind::Fair, 4).expect("grid");
        let rules = RuleSet::for_config(
            &space.config(&space.grid()[0]),
            ConstraintRule::LimitsAndPlacement,
            ExecRule::Algorithm2,
        );
        GroupSearch { space, rules }
    }

    fn rrs(
        &self,
        group: &[skyplan_engine::tuning::TuneJob],
        cluster: &skyplan_engine::tuning::Cluster,
    ) -> usize {
        skyplan_engine::tuning::rrs(
            group,
            cluster,
            &self.space,
            self.rules,
            &skyplan_engine::tuning::RrsParams::default(),
            &mut |_, _| {},
        )
        .expect("search")
        .candidates
        .len()
    }

    /// One untimed RRS (20 jobs, 8 containers): lets a JIT tier the code up
    /// before timing.
    pub fn warm_up(&self) {
        self.rrs(
            &tuning_group(20, 11),
            &skyplan_engine::tuning::Cluster::of(8, 4),
        );
    }

    /// Searches [`tuning_group`]`(jobs, 11)` on `containers` containers of
    /// 4 GB, exhaustively and by RRS, median of 5 each.
    pub fn measure(
        &self,
        jobs: usize,
        containers: u32,
        now_ms: &mut dyn FnMut() -> f64,
    ) -> GroupSearchTiming {
        let group = tuning_group(jobs, 11);
        let cluster = skyplan_engine::tuning::Cluster::of(containers, 4);
        let mut exhaustive_evaluations = 0;
        let exhaustive_ms = median_ms(5, now_ms, &mut || {
            exhaustive_evaluations = skyplan_engine::tuning::exhaustive(
                &group,
                &cluster,
                &self.space,
                self.rules,
                &mut |_, _| {},
            )
            .expect("search")
            .candidates
            .len();
        });
        let mut rrs_evaluations = 0;
        let rrs_ms = median_ms(5, now_ms, &mut || {
            rrs_evaluations = self.rrs(&group, &cluster);
        });
        GroupSearchTiming {
            exhaustive_evaluations,
            exhaustive_ms,
            rrs_evaluations,
            rrs_ms,
        }
    }
}

/// Algorithm 3 on `m` [`tuning_curves`] (80 containers each plus 16 more,
/// seed 3) timed by [`measure_cluster_dp`].
#[derive(Clone, Debug)]
pub struct ClusterDpTiming {
    /// R = r_Alloc: `m · 96` containers.
    pub total: u32,
    /// The containers the split hands out.
    pub r_sum: u32,
    /// As written (`O(m·r_sum²)`), median of the reps asked for, ms.
    pub written_ms: Option<f64>,
    /// Bounded (`O(m·r_sum·span)`), median of 5, ms.
    pub bounded_ms: f64,
}

/// Times Algorithm 3 on `m` groups: bounded (median of 5) and, with
/// `written_reps`, as written (median of that many).
pub fn measure_cluster_dp(
    m: usize,
    written_reps: Option<usize>,
    now_ms: &mut dyn FnMut() -> f64,
) -> ClusterDpTiming {
    use skyplan_engine::tuning::{cluster_dp, DpVariant};
    let (lower, span) = (80u32, 16u32);
    let curves = tuning_curves(m, lower, span, 3);
    let total = m as u32 * (lower + span);
    let mut r_sum = 0;
    let mut run = |variant| {
        r_sum = cluster_dp(&curves, total, variant, false)
            .expect("dp")
            .r_sum;
    };
    let written_ms =
        written_reps.map(|reps| median_ms(reps, now_ms, &mut || run(DpVariant::AsWritten)));
    let bounded_ms = median_ms(5, now_ms, &mut || run(DpVariant::Bounded));
    ClusterDpTiming {
        total,
        r_sum,
        written_ms,
        bounded_ms,
    }
}

/// Median milliseconds of `reps` runs of `f`, timed by `now_ms`.
pub fn median_ms(reps: usize, now_ms: &mut dyn FnMut() -> f64, f: &mut dyn FnMut()) -> f64 {
    let mut times = Vec::new();
    for _ in 0..reps.max(1) {
        let t = now_ms();
        f();
        times.push(now_ms() - t);
    }
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// Classification timed by [`measure_classify`].
#[derive(Clone, Debug)]
pub struct ClassifyTiming {
    /// The tenants classified.
    pub set: skyplan_engine::harvest::TenantSet,
    /// Generating them, ms.
    pub generate_ms: f64,
    /// Classifying and clustering them, median of `reps`, ms, per thread
    /// count asked for (in the order given).
    pub classify_ms: Vec<f64>,
    /// The classification (the same at every thread count: the last run's).
    pub classification: skyplan_engine::harvest::Classification,
}

/// Generates [`harvest_set`]`(tenants, days, 120, None, 11)` (timed once)
/// and classifies it with the default parameters at each of `threads`
/// (median of `reps` each). Panics if two thread counts disagree: the
/// engine's results do not depend on them.
pub fn measure_classify(
    tenants: usize,
    days: u32,
    threads: &[usize],
    reps: usize,
    now_ms: &mut dyn FnMut() -> f64,
) -> ClassifyTiming {
    use skyplan_engine::harvest::{classify, Classification, ClassifyParams};
    let t0 = now_ms();
    let set = harvest_set(tenants, days, 120, None, 11);
    let generate_ms = now_ms() - t0;
    let mut last: Option<Classification> = None;
    let mut classify_ms = Vec::new();
    for &threads in threads {
        let p = ClassifyParams {
            threads,
            ..ClassifyParams::default()
        };
        let mut got = None;
        classify_ms.push(median_ms(reps, now_ms, &mut || {
            got = Some(classify(&set, &p).expect("classify"));
        }));
        if let (Some(a), Some(b)) = (&last, &got) {
            assert_eq!(a, b, "classify differs between thread counts");
        }
        last = got;
    }
    ClassifyTiming {
        set,
        generate_ms,
        classify_ms,
        classification: last.expect("at least one thread count"),
    }
}

/// The §6 scheduling simulation the harvesting benchmarks time: 40 tenants
/// on 1,000 servers for `days` days at 2-minute slots (seed 13), 52
/// TPC-DS-like jobs, level 30 %, one run of each system. The report and
/// the simulation's seconds (the inputs are generated before the clock
/// starts).
pub fn measure_harvest_simulation(
    days: u32,
    now_ms: &mut dyn FnMut() -> f64,
) -> (skyplan_engine::harvest::SimReport, f64) {
    let set = harvest_set(40, days, 120, Some(1000), 13);
    let jobs = skyplan_engine::harvest::tpcds_like(52, 3);
    let p = skyplan_engine::harvest::SimParams {
        days: f64::from(days),
        runs: 1,
        levels: vec![30.0],
        ..skyplan_engine::harvest::SimParams::default()
    };
    let t0 = now_ms();
    let r = skyplan_engine::harvest::simulate(&set, &jobs, &p, &mut |_, _| {}).expect("simulate");
    (r, (now_ms() - t0) / 1000.0)
}

/// `n` classes for the class-selection benchmark: patterns in §3's mix,
/// 10–100 servers of 12 cores, averages 10–60 %, peaks above them.
pub fn harvest_classes(n: usize, seed: u64) -> Vec<skyplan_engine::harvest::ClassState> {
    use skyplan_engine::harvest::Pattern;
    let mut rng = skyplan_engine::numerics::Rng::new(seed);
    (0..n)
        .map(|i| {
            let average = rng.uniform(10.0, 60.0);
            skyplan_engine::harvest::ClassState {
                id: format!("class-{i}"),
                pattern: Pattern::ALL[i % 3],
                servers: rng.int(10, 100) as usize,
                cores_per_server: 12.0,
                average,
                peak: (average + rng.uniform(0.0, 40.0)).min(100.0),
                current: (average + rng.gauss(0.0, 10.0)).clamp(0.0, 100.0),
                used_containers: 0.0,
            }
        })
        .collect()
}

/// `n` jobs for the class-selection benchmark: last runs 0–900 s (a tenth
/// never ran) and 1–2,000 concurrent containers.
pub fn harvest_jobs(n: usize, seed: u64) -> Vec<skyplan_engine::harvest::JobRequest> {
    let mut rng = skyplan_engine::numerics::Rng::new(seed);
    (0..n)
        .map(|_| skyplan_engine::harvest::JobRequest {
            last_run_secs: if rng.chance(0.1) {
                None
            } else {
                Some(rng.uniform(0.0, 900.0))
            },
            containers: rng.int(1, 2000) as u64,
        })
        .collect()
}

/// Microseconds per job of Algorithm 1 ([`skyplan_engine::harvest::cycles::select::select_indices`])
/// over `jobs` on `classes`, median of `reps` passes.
pub fn measure_harvest_select(
    classes: &[skyplan_engine::harvest::ClassState],
    jobs: &[skyplan_engine::harvest::JobRequest],
    reps: usize,
    now_ms: &mut dyn FnMut() -> f64,
) -> f64 {
    let p = skyplan_engine::harvest::SelectParams::default();
    let mut rng = skyplan_engine::numerics::Rng::new(1);
    let mut scratch = skyplan_engine::harvest::cycles::select::SelectScratch::default();
    let mut picks = Vec::new();
    let mut sink = 0usize;
    let ms = median_ms(reps, now_ms, &mut || {
        for j in jobs {
            skyplan_engine::harvest::cycles::select::select_indices(
                j,
                classes,
                &p,
                &mut rng,
                &mut scratch,
                &mut picks,
            );
            sink += picks.len();
        }
    });
    std::hint::black_box(sink);
    1000.0 * ms / jobs.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use skyplan_engine::import;

    #[test]
    fn forecast_benchmark_times_every_row_and_refuses_short_series() {
        let text: String = std::iter::once("timestamp,value\n".to_owned())
            .chain((0..600).map(|i| {
                let v = 50.0 + 10.0 * (f64::from(i) * 0.13).sin() + f64::from(i % 7) * 0.3;
                format!("2024-01-01 00:00:00,{v}\n")
            }))
            .collect();
        let y = csv_values(&text);
        assert_eq!(y.len(), 600);
        let mut clock = 0.0;
        let mut now = || {
            clock += 1.0;
            clock
        };
        let rows = measure_forecast(&y, 50, 3, &mut now).unwrap();
        let steps: Vec<usize> = rows.iter().map(|r| r.steps).collect();
        assert_eq!(steps, vec![50, 50, 20, 3, 3]);
        assert!(rows.iter().all(|r| r.median_ms >= 1.0));
        assert!(measure_forecast(&y[..150], 50, 3, &mut now).is_err());
    }

    #[test]
    fn generators_are_deterministic_sized_and_importable() {
        for (gen, format) in [
            (
                utilization_long_csv as fn(usize) -> String,
                Format::UtilizationLongCsv,
            ),
            (native_log, Format::NativeLog),
        ] {
            let a = gen(200_000);
            assert_eq!(a, gen(200_000));
            assert!(a.len() <= 200_000 && a.len() > 190_000, "{}", a.len());
            assert!(a.ends_with('\n'));
            let f = import("bench", a.as_bytes(), ImportOptions::default()).unwrap();
            assert_eq!(f.format, format);
            assert_eq!(f.lines as usize, a.lines().count());
            // A smaller size is a prefix of a larger one's lines.
            assert!(a.starts_with(&gen(50_000)));
        }
    }

    #[test]
    fn measure_counts_and_times() {
        // A clock that advances 600 ms a reading: one warm-up run, then
        // every timed run reads 600 ms.
        let mut clock = 0.0;
        let m = measure(Input::NativeLog, 1, &mut || {
            clock += 600.0;
            clock
        });
        assert_eq!(m.runs_ms, vec![600.0; repetitions(1)]);
        assert!(m.bytes <= 1_000_000 && m.records > 100);
        assert_eq!(m.median_ms(), 600.0);
        assert!(m.line("native").starts_with("BENCH native native-log 1 "));
    }

    #[test]
    fn estimate_histories_are_deterministic_and_complete() {
        let h = estimate_history(30, 7);
        assert_eq!(h, estimate_history(30, 7));
        assert_eq!(h.len(), 30);
        assert!(h.iter().all(|j| j.map_secs.is_some()
            && j.reduce_secs.is_some()
            && j.features.map_tasks.is_some()));
        let swim = swim_like_jobs(200, 1);
        let map_only = swim
            .iter()
            .filter(|j| j.features.shuffle_bytes == 0.0)
            .count();
        assert!((120..180).contains(&map_only), "{map_only}");
    }
}

/// Timings of one shaping simulation (ms): generating the workload,
/// forecasting every application, the baseline and shaped runs.
#[derive(Clone, Debug, PartialEq)]
pub struct ShapingTiming {
    /// Generating the workload.
    pub generate_ms: f64,
    /// Forecasting every application (0 for the oracle).
    pub forecast_ms: f64,
    /// The baseline and the shaped run.
    pub simulate_ms: f64,
    /// All of it.
    pub total_ms: f64,
}

/// The shaping simulation of `params` (its generated workload, baseline
/// and shaped run) timed by `now_ms` — the work of
/// `bench/benches/shaping.rs` and `bench/tests/wasm/shaping.rs`.
/// The forecasting share ends when `simulate`'s progress passes the last
/// application forecast.
pub fn measure_shaping(
    params: &skyplan_engine::shaping::Params,
    now_ms: &mut dyn FnMut() -> f64,
) -> Result<
    (ShapingTiming, skyplan_engine::shaping::ShapingReport),
    skyplan_engine::shaping::ShapingError,
> {
    let t0 = now_ms();
    let w = skyplan_engine::shaping::generate_for(params)?;
    let t1 = now_ms();
    let forecast_apps = if params.predictor == skyplan_engine::shaping::Predictor::Oracle {
        0
    } else {
        w.applications.len()
    };
    let mut forecast_end = None;
    let report = skyplan_engine::shaping::simulate(&w, params, |done, _| {
        if forecast_end.is_none() && done >= forecast_apps {
            forecast_end = Some(now_ms());
        }
    })?;
    let t2 = now_ms();
    let tf = forecast_end.unwrap_or(t1).max(t1);
    Ok((
        ShapingTiming {
            generate_ms: t1 - t0,
            forecast_ms: if forecast_apps == 0 { 0.0 } else { tf - t1 },
            simulate_ms: if forecast_apps == 0 { t2 - t1 } else { t2 - tf },
            total_ms: t2 - t0,
        },
        report,
    ))
}

/// Timing of a whole K1 × K2 grid.
#[derive(Clone, Debug, PartialEq)]
pub struct ShapingGridTiming {
    /// Runs made (baselines, forecast passes and cells).
    pub runs: usize,
    /// All of it (ms).
    pub total_ms: f64,
}

/// The grid of `g` on `params`' generated workloads, timed.
pub fn measure_shaping_grid(
    params: &skyplan_engine::shaping::Params,
    g: &skyplan_engine::shaping::GridParams,
    now_ms: &mut dyn FnMut() -> f64,
) -> Result<
    (ShapingGridTiming, skyplan_engine::shaping::GridReport),
    skyplan_engine::shaping::ShapingError,
> {
    let t0 = now_ms();
    let mut runs = 0;
    let report = skyplan_engine::shaping::grid_generated(params, g, |d, _| runs = d)?;
    Ok((
        ShapingGridTiming {
            runs,
            total_ms: now_ms() - t0,
        },
        report,
    ))
}

/// The storage benchmark's datacenter: tenants of 10–60 servers summing
/// to `servers`, two tenants per environment, 400 GB per server (3,200
/// 128 MB replicas: 4 M blocks × 4 use half), the fixture's heavy-tailed
/// reimage year ([`skyplan_engine::fixtures::reimage_history`]) and random peaks.
/// Returns the tenants (as placement and durability take them) and the
/// history.
pub fn storage_datacenter(
    servers: usize,
    seed: u64,
) -> (
    Vec<skyplan_engine::harvest::StorageTenant>,
    skyplan_engine::harvest::ReimageHistory,
) {
    let mut rng = skyplan_engine::numerics::Rng::new(seed);
    let mut infos = Vec::new();
    let mut left = servers;
    while left > 0 {
        let i = infos.len();
        let k = (rng.int(10, 60) as usize).min(left);
        left -= k;
        infos.push(skyplan_engine::harvest::TenantInfo {
            name: format!("tenant-{i:04}"),
            environment: format!("env-{:04}", i / 2),
            machine_function: "service".into(),
            servers: k,
            server_names: Vec::new(),
            cores_per_server: 12.0,
            storage_gb_per_server: 400.0,
        });
    }
    let h = skyplan_engine::fixtures::reimage_history(
        &infos,
        &skyplan_engine::fixtures::ReimageFixtureParams {
            seed,
            ..Default::default()
        },
    );
    let stats = skyplan_engine::harvest::reimage_stats(&h, seed).expect("a non-empty history");
    let tenants = infos
        .iter()
        .zip(&stats.tenants)
        .map(|(t, r)| skyplan_engine::harvest::StorageTenant {
            name: t.name.clone(),
            environment: t.environment.clone(),
            servers: t.servers as u32,
            server_names: Vec::new(),
            storage_gb_per_server: t.storage_gb_per_server,
            reimage_rate: r.average,
            peak: rng.uniform(10.0, 100.0),
        })
        .collect();
    (tenants, h)
}

/// One row of [`measure_placements`].
#[derive(Clone, Debug)]
pub struct PlacementTiming {
    /// The policy.
    pub policy: skyplan_engine::harvest::Policy,
    /// Replicas per block.
    pub replication: usize,
    /// Placing every block, median of the reps, ms.
    pub ms: f64,
    /// The same per block, µs.
    pub us_per_block: f64,
    /// Blocks relaxed.
    pub relaxed: u64,
}

/// [`measure_placement`] of `blocks` blocks by HDFS-H and stock HDFS, R = 3
/// and 4, in that order.
pub fn measure_placements(
    tenants: &[skyplan_engine::harvest::StorageTenant],
    blocks: usize,
    reps: usize,
    now_ms: &mut dyn FnMut() -> f64,
) -> Vec<PlacementTiming> {
    let mut out = Vec::new();
    for policy in [
        skyplan_engine::harvest::Policy::HdfsH,
        skyplan_engine::harvest::Policy::Stock,
    ] {
        for replication in [3usize, 4] {
            let (ms, relaxed) =
                measure_placement(tenants, policy, blocks, replication, reps, now_ms);
            out.push(PlacementTiming {
                policy,
                replication,
                ms,
                us_per_block: ms * 1000.0 / blocks as f64,
                relaxed,
            });
        }
    }
    out
}

/// Placement of `blocks` blocks of `r` replicas by `policy` on `tenants`
/// (grid and cluster built first, not timed): milliseconds, median of
/// `reps`, and the blocks relaxed.
pub fn measure_placement(
    tenants: &[skyplan_engine::harvest::StorageTenant],
    policy: skyplan_engine::harvest::Policy,
    blocks: usize,
    r: usize,
    reps: usize,
    now_ms: &mut dyn FnMut() -> f64,
) -> (f64, u64) {
    let p = skyplan_engine::harvest::PlacementParams::default();
    let cluster = skyplan_engine::harvest::Cluster::new(tenants, &p).expect("valid tenants");
    let grid = skyplan_engine::harvest::build_grid(&cluster, p.grid);
    let mut relaxed = 0;
    let ms = median_ms(reps, now_ms, &mut || {
        let (_, rep) = skyplan_engine::harvest::place_blocks(&cluster, &grid, policy, blocks, r, 7)
            .expect("room for the blocks");
        relaxed = rep.relaxed;
    });
    (ms, relaxed)
}

/// A workspace of about `mb` MB of traces for the bundle benchmarks: half
/// a long utilization CSV, half a Hadoop native log (the generators above,
/// so the text compresses as real traces of those formats do, not as a
/// file repeated), with no panel state.
pub fn bundle_workspace(mb: usize) -> skyplan_engine::bundle::Bundle {
    let half = mb * 1_000_000 / 2;
    let file = |name: &str, text: String| skyplan_engine::bundle::BundleFile {
        name: name.into(),
        format: None,
        lenient: false,
        bytes: text.into_bytes(),
        kept: None,
    };
    skyplan_engine::bundle::Bundle {
        files: vec![
            file("utilization.csv", utilization_long_csv(half)),
            file("native.log", native_log(half)),
        ],
        ..skyplan_engine::bundle::Bundle::default()
    }
}

/// Writing and reading one workspace as a bundle.
#[derive(Clone, Debug, PartialEq)]
pub struct BundleMeasurement {
    /// The traces' bytes.
    pub bytes: usize,
    /// The bundle's bytes.
    pub bundle_bytes: usize,
    /// Median time of [`skyplan_engine::bundle::encode`], milliseconds.
    pub encode_ms: f64,
    /// Median time of [`skyplan_engine::bundle::decode`], milliseconds.
    pub decode_ms: f64,
}

impl BundleMeasurement {
    /// `BENCH-BUNDLE <target> <MB> <bytes> <bundle bytes> <encode ms>
    /// <decode ms>`.
    pub fn line(&self, target: &str, mb: usize) -> String {
        format!(
            "BENCH-BUNDLE {target} {mb} {} {} {:.1} {:.1}",
            self.bytes, self.bundle_bytes, self.encode_ms, self.decode_ms
        )
    }
}

/// Encodes and decodes `workspace` three times after one untimed round,
/// checking that it reads back equal; the medians.
pub fn measure_bundle(
    workspace: &skyplan_engine::bundle::Bundle,
    now_ms: &mut dyn FnMut() -> f64,
) -> BundleMeasurement {
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let round = |now_ms: &mut dyn FnMut() -> f64| {
        let t0 = now_ms();
        let bytes = skyplan_engine::bundle::encode(workspace).expect("a bench workspace encodes");
        let t1 = now_ms();
        let back = skyplan_engine::bundle::decode("bench", &bytes).expect("and decodes");
        let t2 = now_ms();
        assert!(back == *workspace, "the bundle reads back equal");
        (bytes.len(), t1 - t0, t2 - t1)
    };
    let (bundle_bytes, _, _) = round(now_ms);
    let (mut enc, mut dec) = (Vec::new(), Vec::new());
    for _ in 0..3 {
        let (_, e, d) = round(now_ms);
        enc.push(e);
        dec.push(d);
    }
    BundleMeasurement {
        bytes: workspace.files.iter().map(|f| f.bytes.len()).sum(),
        bundle_bytes,
        encode_ms: median(enc),
        decode_ms: median(dec),
    }
}

/// Machines of the generated Google cluster-data 2019 usage table: a cell's
/// size (the 2019 cells have about 10,000 machines each).
pub const GOOGLE_MACHINES: u64 = 10_000;
/// Instances on each machine in each 5-minute window.
pub const GOOGLE_INSTANCES_PER_MACHINE: u64 = 4;

/// The CSV header of [`write_google_instance_usage`]: the schema's
/// `instance_usage` columns as BigQuery exports them flat.
pub const GOOGLE_USAGE_HEADER: &str = "start_time,end_time,collection_id,instance_index,machine_id,alloc_collection_id,alloc_instance_index,collection_type,average_usage_cpus,average_usage_memory,maximum_usage_cpus,maximum_usage_memory,random_sample_usage_cpus,assigned_memory,page_cache_memory,cycles_per_instruction,memory_accesses_per_instruction,sample_rate\n";

/// Writes a Google cluster-data 2019 `instance_usage` table of about
/// `target_bytes` (whole lines, at most that) to `out`, window after
/// window: [`GOOGLE_MACHINES`] machines × [`GOOGLE_INSTANCES_PER_MACHINE`]
/// instances a 5-minute window, usage with a daily cycle and noise, every
/// column the schema has. Streamed in 1 MiB blocks, so a 10 GB file takes
/// no memory; deterministic (the same bytes for a size everywhere).
/// Returns the bytes written.
pub fn write_google_instance_usage(
    out: &mut impl std::io::Write,
    target_bytes: u64,
) -> std::io::Result<u64> {
    use std::fmt::Write as _;
    let mut rng = Rng::new(0x5EED_2019);
    let mut block = String::with_capacity(1 << 21);
    block.push_str(GOOGLE_USAGE_HEADER);
    let mut written = 0u64;
    let window_us: u64 = 300_000_000;
    'windows: for w in 0.. {
        let start = 600_000_000 + w * window_us;
        let day = (w % 288) as f64 / 288.0 * std::f64::consts::TAU;
        for m in 0..GOOGLE_MACHINES {
            for i in 0..GOOGLE_INSTANCES_PER_MACHINE {
                let cpu = (0.01 + 0.008 * day.sin() + 0.004 * rng.unit()).max(0.0005);
                let mem = 0.005 + 0.002 * rng.unit();
                let line_start = block.len();
                let _ = writeln!(
                    block,
                    "{start},{},{},{},{},0,-1,0,{cpu:.6},{mem:.6},{:.6},{:.6},{cpu:.6},{:.6},0.000311,1.43,0.0042,1",
                    start + window_us,
                    300_000_000_000 + m * 16 + i,
                    i,
                    400_000_000 + m,
                    cpu * 1.7,
                    mem * 1.1,
                    mem * 1.3,
                );
                if written + block.len() as u64 > target_bytes {
                    block.truncate(line_start);
                    break 'windows;
                }
                if block.len() >= 1 << 20 {
                    out.write_all(block.as_bytes())?;
                    written += block.len() as u64;
                    block.clear();
                }
            }
        }
    }
    out.write_all(block.as_bytes())?;
    written += block.len() as u64;
    Ok(written)
}
