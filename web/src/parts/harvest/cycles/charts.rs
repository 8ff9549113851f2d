//! The Harvest panel's charts, drawn by [`crate::widgets::PlotCanvas`]:
//!
//! - [`SeriesPlot`]: the tenant's average server over time;
//! - [`SpectrumPlot`]: its spectrum (each frequency's share of the energy
//!   beyond the mean) with the detected peak marked;
//! - [`ClassDaysPlot`]: each class's average day, one small chart each;
//! - [`CapacityPlot`]: the harvestable containers per class and hour of day
//!   as a heat map;
//! - [`SimPlot`]: the §6 simulation — average job execution time of YARN-PT
//!   and YARN-H (min–max over runs) and the kills, against the primary
//!   tenants' average utilization;
//! - [`pays_plot`]: "where it pays" — YARN-H's improvement over YARN-PT
//!   against the primary level, one line per datacenter size, with the kill
//!   ratio beside it (the shared [`RegimePlot`]).

use super::protocol::{ClassView, SimView};
use crate::widgets::chart::{
    frame, legend, tick, Area, DrawError, Plot, Px, FONT, INK, MUTED, PALETTE,
};
use crate::widgets::format::{count, minute};
use crate::widgets::regime::{lines_of, Mark, RegimePlot};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use skyplan_engine::harvest::{CapacityMatrix, Pattern, RegimeRow, Scaling, TenantSpectrum};
use skyplan_engine::sweep::{CellOutcome, CellRow};

const PEAK: RGBColor = RGBColor(220, 38, 38);
const PT: RGBColor = RGBColor(234, 88, 12);
const H: RGBColor = RGBColor(37, 99, 235);

/// The colour of a pattern.
pub fn pattern_colour(p: Pattern) -> RGBColor {
    match p {
        Pattern::Periodic => PALETTE[0],
        Pattern::Constant => PALETTE[2],
        Pattern::Unpredictable => PALETTE[1],
    }
}

/// A tenant's series.
#[derive(Clone, Debug, PartialEq)]
pub struct SeriesPlot {
    /// Series and verdict.
    pub spectrum: TenantSpectrum,
    /// Identifies the data.
    pub key: String,
}

impl Plot for SeriesPlot {
    fn kind(&self) -> &'static str {
        "harvest-series"
    }

    fn key(&self) -> String {
        self.key.clone()
    }

    fn draw(&self, root: &Area, px: Px) -> Result<(), DrawError> {
        let s = &self.spectrum;
        let n = s.utilization.len();
        if n == 0 {
            return Ok(());
        }
        let t0 = s.start as f64;
        let t1 = t0 + (n as f64) * s.step_secs as f64;
        let y_max = s
            .utilization
            .iter()
            .copied()
            .filter(|v| v.is_finite())
            .fold(1.0_f64, f64::max)
            * 1.08;
        let caption = format!(
            "{} — {} ({} slots of {} s)",
            s.name,
            s.verdict.pattern.name(),
            n,
            s.step_secs
        );
        let mut ctx = frame(
            root,
            &caption,
            (t0..t1, 0.0..y_max),
            ("Time (UTC)", "CPU utilization (%)"),
            7,
            &|t| minute(*t as i64).get(5..10).unwrap_or_default().to_owned(),
            &|v| tick(*v, y_max),
            px,
        )?;
        // At most ~2,000 points drawn: each the mean of its bucket.
        let stride = n.div_ceil(2_000).max(1);
        let points = s.utilization.chunks(stride).enumerate().map(|(i, c)| {
            let mean = c.iter().sum::<f64>() / c.len() as f64;
            (t0 + (i * stride) as f64 * s.step_secs as f64, mean)
        });
        let colour = pattern_colour(s.verdict.pattern);
        ctx.draw_series(LineSeries::new(points, colour.stroke_width(px.u(1.2))))?;
        Ok(())
    }
}

/// A tenant's spectrum.
#[derive(Clone, Debug, PartialEq)]
pub struct SpectrumPlot {
    /// Series and verdict.
    pub spectrum: TenantSpectrum,
    /// Identifies the data.
    pub key: String,
}

