//! The Pricing panel's charts, drawn by [`super::PlotCanvas`]:
//!
//! - [`CurvePlot`]: a new job's price–deadline curve over deadlines from
//!   now, the earliest feasible finish marked, the chosen deadline and its
//!   price pointed out;
//! - [`GanttPlot`]: the queue's lazy schedule — per job (by deadline) its
//!   map and reduce phases where the lazy schedule puts them, the slack
//!   between its end and its deadline, the deadline marked — above two bands
//!   of the free map and reduce capacity over time (the slack a new job can
//!   fill);
//! - [`SweepPlot`]: the §6.3 simulation — one metric for MRM, FCFS and
//!   priority across the simulated loads.
//!
//! Deadlines are seconds from now; axes switch to minutes past 15 minutes.

use crate::parts::pricing::protocol::{QueueRow, QueueView, SimView};
use crate::widgets::chart::{
    frame, tick, Area, DrawError, Plot, Px, ACCENT, FONT, GRID, INK, MUTED,
};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use skyplan_engine::pricing::{Policy, PolicyReport, PricePoint, Quote, SimReport};

const MAP: RGBColor = RGBColor(37, 99, 235);
const REDUCE: RGBColor = RGBColor(234, 88, 12);
const DEADLINE: RGBColor = RGBColor(220, 38, 38);
const FREE: RGBColor = RGBColor(22, 163, 74);

/// Gantt rows drawn at most (the earliest deadlines).
pub const GANTT_ROWS: usize = 24;

/// A time axis's label for `secs` on an axis reaching `max` seconds.
pub fn time_label(secs: f64, max: f64) -> String {
    if max > 900.0 {
        tick(secs / 60.0, max / 60.0)
    } else {
        tick(secs, max)
    }
}

/// The time axis's description for an axis reaching `max` seconds.
fn time_desc(max: f64) -> &'static str {
    if max > 900.0 {
        "Deadline (minutes from now)"
    } else {
        "Deadline (seconds from now)"
    }
}

/// A price–deadline curve to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct CurvePlot {
    /// The quote.
    pub quote: Quote,
    /// The chosen deadline priced, if any.
    pub chosen: Option<PricePoint>,
    /// Identifies the data (`data-key`).
    pub key: String,
}

impl CurvePlot {
    /// The x range drawn: from now to the curve's last deadline (or the
    /// chosen one, if later).
    pub fn x_max(&self) -> f64 {
        let last = self.quote.curve.last().map_or(1.0, |p| p.deadline);
        let chosen = self.chosen.map_or(0.0, |c| c.deadline);
        last.max(chosen).max(1.0) * 1.02
    }
}

