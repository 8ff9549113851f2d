//! The Agenda panel's timeline: one LCM period of the plan on a canvas —
//! reservations stacked step by step (one colour per job, in id order), the
//! capacity line, the cost curve `c(t)` on the right-hand axis (1.0 is the
//! capacity) with its peak marked — and the pointer work on it: hover for a
//! tooltip, drag a reservation along time.
//!
//! Drawn with plotters in two layers. The base (frame, axes, capacity,
//! stacked reservations) is drawn into an offscreen canvas only when the plan
//! changes or a drag starts (then without the dragged reservation); every
//! frame copies it and draws the overlay on top: the dragged reservation's
//! window and its ghost at the candidate start (hatched red where the worker
//! said it does not fit), the cost curve and the peak — so a drag costs one
//! copy and a few polygons per preview, however large the plan.
//!
//! After a draw the canvas carries `data-drawn="true"`. [`Geometry`] says
//! where the plot lies (CSS pixels from the canvas's top-left corner), for
//! hit-testing here and for the reservation rows' pixel attributes.

use crate::parts::agenda::desk::Drag;
use crate::parts::agenda::protocol::{AgendaView, ReservationView};
use crate::widgets::chart::{AXIS, FONT, INK, MUTED};
use leptos::prelude::*;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use std::fmt::Write as _;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, MouseEvent};

/// The timeline's grid, lighter than the charts'.
const GRID: RGBColor = RGBColor(232, 236, 242);
const CAPACITY: RGBColor = RGBColor(153, 27, 27);
const COST: RGBColor = RGBColor(15, 23, 42);
const PEAK: RGBColor = RGBColor(220, 38, 38);
const WINDOW: RGBColor = RGBColor(37, 99, 235);

/// Job colours: distinct, calm, readable under a dark cost line.
pub const PALETTE: [RGBColor; 12] = [
    RGBColor(96, 165, 250),
    RGBColor(251, 146, 60),
    RGBColor(74, 222, 128),
    RGBColor(192, 132, 252),
    RGBColor(45, 212, 191),
    RGBColor(250, 204, 21),
    RGBColor(244, 114, 182),
    RGBColor(148, 163, 184),
    RGBColor(129, 140, 248),
    RGBColor(163, 230, 53),
    RGBColor(253, 164, 175),
    RGBColor(56, 189, 248),
];

/// Separators between stacked reservations are drawn up to this many.
const OUTLINED: usize = 300;
/// The y axis reaches this much above the capacity or the highest stack.
const HEADROOM: f64 = 1.12;
/// Hatch spacing of an invalid ghost, CSS pixels.
const HATCH: f64 = 7.0;

/// The CSS colour of a job's palette entry (for the table's swatches).
pub fn css_colour(index: usize) -> String {
    let RGBColor(r, g, b) = PALETTE[index % PALETTE.len()];
    format!("rgb({r}, {g}, {b})")
}

/// `HH:MM` of plan step `step` for a plan starting at 00:00 (hours go past
/// 24 for steps beyond the day).
pub fn clock(step: f64, step_secs: i64) -> String {
    let minutes = (step * step_secs as f64 / 60.0).round() as i64;
    format!(
        "{:02}:{:02}",
        minutes.div_euclid(60),
        minutes.rem_euclid(60)
    )
}

/// Where the plot area lies and what it spans.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Geometry {
    /// Left edge of the plot, CSS pixels from the canvas's left.
    pub left: f64,
    /// Top edge of the plot, CSS pixels from the canvas's top.
    pub top: f64,
    /// Plot width, CSS pixels.
    pub width: f64,
    /// Plot height, CSS pixels.
    pub height: f64,
    /// Steps across.
    pub steps: usize,
    /// Cores at the top edge.
    pub y_max: f64,
}

impl Geometry {
    /// CSS x of step position `step`.
    pub fn x(&self, step: f64) -> f64 {
        self.left + step / self.steps.max(1) as f64 * self.width
    }

    /// CSS y of `cores`.
    pub fn y(&self, cores: f64) -> f64 {
        self.top + (1.0 - cores / self.y_max) * self.height
    }

    /// Step position (fractional) at CSS x.
    pub fn step_at(&self, x: f64) -> f64 {
        (x - self.left) / self.width * self.steps as f64
    }

    /// Cores at CSS y.
    pub fn cores_at(&self, y: f64) -> f64 {
        (1.0 - (y - self.top) / self.height) * self.y_max
    }

