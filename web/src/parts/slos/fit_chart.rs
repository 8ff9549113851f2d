//! The SLOs panel's chart: a recurring job's history skylines overlaid
//! (thin, translucent), the peak and flat-p90 reservations (dashed), and
//! the fitted reservation `R*` drawn bold on top.
//!
//! Drawn by [`crate::widgets::PlotCanvas`] with `data-kind="fit"` and
//! `data-key="<job>#<ticket>"`, so a redraw for new settings is visible.

use super::protocol::FitView;
use crate::parts::traces::charts::runs_extent;
use crate::widgets::chart::{
    legend, minutes_frame, steps, Area, DrawError, Plot, Px, ACCENT, FONT, MUTED,
};
use crate::widgets::format::count;
use plotters::prelude::*;

/// History runs: slate.
const HISTORY: RGBColor = RGBColor(100, 116, 139);
/// Peak reservation: red.
const PEAK: RGBColor = RGBColor(220, 38, 38);
/// Flat p90 reservation: amber.
const FLAT: RGBColor = RGBColor(202, 138, 4);
/// The y axis reaches this much above the highest line, leaving the legend
/// (top right) room above the data.
const HEADROOM: f64 = 1.35;

impl Plot for FitView {
    fn kind(&self) -> &'static str {
        "fit"
    }

    fn key(&self) -> String {
        format!("{}#{}", self.job, self.ticket)
    }

    fn draw(&self, root: &Area, px: Px) -> Result<(), DrawError> {
        draw_fit(root, self, px)
    }
}

/// A flat reservation at `level` from 0 to `end` minutes, dashed.
fn dashed(
    level: f64,
    end: f64,
    color: RGBColor,
    px: Px,
) -> DashedLineSeries<std::vec::IntoIter<(f64, f64)>, u32> {
    DashedLineSeries::new(
        vec![(0.0, level), (end, level)],
        px.u(7.0),
        px.u(5.0),
        color.stroke_width(px.u(1.6)),
    )
}

/// A legend swatch: a short line in `color`, `width` CSS pixels thick.
fn swatch(color: RGBColor, width: f64, px: Px) -> impl Fn((i32, i32)) -> PathElement<(i32, i32)> {
    let (len, stroke) = (px.f(18.0) as i32, px.u(width));
    move |(x, y)| PathElement::new(vec![(x, y), (x + len, y)], color.stroke_width(stroke))
}

fn draw_fit(root: &Area, fit: &FitView, px: Px) -> Result<(), DrawError> {
    let sky = &fit.model.skyline;
    let step_min = f64::from(sky.step_secs) / 60.0;
    let end = sky.len() as f64 * step_min;
    let r_minutes: Vec<f64> = (0..=sky.len()).map(|i| i as f64 * step_min).collect();
    let mut r_values = sky.containers.clone();
    if let Some(&last) = r_values.last() {
        r_values.push(last);
    }
    let runs = &fit.history.runs;
    let (peak, flat) = (fit.quality.peak.peak, fit.quality.flat_p90.peak);
    let (x_max, y_max) = runs_extent(runs, (end.max(1.0), sky.peak().max(peak).max(1.0)));
    let caption = format!(
        "{} — R* over {} runs, {} s steps, α = {}",
        fit.job,
        count(fit.model.runs),
        sky.step_secs,
        fit.model.params.alpha
    );
    let mut ctx = minutes_frame(root, &caption, (x_max, y_max * HEADROOM), px)?;
    // The more runs, the fainter each: the overlay shows where they agree.
    let shade = (6.0 / runs.len().max(1) as f64).clamp(0.07, 0.5);
    for (i, run) in runs.iter().enumerate() {
        let series = ctx.draw_series(LineSeries::new(
            steps(&run.minutes, &run.containers),
            HISTORY.mix(shade).stroke_width(px.u(1.0)),
        ))?;
        if i == 0 {
            series
                .label(format!("history: {} runs", count(runs.len())))
                .legend(swatch(HISTORY, 1.5, px));
        }
    }
    ctx.draw_series(dashed(flat, end, FLAT, px))?
        .label(format!("flat p90 reservation · {flat:.1}"))
        .legend(swatch(FLAT, 1.6, px));
    ctx.draw_series(dashed(peak, end, PEAK, px))?
        .label(format!("peak reservation · {peak:.0}"))
        .legend(swatch(PEAK, 1.6, px));
    ctx.draw_series(LineSeries::new(
        steps(&r_minutes, &r_values),
        ACCENT.stroke_width(px.u(2.8)),
    ))?
    .label(format!("R* (LP) · peak {:.1}", sky.peak()))
    .legend(swatch(ACCENT, 3.0, px));
    if sky.is_empty() {
        root.draw(&Text::new(
            "The fitted reservation is empty.",
            (px.f(80.0) as i32, px.f(60.0) as i32),
            (FONT, px.f(13.0)).into_font().color(&MUTED),
        ))?;
    }
    legend(&mut ctx, px)
}