impl Plot for SpectrumPlot {
    fn kind(&self) -> &'static str {
        "harvest-spectrum"
    }

    fn key(&self) -> String {
        self.key.clone()
    }

    fn draw(&self, root: &Area, px: Px) -> Result<(), DrawError> {
        let s = &self.spectrum;
        let peak = s.verdict.evidence.peak.as_ref();
        // The low frequencies hold what matters: up to four times the peak
        // (at least 64 cycles), all of them when the series is short.
        let shown = peak
            .map_or(64, |p| (p.cycles * 4).max(64))
            .min(s.power_share.len());
        if shown == 0 {
            return Ok(());
        }
        let y_max = s.power_share[..shown]
            .iter()
            .copied()
            .fold(0.01_f64, f64::max)
            * 1.15;
        let ev = &s.verdict.evidence;
        let caption = format!(
            "Spectrum — {}: peak share {:.0} %, CV {:.2}",
            s.verdict.pattern.name(),
            ev.peak_share * 100.0,
            ev.cv
        );
        let mut ctx = frame(
            root,
            &caption,
            (0.0..(shown as f64 + 1.0), 0.0..y_max),
            ("Cycles in the window", "Share of the energy"),
            10,
            &|x| format!("{:.0}", x),
            &|v| format!("{:.0} %", v * 100.0),
            px,
        )?;
        ctx.draw_series(s.power_share[..shown].iter().enumerate().map(|(i, &p)| {
            let k = (i + 1) as f64;
            Rectangle::new([(k - 0.4, 0.0), (k + 0.4, p)], MUTED.mix(0.7).filled())
        }))?;
        if let Some(p) = peak {
            let k = p.cycles as f64;
            let share = s
                .power_share
                .get(p.cycles.saturating_sub(1))
                .copied()
                .unwrap_or(0.0);
            ctx.draw_series(std::iter::once(Rectangle::new(
                [(k - 0.45, 0.0), (k + 0.45, share)],
                PEAK.filled(),
            )))?
            .label(format!(
                "peak: {} cycles (every {:.1} h), {:.0} %",
                p.cycles,
                p.period_secs / 3600.0,
                p.share * 100.0
            ))
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], PEAK.filled()));
            legend(&mut ctx, px)?;
        }
        Ok(())
    }
}

/// Every class's average day.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassDaysPlot {
    /// The classes.
    pub classes: Vec<ClassView>,
    /// Identifies the data.
    pub key: String,
}

impl Plot for ClassDaysPlot {
    fn kind(&self) -> &'static str {
        "harvest-class-days"
    }

    fn key(&self) -> String {
        self.key.clone()
    }

    fn draw(&self, root: &Area, px: Px) -> Result<(), DrawError> {
        let n = self.classes.len();
        if n == 0 {
            return Ok(());
        }
        let cols = n.clamp(1, 4);
        let rows = n.div_ceil(cols);
        let cells = root.split_evenly((rows, cols));
        for (c, cell) in self.classes.iter().zip(cells.iter()) {
            let y_max = c
                .average_day
                .iter()
                .copied()
                .fold(c.peak.max(1.0), f64::max)
                * 1.1;
            let len = c.average_day.len().max(1) as f64;
            let mut chart = ChartBuilder::on(cell)
                .margin(px.u(6.0))
                .caption(
                    format!("{} · {} srv · peak {:.0} %", c.id, c.servers, c.peak),
                    (FONT, px.f(10.5)).into_font().color(&INK),
                )
                .x_label_area_size(px.u(18.0))
                .y_label_area_size(px.u(28.0))
                .build_cartesian_2d(0.0..24.0, 0.0..y_max)?;
            chart
                .configure_mesh()
                .label_style((FONT, px.f(10.0)).into_font().color(&MUTED))
                .x_labels(5)
                .y_labels(4)
                .x_label_formatter(&|h| format!("{h:.0}h"))
                .y_label_formatter(&|v| format!("{v:.0}"))
                .light_line_style(TRANSPARENT)
                .draw()?;
            let colour = pattern_colour(c.pattern);
            let points = c
                .average_day
                .iter()
                .enumerate()
                .map(|(i, &v)| (i as f64 * 24.0 / len, v));
            chart.draw_series(LineSeries::new(points, colour.stroke_width(px.u(1.6))))?;
        }
        Ok(())
    }
}