    /// CSS pixels per step.
    pub fn step_px(&self) -> f64 {
        self.width / self.steps.max(1) as f64
    }

    /// Whether CSS point `(x, y)` is inside the plot.
    pub fn inside(&self, x: f64, y: f64) -> bool {
        x >= self.left && x < self.left + self.width && y >= self.top && y < self.top + self.height
    }
}

/// One step of a reservation on the stack: plan step, cores below and at
/// its top.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slab {
    /// Plan step.
    pub tau: usize,
    /// Cores of the reservations below.
    pub base: f64,
    /// `base` plus this reservation's cores.
    pub top: f64,
}

/// A reservation's place on the stack.
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    /// Reservation id.
    pub id: u32,
    /// Its colour (palette index: its position among the reservations).
    pub colour: usize,
    /// Every occupied step of every instance, instance by instance.
    pub slabs: Vec<Slab>,
}

/// The reservations stacked in id order, and the cores reserved per step.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stack {
    /// One layer per reservation, bottom first.
    pub layers: Vec<Layer>,
    /// Cores reserved per step.
    pub level: Vec<f64>,
}

/// Stacks `view`'s reservations (except `skip`) in id order.
pub fn stack(view: &AgendaView, skip: Option<u32>) -> Stack {
    let mut level = vec![0.0; view.steps];
    let layers = view
        .reservations
        .iter()
        .enumerate()
        .filter(|(_, r)| Some(r.id) != skip)
        .map(|(colour, r)| Layer {
            id: r.id,
            colour,
            slabs: place(&mut level, r, r.start),
        })
        .collect();
    Stack { layers, level }
}

/// Puts `r` at `start` on top of `level` (raising it); returns its slabs.
pub fn place(level: &mut [f64], r: &ReservationView, start: usize) -> Vec<Slab> {
    let steps = level.len();
    if steps == 0 {
        return Vec::new();
    }
    r.occupied(steps, start)
        .map(|(tau, c)| {
            let base = level[tau];
            level[tau] += c * r.cores;
            Slab {
                tau,
                base,
                top: level[tau],
            }
        })
        .collect()
}

impl Stack {
    /// The reservation drawn at step `tau`, `cores` high.
    pub fn hit(&self, tau: usize, cores: f64) -> Option<u32> {
        self.layers.iter().find_map(|l| {
            l.slabs
                .iter()
                .any(|s| s.tau == tau && s.top > s.base && cores >= s.base && cores < s.top)
                .then_some(l.id)
        })
    }

    /// Where to grab reservation `r` (CSS pixels): inside its band at the
    /// step of its first instance where the band is tallest across that step
    /// and two on each side (so a pointer a step or two off still lands on
    /// it), the one nearest the instance's middle among equals.
    pub fn grab_point(&self, g: &Geometry, r: &ReservationView) -> Option<(f64, f64)> {
        let layer = self.layers.iter().find(|l| l.id == r.id)?;
        let first = layer.slabs.get(..r.alloc.len())?;
        let band = |j: usize| {
            let near = &first[j.saturating_sub(2)..(j + 3).min(first.len())];
            let lo = near.iter().map(|s| s.base).fold(f64::MIN, f64::max);
            let hi = near.iter().map(|s| s.top).fold(f64::MAX, f64::min);
            (lo, hi)
        };
        let middle = first.len() as f64 / 2.0;
        let j = (0..first.len()).max_by(|&a, &b| {
            let (ha, hb) = (band(a), band(b));
            (ha.1 - ha.0).total_cmp(&(hb.1 - hb.0)).then_with(|| {
                (b as f64 - middle)
                    .abs()
                    .total_cmp(&(a as f64 - middle).abs())
            })
        })?;
        let (lo, hi) = band(j);
        Some((g.x(first[j].tau as f64 + 0.5), g.y((lo + hi) / 2.0)))
    }
}

/// Polygons (in plot coordinates) of a run of slabs: one per stretch of
/// consecutive steps.
fn polygons(slabs: &[Slab]) -> Vec<Vec<(f64, f64)>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < slabs.len() {
        let mut j = i + 1;
        while j < slabs.len() && slabs[j].tau == slabs[j - 1].tau + 1 {
            j += 1;
        }
        let run = &slabs[i..j];
        let mut points = Vec::with_capacity(run.len() * 4);
        for s in run {
            points.push((s.tau as f64, s.top));
            points.push((s.tau as f64 + 1.0, s.top));
        }
        for s in run.iter().rev() {
            points.push((s.tau as f64 + 1.0, s.base));
            points.push((s.tau as f64, s.base));
        }
        out.push(points);
        i = j;
    }
    out
}

