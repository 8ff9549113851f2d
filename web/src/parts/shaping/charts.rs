//! The Shaping panel's charts, drawn by [`crate::widgets::PlotCanvas`]:
//!
//! - [`AppPlot`]: one application over time in one run — its request, its
//!   use, the forecast with its band, the allocation the shaper gave it, and
//!   markers where it was resized, lost components, was preempted or
//!   failed; the baseline and the shaped run are drawn on the same axes
//!   ([`AppAxes`]) side by side;
//! - [`HostPlot`]: one host's allocation and use against its capacity;
//! - [`BoxesPlot`]: Figure 2, the three policies' turnaround and memory
//!   slack per application as box plots (mean as a triangle);
//! - [`HeatPlot`]: one metric of the K1 × K2 grid (Figure 3) as a heat map,
//!   the recommended cell outlined.

use super::desk::Shown;
use crate::widgets::chart::{
    frame, legend, tick, Area, Ctx, DrawError, Plot, Px, FONT, INK, MUTED,
};
use crate::widgets::regime::{lines_of, yours, Mark, RegimePlot};
use plotters::element::{Drawable, PointCollection};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters_canvas::CanvasBackend;
use skyplan_engine::shaping::{
    AppTimeline, BoxStats, Config, EventKind, GridReport, HostTimeline, PolicyComparison,
};
use skyplan_engine::sweep::{CellOutcome, CellRow};

const REQUEST: RGBColor = RGBColor(100, 116, 139);
const USED: RGBColor = RGBColor(37, 99, 235);
const ALLOC: RGBColor = RGBColor(22, 163, 74);
const FORECAST: RGBColor = RGBColor(234, 88, 12);
const PREEMPT: RGBColor = RGBColor(147, 51, 234);
const FAIL: RGBColor = RGBColor(220, 38, 38);
const SHAPING_OFF: RGBColor = RGBColor(15, 23, 42);
const CAPACITY: RGBColor = RGBColor(220, 38, 38);

/// Seconds per hour: the timelines' x axis is hours since the first arrival.
const HOUR: f64 = 3600.0;

/// The shared axes of the baseline's and the shaped run's charts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AppAxes {
    /// First hour shown.
    pub x0: f64,
    /// Last hour shown.
    pub x1: f64,
    /// Top of the y axis (cores or GB).
    pub y_max: f64,
}

/// One point's (request, used, allocated, forecast, band) for `shown`.
type Values = (f64, f64, f64, Option<f64>, Option<[f64; 2]>);

fn values(p: &skyplan_engine::shaping::AppPoint, shown: Shown) -> Values {
    match shown {
        Shown::Mem => (
            p.request_mem,
            p.used_mem,
            p.alloc_mem,
            p.forecast_mem,
            p.band_mem,
        ),
        Shown::Cpu => (
            p.request_cpu,
            p.used_cpu,
            p.alloc_cpu,
            p.forecast_cpu,
            p.band_cpu,
        ),
    }
}

impl AppAxes {
    /// Axes holding both timelines.
    pub fn of(a: &AppTimeline, b: &AppTimeline, shown: Shown) -> AppAxes {
        let ts = a
            .points
            .iter()
            .map(|p| p.t)
            .chain(b.points.iter().map(|p| p.t))
            .chain(a.events.iter().map(|e| e.t))
            .chain(b.events.iter().map(|e| e.t));
        let (lo, hi) = ts.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), t| {
            (lo.min(t), hi.max(t))
        });
        let (x0, x1) = if lo.is_finite() {
            (lo / HOUR, (hi / HOUR).max(lo / HOUR + 0.1))
        } else {
            (0.0, 1.0)
        };
        let pad = (x1 - x0) * 0.02;
        let y_max = a
            .points
            .iter()
            .chain(&b.points)
            .map(|p| {
                let (r, u, al, f, band) = values(p, shown);
                r.max(u)
                    .max(al)
                    .max(f.unwrap_or(0.0))
                    .max(band.map_or(0.0, |b| b[1]))
            })
            .fold(0.0_f64, f64::max);
        AppAxes {
            x0: (x0 - pad).max(0.0),
            x1: x1 + pad,
            // Headroom for the legend above the lines.
            y_max: if y_max > 0.0 { y_max * 1.6 } else { 1.0 },
        }
    }
}