/// Hours' width left of hour 0 for the class names.
const NAMES: f64 = 5.0;

/// The harvestable-capacity heat map.
#[derive(Clone, Debug, PartialEq)]
pub struct CapacityPlot {
    /// The matrix.
    pub capacity: CapacityMatrix,
    /// Show the low percentile (else the mean).
    pub low: bool,
    /// Identifies the data.
    pub key: String,
}

impl Plot for CapacityPlot {
    fn kind(&self) -> &'static str {
        "harvest-capacity"
    }

    fn key(&self) -> String {
        format!("{}:{}", self.key, self.low)
    }

    fn draw(&self, root: &Area, px: Px) -> Result<(), DrawError> {
        let rows = &self.capacity.classes;
        if rows.is_empty() {
            return Ok(());
        }
        let value = |r: &skyplan_engine::harvest::ClassCapacity, h: usize| {
            let v = if self.low { &r.low } else { &r.mean };
            v.get(h).copied().unwrap_or(0.0)
        };
        let max = rows
            .iter()
            .flat_map(|r| (0..24).map(move |h| (r, h)))
            .map(|(r, h)| value(r, h))
            .fold(1.0_f64, f64::max);
        let n = rows.len() as f64;
        let caption = if self.low {
            format!(
                "Harvestable containers, p{:.0} of the history (class × hour of day)",
                self.capacity.percentile
            )
        } else {
            "Harvestable containers, mean of the history (class × hour of day)".to_owned()
        };
        // The class names sit left of hour 0, in the plot's own coordinates.
        let mut ctx = frame(
            root,
            &caption,
            (-NAMES..24.0, 0.0..n),
            ("Hour of day (UTC)", ""),
            14,
            &|h| {
                if *h < 0.0 {
                    String::new()
                } else {
                    format!("{h:.0}")
                }
            },
            &|_| String::new(),
            px,
        )?;
        let label = TextStyle::from((FONT, px.f(10.0)).into_font())
            .color(&INK)
            .pos(Pos::new(HPos::Center, VPos::Center));
        let name = TextStyle::from((FONT, px.f(10.5)).into_font())
            .color(&INK)
            .pos(Pos::new(HPos::Left, VPos::Center));
        for (i, r) in rows.iter().enumerate() {
            let y = n - i as f64;
            for h in 0..24 {
                let v = value(r, h);
                let t = (v / max).clamp(0.0, 1.0);
                // White (none) to green (the most of the map).
                let c = RGBColor(
                    (255.0 - t * (255.0 - 22.0)) as u8,
                    (255.0 - t * (255.0 - 163.0)) as u8,
                    (255.0 - t * (255.0 - 74.0)) as u8,
                );
                ctx.draw_series(std::iter::once(Rectangle::new(
                    [(h as f64, y - 1.0), (h as f64 + 1.0, y)],
                    c.filled(),
                )))?;
                if rows.len() <= 16 {
                    ctx.draw_series(std::iter::once(Text::new(
                        format!("{v:.0}"),
                        (h as f64 + 0.5, y - 0.5),
                        label.clone(),
                    )))?;
                }
            }
            ctx.draw_series(std::iter::once(Text::new(
                format!("{} ({} srv)", r.class, r.servers),
                (-NAMES + 0.1, y - 0.5),
                name.clone(),
            )))?;
        }
        Ok(())
    }
}

/// The simulation's results.
#[derive(Clone, Debug, PartialEq)]
pub struct SimPlot {
    /// What the worker sent.
    pub view: SimView,
}