type Area = DrawingArea<CanvasBackend, Shift>;
type DrawError = DrawingAreaErrorKind<<CanvasBackend as DrawingBackend>::ErrorType>;
type Ctx<'a> = plotters::chart::DualCoordChartContext<
    'a,
    CanvasBackend,
    Cartesian2d<RangedCoordf64, RangedCoordf64>,
    Cartesian2d<RangedCoordf64, RangedCoordf64>,
>;

/// What one frame shows.
struct Frame<'a> {
    view: &'a AgendaView,
    drag: Option<&'a Drag>,
    scale: f64,
    y_max: f64,
}

impl Frame<'_> {
    fn px(&self, css: f64) -> f64 {
        css * self.scale
    }

    fn pu(&self, css: f64) -> u32 {
        (css * self.scale).round().max(1.0) as u32
    }

    fn font(&self, size: f64, colour: &RGBColor) -> TextStyle<'static> {
        (FONT, self.px(size)).into_font().color(colour)
    }

    /// The chart's coordinates on `root` (the same layout in both layers).
    fn chart<'a>(&self, root: &'a Area) -> Result<Ctx<'a>, DrawError> {
        let steps = self.view.steps.max(1) as f64;
        let cap = self.capacity_cores();
        Ok(ChartBuilder::on(root)
            .margin_top(self.pu(14.0))
            .margin_left(self.pu(6.0))
            .margin_right(self.pu(6.0))
            .x_label_area_size(self.pu(34.0))
            .y_label_area_size(self.pu(58.0))
            .right_y_label_area_size(self.pu(58.0))
            .build_cartesian_2d(0.0..steps, 0.0..self.y_max)?
            .set_secondary_coord(0.0..steps, 0.0..self.y_max / cap))
    }

    fn capacity_cores(&self) -> f64 {
        self.view
            .capacity
            .map_or(1.0, |c| c.cores)
            .max(f64::MIN_POSITIVE)
    }

    /// Frame, grid, axes, capacity line and the stacked reservations
    /// (without the dragged one).
    fn base(&self, root: &Area, stacked: &Stack) -> Result<Geometry, DrawError> {
        root.fill(&WHITE)?;
        let mut chart = self.chart(root)?;
        let step_secs = self.view.step_secs;
        let (y_max, cap) = (self.y_max, self.capacity_cores());
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(0)
            .x_desc("Time of day (UTC)")
            .y_desc("Cores reserved")
            .axis_desc_style(self.font(12.5, &MUTED))
            .label_style(self.font(11.5, &MUTED))
            .axis_style(AXIS.stroke_width(self.pu(1.0)))
            .bold_line_style(GRID.stroke_width(self.pu(1.0)))
            .light_line_style(TRANSPARENT)
            .y_labels(8)
            .y_label_formatter(&|v| tick(*v, y_max))
            .draw()?;
        // Every two hours: a grid line and its time.
        let hours = (7_200 / step_secs.max(1)).max(1) as usize;
        for t in (0..=self.view.steps).step_by(hours) {
            let x = t as f64;
            chart.draw_series(LineSeries::new(
                vec![(x, 0.0), (x, y_max)],
                GRID.stroke_width(self.pu(1.0)),
            ))?;
            let at = chart.backend_coord(&(x, 0.0));
            root.draw(&Text::new(
                clock(x, step_secs),
                (at.0 - self.px(15.0) as i32, at.1 + self.px(7.0) as i32),
                self.font(11.5, &MUTED),
            ))?;
        }
        chart
            .configure_secondary_axes()
            .y_desc("Cost c(t) — 1.0 is the capacity")
            .axis_desc_style(self.font(12.5, &MUTED))
            .label_style(self.font(11.5, &MUTED))
            .axis_style(AXIS.stroke_width(self.pu(1.0)))
            .y_label_formatter(&|v| format!("{v:.2}"))
            .draw()?;
        let outline = self.view.reservations.len() <= OUTLINED;
        for layer in &stacked.layers {
            let colour = PALETTE[layer.colour % PALETTE.len()];
            for points in polygons(&layer.slabs) {
                if outline {
                    chart.draw_series(std::iter::once(PathElement::new(
                        closed(&points),
                        WHITE.stroke_width(self.pu(1.0)),
                    )))?;
                }
                chart.draw_series(std::iter::once(Polygon::new(points, colour.filled())))?;
            }
        }
        if self.view.capacity.is_some() {
            let steps = self.view.steps as f64;
            chart.draw_series(DashedLineSeries::new(
                vec![(0.0, cap), (steps, cap)],
                self.pu(8.0),
                self.pu(5.0),
                CAPACITY.stroke_width(self.pu(1.6)),
            ))?;
            let label = format!("capacity {} cores", trimmed(cap));
            let at = chart.backend_coord(&(steps, cap));
            root.draw(&Text::new(
                label,
                (at.0 - self.px(130.0) as i32, at.1 - self.px(16.0) as i32),
                self.font(11.5, &CAPACITY),
            ))?;
        }
        let (xs, ys) = chart.plotting_area().get_pixel_range();
        let css = |v: i32| f64::from(v) / self.scale;
        Ok(Geometry {
            left: css(xs.start),
            top: css(ys.start),
            width: css(xs.end - xs.start),
            height: css(ys.end - ys.start),
            steps: self.view.steps,
            y_max,
        })
    }

    /// The dragged reservation's window and ghost, the cost curve and the
    /// peak, over the base.
    fn overlay(
        &self,
        root: &Area,
        level: &[f64],
        geometry: &Geometry,
        context: &CanvasRenderingContext2d,
    ) -> Result<(), DrawError> {
        let mut chart = self.chart(root)?;
        let view = self.view;
        let steps = view.steps;
        let mut cost = &view.cost;
        if let Some(drag) = self.drag {
            if let Some(r) = view.reservations.iter().find(|r| r.id == drag.id) {
                // The window of each instance, shaded.
                for i in 0..r.instances {
                    let (a, d) = (
                        r.window.0 + i * r.period_steps,
                        r.window.1 + i * r.period_steps,
                    );
                    for (lo, hi) in wrap(a, d, steps) {
                        chart.draw_series(std::iter::once(Rectangle::new(
                            [(lo as f64, 0.0), (hi as f64, self.y_max)],
                            WINDOW.mix(0.07).filled(),
                        )))?;
                        for x in [lo, hi] {
                            chart.draw_series(LineSeries::new(
                                vec![(x as f64, 0.0), (x as f64, self.y_max)],
                                WINDOW.mix(0.55).stroke_width(self.pu(1.0)),
                            ))?;
                        }
                    }
                }
                let current = drag.preview.as_ref().filter(|p| p.start == drag.start);
                let invalid = current.is_some_and(|p| !p.preview.feasible);
                let colour = view
                    .reservations
                    .iter()
                    .position(|x| x.id == r.id)
                    .map_or(PALETTE[0], |i| PALETTE[i % PALETTE.len()]);
                let mut raised = level.to_vec();
                let slabs = place(&mut raised, r, drag.start);
                for points in polygons(&slabs) {
                    let clipped: Vec<(f64, f64)> = points
                        .iter()
                        .map(|&(x, y)| (x, y.min(self.y_max)))
                        .collect();
                    let (fill, edge) = if invalid {
                        (PEAK.mix(0.18), PEAK)
                    } else {
                        (colour.mix(0.9), INK)
                    };
                    chart.draw_series(std::iter::once(Polygon::new(
                        clipped.clone(),
                        fill.filled(),
                    )))?;
                    if invalid {
                        hatch(context, geometry, &clipped, self.scale);
                    }
                    chart.draw_series(std::iter::once(PathElement::new(
                        closed(&clipped),
                        edge.stroke_width(self.pu(1.5)),
                    )))?;
                }
                if let Some(p) = drag.preview.as_ref() {
                    cost = &p.preview.cost;
                }
            }
        }
        // The cost curve, as steps.
        let mut line = Vec::with_capacity(cost.len() * 2);
        for (t, &c) in cost.iter().enumerate() {
            line.push((t as f64, c));
            line.push((t as f64 + 1.0, c));
        }
        chart.draw_secondary_series(LineSeries::new(line, COST.stroke_width(self.pu(1.5))))?;
        // The peak: a marker and its value.
        let peak = cost
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(b.1).then(b.0.cmp(&a.0)));
        if let Some((t, &c)) = peak.filter(|(_, c)| **c > 0.0) {
            let x = t as f64 + 0.5;
            chart.draw_secondary_series(std::iter::once(Circle::new(
                (x, c),
                self.pu(4.0),
                PEAK.filled(),
            )))?;
            let at = chart.borrow_secondary().backend_coord(&(x, c));
            let label = format!("peak {c:.3} at {}", clock(t as f64, view.step_secs));
            let right = f64::from(at.0) > (geometry.left + geometry.width * 0.75) * self.scale;
            let dx = if right { -self.px(150.0) } else { self.px(8.0) };
            root.draw(&Text::new(
                label,
                (at.0 + dx as i32, at.1 - self.px(18.0) as i32),
                self.font(12.0, &PEAK),
            ))?;
        }
        Ok(())
    }
}

