//! "Where it pays": a lever's benefit against its regime axis (offered
//! load, datacenter size, queue contention), one line per configuration,
//! with what it costs (failures, kills) beside it, the loaded workload's
//! own position marked as a vertical line and the paper's figure as a
//! point — the chart the Shaping, Harvest and Tuning panels share.

use super::chart::{frame, legend, tick, Area, DrawError, Plot, Px, ACCENT, MUTED, PALETTE};
use plotters::prelude::*;

/// One line of the chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// Its legend.
    pub label: String,
    /// Its points, in x order.
    pub points: Vec<(f64, f64)>,
}

/// A position on the regime axis to mark.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    /// What it is (`your workload: load 1.31`).
    pub label: String,
    /// Where on the axis.
    pub x: f64,
    /// Its benefit, when known (the paper's figure): drawn as a point;
    /// `None` draws a vertical line across the benefit chart.
    pub y: Option<f64>,
}

/// A benefit chart and a cost chart over one regime axis.
#[derive(Clone, Debug, PartialEq)]
pub struct RegimePlot {
    /// `data-key`: which data it shows.
    pub key: String,
    /// The regime axis (`Offered load (requested / capacity)`).
    pub x_label: String,
    /// The benefit chart's caption and axis.
    pub benefit: (String, String),
    /// The benefit lines.
    pub lines: Vec<Line>,
    /// The benefit's neutral value (1× for a speed-up, 0 % for an
    /// improvement), drawn as a dashed line.
    pub neutral: f64,
    /// The cost chart's caption and axis.
    pub cost: (String, String),
    /// The cost lines (same order and colours as `lines`).
    pub costs: Vec<Line>,
    /// The workload's position (a vertical line) and the paper's point.
    pub marks: Vec<Mark>,
}

/// The benefit and cost lines of labelled points `(label, benefit point,
/// cost point)`: one line of each per label, in the order the labels first
/// come, each sorted by x; a point without a cost (`None`: none defined)
/// is left out of the cost line only.
pub fn lines_of(
    points: impl IntoIterator<Item = (String, (f64, f64), Option<(f64, f64)>)>,
) -> (Vec<Line>, Vec<Line>) {
    let mut lines: Vec<Line> = Vec::new();
    let mut costs: Vec<Line> = Vec::new();
    for (label, benefit, cost) in points {
        let at = match lines.iter().position(|l| l.label == label) {
            Some(i) => i,
            None => {
                lines.push(Line {
                    label: label.clone(),
                    points: Vec::new(),
                });
                costs.push(Line {
                    label,
                    points: Vec::new(),
                });
                lines.len() - 1
            }
        };
        lines[at].points.push(benefit);
        costs[at].points.extend(cost);
    }
    for l in lines.iter_mut().chain(costs.iter_mut()) {
        l.points.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    (lines, costs)
}

/// The loaded workload's position on the regime axis, `yours: 1.31`, as a
/// vertical line; nothing when it is not a finite number.
pub fn yours(x: Option<f64>) -> Option<Mark> {
    x.filter(|x| x.is_finite()).map(|x| Mark {
        label: format!("yours: {x:.2}"),
        x,
        y: None,
    })
}

/// The x and y ranges of `lines` (and `extra` y values), padded.
fn ranges(lines: &[Line], xs: &[f64], extra: &[f64]) -> ((f64, f64), (f64, f64)) {
    let all_x = lines
        .iter()
        .flat_map(|l| l.points.iter().map(|p| p.0))
        .chain(xs.iter().copied())
        .filter(|v| v.is_finite());
    let (x0, x1) = all_x.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
        (a.min(v), b.max(v))
    });
    let all_y = lines
        .iter()
        .flat_map(|l| l.points.iter().map(|p| p.1))
        .chain(extra.iter().copied())
        .filter(|v| v.is_finite());
    let (y0, y1) = all_y.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
        (a.min(v), b.max(v))
    });
    let (x0, x1) = if x0.is_finite() { (x0, x1) } else { (0.0, 1.0) };
    let (y0, y1) = if y0.is_finite() { (y0, y1) } else { (0.0, 1.0) };
    let dx = ((x1 - x0) * 0.05).max(1e-6);
    let dy = ((y1 - y0) * 0.1).max(1e-6);
    ((x0 - dx, x1 + dx), ((y0 - dy).min(0.0), y1 + dy * 3.0))
}

