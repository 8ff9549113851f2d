//! The Tuning panel's charts, drawn by [`crate::widgets::PlotCanvas`]:
//!
//! - [`CandidatesPlot`]: every evaluated configuration's estimated mean
//!   latency, best first, the best and the shown one marked, the current
//!   configuration as a line;
//! - [`SchedulePlot`]: Algorithm 1's schedule of the group's jobs under one
//!   configuration, one row per job grouped by queue — waiting, then
//!   running with its containers (Figure 7's picture);
//! - [`CurvesPlot`]: each group's best latency against the containers it
//!   gets, with Algorithm 3's split marked;
//! - [`pays_plot`]: "where it pays" — the contention sweep's non-best
//!   increase against the mix load, one line per queue count.

use super::protocol::{GroupView, ScheduleView};
use crate::widgets::chart::{
    frame, legend, tick, Area, DrawError, Plot, Px, FONT, INK, MUTED, PALETTE,
};
use crate::widgets::regime::{lines_of, yours, Mark, RegimePlot};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use skyplan_engine::sweep::{CellOutcome, CellRow};
use skyplan_engine::tuning::EvalParams;

const BEST: RGBColor = RGBColor(22, 163, 74);
const CURRENT: RGBColor = RGBColor(220, 38, 38);
const BAR: RGBColor = RGBColor(148, 163, 184);
const CHOSEN: RGBColor = RGBColor(37, 99, 235);

/// Bars drawn at most (the best ones).
pub const CANDIDATE_BARS: usize = 40;
/// Schedule rows drawn at most.
pub const SCHEDULE_ROWS: usize = 40;

/// A group's candidates to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct CandidatesPlot {
    /// The group.
    pub group: GroupView,
    /// The candidate whose schedule is shown.
    pub chosen: Option<usize>,
    /// Identifies the data (`data-key`).
    pub key: String,
}

impl CandidatesPlot {
    /// Candidate indices by estimated latency, best first, at most
    /// [`CANDIDATE_BARS`].
    pub fn order(group: &GroupView) -> Vec<usize> {
        let mut order: Vec<usize> = (0..group.candidates.len()).collect();
        order.sort_by(|&a, &b| {
            group.candidates[a]
                .latency_secs
                .total_cmp(&group.candidates[b].latency_secs)
                .then(a.cmp(&b))
        });
        order.truncate(CANDIDATE_BARS);
        order
    }
}

impl Plot for CandidatesPlot {
    fn kind(&self) -> &'static str {
        "tuning-candidates"
    }

    fn key(&self) -> String {
        self.key.clone()
    }

    fn draw(&self, root: &Area, px: Px) -> Result<(), DrawError> {
        let g = &self.group;
        let order = Self::order(g);
        if order.is_empty() {
            return Ok(());
        }
        let y_max = order
            .iter()
            .map(|&k| g.candidates[k].latency_secs)
            .chain(std::iter::once(g.advice.estimated_current_secs))
            .filter(|v| v.is_finite())
            .fold(1.0_f64, f64::max)
            * 1.12;
        let n = order.len() as f64;
        let caption = format!(
            "{} configurations evaluated — the {} best by estimated latency",
            g.candidates.len(),
            order.len()
        );
        let mut ctx = frame(
            root,
            &caption,
            (0.0..n, 0.0..y_max),
            ("Configurations, best first", "Mean latency (s)"),
            order.len().min(10),
            &|x| format!("{}", x.floor() as usize + 1),
            &|v| tick(*v, y_max),
            px,
        )?;
        for (i, &k) in order.iter().enumerate() {
            let c = &g.candidates[k];
            let colour = if k == g.best { BEST } else { BAR };
            let x = i as f64;
            ctx.draw_series(std::iter::once(Rectangle::new(
                [(x + 0.12, 0.0), (x + 0.88, c.latency_secs)],
                colour.filled(),
            )))?;
            if Some(k) == self.chosen {
                ctx.draw_series(std::iter::once(Rectangle::new(
                    [(x + 0.06, 0.0), (x + 0.94, c.latency_secs)],
                    CHOSEN.stroke_width(px.u(2.0)),
                )))?;
            }
        }
        ctx.draw_series(LineSeries::new(
            [(0.0, g.advice.estimated_current_secs), (n, g.advice.estimated_current_secs)],
            CURRENT.stroke_width(px.u(1.6)),
        ))?
        .label(format!("current: {:.1} s", g.advice.estimated_current_secs))
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], CURRENT.stroke_width(3)));
        let best = g.candidates[g.best].latency_secs;
        ctx.draw_series(std::iter::once(Rectangle::new(
            [(0.0, 0.0), (0.0, 0.0)],
            BEST.filled(),
        )))?
        .label(format!("best: {best:.1} s"))
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], BEST.filled()));
        legend(&mut ctx, px)
    }
}