/// `[a, d)` as step ranges inside the plan (a window past the end wraps).
fn wrap(a: usize, d: usize, steps: usize) -> Vec<(usize, usize)> {
    if steps == 0 {
        return Vec::new();
    }
    let (a, len) = (a % steps, (d - a).min(steps));
    if a + len <= steps {
        vec![(a, a + len)]
    } else {
        vec![(a, steps), (0, a + len - steps)]
    }
}

fn closed(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut v = points.to_vec();
    if let Some(&first) = points.first() {
        v.push(first);
    }
    v
}

/// Diagonal hatching inside a polygon (plot coordinates), straight on the
/// canvas: plotters has no pattern fills.
fn hatch(context: &CanvasRenderingContext2d, g: &Geometry, points: &[(f64, f64)], scale: f64) {
    let device: Vec<(f64, f64)> = points
        .iter()
        .map(|&(s, c)| (g.x(s) * scale, g.y(c) * scale))
        .collect();
    let Some(&(x0, y0)) = device.first() else {
        return;
    };
    let (mut lo, mut hi) = ((x0, y0), (x0, y0));
    context.save();
    context.begin_path();
    context.move_to(x0, y0);
    for &(x, y) in &device[1..] {
        context.line_to(x, y);
        lo = (lo.0.min(x), lo.1.min(y));
        hi = (hi.0.max(x), hi.1.max(y));
    }
    context.close_path();
    context.clip();
    context.set_stroke_style_str("rgba(220, 38, 38, 0.85)");
    context.set_line_width(scale.max(1.0));
    context.begin_path();
    let gap = HATCH * scale;
    let span = hi.1 - lo.1;
    let mut x = lo.0 - span;
    while x < hi.0 {
        context.move_to(x, hi.1);
        context.line_to(x + span, lo.1);
        x += gap;
    }
    context.stroke();
    context.restore();
}