/// A timeline's frame: hours since the first arrival (`hours`) across,
/// `unit` from 0 to `y_max` up. An application's and a host's charts share
/// it, so the two read alike side by side.
fn hours_frame<'a>(
    root: &'a Area,
    caption: &str,
    hours: std::ops::Range<f64>,
    (unit, y_max): (&str, f64),
    px: Px,
) -> Result<Ctx<'a>, DrawError> {
    let x1 = hours.end;
    frame(
        root,
        caption,
        (hours, 0.0..y_max),
        ("Hours since the first arrival", unit),
        8,
        &|x| tick(*x, x1),
        &|y| tick(*y, y_max),
        px,
    )
}

/// Runs of consecutive minutes (a gap longer than two minutes starts a new
/// one: the application was stopped and started again).
fn runs<T>(points: &[T], t: impl Fn(&T) -> f64) -> Vec<&[T]> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..points.len() {
        if t(&points[i]) - t(&points[i - 1]) > 120.0 {
            out.push(&points[start..i]);
            start = i;
        }
    }
    if start < points.len() {
        out.push(&points[start..]);
    }
    out
}

/// A legend entry with no data (a series drawn in pieces is labelled once).
fn key_line(ctx: &mut Ctx<'_>, colour: RGBColor, label: String) -> Result<(), DrawError> {
    ctx.draw_series(std::iter::empty::<PathElement<(f64, f64)>>())?
        .label(label)
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], colour.stroke_width(3)));
    Ok(())
}

/// An event's rule: a vertical line at `x` from the x axis up to `height`
/// (the whole chart for a preemption or a failure, a tick for a resize).
fn rule(ctx: &mut Ctx<'_>, x: f64, height: f64, style: ShapeStyle) -> Result<(), DrawError> {
    mark(ctx, PathElement::new(vec![(x, 0.0), (x, height)], style))
}

