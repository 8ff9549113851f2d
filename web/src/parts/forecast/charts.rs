//! The forecast chart: the observations, one method's rolling one-step
//! forecasts with their prediction band over the history, and its forecast
//! ahead with its band, on time. Drawn by [`crate::widgets::PlotCanvas`]
//! with `data-kind="forecast"` and `data-key="<series>#<ticket>:<method>"`.

use super::protocol::{BandPoint, ForecastView};
use crate::widgets::chart::{frame, legend, tick, Area, DrawError, Plot, Px, ACCENT, INK, PALETTE};
use crate::widgets::format::minute;
use plotters::prelude::*;
use skyplan_engine::forecast::ForecastMethod;

/// The forecasts and the method whose band is drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct ForecastPlot {
    /// What the worker sent.
    pub view: ForecastView,
    /// The method drawn.
    pub method: ForecastMethod,
}

/// Colour of the forecast ahead.
const AHEAD: RGBColor = PALETTE[1];

impl Plot for ForecastPlot {
    fn kind(&self) -> &'static str {
        "forecast"
    }

    fn key(&self) -> String {
        format!("{}#{}:{}", self.view.index, self.view.ticket, self.method)
    }

    fn draw(&self, root: &Area, px: Px) -> Result<(), DrawError> {
        let view = &self.view;
        let Some(m) = view.methods.iter().find(|m| m.method == self.method) else {
            return Ok(());
        };
        let times = view
            .actual
            .iter()
            .map(|&(t, _)| t)
            .chain(m.one_step.iter().chain(&m.ahead).map(|b| b.at));
        let (t0, t1) = times.fold((i64::MAX, i64::MIN), |(a, b), t| (a.min(t), b.max(t)));
        if t0 > t1 {
            return Ok(());
        }
        let t1 = t1.max(t0 + 60);
        let ys = view
            .actual
            .iter()
            .map(|&(_, v)| v)
            .chain(m.one_step.iter().chain(&m.ahead).map(|b| b.upper))
            .filter(|v| v.is_finite());
        let y_max = ys.fold(1.0_f64, f64::max) * 1.08;
        let y_min = view
            .actual
            .iter()
            .map(|&(_, v)| v)
            .chain(m.one_step.iter().chain(&m.ahead).map(|b| b.lower))
            .filter(|v| v.is_finite())
            .fold(0.0_f64, f64::min);
        let caption = format!(
            "{} · {} — {} one-step and {} ahead, {:.0} % intervals",
            view.server,
            view.resource,
            self.method,
            m.ahead.len(),
            view.level * 100.0
        );
        let mut ctx = frame(
            root,
            &caption,
            (t0 as f64..t1 as f64, y_min..y_max),
            ("Time (UTC)", "Utilization"),
            7,
            &|t| minute(*t as i64).get(5..).unwrap_or_default().to_owned(),
            &|v| tick(*v, y_max),
            px,
        )?;
        band(&mut ctx, &m.one_step, ACCENT, px, "one-step forecast")?;
        band(&mut ctx, &m.ahead, AHEAD, px, "ahead")?;
        let points = view.actual.iter().map(|&(t, v)| (t as f64, v));
        ctx.draw_series(LineSeries::new(points, INK.stroke_width(px.u(1.2))))?
            .label("observed")
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], INK.stroke_width(2)));
        legend(&mut ctx, px)
    }
}

/// A prediction band (shaded) with its mean (a line).
fn band(
    ctx: &mut crate::widgets::chart::Ctx<'_>,
    points: &[BandPoint],
    colour: RGBColor,
    px: Px,
    label: &str,
) -> Result<(), DrawError> {
    if points.is_empty() {
        return Ok(());
    }
    let outline: Vec<(f64, f64)> = points
        .iter()
        .map(|b| (b.at as f64, b.upper))
        .chain(points.iter().rev().map(|b| (b.at as f64, b.lower)))
        .filter(|(_, v)| v.is_finite())
        .collect();
    ctx.draw_series(std::iter::once(Polygon::new(outline, colour.mix(0.18))))?;
    let mean = points.iter().map(|b| (b.at as f64, b.mean));
    ctx.draw_series(LineSeries::new(mean, colour.stroke_width(px.u(1.6))))?
        .label(label.to_owned())
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], colour.stroke_width(3)));
    Ok(())
}
