//! The storage view's charts, drawn by [`crate::widgets::PlotCanvas`]:
//!
//! - [`ReimageCdfPlot`]: Figures 4–6 — the CDFs of each server's
//!   reimages per month, each tenant's reimages per server per month, and
//!   each tenant's month-to-month group changes;
//! - [`DurabilityPlot`]: Figure 15 — lost blocks (percent, min–max over
//!   runs) of HDFS-H and stock HDFS at each replication level;
//! - [`AvailabilityPlot`]: Figure 16 — failed accesses against the
//!   primaries' average utilization for stock, PT and HDFS-H, one panel per
//!   replication level.

use super::protocol::{AvailabilityView, DurabilityView, StorageView};
use crate::widgets::chart::{frame, legend, tick, Area, DrawError, Plot, Px, FONT, INK, MUTED};
use plotters::prelude::*;
use skyplan_engine::harvest::{CdfPoint, Policy};

const H: RGBColor = RGBColor(37, 99, 235);
const STOCK: RGBColor = RGBColor(234, 88, 12);
const PT: RGBColor = RGBColor(22, 163, 74);

/// A policy's colour.
pub fn policy_colour(p: Policy) -> RGBColor {
    match p {
        Policy::HdfsH => H,
        Policy::Stock => STOCK,
        Policy::StockPt => PT,
    }
}

/// A CDF as a step line starting at share 0.
fn cdf_steps(c: &[CdfPoint]) -> Vec<(f64, f64)> {
    let mut out = Vec::with_capacity(c.len() * 2 + 1);
    let mut last = 0.0;
    for p in c {
        out.push((p.x, last));
        out.push((p.x, p.share));
        last = p.share;
    }
    out
}

/// Figures 4–6.
#[derive(Clone, Debug, PartialEq)]
pub struct ReimageCdfPlot {
    /// What the worker sent.
    pub view: StorageView,
}

impl Plot for ReimageCdfPlot {
    fn kind(&self) -> &'static str {
        "harvest-reimage-cdfs"
    }

    fn key(&self) -> String {
        self.view.ticket.to_string()
    }

    fn draw(&self, root: &Area, px: Px) -> Result<(), DrawError> {
        let panels = root.split_evenly((1, 3));
        let v = &self.view;
        for (area, (caption, x_desc, cdf)) in panels.iter().zip([
            ("Figure 4: servers", "Reimages per month", &v.server_cdf),
            (
                "Figure 5: tenants",
                "Reimages per server per month",
                &v.tenant_cdf,
            ),
            (
                "Figure 6: group changes",
                "Changes between thirds",
                &v.changes_cdf,
            ),
        ]) {
            let x_max = cdf.last().map_or(1.0, |p| p.x).max(1.0) * 1.05;
            let mut ctx = frame(
                area,
                caption,
                (0.0..x_max, 0.0..1.02),
                (x_desc, "Share"),
                5,
                &|x| tick(*x, x_max),
                &|y| format!("{y:.1}"),
                px,
            )?;
            let mut pts = cdf_steps(cdf);
            if let Some(&(_, y)) = pts.last() {
                pts.push((x_max, y));
            }
            ctx.draw_series(LineSeries::new(pts, H.stroke_width(px.u(2.0))))?;
            ctx.draw_series(LineSeries::new(
                vec![(1.0, 0.0), (1.0, 1.0)],
                MUTED.stroke_width(px.u(1.0)),
            ))?;
        }
        Ok(())
    }
}

/// Figure 15.
#[derive(Clone, Debug, PartialEq)]
pub struct DurabilityPlot {
    /// What the worker sent.
    pub view: DurabilityView,
}