impl Plot for SimPlot {
    fn kind(&self) -> &'static str {
        "harvest-sim"
    }

    fn key(&self) -> String {
        self.view.ticket.to_string()
    }

    fn draw(&self, root: &Area, px: Px) -> Result<(), DrawError> {
        let levels = &self.view.report.levels;
        if levels.is_empty() {
            return Ok(());
        }
        let (left, right) = root.split_horizontally(root.dim_in_pixel().0 as i32 * 3 / 5);
        let x_max = levels.iter().map(|l| l.level).fold(10.0_f64, f64::max) + 5.0;
        let y_max = levels
            .iter()
            .flat_map(|l| [l.pt.avg_job_secs.max, l.h.avg_job_secs.max])
            .fold(1.0_f64, f64::max)
            // Headroom for the legend, top right: the panel's own run is one
            // level at the tenants' utilization, often at the right.
            * 1.4;
        let mut ctx = frame(
            &left,
            "Average job execution time (min–max over runs)",
            (0.0..x_max, 0.0..y_max),
            ("Primary tenants' average utilization (%)", "Seconds"),
            8,
            &|x| format!("{x:.0}"),
            &|v| tick(*v, y_max),
            px,
        )?;
        for (system, colour, pick) in [("YARN-PT", PT, 0usize), ("YARN-H", H, 1usize)] {
            let of = |l: &skyplan_engine::harvest::LevelResult| {
                if pick == 0 {
                    l.pt.avg_job_secs
                } else {
                    l.h.avg_job_secs
                }
            };
            ctx.draw_series(LineSeries::new(
                levels.iter().map(|l| (l.level, of(l).avg)),
                colour.stroke_width(px.u(2.0)),
            ))?
            .label(system)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 16, y)], colour.stroke_width(3))
            });
            ctx.draw_series(levels.iter().map(|l| {
                let m = of(l);
                PathElement::new(
                    vec![(l.level, m.min), (l.level, m.max)],
                    colour.stroke_width(px.u(1.0)),
                )
            }))?;
            ctx.draw_series(
                levels
                    .iter()
                    .map(|l| Circle::new((l.level, of(l).avg), px.u(3.0), colour.filled())),
            )?;
        }
        legend(&mut ctx, px)?;
        let k_max = levels
            .iter()
            .flat_map(|l| [l.pt.kills.max, l.h.kills.max])
            .fold(1.0_f64, f64::max)
            * 1.15;
        let mut kills = frame(
            &right,
            "Containers killed (mean over runs)",
            (0.0..x_max, 0.0..k_max),
            ("Average utilization (%)", "Kills"),
            6,
            &|x| format!("{x:.0}"),
            &|v| tick(*v, k_max),
            px,
        )?;
        let w = x_max / 60.0;
        kills.draw_series(levels.iter().flat_map(|l| {
            [
                Rectangle::new(
                    [
                        (l.level - w * 1.1, 0.0),
                        (l.level - w * 0.1, l.pt.kills.avg),
                    ],
                    PT.filled(),
                ),
                Rectangle::new(
                    [(l.level + w * 0.1, 0.0), (l.level + w * 1.1, l.h.kills.avg)],
                    H.filled(),
                ),
            ]
        }))?;
        Ok(())
    }
}

/// The paper's point for linear scaling: the lowest of Figure 14's
/// per-datacenter average improvements (12–56 %), percent. The lowest,
/// because the sweep runs one generated datacenter and the paper's range
/// is over ten; its 56 % is the best of them.
pub const PAPER_LINEAR_AVG: f64 = 12.0;
/// The same for root scaling (Figure 14: 5–45 %).
pub const PAPER_ROOT_AVG: f64 = 5.0;
/// Where the paper's point is drawn: the middle of Figure 14's levels
/// (10–50 %), since its figure is an average over them.
pub const PAPER_LEVEL: f64 = 30.0;