fn tick(value: f64, max: f64) -> String {
    if max >= 20.0 {
        format!("{value:.0}")
    } else {
        format!("{value:.1}")
    }
}

fn trimmed(v: f64) -> String {
    crate::widgets::format::trimmed(v, 2)
}

/// The tooltip's lines for reservation `r`.
fn tooltip(view: &AgendaView, r: &ReservationView) -> Vec<String> {
    let s = view.step_secs;
    let len = r.alloc.len();
    let kind = match r.period_secs {
        Some(p) if r.instances > 1 => format!(
            "every {} · {} instances",
            skyplan_engine::time::format_duration(p),
            r.instances
        ),
        Some(p) => format!("every {}", skyplan_engine::time::format_duration(p)),
        None => "one-off".to_owned(),
    };
    let mut demand = String::new();
    let _ = write!(
        demand,
        "demand {} container-steps · up to {} containers × {len} steps",
        trimmed(r.demand),
        trimmed(r.peak_containers)
    );
    vec![
        r.name.clone(),
        kind,
        format!(
            "window {}–{}",
            clock(r.window.0 as f64, s),
            clock(r.window.1 as f64, s)
        ),
        format!(
            "reserved {}–{}",
            clock(r.start as f64, s),
            clock((r.start + len) as f64, s)
        ),
        demand,
        format!(
            "placed by {}",
            crate::parts::agenda::protocol::method_label(r.method)
        ),
    ]
}

/// What the pointer hovers.
#[derive(Clone, Debug, PartialEq)]
struct Hover {
    id: u32,
    x: f64,
    y: f64,
}