impl Plot for DurabilityPlot {
    fn kind(&self) -> &'static str {
        "harvest-durability"
    }

    fn key(&self) -> String {
        self.view.ticket.to_string()
    }

    fn draw(&self, root: &Area, px: Px) -> Result<(), DrawError> {
        let results = &self.view.report.results;
        if results.is_empty() {
            return Ok(());
        }
        let y_max = results
            .iter()
            .map(|r| r.lost_percent.max)
            .fold(0.0_f64, f64::max)
            .max(1e-4)
            * 1.2;
        let n = results.len() as f64;
        let mut ctx = frame(
            root,
            "Lost blocks after a year of reimages (min–max over runs)",
            (0.0..n, 0.0..y_max),
            ("", "Lost blocks, %"),
            0,
            &|_| String::new(),
            &|y| format!("{y:.4}"),
            px,
        )?;
        for (i, r) in results.iter().enumerate() {
            let c = policy_colour(r.policy);
            let x = i as f64;
            ctx.draw_series(std::iter::once(Rectangle::new(
                [(x + 0.2, 0.0), (x + 0.8, r.lost_percent.avg)],
                c.filled(),
            )))?
            .label(format!("{} R = {}", r.policy.name(), r.replication))
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], c.filled()));
            ctx.draw_series(std::iter::once(PathElement::new(
                vec![(x + 0.5, r.lost_percent.min), (x + 0.5, r.lost_percent.max)],
                INK.stroke_width(px.u(1.5)),
            )))?;
            let text = if r.lost_percent.max == 0.0 {
                "no loss".to_owned()
            } else {
                format!("{:.4} %", r.lost_percent.avg)
            };
            ctx.draw_series(std::iter::once(Text::new(
                format!("R = {} · {}", r.replication, text),
                (x + 0.22, y_max * 0.93),
                (FONT, px.f(12.0)).into_font().color(&INK),
            )))?;
        }
        legend(&mut ctx, px)
    }
}

/// Figure 16.
#[derive(Clone, Debug, PartialEq)]
pub struct AvailabilityPlot {
    /// What the worker sent.
    pub view: AvailabilityView,
}

impl Plot for AvailabilityPlot {
    fn kind(&self) -> &'static str {
        "harvest-availability"
    }

    fn key(&self) -> String {
        self.view.ticket.to_string()
    }

    fn draw(&self, root: &Area, px: Px) -> Result<(), DrawError> {
        let levels = &self.view.report.levels;
        let Some(first) = levels.first() else {
            return Ok(());
        };
        let reps: Vec<usize> = {
            let mut r: Vec<usize> = first.points.iter().map(|p| p.replication).collect();
            r.dedup();
            r
        };
        let panels = root.split_evenly((1, reps.len().max(1)));
        let x_max = levels
            .iter()
            .map(|l| l.utilization)
            .fold(10.0_f64, f64::max)
            * 1.08;
        let y_max = levels
            .iter()
            .flat_map(|l| l.points.iter().map(|p| p.failed_percent.max))
            .fold(0.0_f64, f64::max)
            .max(0.01)
            * 1.1;
        for (area, &r) in panels.iter().zip(&reps) {
            let mut ctx = frame(
                area,
                &format!("Failed accesses, R = {r}"),
                (0.0..x_max, 0.0..y_max),
                ("Average primary utilization (%)", "Failed accesses, %"),
                6,
                &|x| format!("{x:.0}"),
                &|y| tick(*y, y_max),
                px,
            )?;
            for policy in [Policy::Stock, Policy::StockPt, Policy::HdfsH] {
                let c = policy_colour(policy);
                let pts: Vec<(f64, f64)> = levels
                    .iter()
                    .filter_map(|l| {
                        l.points
                            .iter()
                            .find(|p| p.policy == policy && p.replication == r)
                            .map(|p| (l.utilization, p.failed_percent.avg))
                    })
                    .collect();
                ctx.draw_series(LineSeries::new(pts.clone(), c.stroke_width(px.u(2.0))))?
                    .label(policy.name())
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 16, y)], c.stroke_width(3))
                    });
                ctx.draw_series(
                    pts.into_iter()
                        .map(|p| Circle::new(p, px.u(3.0), c.filled())),
                )?;
            }
            legend(&mut ctx, px)?;
        }
        Ok(())
    }
}