/// One element drawn on its own (an event's rule or marker), unlabelled.
fn mark<E>(ctx: &mut Ctx<'_>, element: E) -> Result<(), DrawError>
where
    for<'b> &'b E: PointCollection<'b, (f64, f64)>,
    E: Drawable<CanvasBackend>,
{
    ctx.draw_series(std::iter::once(element))?;
    Ok(())
}

/// One application in one run.
#[derive(Clone, Debug, PartialEq)]
pub struct AppPlot {
    /// The timeline.
    pub timeline: AppTimeline,
    /// "reservation" (the baseline) or the shaped run's policy.
    pub run: String,
    /// Memory or CPU.
    pub shown: Shown,
    /// The axes both runs share.
    pub axes: AppAxes,
    /// Identifies the data (`data-key`).
    pub key: String,
}

impl Plot for AppPlot {
    fn kind(&self) -> &'static str {
        "shaping-app"
    }

    fn key(&self) -> String {
        self.key.clone()
    }

    fn draw(&self, root: &Area, px: Px) -> Result<(), DrawError> {
        let tl = &self.timeline;
        let AppAxes { x0, x1, y_max } = self.axes;
        let count = |k: EventKind| tl.events.iter().filter(|e| e.kind == k).count();
        let (resized, lost, preempted, failed) = (
            count(EventKind::Resize),
            count(EventKind::PreemptComponents),
            count(EventKind::Preempt),
            count(EventKind::Fail),
        );
        let caption = format!(
            "{}: {} resizes, {} preempted, {} failed",
            self.run,
            resized,
            preempted + lost,
            failed
        );
        let unit = match self.shown {
            Shown::Mem => "Memory (GB)",
            Shown::Cpu => "CPU (cores)",
        };
        let mut ctx = hours_frame(root, &caption, x0..x1, (unit, y_max), px)?;
        let x = |t: f64| t / HOUR;
        for run in runs(&tl.points, |p| p.t) {
            // The forecast's band, then the lines over it.
            let band: Vec<(f64, [f64; 2])> = run
                .iter()
                .filter_map(|p| values(p, self.shown).4.map(|b| (x(p.t), b)))
                .collect();
            for piece in runs(&band, |b| b.0 * HOUR) {
                let mut poly: Vec<(f64, f64)> = piece.iter().map(|(t, b)| (*t, b[1])).collect();
                poly.extend(piece.iter().rev().map(|(t, b)| (*t, b[0])));
                if poly.len() >= 3 {
                    ctx.draw_series(std::iter::once(Polygon::new(
                        poly,
                        FORECAST.mix(0.16).filled(),
                    )))?;
                }
            }
            let line = |f: &dyn Fn(&Values) -> Option<f64>| -> Vec<(f64, f64)> {
                run.iter()
                    .filter_map(|p| f(&values(p, self.shown)).map(|v| (x(p.t), v)))
                    .collect()
            };
            ctx.draw_series(DashedLineSeries::new(
                line(&|v| Some(v.0)),
                px.u(5.0),
                px.u(3.0),
                REQUEST.stroke_width(px.u(1.4)),
            ))?;
            ctx.draw_series(LineSeries::new(
                line(&|v| Some(v.2)),
                ALLOC.stroke_width(px.u(2.0)),
            ))?;
            ctx.draw_series(LineSeries::new(
                line(&|v| Some(v.1)),
                USED.stroke_width(px.u(1.4)),
            ))?;
            let fc: Vec<(f64, f64)> = line(&|v| v.3);
            for piece in runs(&fc, |p| p.0 * HOUR) {
                ctx.draw_series(LineSeries::new(
                    piece.iter().copied(),
                    FORECAST.stroke_width(px.u(1.2)),
                ))?;
            }
        }
        // Events: resizes as ticks at the bottom, the rest as markers on top.
        let top = y_max * 0.95;
        let size = px.u(6.0) as i32;
        for e in &tl.events {
            let at = (x(e.t), top);
            let t = x(e.t);
            match e.kind {
                EventKind::Resize => {
                    rule(&mut ctx, t, y_max * 0.04, ALLOC.stroke_width(px.u(1.0)))?
                }
                EventKind::PreemptComponents => {
                    mark(&mut ctx, TriangleMarker::new(at, size, FORECAST.filled()))?;
                }
                EventKind::Preempt => {
                    rule(&mut ctx, t, y_max, PREEMPT.stroke_width(px.u(1.0)))?;
                    mark(&mut ctx, TriangleMarker::new(at, size, PREEMPT.filled()))?;
                }
                EventKind::Fail => {
                    rule(&mut ctx, t, y_max, FAIL.stroke_width(px.u(1.0)))?;
                    mark(&mut ctx, Cross::new(at, size, FAIL.stroke_width(px.u(2.5))))?;
                }
                EventKind::Resubmit => {
                    // Back in the queue: a ring under the failure's or
                    // preemption's marker.
                    let ring =
                        Circle::new((t, y_max * 0.88), size / 2, INK.stroke_width(px.u(1.2)));
                    mark(&mut ctx, ring)?;
                }
                EventKind::ShapingOff => {
                    ctx.draw_series(DashedLineSeries::new(
                        vec![(t, 0.0), (t, y_max)],
                        px.u(3.0),
                        px.u(3.0),
                        SHAPING_OFF.stroke_width(px.u(1.6)),
                    ))?;
                }
                EventKind::Submit | EventKind::Start | EventKind::Finish => {}
            }
        }
        key_line(&mut ctx, REQUEST, "request".into())?;
        key_line(&mut ctx, USED, "used".into())?;
        key_line(&mut ctx, ALLOC, format!("allocated ({resized} resizes)"))?;
        if tl.points.iter().any(|p| values(p, self.shown).3.is_some()) {
            key_line(&mut ctx, FORECAST, "forecast, 95 % band".into())?;
        }
        if preempted + lost > 0 {
            key_line(
                &mut ctx,
                PREEMPT,
                format!("preempted ({preempted} whole, {lost} components)"),
            )?;
        }
        if failed > 0 {
            key_line(&mut ctx, FAIL, format!("crashed ({failed})"))?;
        }
        let resubmitted = count(EventKind::Resubmit);
        if resubmitted > 0 {
            key_line(&mut ctx, INK, format!("resubmitted ({resubmitted})"))?;
        }
        if count(EventKind::ShapingOff) > 0 {
            key_line(&mut ctx, SHAPING_OFF, "shaping turned off".into())?;
        }
        legend(&mut ctx, px)
    }
}

