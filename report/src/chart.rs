//! Charts as inline SVG, written by hand: axes with round ticks, lines or
//! steps, grouped bars. No font, script or image is referenced (text uses
//! the page's generic sans-serif), so the drawing prints and opens offline.
//! Every label goes through [`escape`].

use crate::html::{escape, Html, Svg};
use std::fmt::Write as _;

/// Width and height of a chart's drawing, in SVG units.
const W: f64 = 640.0;
const H: f64 = 220.0;
/// Margins: left (tick labels), right, top, bottom (tick labels, axis title).
const ML: f64 = 56.0;
const MR: f64 = 12.0;
const MT: f64 = 14.0;
const MB: f64 = 38.0;

/// Legend entries a row, under the chart.
const LEGEND_COLUMNS: usize = 4;

/// Series colours, in order; dark enough to print in grey.
const PALETTE: [&str; 6] = [
    "#1f5fa8", "#c0392b", "#2e8b57", "#8e44ad", "#d35400", "#555555",
];

/// One line of an [`XyChart`].
#[derive(Clone, Debug)]
pub struct Series {
    /// Legend name (escaped when drawn).
    pub name: String,
    /// Points, in x order.
    pub points: Vec<(f64, f64)>,
    /// Drawn as steps (each value holds until the next x) rather than lines.
    pub step: bool,
}

/// A chart of lines or steps over a numeric x axis.
#[derive(Clone, Debug, Default)]
pub struct XyChart {
    /// Title of the x axis.
    pub x_label: String,
    /// Title of the y axis.
    pub y_label: String,
    /// The lines.
    pub series: Vec<Series>,
    /// A horizontal reference line (value, label), e.g. capacity.
    pub reference: Option<(f64, String)>,
    /// Labels of the x ticks from x (e.g. hours of day); numbers when absent.
    pub x_tick: Option<fn(f64) -> String>,
}

/// The dash pattern of series `k`: solid for the first round of colours,
/// dashed, then dotted, so every series of a crowded chart stays apart.
fn dash(k: usize) -> &'static str {
    match (k / PALETTE.len()) % 3 {
        0 => "",
        1 => " stroke-dasharray=\"6 3\"",
        _ => " stroke-dasharray=\"2 2\"",
    }
}

/// Round tick positions covering `[lo, hi]`: about `n` of them at 1, 2 or
/// 5 × a power of ten.
fn ticks(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    let span = (hi - lo).abs();
    if !(span.is_finite() && span > 0.0) {
        return vec![lo];
    }
    let raw = span / n.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    let first = (lo / step).ceil() * step;
    let mut out = Vec::new();
    let mut t = first;
    while t <= hi + step * 1e-9 && out.len() < 50 {
        out.push(if t.abs() < step * 1e-9 { 0.0 } else { t });
        t += step;
    }
    out
}