/// The timeline canvas.
#[component]
pub fn Timeline(
    /// The plan (`None`: not arrived yet).
    #[prop(into)]
    view: Signal<Option<AgendaView>>,
    /// The reservations stacked (the panel shares it with the rows).
    #[prop(into)]
    stacked: Signal<Stack>,
    /// The drag in progress.
    #[prop(into)]
    drag: Signal<Option<Drag>>,
    /// Written after every draw: where the plot lies.
    geometry: RwSignal<Option<Geometry>>,
    /// A reservation was grabbed: its id and the step position.
    on_grab: Callback<(u32, f64)>,
    /// The pointer moved during a drag: the step position under it.
    on_drag: Callback<f64>,
    /// The pointer was released during a drag.
    on_drop: Callback<()>,
    /// A frame showing a preview was drawn: when that preview was asked.
    on_preview_drawn: Callback<f64>,
) -> impl IntoView {
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let cache = Cache {
        background: StoredValue::new_local(None),
        key: StoredValue::new(None),
        level: StoredValue::new(Vec::new()),
    };
    let hover = RwSignal::new(None::<Hover>);
    let resized = RwSignal::new(0u32);
    let on_resize = window_event_listener(leptos::ev::resize, move |_| {
        resized.update(|n| *n = n.wrapping_add(1));
    });
    let dragging = move || drag.with_untracked(|d| d.as_ref().is_some_and(|d| !d.dropped));
    let pointer = move |ev: &MouseEvent| -> Option<(f64, f64)> {
        let el = canvas.get_untracked()?;
        let rect = el.get_bounding_client_rect();
        Some((
            f64::from(ev.client_x()) - rect.left(),
            f64::from(ev.client_y()) - rect.top(),
        ))
    };
    let on_move = window_event_listener(leptos::ev::mousemove, move |ev| {
        if !dragging() {
            return;
        }
        if let (Some((x, _)), Some(g)) = (pointer(&ev), geometry.get_untracked()) {
            on_drag.run(g.step_at(x));
        }
    });
    let on_up = window_event_listener(leptos::ev::mouseup, move |_| {
        if dragging() {
            on_drop.run(());
        }
    });
    on_cleanup(move || {
        on_resize.remove();
        on_move.remove();
        on_up.remove();
    });

    Effect::new(move |_| {
        resized.track();
        let Some(el) = canvas.get() else { return };
        view.with(|v| {
            let Some(v) = v.as_ref().filter(|v| v.steps > 0) else {
                let _ = el.remove_attribute("data-drawn");
                return;
            };
            drag.with(|d| {
                let d = d
                    .as_ref()
                    .filter(|d| v.reservations.iter().any(|r| r.id == d.id));
                match draw(&el, v, d, &stacked, cache, geometry) {
                    Ok(()) => {
                        let _ = el.set_attribute("data-drawn", "true");
                        if let Some(p) = d.and_then(|d| d.preview.as_ref()) {
                            on_preview_drawn.run(p.asked_at);
                        }
                    }
                    Err(e) => {
                        let _ = el.remove_attribute("data-drawn");
                        leptos::logging::error!("timeline not drawn: {e}");
                    }
                }
            });
        });
    });

    let on_down = move |ev: MouseEvent| {
        if ev.button() != 0 {
            return;
        }
        let (Some((x, y)), Some(g)) = (pointer(&ev), geometry.get_untracked()) else {
            return;
        };
        if !g.inside(x, y) {
            return;
        }
        let at = g.step_at(x);
        if let Some(id) = stacked.with_untracked(|s| s.hit(at.floor() as usize, g.cores_at(y))) {
            ev.prevent_default();
            hover.set(None);
            on_grab.run((id, at));
        }
    };
    let on_hover = move |ev: MouseEvent| {
        if dragging() {
            return;
        }
        let (Some((x, y)), Some(g)) = (pointer(&ev), geometry.get_untracked()) else {
            return;
        };
        let hit = g
            .inside(x, y)
            .then(|| {
                stacked.with_untracked(|s| s.hit(g.step_at(x).floor() as usize, g.cores_at(y)))
            })
            .flatten();
        hover.set(hit.map(|id| Hover { id, x, y }));
    };
    let tip = move || {
        let h = hover.get()?;
        let lines = view.with(|v| {
            let v = v.as_ref()?;
            v.reservations
                .iter()
                .find(|r| r.id == h.id)
                .map(|r| tooltip(v, r))
        })?;
        let width = canvas.get_untracked().map_or(0, |c| c.client_width());
        let left = if h.x + 300.0 > f64::from(width) {
            h.x - 300.0
        } else {
            h.x + 16.0
        };
        Some(view! {
            <div class="timeline-tip" data-testid="agenda-tooltip" style:left=format!("{left}px") style:top=format!("{}px", h.y + 14.0)>
                <strong>{lines[0].clone()}</strong>
                {lines[1..].iter().map(|l| view! { <span>{l.clone()}</span> }).collect_view()}
            </div>
        })
    };
    let cursor = move || {
        if drag.with(|d| d.is_some()) {
            "grabbing"
        } else if hover.with(Option::is_some) {
            "grab"
        } else {
            "default"
        }
    };
    view! {
        <div class="timeline-frame">
            <canvas
                data-testid="agenda-canvas"
                node_ref=canvas
                style:cursor=cursor
                on:mousedown=on_down
                on:mousemove=on_hover
                on:mouseleave=move |_| hover.set(None)
            ></canvas>
            {tip}
        </div>
    }
}

