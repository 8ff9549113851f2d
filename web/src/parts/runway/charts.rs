//! The runway chart: the binding limit's demand a day at a time ahead —
//! its P10–P90 band and median, in multiples of today's — against what the
//! cluster meets at its headroom target, today and after each purchase of
//! the P50 plan (the report's chart). Drawn by
//! [`crate::widgets::PlotCanvas`] with `data-kind="runway"` and
//! `data-key="<ticket>"` (`"<ticket>-dates"` for a run's outlook, drawn
//! before its purchases are planned: no capacity after them yet).

use super::desk::Dates;
use crate::widgets::chart::{frame, legend, tick, Area, DrawError, Plot, Px, ACCENT, INK, PALETTE};
use crate::widgets::format::minute;
use plotters::prelude::*;

/// The runway drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct RunwayPlot {
    /// The dates shown: a runway's, or a run's outlook.
    pub dates: Dates,
}

/// Colour of the capacity lines.
const CAPACITY: RGBColor = PALETTE[4];
/// Colour of the capacity after the purchases.
const PLANNED: RGBColor = PALETTE[2];

impl Plot for RunwayPlot {
    fn kind(&self) -> &'static str {
        "runway"
    }

    fn key(&self) -> String {
        let d = &self.dates;
        if d.planned {
            d.ticket.to_string()
        } else {
            format!("{}-dates", d.ticket)
        }
    }

    fn draw(&self, root: &Area, px: Px) -> Result<(), DrawError> {
        let r = &self.dates.outlook;
        let days = &r.chart;
        let (Some(first), Some(last)) = (days.first(), days.last()) else {
            return Ok(());
        };
        let (t0, t1) = (first.date as f64, (last.date as f64).max(first.date as f64 + 86_400.0));
        let y_max = days
            .iter()
            .flat_map(|d| [Some(d.p90), d.capacity_today, d.capacity_planned])
            .flatten()
            .filter(|v| v.is_finite())
            .fold(1.0_f64, f64::max)
            * 1.08;
        let caption = format!(
            "{} — demand against what the cluster meets",
            r.binding.as_deref().unwrap_or("no limit reached within the horizon")
        );
        let mut ctx = frame(
            root,
            &caption,
            (t0..t1, 0.0..y_max),
            ("Date (UTC)", "Demand, × today's"),
            7,
            &|t| minute(*t as i64).get(..10).unwrap_or_default().to_owned(),
            &|v| tick(*v, y_max),
            px,
        )?;
        let outline: Vec<(f64, f64)> = days
            .iter()
            .map(|d| (d.date as f64, d.p90))
            .chain(days.iter().rev().map(|d| (d.date as f64, d.p10)))
            .filter(|(_, v)| v.is_finite())
            .collect();
        ctx.draw_series(std::iter::once(Polygon::new(outline, ACCENT.mix(0.18))))?
            .label("demand P10–P90")
            .legend(move |(x, y)| Rectangle::new([(x, y - 4), (x + 16, y + 4)], ACCENT.mix(0.25).filled()));
        let median = days.iter().map(|d| (d.date as f64, d.p50));
        ctx.draw_series(LineSeries::new(median, ACCENT.stroke_width(px.u(1.8))))?
            .label("demand P50")
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], ACCENT.stroke_width(3)));
        let line = |pick: fn(&skyplan_engine::runway::ChartDay) -> Option<f64>| {
            days.iter()
                .filter_map(move |d| pick(d).map(|v| (d.date as f64, v)))
                .collect::<Vec<_>>()
        };
        let today = line(|d| d.capacity_today);
        if !today.is_empty() {
            ctx.draw_series(DashedLineSeries::new(
                today,
                px.f(6.0) as u32,
                px.f(4.0) as u32,
                CAPACITY.stroke_width(px.u(1.6)),
            ))?
            .label("capacity today (headroom target)")
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], CAPACITY.stroke_width(2)));
        }
        let planned = line(|d| d.capacity_planned);
        if !planned.is_empty() {
            ctx.draw_series(LineSeries::new(planned, PLANNED.stroke_width(px.u(1.6))))?
                .label("after the P50 purchases")
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], PLANNED.stroke_width(2)));
        }
        ctx.draw_series(LineSeries::new(
            [(t0, 1.0), (t1, 1.0)],
            INK.mix(0.35).stroke_width(px.u(1.0)),
        ))?;
        legend(&mut ctx, px)
    }
}