/// A tick label: short, no trailing zeros.
fn tick_label(v: f64) -> String {
    let a = v.abs();
    if a >= 1e6 {
        format!("{:.1}M", v / 1e6)
    } else if a >= 1e4 {
        format!("{:.0}k", v / 1e3)
    } else if a >= 100.0 || v == v.round() {
        format!("{v:.0}")
    } else if a >= 1.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

fn open(out: &mut String, height: f64, label: &str) {
    let _ = write!(
        out,
        "<svg class=\"chart\" viewBox=\"0 0 {W} {height:.0}\" role=\"img\" aria-label=\"{}\">",
        escape(label)
    );
}

/// The finite range of `values`, widened when flat; `None` when empty.
fn range(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    let (lo, hi) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    if !lo.is_finite() {
        return None;
    }
    if hi > lo {
        Some((lo, hi))
    } else {
        Some((lo - 0.5, hi + 0.5))
    }
}

/// `c` drawn into `h` as a figure captioned `caption`; nothing when no
/// series has a finite point. What every section's line chart does, so a
/// chart with nothing to draw is left out the same way everywhere.
pub fn xy_figure(h: &mut Html, c: &XyChart, caption: &str) {
    if let Some(svg) = xy(c) {
        h.chart(&svg, caption);
    }
}

/// Draws the lines of `c`; `None` when no series has a finite point.
pub fn xy(c: &XyChart) -> Option<Svg> {
    let points = || c.series.iter().flat_map(|s| s.points.iter());
    let (x0, x1) = range(points().map(|p| p.0))?;
    let (y_lo, y_hi) = range(
        points()
            .map(|p| p.1)
            .chain(c.reference.iter().map(|r| r.0))
            .chain(std::iter::once(0.0)),
    )?;
    let y_ticks = ticks(y_lo, y_hi * 1.05, 5);
    let y0 = y_ticks.first().copied().unwrap_or(y_lo).min(y_lo);
    let y1 = y_ticks.last().copied().unwrap_or(y_hi).max(y_hi);
    let sx = |x: f64| ML + (x - x0) / (x1 - x0) * (W - ML - MR);
    let sy = |y: f64| H - MB - (y - y0) / (y1 - y0) * (H - MT - MB);
    let legend_rows = if c.series.len() > 1 {
        c.series.len().div_ceil(LEGEND_COLUMNS)
    } else {
        0
    };
    let height = H + legend_rows as f64 * 13.0;
    let mut out = String::new();
    open(&mut out, height, &c.y_label);
    // Grid and y ticks.
    for t in &y_ticks {
        let y = sy(*t);
        let _ = write!(
            out,
            "<line class=\"grid\" x1=\"{ML}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\"/><text class=\"tick\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            W - MR,
            ML - 4.0,
            y + 3.5,
            escape(&tick_label(*t))
        );
    }
    for t in ticks(x0, x1, 8) {
        let x = sx(t);
        let label = c.x_tick.map_or_else(|| tick_label(t), |f| f(t));
        let _ = write!(
            out,
            "<line class=\"axis\" x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\"/><text class=\"tick\" x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            H - MB,
            H - MB + 4.0,
            H - MB + 15.0,
            escape(&label)
        );
    }
    let _ = write!(
        out,
        "<line class=\"axis\" x1=\"{ML}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\"/><line class=\"axis\" x1=\"{ML}\" y1=\"{MT}\" x2=\"{ML}\" y2=\"{:.1}\"/>",
        H - MB,
        W - MR,
        H - MB,
        H - MB
    );
    let _ = write!(
        out,
        "<text class=\"title\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
        ML + (W - ML - MR) / 2.0,
        H - 6.0,
        escape(&c.x_label)
    );
    let _ = write!(
        out,
        "<text class=\"title\" transform=\"translate(12 {:.1}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
        MT + (H - MT - MB) / 2.0,
        escape(&c.y_label)
    );
    if let Some((v, label)) = &c.reference {
        let y = sy(*v);
        let _ = write!(
            out,
            "<line class=\"reference\" x1=\"{ML}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\"/><text class=\"tick\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            W - MR,
            W - MR - 2.0,
            y - 3.0,
            escape(label)
        );
    }
    for (k, s) in c.series.iter().enumerate() {
        let colour = PALETTE[k % PALETTE.len()];
        let mut d = String::new();
        let mut pen = false;
        for (i, &(x, y)) in s.points.iter().enumerate() {
            if !(x.is_finite() && y.is_finite()) {
                pen = false;
                continue;
            }
            let (px, py) = (sx(x), sy(y));
            let _ = write!(d, "{}{px:.1} {py:.1}", if pen { " L" } else { " M" });
            pen = true;
            if s.step {
                let next = s.points.get(i + 1).map_or(x1, |p| p.0);
                if next.is_finite() {
                    let _ = write!(d, " L{:.1} {py:.1}", sx(next));
                }
            }
        }
        let _ = write!(
            out,
            "<path class=\"series\" d=\"{}\" stroke=\"{colour}\"{}/>",
            d.trim_start(),
            dash(k)
        );
    }
    if c.series.len() > 1 {
        for (k, s) in c.series.iter().enumerate() {
            let colour = PALETTE[k % PALETTE.len()];
            let x = ML + (k % LEGEND_COLUMNS) as f64 * 145.0;
            let y = H + 4.0 + (k / LEGEND_COLUMNS) as f64 * 13.0;
            let _ = write!(
                out,
                "<line class=\"series\" x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"{colour}\"{}/><text class=\"legend\" x=\"{:.1}\" y=\"{:.1}\">{}</text>",
                y - 2.0,
                x + 16.0,
                y - 2.0,
                dash(k),
                x + 20.0,
                y + 1.0,
                escape(&s.name)
            );
        }
    }
    out.push_str("</svg>");
    Some(Svg(out))
}

/// Grouped horizontal bars: one group per row label, one bar per legend
/// entry, with the value written at the bar's end in `unit`. `None` when
/// no value is finite.
pub fn bars(rows: &[(String, Vec<f64>)], legend: &[&str], unit: &str) -> Option<Svg> {
    let max = rows
        .iter()
        .flat_map(|r| r.1.iter())
        .copied()
        .filter(|v| v.is_finite())
        .fold(f64::NEG_INFINITY, f64::max);
    if !max.is_finite() {
        return None;
    }
    let max = if max > 0.0 { max } else { 1.0 };
    let per = legend.len().max(1);
    let bar = 12.0;
    let label_w = 150.0;
    let height = MT + rows.len() as f64 * (per as f64 * bar + 10.0) + 18.0;
    let mut out = String::new();
    let _ = write!(
        out,
        "<svg class=\"chart\" viewBox=\"0 0 {W} {height:.0}\" role=\"img\" aria-label=\"{}\">",
        escape(unit)
    );
    let span = W - label_w - MR - 70.0;
    let mut y = MT;
    for (label, values) in rows {
        let _ = write!(
            out,
            "<text class=\"tick\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            label_w - 6.0,
            y + per as f64 * bar / 2.0 + 3.5,
            escape(label)
        );
        for (k, v) in values.iter().enumerate().take(per) {
            let colour = PALETTE[k % PALETTE.len()];
            let w = if v.is_finite() {
                (v.max(0.0) / max * span).max(0.5)
            } else {
                0.0
            };
            let text = if v.is_finite() {
                format!("{} {unit}", tick_label_exact(*v))
            } else {
                "—".to_string()
            };
            let _ = write!(
                out,
                "<rect x=\"{label_w}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"{:.1}\" fill=\"{colour}\"/><text class=\"tick\" x=\"{:.1}\" y=\"{:.1}\">{}</text>",
                y + k as f64 * bar,
                bar - 2.0,
                label_w + w + 4.0,
                y + k as f64 * bar + bar - 3.5,
                escape(&text)
            );
        }
        y += per as f64 * bar + 10.0;
    }
    for (k, name) in legend.iter().enumerate() {
        let colour = PALETTE[k % PALETTE.len()];
        let x = label_w + k as f64 * 170.0;
        let _ = write!(
            out,
            "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"10\" height=\"8\" fill=\"{colour}\"/><text class=\"legend\" x=\"{:.1}\" y=\"{:.1}\">{}</text>",
            y + 2.0,
            x + 14.0,
            y + 9.5,
            escape(name)
        );
    }
    out.push_str("</svg>");
    Some(Svg(out))
}

/// A bar's value: three significant digits.
fn tick_label_exact(v: f64) -> String {
    let a = v.abs();
    if a >= 100.0 {
        format!("{v:.0}")
    } else if a >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(ticks(0.0, 10.0, 5), vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        let t = ticks(0.0, 0.93, 5);
        assert_eq!(t.first(), Some(&0.0));
        assert!(t.last().copied().unwrap() >= 0.8);
        assert_eq!(ticks(3.0, 3.0, 5), vec![3.0]);
    }

    #[test]
    fn draws_lines_and_escapes_names() {
        let c = XyChart {
            x_label: "x".into(),
            y_label: "y".into(),
            series: vec![
                Series {
                    name: "<script>".into(),
                    points: vec![(0.0, 1.0), (1.0, 2.0)],
                    step: true,
                },
                Series {
                    name: "b".into(),
                    points: vec![(0.0, f64::NAN), (1.0, 3.0)],
                    step: false,
                },
            ],
            reference: Some((2.5, "cap".into())),
            x_tick: None,
        };
        let svg = xy(&c).expect("drawn").0;
        assert!(svg.contains("<path class=\"series\" d=\"M"));
        assert!(svg.contains("&lt;script&gt;"));
        assert!(!svg.contains("<script"));
        let empty = XyChart::default();
        assert!(xy(&empty).is_none());
    }

    #[test]
    fn bars_scale_to_the_largest_value() {
        let svg = bars(&[("a".into(), vec![1.0, 2.0])], &["x", "y"], "s")
            .expect("drawn")
            .0;
        assert_eq!(svg.matches("<rect").count(), 4);
        assert!(svg.contains("2.00 s"));
        assert!(bars(&[("a".into(), vec![f64::NAN])], &["x"], "s").is_none());
    }
}