/// "Where it pays" of a harvest sweep's rows: YARN-H's improvement over
/// YARN-PT against the primary level, one line per size and scaling, and
/// beside it YARN-H's kills over YARN-PT's (a cell where YARN-PT lost
/// none has no ratio and is left out of that chart); the loaded tenants'
/// level `mine` (with their servers, for the label) and the paper's point
/// marked; `None` before any row.
pub fn pays_plot(rows: &[CellRow], mine: Option<(f64, usize)>) -> Option<RegimePlot> {
    let cells: Vec<&RegimeRow> = rows
        .iter()
        .filter_map(|row| match &row.outcome {
            CellOutcome::Harvest(x) => Some(x),
            _ => None,
        })
        .collect();
    let root = cells
        .iter()
        .any(|x| matches!(x.scaling, Scaling::Root { .. }));
    let (lines, costs) = lines_of(cells.iter().map(|x| {
        (
            format!("{} servers, {}", count(x.servers), x.scaling.name()),
            (x.level, x.improvement),
            (x.pt_kills > 0).then(|| (x.level, x.h_kills as f64 / x.pt_kills as f64)),
        )
    }));
    if lines.is_empty() {
        return None;
    }
    let (paper, scaling) = if root {
        (PAPER_ROOT_AVG, "root")
    } else {
        (PAPER_LINEAR_AVG, "linear")
    };
    let mut marks = vec![Mark {
        label: format!("paper: avg {paper} % ({scaling}, Fig. 14's lowest)"),
        x: PAPER_LEVEL,
        y: Some(paper),
    }];
    if let Some((level, servers)) = mine.filter(|m| m.0.is_finite()) {
        marks.push(Mark {
            label: format!("yours: {level:.1} % on {} servers", count(servers)),
            x: level,
            y: None,
        });
    }
    Some(RegimePlot {
        key: format!("{}:{:?}", rows.len(), mine),
        x_label: "Primary tenants' average utilization (%)".into(),
        benefit: (
            "YARN-H's improvement over YARN-PT (mean job time)".into(),
            "%".into(),
        ),
        lines,
        neutral: 0.0,
        cost: ("Kills, YARN-H / YARN-PT".into(), "×".into()),
        costs,
        marks,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parts::harvest::cycles::desk::PaysForm;

    #[test]
    fn a_sweeps_rows_make_one_line_per_size_in_level_order() {
        // Real cells of a tiny sweep, listed in an order other than the
        // levels'.
        let spec = PaysForm {
            servers: "60".into(),
            levels: "40,10".into(),
            days: "0.25".into(),
            root: String::new(),
        }
        .sweep()
        .expect("a valid form");
        let rows: Vec<CellRow> = (0..spec.cells()).map(|k| spec.run_cell(k)).collect();
        let by_level: Vec<_> = rows
            .iter()
            .map(|r| match &r.outcome {
                CellOutcome::Harvest(x) => x.clone(),
                other => panic!("cell {} failed: {other:?}", r.cell),
            })
            .collect();
        let plot = pays_plot(&rows, Some((27.5, 1_310))).expect("rows to draw");
        assert_eq!(plot.lines.len(), 1);
        assert_eq!(plot.lines[0].label, "60 servers, linear");
        assert_eq!(
            plot.lines[0].points,
            vec![
                (10.0, by_level[1].improvement),
                (40.0, by_level[0].improvement)
            ]
        );
        let ratios: Vec<(f64, f64)> = [&by_level[1], &by_level[0]]
            .into_iter()
            .filter(|x| x.pt_kills > 0)
            .map(|x| (x.level, x.h_kills as f64 / x.pt_kills as f64))
            .collect();
        assert_eq!(plot.costs[0].points, ratios);
        assert_eq!(
            plot.marks,
            vec![
                Mark {
                    label: "paper: avg 12 % (linear, Fig. 14's lowest)".into(),
                    x: PAPER_LEVEL,
                    y: Some(PAPER_LINEAR_AVG),
                },
                Mark {
                    label: "yours: 27.5 % on 1\u{2009}310 servers".into(),
                    x: 27.5,
                    y: None,
                },
            ]
        );
        assert_eq!(pays_plot(&[], None), None);
    }
}