impl Plot for CurvePlot {
    fn kind(&self) -> &'static str {
        "price-curve"
    }

    fn key(&self) -> String {
        self.key.clone()
    }

    fn draw(&self, root: &Area, px: Px) -> Result<(), DrawError> {
        let q = &self.quote;
        let x_max = self.x_max();
        let top = q
            .curve
            .iter()
            .map(|p| p.price)
            .chain(self.chosen.map(|c| c.price))
            .fold(0.0, f64::max);
        let y_max = if top > 0.0 { top * 1.12 } else { 1.0 };
        let caption = format!(
            "Price–deadline curve — earliest feasible finish {}",
            duration_text(q.earliest_finish)
        );
        let mut ctx = frame(
            root,
            &caption,
            (0.0..x_max, 0.0..y_max),
            (time_desc(x_max), "Price (tokens)"),
            8,
            &|x| time_label(*x, x_max),
            &|y| tick(*y, y_max),
            px,
        )?;
        let points: Vec<(f64, f64)> = q.curve.iter().map(|p| (p.deadline, p.price)).collect();
        ctx.draw_series(AreaSeries::new(points.clone(), 0.0, ACCENT.mix(0.1)))?;
        ctx.draw_series(LineSeries::new(points, ACCENT.stroke_width(px.u(2.0))))?;
        // The earliest finish: no deadline before it is feasible.
        let f = q.earliest_finish;
        ctx.draw_series(std::iter::once(Rectangle::new(
            [(0.0, 0.0), (f, y_max)],
            GRID.mix(0.6).filled(),
        )))?;
        ctx.draw_series(std::iter::once(PathElement::new(
            vec![(f, 0.0), (f, y_max)],
            DEADLINE.stroke_width(px.u(1.5)),
        )))?;
        let style = TextStyle::from((FONT, px.f(12.0)).into_font())
            .color(&DEADLINE)
            .pos(Pos::new(HPos::Left, VPos::Top));
        ctx.draw_series(std::iter::once(Text::new(
            format!(" earliest finish {}", duration_text(f)),
            (f, y_max * 0.98),
            style,
        )))?;
        if let Some(c) = self.chosen {
            ctx.draw_series(std::iter::once(PathElement::new(
                vec![(c.deadline, 0.0), (c.deadline, c.price)],
                INK.mix(0.6).stroke_width(px.u(1.0)),
            )))?;
            ctx.draw_series(std::iter::once(Circle::new(
                (c.deadline, c.price),
                px.u(5.0),
                INK.filled(),
            )))?;
            let style = TextStyle::from((FONT, px.f(12.0)).into_font())
                .color(&INK)
                .pos(Pos::new(HPos::Left, VPos::Bottom));
            ctx.draw_series(std::iter::once(Text::new(
                format!(" {} tokens", price_text(c.price)),
                (c.deadline, c.price),
                style,
            )))?;
        }
        Ok(())
    }
}

/// A duration in seconds as `95 s` or `12.5 min`.
pub fn duration_text(secs: f64) -> String {
    if secs >= 900.0 {
        format!("{} min", tick(secs / 60.0, secs / 60.0))
    } else {
        format!("{secs:.0} s")
    }
}

/// A price with four significant figures or so.
pub fn price_text(price: f64) -> String {
    match price.abs() {
        p if p >= 100.0 => format!("{price:.1}"),
        p if p >= 1.0 => format!("{price:.3}"),
        _ => format!("{price:.4}"),
    }
}

/// The queue's lazy schedule to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct GanttPlot {
    /// The queue.
    pub view: QueueView,
}

impl GanttPlot {
    /// The rows drawn: the earliest deadlines first, at most
    /// [`GANTT_ROWS`].
    pub fn rows(&self) -> Vec<&QueueRow> {
        let mut rows: Vec<&QueueRow> = self.view.rows.iter().collect();
        rows.sort_by(|a, b| a.deadline.total_cmp(&b.deadline));
        rows.truncate(GANTT_ROWS);
        rows
    }
}