/// One host in one run.
#[derive(Clone, Debug, PartialEq)]
pub struct HostPlot {
    /// The timeline.
    pub timeline: HostTimeline,
    /// "reservation" (the baseline) or the shaped run's policy.
    pub run: String,
    /// Memory or CPU.
    pub shown: Shown,
    /// Last hour shown (both runs share it).
    pub x1: f64,
    /// Identifies the data (`data-key`).
    pub key: String,
}

impl HostPlot {
    /// The last hour either timeline reaches.
    pub fn end(a: &HostTimeline, b: &HostTimeline) -> f64 {
        a.points
            .iter()
            .chain(&b.points)
            .map(|p| p.t / HOUR)
            .fold(0.1, f64::max)
    }
}

impl Plot for HostPlot {
    fn kind(&self) -> &'static str {
        "shaping-host"
    }

    fn key(&self) -> String {
        self.key.clone()
    }

    fn draw(&self, root: &Area, px: Px) -> Result<(), DrawError> {
        let tl = &self.timeline;
        let (cap, unit) = match self.shown {
            Shown::Mem => (tl.mem, "Memory (GB)"),
            Shown::Cpu => (tl.cpu, "CPU (cores)"),
        };
        let pick = |p: &skyplan_engine::shaping::HostPoint| match self.shown {
            Shown::Mem => (p.alloc_mem, p.used_mem),
            Shown::Cpu => (p.alloc_cpu, p.used_cpu),
        };
        // Headroom for the legend above the capacity.
        let y_max = cap.max(1e-9) * 1.45;
        let x1 = self.x1;
        let (alloc, used) = tl.points.iter().fold((0.0, 0.0), |(a, u), p| {
            let (pa, pu) = pick(p);
            (a + pa, u + pu)
        });
        let slack = if alloc > 0.0 {
            100.0 * (alloc - used) / alloc
        } else {
            0.0
        };
        let caption = format!(
            "{}: host {}, {} % of the allocation unused",
            self.run,
            tl.host,
            (slack * 10.0).round() / 10.0
        );
        let mut ctx = hours_frame(root, &caption, 0.0..x1, (unit, y_max), px)?;
        let x = |t: f64| t / HOUR;
        ctx.draw_series(AreaSeries::new(
            tl.points.iter().map(|p| (x(p.t), pick(p).0)),
            0.0,
            ALLOC.mix(0.22),
        ))?;
        ctx.draw_series(LineSeries::new(
            tl.points.iter().map(|p| (x(p.t), pick(p).0)),
            ALLOC.stroke_width(px.u(1.2)),
        ))?
        .label("allocated")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], ALLOC.stroke_width(3)));
        ctx.draw_series(LineSeries::new(
            tl.points.iter().map(|p| (x(p.t), pick(p).1)),
            USED.stroke_width(px.u(1.2)),
        ))?
        .label("used")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], USED.stroke_width(3)));
        ctx.draw_series(DashedLineSeries::new(
            [(0.0, cap), (x1, cap)],
            px.u(6.0),
            px.u(4.0),
            CAPACITY.stroke_width(px.u(1.4)),
        ))?
        .label("capacity")
        .legend(move |(x, y)| {
            PathElement::new(vec![(x, y), (x + 16, y)], CAPACITY.stroke_width(3))
        });
        legend(&mut ctx, px)
    }
}

