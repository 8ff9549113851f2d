//! Charts on a `<canvas>`, drawn with plotters: [`PlotCanvas`] draws
//! anything that implements [`Plot`] (each part's charts live in its
//! folder). The pieces every chart shares (frame, ticks, step lines,
//! legend, colours) are here too.
//!
//! After a successful draw the canvas carries `data-drawn="true"`,
//! `data-kind` (what kind of chart) and `data-key` (which data it shows).

use leptos::prelude::*;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use web_sys::HtmlCanvasElement;

pub(crate) const INK: RGBColor = RGBColor(28, 37, 54);
pub(crate) const MUTED: RGBColor = RGBColor(96, 108, 128);
pub(crate) const GRID: RGBColor = RGBColor(226, 231, 238);
pub(crate) const AXIS: RGBColor = RGBColor(150, 160, 176);
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
