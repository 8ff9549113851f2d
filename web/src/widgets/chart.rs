//! Charts on a `<canvas>`, drawn with plotters: [`PlotCanvas`] draws
//! anything that implements [`Plot`]; [`ChartCanvas`] is the Traces panel's
//! chart — a job's run skylines overlaid, or one utilization series over
//! time. The pieces every chart shares (frame, ticks, step lines, legend,
//! colours) are here too.
//!
//! After a successful draw the canvas carries `data-drawn="true"`,
//! `data-kind` (what kind of chart) and `data-key` (which data it shows).

use super::format::{count, minute};
use crate::protocol::{JobChart, RunLine, SeriesChart};
use crate::state::ChartData;
use leptos::prelude::*;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use web_sys::HtmlCanvasElement;

/// Run skylines named in the legend; the caption gives the full count.
const LEGEND_RUNS: usize = 8;
/// Above this many runs, lines are drawn translucent.
const CROWDED_RUNS: usize = 20;

pub(crate) const INK: RGBColor = RGBColor(28, 37, 54);
pub(crate) const MUTED: RGBColor = RGBColor(96, 108, 128);
pub(crate) const GRID: RGBColor = RGBColor(226, 231, 238);
const AXIS: RGBColor = RGBColor(150, 160, 176);
pub(crate) const ACCENT: RGBColor = RGBColor(37, 99, 235);
pub(crate) const PALETTE: [RGBColor; 8] = [
    RGBColor(37, 99, 235),
    RGBColor(234, 88, 12),
    RGBColor(22, 163, 74),
    RGBColor(147, 51, 234),
    RGBColor(220, 38, 38),
    RGBColor(8, 145, 178),
    RGBColor(202, 138, 4),
    RGBColor(219, 39, 119),
];
pub(crate) const FONT: &str = "sans-serif";

/// Something a [`PlotCanvas`] can draw.
pub trait Plot: Clone + Send + Sync + 'static {
    /// `data-kind` of the drawn canvas: what kind of chart this is.
    fn kind(&self) -> &'static str;
    /// `data-key` of the drawn canvas: which data it shows.
    fn key(&self) -> String;
    /// Draws the chart on `root`, already filled white; `px` converts CSS
    /// pixels to device pixels.
    fn draw(&self, root: &Area, px: Px) -> Result<(), DrawError>;
}

/// A canvas that draws `data`; redraws when it changes or the window is
/// resized, and shows `placeholder` while there is nothing to draw.
#[component]
pub fn PlotCanvas<T: Plot>(
    /// What to draw (`None`: nothing selected or data not arrived yet).
    data: Signal<Option<T>>,
    /// What to say when there is nothing to draw.
    #[prop(into)]
    placeholder: Signal<String>,
    /// The canvas's `data-testid`.
    testid: &'static str,
) -> impl IntoView {
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let resized = RwSignal::new(0u32);
    let listener = window_event_listener(leptos::ev::resize, move |_| {
        resized.update(|n| *n = n.wrapping_add(1));
    });
    on_cleanup(move || listener.remove());
    Effect::new(move |_| {
        resized.track();
        let Some(el) = canvas.get() else {
            return;
        };
        let drawn = data.with(|d| d.as_ref().map(|d| (draw(&el, d), d.kind(), d.key())));
        match drawn {
            Some((Ok(()), kind, key)) => {
                let _ = el.set_attribute("data-kind", kind);
                let _ = el.set_attribute("data-key", &key);
                let _ = el.set_attribute("data-drawn", "true");
            }
            Some((Err(e), ..)) => {
                clear(&el);
                leptos::logging::error!("chart not drawn: {e}");
            }
            None => clear(&el),
        }
    });
    view! {
        <div class="chart-frame">
            <canvas data-testid=testid node_ref=canvas></canvas>
            <Show when=move || data.with(Option::is_none)>
                <div class="chart-empty">{move || placeholder.get()}</div>
            </Show>
        </div>
    }
}

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

/// Blanks the canvas and drops the drawn flags.
fn clear(canvas: &HtmlCanvasElement) {
    let _ = canvas.remove_attribute("data-drawn");
    let _ = canvas.remove_attribute("data-kind");
    let _ = canvas.remove_attribute("data-key");
    canvas.set_width(canvas.width());
}

/// Sizes the canvas to its box in device pixels and draws `data` on it.
fn draw(canvas: &HtmlCanvasElement, data: &impl Plot) -> Result<(), String> {
    let scale = window().device_pixel_ratio().max(1.0);
    let width = f64::from(canvas.client_width().max(320)) * scale;
    let height = f64::from(canvas.client_height().max(240)) * scale;
    canvas.set_width(width as u32);
    canvas.set_height(height as u32);
    let backend =
        CanvasBackend::with_canvas_object(canvas.clone()).ok_or("the canvas has no 2D context")?;
    let root = backend.into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    data.draw(&root, Px(scale)).map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}