/// What the base layer was drawn for: plan revision, reservations, the
/// reservation left out (dragged), canvas width and height.
type BaseKey = (u64, usize, Option<u32>, u32, u32);

/// The base layer, kept between frames.
#[derive(Clone, Copy)]
struct Cache {
    /// The offscreen canvas holding it.
    background: StoredValue<Option<HtmlCanvasElement>, LocalStorage>,
    /// What it shows.
    key: StoredValue<Option<BaseKey>>,
    /// Cores reserved per step in it (what a ghost stacks on).
    level: StoredValue<Vec<f64>>,
}

/// Draws one frame: the base when it is stale, then the overlay.
fn draw(
    el: &HtmlCanvasElement,
    view: &AgendaView,
    drag: Option<&Drag>,
    stacked: &Signal<Stack>,
    cache: Cache,
    geometry: RwSignal<Option<Geometry>>,
) -> Result<(), String> {
    let Cache {
        background,
        key: base_key,
        level,
    } = cache;
    let scale = window().device_pixel_ratio().max(1.0);
    let width = (f64::from(el.client_width().max(320)) * scale) as u32;
    let height = (f64::from(el.client_height().max(240)) * scale) as u32;
    let skip = drag.map(|d| d.id);
    let key = (view.revision, view.reservations.len(), skip, width, height);
    let top = stacked.with_untracked(|s| s.level.iter().copied().fold(0.0, f64::max));
    let cap = view.capacity.map_or(0.0, |c| c.cores);
    let frame = Frame {
        view,
        drag,
        scale,
        y_max: (top.max(cap) * HEADROOM).max(1.0),
    };
    if base_key.get_value() != Some(key) {
        let bg = background
            .with_value(Clone::clone)
            .map_or_else(
                || {
                    document()
                        .create_element("canvas")
                        .map(JsCast::unchecked_into::<HtmlCanvasElement>)
                },
                Ok,
            )
            .map_err(|e| crate::protocol::js_error_text(&e))?;
        bg.set_width(width);
        bg.set_height(height);
        let below = match skip {
            Some(id) => stack(view, Some(id)),
            None => stacked.get_untracked(),
        };
        let backend = CanvasBackend::with_canvas_object(bg.clone()).ok_or("no 2D context")?;
        let root = backend.into_drawing_area();
        let g = frame.base(&root, &below).map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
        level.set_value(below.level);
        background.set_value(Some(bg));
        base_key.set_value(Some(key));
        if geometry.get_untracked() != Some(g) {
            geometry.set(Some(g));
        }
    }
    if el.width() != width || el.height() != height {
        el.set_width(width);
        el.set_height(height);
    }
    let context = el
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
        .ok_or("no 2D context")?;
    background.with_value(|bg| match bg {
        Some(bg) => context
            .draw_image_with_html_canvas_element(bg, 0.0, 0.0)
            .map_err(|e| crate::protocol::js_error_text(&e)),
        None => Ok(()),
    })?;
    let g = geometry.get_untracked().ok_or("no geometry")?;
    let backend = CanvasBackend::with_canvas_object(el.clone()).ok_or("no 2D context")?;
    let root = backend.into_drawing_area();
    level
        .with_value(|l| frame.overlay(&root, l, &g, &context))
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}