impl Plot for GanttPlot {
    fn kind(&self) -> &'static str {
        "gantt"
    }

    fn key(&self) -> String {
        format!("queue-{}", self.view.revision)
    }

    fn draw(&self, root: &Area, px: Px) -> Result<(), DrawError> {
        let v = &self.view;
        let rows = self.rows();
        let n = rows.len();
        // All rows: the whole horizon; the earliest deadlines only: up to
        // the last of them.
        let x_max = match rows.last() {
            Some(last) if v.rows.len() > n => last.deadline.max(1.0) * 1.05,
            _ => v.horizon.max(1.0) * 1.03,
        };
        // Rows from the top: jobs, then the two free-capacity bands.
        let height = (n + 2) as f64;
        let caption = if v.rows.len() > n {
            format!(
                "Lazy schedule — the {n} earliest deadlines of {} jobs",
                v.rows.len()
            )
        } else {
            format!("Lazy schedule of the queue — {n} job(s)")
        };
        let mut ctx = frame(
            root,
            &caption,
            (0.0..x_max, 0.0..height),
            (time_desc(x_max), ""),
            8,
            &|x| time_label(*x, x_max),
            &|_| String::new(),
            px,
        )?;
        let name_style = TextStyle::from((FONT, px.f(11.0)).into_font())
            .color(&INK)
            .pos(Pos::new(HPos::Left, VPos::Top));
        let y_of = |i: usize| height - i as f64; // top of row i
        for (i, r) in rows.iter().enumerate() {
            let top = y_of(i);
            let (bar_top, bar_bottom) = (top - 0.45, top - 0.9);
            let end = r
                .reduce
                .map(|p| p.1)
                .or(r.map.map(|p| p.1))
                .unwrap_or(r.deadline);
            // Slack: from the lazy end to the deadline.
            if r.deadline > end {
                ctx.draw_series(std::iter::once(Rectangle::new(
                    [(end, bar_top), (r.deadline, bar_bottom)],
                    MUTED.mix(0.15).filled(),
                )))?;
            }
            for (phase, colour) in [(r.map, MAP), (r.reduce, REDUCE)] {
                if let Some((a, b)) = phase {
                    ctx.draw_series(std::iter::once(Rectangle::new(
                        [(a, bar_top), (b, bar_bottom)],
                        colour.mix(0.85).filled(),
                    )))?;
                }
            }
            ctx.draw_series(std::iter::once(PathElement::new(
                vec![(r.deadline, top - 0.35), (r.deadline, top - 1.0)],
                DEADLINE.stroke_width(px.u(2.0)),
            )))?;
            ctx.draw_series(std::iter::once(Text::new(
                format!(" {}", r.name),
                (0.0, top - 0.02),
                name_style.clone(),
            )))?;
        }
        for (k, (free, label)) in [
            (&v.free_map, "free map slots"),
            (&v.free_reduce, "free reduce slots"),
        ]
        .into_iter()
        .enumerate()
        {
            let top = y_of(n + k);
            let bottom = top - 0.9;
            ctx.draw_series(
                free.iter()
                    .enumerate()
                    .map(|(b, &f)| (b as f64 * v.band_secs, f))
                    .filter(|&(a, f)| f > 0.0 && a < x_max)
                    .map(|(a, f)| {
                        Rectangle::new(
                            [(a, top - 0.35), ((a + v.band_secs).min(x_max), bottom)],
                            FREE.mix(0.1 + 0.6 * f).filled(),
                        )
                    }),
            )?;
            // Past the horizon everything is free.
            if v.horizon < x_max {
                ctx.draw_series(std::iter::once(Rectangle::new(
                    [(v.horizon, top - 0.35), (x_max, bottom)],
                    FREE.mix(0.7).filled(),
                )))?;
            }
            ctx.draw_series(std::iter::once(Text::new(
                format!(" {label}"),
                (0.0, top - 0.02),
                name_style.clone(),
            )))?;
        }
        Ok(())
    }
}

/// What a simulation chart shows, per policy across loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SimMetric {
    /// Delay-sensitive jobs' waiting time: mean, with the 5th–95th
    /// percentile range.
    DsWaiting,
    /// Tardy jobs, percent of all jobs.
    Tardy,
    /// Earliness of the jobs on time: mean, with the 5th–95th percentile
    /// range.
    Earliness,
}

impl SimMetric {
    /// The three charts, in the order shown.
    pub const ALL: [SimMetric; 3] = [SimMetric::DsWaiting, SimMetric::Tardy, SimMetric::Earliness];

    /// Chart caption.
    pub fn caption(self) -> &'static str {
        match self {
            SimMetric::DsWaiting => "Delay-sensitive waiting (s): mean, p5–p95",
            SimMetric::Tardy => "Tardy jobs (%)",
            SimMetric::Earliness => "Earliness (s): mean, p5–p95",
        }
    }

    /// `data-testid` of its canvas.
    pub fn testid(self) -> &'static str {
        match self {
            SimMetric::DsWaiting => "sim-waiting",
            SimMetric::Tardy => "sim-tardy",
            SimMetric::Earliness => "sim-earliness",
        }
    }

    /// `(low, value, high)` of one policy's report; `None` when empty.
    pub fn value(self, r: &PolicyReport) -> Option<(f64, f64, f64)> {
        match self {
            SimMetric::DsWaiting => r.waiting.ds.map(|s| (s.p5, s.mean, s.p95)),
            SimMetric::Tardy => r.tardy_percent.all.map(|v| (v, v, v)),
            SimMetric::Earliness => r.earliness.all.map(|s| (s.p5, s.mean, s.p95)),
        }
    }
}