/// CSS pixels to device pixels.
#[derive(Clone, Copy)]
pub struct Px(f64);

impl Px {
    /// A length in device pixels.
    pub fn f(self, css: f64) -> f64 {
        css * self.0
    }
    /// A whole number of device pixels, at least one.
    pub fn u(self, css: f64) -> u32 {
        (css * self.0).round().max(1.0) as u32
    }
}

/// The canvas as a plotters drawing area.
pub type Area = DrawingArea<CanvasBackend, Shift>;
/// What drawing on the canvas can fail with.
pub type DrawError = DrawingAreaErrorKind<<CanvasBackend as DrawingBackend>::ErrorType>;
pub(crate) type Ctx<'a> =
    ChartContext<'a, CanvasBackend, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// Margin around a [`frame`], CSS pixels.
const MARGIN: f64 = 14.0;
/// Width of a [`frame`]'s y label area, CSS pixels.
const Y_LABEL_AREA: f64 = 58.0;

/// Where a [`frame`]'s plot area lies across a canvas `width` CSS pixels
/// wide: its left and right edges, CSS pixels from the canvas's left.
pub(crate) fn plot_x_span(width: f64) -> (f64, f64) {
    (
        MARGIN + Y_LABEL_AREA,
        (width - MARGIN).max(MARGIN + Y_LABEL_AREA + 1.0),
    )
}

/// Plot area with a caption, axis descriptions, a light grid and tick
/// labels formatted by `x_label` and `y_label`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn frame<'a>(
    root: &'a Area,
    caption: &str,
    (x, y): (std::ops::Range<f64>, std::ops::Range<f64>),
    (x_desc, y_desc): (&str, &str),
    x_labels: usize,
    x_label: &dyn Fn(&f64) -> String,
    y_label: &dyn Fn(&f64) -> String,
    px: Px,
) -> Result<Ctx<'a>, DrawError> {
    let mut plot = ChartBuilder::on(root)
        .margin(px.u(MARGIN))
        .caption(caption, (FONT, px.f(15.0)).into_font().color(&INK))
        .x_label_area_size(px.u(46.0))
        .y_label_area_size(px.u(Y_LABEL_AREA))
        .build_cartesian_2d(x, y)?;
    plot.configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .axis_desc_style((FONT, px.f(13.0)).into_font().color(&MUTED))
        .label_style((FONT, px.f(12.0)).into_font().color(&MUTED))
        .axis_style(AXIS.stroke_width(px.u(1.0)))
        .bold_line_style(GRID.stroke_width(px.u(1.0)))
        .light_line_style(TRANSPARENT)
        .x_labels(x_labels)
        .y_labels(8)
        .x_label_formatter(x_label)
        .y_label_formatter(y_label)
        .draw()?;
    Ok(plot)
}

/// A tick label with as many decimals as an axis reaching `max` needs.
pub(crate) fn tick(value: f64, max: f64) -> String {
    match max {
        m if m >= 20.0 => format!("{value:.0}"),
        m if m >= 2.0 => format!("{value:.1}"),
        _ => format!("{value:.2}"),
    }
}

/// A skyline's samples as a step line: each count holds until the next.
pub(crate) fn steps(xs: &[f64], ys: &[f64]) -> Vec<(f64, f64)> {
    let mut out = Vec::with_capacity(xs.len() * 2);
    for (i, (&x, &y)) in xs.iter().zip(ys).enumerate() {
        out.push((x, y));
        if let Some(&next) = xs.get(i + 1) {
            out.push((next, y));
        }
    }
    out
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

/// A frame of containers over minutes from the run's start.
pub(crate) fn minutes_frame<'a>(
    root: &'a Area,
    caption: &str,
    (x_max, y_max): (f64, f64),
    px: Px,
) -> Result<Ctx<'a>, DrawError> {
    frame(
        root,
        caption,
        (0.0..x_max, 0.0..y_max),
        ("Minutes from run start", "Containers"),
        10,
        &|m| tick(*m, x_max),
        &|c| tick(*c, y_max),
        px,
    )
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

/// The legend of the labelled series, top right.
pub(crate) fn legend(ctx: &mut Ctx<'_>, px: Px) -> Result<(), DrawError> {
    ctx.configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .margin(px.u(10.0))
        .label_font((FONT, px.f(12.0)).into_font().color(&INK))
        .background_style(WHITE.mix(0.92))
        .border_style(GRID.stroke_width(px.u(1.0)))
        .draw()
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