/// Figure 2: the three policies as box plots.
#[derive(Clone, Debug, PartialEq)]
pub struct BoxesPlot {
    /// What the worker sent.
    pub comparison: PolicyComparison,
    /// Identifies the data (`data-key`).
    pub key: String,
}

/// One box at `x` (width 0.5) of `b` mapped by `f`.
fn draw_box(
    ctx: &mut Ctx<'_>,
    x: f64,
    b: &BoxStats,
    f: &dyn Fn(f64) -> f64,
    colour: RGBColor,
    px: Px,
) -> Result<(), DrawError> {
    if b.count == 0 {
        return Ok(());
    }
    let (l, r) = (x - 0.25, x + 0.25);
    let stroke = colour.stroke_width(px.u(1.6));
    ctx.draw_series(std::iter::once(Rectangle::new(
        [(l, f(b.q1)), (r, f(b.q3))],
        colour.mix(0.25).filled(),
    )))?;
    ctx.draw_series(std::iter::once(Rectangle::new(
        [(l, f(b.q1)), (r, f(b.q3))],
        stroke,
    )))?;
    for (from, to) in [(b.whisker_low, b.q1), (b.q3, b.whisker_high)] {
        ctx.draw_series(std::iter::once(PathElement::new(
            vec![(x, f(from)), (x, f(to))],
            stroke,
        )))?;
    }
    for w in [b.whisker_low, b.whisker_high] {
        ctx.draw_series(std::iter::once(PathElement::new(
            vec![(x - 0.12, f(w)), (x + 0.12, f(w))],
            stroke,
        )))?;
    }
    ctx.draw_series(std::iter::once(PathElement::new(
        vec![(l, f(b.median)), (r, f(b.median))],
        INK.stroke_width(px.u(2.0)),
    )))?;
    ctx.draw_series(std::iter::once(TriangleMarker::new(
        (x, f(b.mean)),
        px.u(6.0) as i32,
        FAIL.filled(),
    )))?;
    Ok(())
}

impl Plot for BoxesPlot {
    fn kind(&self) -> &'static str {
        "shaping-boxes"
    }

    fn key(&self) -> String {
        self.key.clone()
    }

    fn draw(&self, root: &Area, px: Px) -> Result<(), DrawError> {
        let boxes = &self.comparison.policies;
        if boxes.is_empty() {
            return Ok(());
        }
        let (left, right) = root.split_horizontally(root.dim_in_pixel().0 / 2);
        let n = boxes.len() as f64;
        let names: Vec<String> = boxes.iter().map(|b| b.policy.name().to_owned()).collect();
        let colours = [REQUEST, FORECAST, ALLOC];
        // Turnaround on a log scale: hours from seconds.
        let log = |s: f64| (s.max(1.0) / HOUR).log10();
        let (lo, hi) = boxes
            .iter()
            .flat_map(|b| [b.turnaround.min, b.turnaround.max])
            .filter(|v| *v > 0.0)
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                (lo.min(log(v)), hi.max(log(v)))
            });
        let (lo, hi) = if lo.is_finite() {
            (lo.floor(), hi.ceil().max(lo.floor() + 1.0))
        } else {
            (-1.0, 1.0)
        };
        let label = |x: &f64| {
            let i = x.round();
            if (x - i).abs() < 0.05 && i >= 0.0 && (i as usize) < names.len() {
                names[i as usize].clone()
            } else {
                String::new()
            }
        };
        let mut ctx = frame(
            &left,
            "Turnaround per application (log scale, ▲ mean)",
            (-0.6..n - 0.4, lo..hi),
            ("", "Hours"),
            boxes.len(),
            &label,
            &|y| {
                let v = 10f64.powf(*y);
                if v >= 1.0 {
                    format!("{v:.0}")
                } else {
                    format!("{v:.2}")
                }
            },
            px,
        )?;
        for (i, b) in boxes.iter().enumerate() {
            draw_box(&mut ctx, i as f64, &b.turnaround, &log, colours[i % 3], px)?;
        }
        let mut ctx = frame(
            &right,
            "Memory slack per application (%)",
            (-0.6..n - 0.4, 0.0..100.0),
            ("", "Slack (%)"),
            boxes.len(),
            &label,
            &|y| format!("{y:.0}"),
            px,
        )?;
        for (i, b) in boxes.iter().enumerate() {
            draw_box(&mut ctx, i as f64, &b.slack_mem, &|v| v, colours[i % 3], px)?;
        }
        Ok(())
    }
}