/// A schedule to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct SchedulePlot {
    /// What the worker sent.
    pub view: ScheduleView,
}

impl Plot for SchedulePlot {
    fn kind(&self) -> &'static str {
        "tuning-schedule"
    }

    fn key(&self) -> String {
        format!(
            "{}:{}:{}",
            self.view.ticket, self.view.group, self.view.candidate
        )
    }

    fn draw(&self, root: &Area, px: Px) -> Result<(), DrawError> {
        let v = &self.view;
        let rows = &v.bars[..v.bars.len().min(SCHEDULE_ROWS)];
        if rows.is_empty() {
            return Ok(());
        }
        let x_max = rows.iter().map(|b| b.finish).fold(1.0_f64, f64::max) * 1.04;
        let height = rows.len() as f64;
        let caption = format!(
            "{} on {} containers — mean latency {:.1} s{}",
            v.label,
            v.containers,
            v.mean_latency_secs,
            if v.bars.len() > rows.len() {
                format!(" (first {} of {} jobs)", rows.len(), v.bars.len())
            } else {
                String::new()
            }
        );
        let mut ctx = frame(
            root,
            &caption,
            (0.0..x_max, 0.0..height),
            ("Seconds from the window's start", ""),
            8,
            &|x| tick(*x, x_max),
            &|_| String::new(),
            px,
        )?;
        let label = TextStyle::from((FONT, px.f(10.5)).into_font())
            .color(&INK)
            .pos(Pos::new(HPos::Left, VPos::Center));
        for (i, b) in rows.iter().enumerate() {
            let top = height - i as f64;
            let (hi, lo) = (top - 0.15, top - 0.85);
            let colour = PALETTE[b.queue % PALETTE.len()];
            if b.start > b.submit {
                ctx.draw_series(std::iter::once(Rectangle::new(
                    [(b.submit, hi), (b.start, lo)],
                    colour.mix(0.18).filled(),
                )))?;
            }
            ctx.draw_series(std::iter::once(Rectangle::new(
                [(b.start, hi), (b.finish, lo)],
                colour.filled(),
            )))?;
            ctx.draw_series(std::iter::once(Text::new(
                format!("{} ×{}", b.job, b.containers),
                (b.finish + x_max * 0.005, top - 0.5),
                label.clone(),
            )))?;
        }
        for (q, name) in v.queues.iter().enumerate() {
            let colour = PALETTE[q % PALETTE.len()];
            ctx.draw_series(std::iter::once(Rectangle::new(
                [(0.0, 0.0), (0.0, 0.0)],
                colour.filled(),
            )))?
            .label(format!("queue {name}"))
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled()));
        }
        ctx.draw_series(std::iter::once(Rectangle::new(
            [(0.0, 0.0), (0.0, 0.0)],
            MUTED.mix(0.25).filled(),
        )))?
        .label("waiting")
        .legend(move |(x, y)| {
            Rectangle::new([(x, y - 5), (x + 12, y + 5)], MUTED.mix(0.25).filled())
        });
        legend(&mut ctx, px)
    }
}