impl Plot for RegimePlot {
    fn kind(&self) -> &'static str {
        "regime"
    }

    fn key(&self) -> String {
        self.key.clone()
    }

    fn draw(&self, root: &Area, px: Px) -> Result<(), DrawError> {
        let (left, right) = root.split_horizontally(root.dim_in_pixel().0 as i32 * 3 / 5);
        let xs: Vec<f64> = self.marks.iter().map(|m| m.x).collect();
        let mark_ys: Vec<f64> = self.marks.iter().filter_map(|m| m.y).collect();
        let mut extra = mark_ys.clone();
        extra.push(self.neutral);
        let ((x0, x1), (y0, y1)) = ranges(&self.lines, &xs, &extra);
        let mut ctx = frame(
            &left,
            &self.benefit.0,
            (x0..x1, y0..y1),
            (&self.x_label, &self.benefit.1),
            8,
            &|x| tick(*x, x1),
            &|v| tick(*v, y1),
            px,
        )?;
        ctx.draw_series(DashedLineSeries::new(
            [(x0, self.neutral), (x1, self.neutral)],
            px.u(4.0),
            px.u(4.0),
            MUTED.stroke_width(px.u(1.0)),
        ))?;
        for (i, line) in self.lines.iter().enumerate() {
            let colour = PALETTE[i % PALETTE.len()];
            ctx.draw_series(LineSeries::new(
                line.points.iter().copied(),
                colour.stroke_width(px.u(2.0)),
            ))?
            .label(line.label.clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 16, y)], colour.stroke_width(3))
            });
            ctx.draw_series(
                line.points
                    .iter()
                    .map(|&p| Circle::new(p, px.u(3.0), colour.filled())),
            )?;
        }
        for m in &self.marks {
            match m.y {
                None => {
                    ctx.draw_series(DashedLineSeries::new(
                        [(m.x, y0), (m.x, y1)],
                        px.u(6.0),
                        px.u(3.0),
                        ACCENT.stroke_width(px.u(2.0)),
                    ))?;
                    ctx.draw_series(std::iter::once(Text::new(
                        m.label.clone(),
                        // Low on the line, clear of the legend (top right).
                        (m.x, y0 + (y1 - y0) * 0.08),
                        (super::chart::FONT, px.f(12.0)).into_font().color(&ACCENT),
                    )))?;
                }
                Some(y) => {
                    ctx.draw_series(std::iter::once(TriangleMarker::new(
                        (m.x, y),
                        px.u(7.0),
                        BLACK.filled(),
                    )))?;
                    ctx.draw_series(std::iter::once(Text::new(
                        m.label.clone(),
                        (m.x, y),
                        (super::chart::FONT, px.f(12.0)).into_font().color(&BLACK),
                    )))?;
                }
            }
        }
        legend(&mut ctx, px)?;
        let ((_, _), (c0, c1)) = ranges(&self.costs, &xs, &[0.0]);
        let mut cost = frame(
            &right,
            &self.cost.0,
            (x0..x1, c0.max(0.0)..c1),
            (&self.x_label, &self.cost.1),
            6,
            &|x| tick(*x, x1),
            &|v| tick(*v, c1),
            px,
        )?;
        for (i, line) in self.costs.iter().enumerate() {
            let colour = PALETTE[i % PALETTE.len()];
            cost.draw_series(LineSeries::new(
                line.points.iter().copied(),
                colour.stroke_width(px.u(2.0)),
            ))?;
            cost.draw_series(
                line.points
                    .iter()
                    .map(|&p| Circle::new(p, px.u(3.0), colour.filled())),
            )?;
        }
        for m in self.marks.iter().filter(|m| m.y.is_none()) {
            cost.draw_series(DashedLineSeries::new(
                [(m.x, c0.max(0.0)), (m.x, c1)],
                px.u(6.0),
                px.u(3.0),
                ACCENT.stroke_width(px.u(2.0)),
            ))?;
        }
        Ok(())
    }
}