/// Colours of MRM, FCFS and priority.
const POLICY_COLOURS: [RGBColor; 3] = [MAP, REDUCE, FREE];

/// One simulation chart: a metric per policy across the swept loads.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepPlot {
    /// What is shown.
    pub metric: SimMetric,
    /// The sweep.
    pub view: SimView,
}

impl SweepPlot {
    /// `(load ρ, report)` by load.
    fn points(&self) -> Vec<(f64, &SimReport)> {
        let mut out: Vec<(f64, &SimReport)> = self
            .view
            .runs
            .iter()
            .filter_map(|(_, r)| r.load.map(|l| (l, r)))
            .collect();
        out.sort_by(|a, b| a.0.total_cmp(&b.0));
        out
    }
}

impl Plot for SweepPlot {
    fn kind(&self) -> &'static str {
        self.metric.testid()
    }

    fn key(&self) -> String {
        format!("sim-{}", self.view.ticket)
    }

    fn draw(&self, root: &Area, px: Px) -> Result<(), DrawError> {
        let points = self.points();
        let (lo, hi) = match (points.first(), points.last()) {
            (Some(a), Some(b)) if b.0 > a.0 => (a.0, b.0),
            (Some(a), _) => (a.0 - 0.05, a.0 + 0.05),
            _ => (0.0, 1.0),
        };
        let pad = (hi - lo) * 0.06;
        let (x0, x1) = (lo - pad, hi + pad);
        let top = points
            .iter()
            .flat_map(|(_, r)| r.policies.iter().filter_map(|p| self.metric.value(p)))
            .map(|v| v.2)
            .fold(0.0, f64::max);
        let y_max = if top > 0.0 { top * 1.1 } else { 1.0 };
        let mut ctx = frame(
            root,
            self.metric.caption(),
            (x0..x1, 0.0..y_max),
            ("Load ρ", ""),
            6,
            &|x| format!("{x:.2}"),
            &|y| tick(*y, y_max),
            px,
        )?;
        let n = Policy::ALL.len() as f64;
        let offset = (x1 - x0) * 0.008;
        for (k, (policy, colour)) in Policy::ALL.into_iter().zip(POLICY_COLOURS).enumerate() {
            // Policies side by side around each load.
            let dx = (k as f64 - (n - 1.0) / 2.0) * offset;
            let values: Vec<(f64, (f64, f64, f64))> = points
                .iter()
                .filter_map(|(load, r)| {
                    let p = r.policies.iter().find(|p| p.policy == policy)?;
                    Some((load + dx, self.metric.value(p)?))
                })
                .collect();
            for &(x, (low, _, high)) in &values {
                if high > low {
                    ctx.draw_series(std::iter::once(PathElement::new(
                        vec![(x, low), (x, high)],
                        colour.mix(0.55).stroke_width(px.u(3.0)),
                    )))?;
                }
            }
            let swatch = px.f(16.0) as i32;
            let stroke = px.u(2.5);
            ctx.draw_series(LineSeries::new(
                values.iter().map(|&(x, v)| (x, v.1)),
                colour.stroke_width(px.u(2.0)),
            ))?
            .label(policy.name())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + swatch, y)], colour.stroke_width(stroke))
            });
            ctx.draw_series(
                values
                    .iter()
                    .map(|&(x, v)| Circle::new((x, v.1), px.u(3.5), colour.filled())),
            )?;
        }
        crate::widgets::chart::legend(&mut ctx, px)
    }
}