/// Which metric a heat map shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// Baseline mean turnaround / shaped (higher is better).
    Ratio,
    /// Memory slack, % (lower is better).
    Slack,
    /// Applications failed at least once, % (lower is better).
    Failed,
}

impl Metric {
    /// Every heat map, in display order.
    pub const ALL: [Metric; 3] = [Metric::Ratio, Metric::Slack, Metric::Failed];

    /// The canvas's `data-testid`.
    pub fn testid(self) -> &'static str {
        match self {
            Metric::Ratio => "shaping-heat-ratio",
            Metric::Slack => "shaping-heat-slack",
            Metric::Failed => "shaping-heat-failed",
        }
    }

    fn title(self) -> &'static str {
        match self {
            Metric::Ratio => "Turnaround ratio (baseline / shaped, ×)",
            Metric::Slack => "Memory slack (%)",
            Metric::Failed => "Applications failed (%)",
        }
    }

    fn of(self, c: &skyplan_engine::shaping::GridCell) -> f64 {
        match self {
            Metric::Ratio => c.turnaround_ratio,
            Metric::Slack => c.slack_mem_pct,
            Metric::Failed => c.failed_apps_pct,
        }
    }

    /// The colour of the scale's high end.
    fn colour(self) -> RGBColor {
        match self {
            Metric::Ratio => RGBColor(22, 163, 74),
            Metric::Slack => RGBColor(37, 99, 235),
            Metric::Failed => RGBColor(220, 38, 38),
        }
    }
}

/// One metric of the grid.
#[derive(Clone, Debug, PartialEq)]
pub struct HeatPlot {
    /// The grid (one forecaster).
    pub report: GridReport,
    /// The metric.
    pub metric: Metric,
    /// Identifies the data (`data-key`).
    pub key: String,
}