/// The groups' latency curves and the split.
#[derive(Clone, Debug, PartialEq)]
pub struct CurvesPlot {
    /// The groups.
    pub groups: Vec<GroupView>,
    /// Identifies the data (`data-key`).
    pub key: String,
}

impl Plot for CurvesPlot {
    fn kind(&self) -> &'static str {
        "tuning-curves"
    }

    fn key(&self) -> String {
        self.key.clone()
    }

    fn draw(&self, root: &Area, px: Px) -> Result<(), DrawError> {
        let x_max = self
            .groups
            .iter()
            .map(|g| f64::from(g.curve_lower) + g.curve.len() as f64)
            .fold(2.0_f64, f64::max);
        let y_max = self
            .groups
            .iter()
            .flat_map(|g| g.curve.iter().copied())
            .filter(|v| v.is_finite())
            .fold(1.0_f64, f64::max)
            * 1.1;
        let mut ctx = frame(
            root,
            "Best estimated latency against the containers a group gets — the split marked",
            (0.0..x_max, 0.0..y_max),
            ("Containers", "Mean latency (s)"),
            10,
            &|x| tick(*x, x_max),
            &|v| tick(*v, y_max),
            px,
        )?;
        for (k, g) in self.groups.iter().enumerate() {
            let colour = PALETTE[k % PALETTE.len()];
            let points: Vec<(f64, f64)> = g
                .curve
                .iter()
                .enumerate()
                .map(|(i, &l)| (f64::from(g.curve_lower) + i as f64, l))
                .collect();
            ctx.draw_series(LineSeries::new(
                points.clone(),
                colour.stroke_width(px.u(1.6)),
            ))?
            .label(g.name.clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 16, y)], colour.stroke_width(3))
            });
            let at = g.containers.saturating_sub(g.curve_lower) as usize;
            if let Some(&(x, y)) = points.get(at) {
                ctx.draw_series(std::iter::once(Circle::new(
                    (x, y),
                    px.u(5.0),
                    colour.filled(),
                )))?;
            }
        }
        legend(&mut ctx, px)
    }
}

/// The paper's mean latency increase of the configurations other than the
/// best (§4.3: 52.92 %), percent.
pub const PAPER_NONBEST_PCT: f64 = 52.9;

/// "Where it pays" of a contention sweep's rows: the non-best increase
/// (how much choosing the configuration matters) and the regret (what
/// following Algorithm 1's pick costs), one line per queue count over the
/// mix load; the loaded window's load `mine` and the paper's point marked
/// (at the evaluation's default load, §4.4's, since the paper states none
/// for §4.3); `None` before any row with figures.
pub fn pays_plot(rows: &[CellRow], mine: Option<f64>) -> Option<RegimePlot> {
    let (lines, costs) = lines_of(rows.iter().filter_map(|row| match &row.outcome {
        CellOutcome::Tuning(x) => Some((
            format!("{} queues", x.queues),
            (x.load, x.nonbest_increase? * 100.0),
            Some((x.load, x.regret? * 100.0)),
        )),
        _ => None,
    }));
    if lines.is_empty() {
        return None;
    }
    let mut marks = vec![Mark {
        label: format!("paper {PAPER_NONBEST_PCT} %"),
        x: EvalParams::default().mix_load,
        y: Some(PAPER_NONBEST_PCT),
    }];
    marks.extend(yours(mine));
    Some(RegimePlot {
        key: format!("{}:{:?}", rows.len(), mine),
        x_label: "Mix load (task work / span / containers)".into(),
        benefit: (
            "Non-best configurations' latency over the best".into(),
            "%".into(),
        ),
        lines,
        neutral: 0.0,
        cost: ("Regret of Algorithm 1's pick".into(), "%".into()),
        costs,
        marks,
    })
}
