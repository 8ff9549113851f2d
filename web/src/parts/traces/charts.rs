//! The Traces panel's chart: every run of a job overlaid as skylines, or
//! one utilization series, drawn by [`PlotCanvas`].

use super::desk::ChartData;
use super::protocol::{JobChart, RunLine, SeriesChart};
use crate::widgets::chart::{
    frame, legend, minutes_frame, steps, tick, Area, DrawError, Plot, PlotCanvas, Px, ACCENT,
    PALETTE,
};
use crate::widgets::format::{count, minute};
use leptos::prelude::*;
use plotters::prelude::*;

/// Above this many runs, lines are drawn translucent.
const CROWDED_RUNS: usize = 20;
/// Run skylines named in the legend; the caption gives the full count.
const LEGEND_RUNS: usize = 8;

/// The Traces panel's chart.
#[component]
pub fn ChartCanvas(
    /// What to draw (`None`: nothing selected or data not arrived yet).
    #[prop(into)]
    data: Signal<Option<ChartData>>,
    /// What to say when there is nothing to draw.
    #[prop(into)]
    placeholder: Signal<String>,
) -> impl IntoView {
    view! { <PlotCanvas data=data placeholder=placeholder testid="chart"/> }
}

impl Plot for ChartData {
    fn kind(&self) -> &'static str {
        match self {
            ChartData::Job(_) => "job",
            ChartData::Series(_) => "series",
        }
    }

    fn key(&self) -> String {
        ChartData::key(self)
    }

    fn draw(&self, root: &Area, px: Px) -> Result<(), DrawError> {
        match self {
            ChartData::Job(chart) => draw_job(root, chart, px),
            ChartData::Series(chart) => draw_series(root, chart, px),
        }
    }
}

/// The last minute and the largest count of `runs`, at least `floor` each.
pub(crate) fn runs_extent(runs: &[RunLine], floor: (f64, f64)) -> (f64, f64) {
    let x = runs
        .iter()
        .filter_map(|r| r.minutes.last().copied())
        .fold(floor.0, f64::max);
    let y = runs
        .iter()
        .flat_map(|r| r.containers.iter().copied())
        .fold(floor.1, f64::max);
    (x, y)
}

fn draw_job(root: &Area, chart: &JobChart, px: Px) -> Result<(), DrawError> {
    let (x_max, y_max) = runs_extent(&chart.runs, (1.0, 1.0));
    let n = chart.runs.len();
    let caption = format!(
        "{} — {} run{} overlaid",
        chart.job,
        count(n),
        if n == 1 { "" } else { "s" }
    );
    let mut ctx = minutes_frame(root, &caption, (x_max, y_max * 1.08), px)?;
    let alpha = if n > CROWDED_RUNS { 0.35 } else { 0.9 };
    let width = px.u(if n > CROWDED_RUNS { 1.0 } else { 1.6 });
    for (i, run) in chart.runs.iter().enumerate() {
        let color = PALETTE[i % PALETTE.len()];
        let series = ctx.draw_series(LineSeries::new(
            steps(&run.minutes, &run.containers),
            color.mix(alpha).stroke_width(width),
        ))?;
        if i < LEGEND_RUNS {
            let swatch = px.f(16.0) as i32;
            let stroke = px.u(2.5);
            series
                .label(format!("started {}", minute(run.start)))
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + swatch, y)], color.stroke_width(stroke))
                });
        }
    }
    if n > LEGEND_RUNS {
        ctx.draw_series(std::iter::once(PathElement::new(
            Vec::<(f64, f64)>::new(),
            TRANSPARENT,
        )))?
        .label(format!("… and {} more runs", count(n - LEGEND_RUNS)))
        .legend(|(x, y)| PathElement::new(vec![(x, y)], TRANSPARENT));
    }
    legend(&mut ctx, px)
}

fn draw_series(root: &Area, chart: &SeriesChart, px: Px) -> Result<(), DrawError> {
    let (t0, t1) = match (chart.times.first(), chart.times.last()) {
        (Some(&a), Some(&b)) if b > a => (a as f64, b as f64),
        (Some(&a), _) => (a as f64, a as f64 + 60.0),
        _ => (0.0, 60.0),
    };
    let y_max = chart.values.iter().copied().fold(1.0, f64::max) * 1.08;
    let drawn = chart.times.len();
    let caption = if drawn < chart.total_points {
        format!(
            "{} · {} — {} samples ({} drawn, peaks kept)",
            chart.server,
            chart.resource,
            count(chart.total_points),
            count(drawn)
        )
    } else {
        format!(
            "{} · {} — {} samples",
            chart.server,
            chart.resource,
            count(chart.total_points)
        )
    };
    let mut ctx = frame(
        root,
        &caption,
        (t0..t1, 0.0..y_max),
        ("Time (UTC)", "Utilization (%)"),
        7,
        &|t| minute(*t as i64).get(5..).unwrap_or_default().to_owned(),
        &|v| tick(*v, y_max),
        px,
    )?;
    let points = || {
        chart
            .times
            .iter()
            .zip(&chart.values)
            .map(|(&t, &v)| (t as f64, v))
    };
    ctx.draw_series(AreaSeries::new(points(), 0.0, ACCENT.mix(0.12)))?;
    ctx.draw_series(LineSeries::new(points(), ACCENT.stroke_width(px.u(1.4))))?;
    Ok(())
}