impl Plot for HeatPlot {
    fn kind(&self) -> &'static str {
        self.metric.testid()
    }

    fn key(&self) -> String {
        self.key.clone()
    }

    fn draw(&self, root: &Area, px: Px) -> Result<(), DrawError> {
        let g = &self.report.grid;
        let (nx, ny) = (g.k1.len(), g.k2.len());
        if nx == 0 || ny == 0 {
            return Ok(());
        }
        let Some(&predictor) = g.predictors.first() else {
            return Ok(());
        };
        let cells: Vec<_> = self
            .report
            .cells
            .iter()
            .filter(|c| c.predictor == predictor)
            .collect();
        let vals: Vec<f64> = cells.iter().map(|c| self.metric.of(c)).collect();
        // The colour scale: the ratio on a log scale (K1 = 0 can be tens of
        // times the rest), the percentages as they are.
        let scale = |v: f64| match self.metric {
            Metric::Ratio => v.max(1e-9).ln(),
            _ => v,
        };
        let (lo, hi) = vals
            .iter()
            .filter(|v| v.is_finite())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
                (lo.min(scale(v)), hi.max(scale(v)))
            });
        let rec = self
            .report
            .recommended
            .iter()
            .find(|r| r.predictor == predictor)
            .map(|r| (r.cell.k1, r.cell.k2));
        let caption = format!("{} — {}", self.metric.title(), predictor.name());
        let (fx, fy) = (nx as f64, ny as f64);
        let mut ctx = frame(
            root,
            &caption,
            (-0.9..fx, -0.7..fy),
            ("K1 (% of the request)", "K2 (× σ)"),
            2,
            &|_| String::new(),
            &|_| String::new(),
            px,
        )?;
        let centred = TextStyle::from((FONT, px.f(11.5)).into_font())
            .color(&INK)
            .pos(Pos::new(HPos::Center, VPos::Center));
        let muted = TextStyle::from((FONT, px.f(11.5)).into_font())
            .color(&MUTED)
            .pos(Pos::new(HPos::Center, VPos::Center));
        let high = self.metric.colour();
        for (idx, c) in cells.iter().enumerate() {
            let (i, j) = (idx % nx, idx / nx);
            let v = vals[idx];
            let t = if hi > lo && v.is_finite() {
                (scale(v) - lo) / (hi - lo)
            } else {
                0.5
            };
            // Darker = more (of a gain, slack or failures).
            let t = 0.08 + 0.77 * t;
            let colour = RGBColor(
                (255.0 - t * (255.0 - f64::from(high.0))) as u8,
                (255.0 - t * (255.0 - f64::from(high.1))) as u8,
                (255.0 - t * (255.0 - f64::from(high.2))) as u8,
            );
            let (x, y) = (i as f64, j as f64);
            ctx.draw_series(std::iter::once(Rectangle::new(
                [(x, y), (x + 1.0, y + 1.0)],
                colour.filled(),
            )))?;
            let text = match self.metric {
                Metric::Ratio => format!("{v:.2}×"),
                _ => format!("{v:.1}"),
            };
            let recommended = rec == Some((c.k1, c.k2));
            if recommended {
                ctx.draw_series(std::iter::once(Rectangle::new(
                    [(x + 0.04, y + 0.06), (x + 0.96, y + 0.94)],
                    INK.stroke_width(px.u(3.0)),
                )))?;
            }
            ctx.draw_series(std::iter::once(Text::new(
                if recommended {
                    format!("★ {text}")
                } else {
                    text
                },
                (x + 0.5, y + 0.5),
                centred.clone(),
            )))?;
        }
        for (i, k1) in g.k1.iter().enumerate() {
            ctx.draw_series(std::iter::once(Text::new(
                format!("{}", (k1 * 1000.0).round() / 10.0),
                (i as f64 + 0.5, -0.35),
                muted.clone(),
            )))?;
        }
        for (j, k2) in g.k2.iter().enumerate() {
            ctx.draw_series(std::iter::once(Text::new(
                format!("{k2}"),
                (-0.45, j as f64 + 0.5),
                muted.clone(),
            )))?;
        }
        Ok(())
    }
}

/// The paper's best forecaster speed-up (GP, Figure 3b: up to 10.6×).
pub const PAPER_SPEEDUP: f64 = 10.6;
/// Where it is drawn: the reference simulator's offered load, since the
/// paper states none.
pub const PAPER_LOAD: f64 = 1.3;

/// "Where it pays" of a shaping sweep's rows: a speed-up line and a
/// failure line per configuration over the offered load, the loaded
/// workload's load `mine` and the paper's point marked; `None` before any
/// row.
pub fn pays_plot(rows: &[CellRow], mine: Option<f64>) -> Option<RegimePlot> {
    let (lines, costs) = lines_of(rows.iter().filter_map(|row| match &row.outcome {
        CellOutcome::Shaping(x) => {
            let label = Config {
                predictor: x.predictor,
                policy: x.policy,
                k1: x.k1,
                k2: x.k2,
            }
            .label();
            Some((
                label,
                (x.load, x.turnaround_speedup),
                Some((x.load, x.failed_apps_pct)),
            ))
        }
        _ => None,
    }));
    if lines.is_empty() {
        return None;
    }
    let mut marks = vec![Mark {
        label: format!("paper {PAPER_SPEEDUP}×"),
        x: PAPER_LOAD,
        y: Some(PAPER_SPEEDUP),
    }];
    marks.extend(yours(mine));
    Some(RegimePlot {
        key: format!("{}:{:?}", rows.len(), mine),
        x_label: "Offered load (requested / capacity)".into(),
        benefit: ("Turnaround speed-up (baseline / shaped)".into(), "×".into()),
        lines,
        neutral: 1.0,
        cost: ("Applications failed at least once".into(), "%".into()),
        costs,
        marks,
    })
}
