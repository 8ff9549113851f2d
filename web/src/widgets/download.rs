//! Files the browser downloads: text the worker produced, and the drawn
//! charts as one PNG.

use crate::protocol::js_error_text;
use js_sys::{Array, Uint8Array};
use leptos::prelude::*;
use std::time::Duration;
use wasm_bindgen::JsCast;
use web_sys::{
    Blob, BlobPropertyBag, CanvasRenderingContext2d, HtmlCanvasElement, HtmlElement, Url,
};

/// Offers `text` as a download named `name` of type `mime`.
///
/// # Errors
/// When the page cannot create the blob, the URL or the link.
pub fn save_text(name: &str, mime: &str, text: &str) -> Result<(), String> {
    offer(name, mime, &Array::of1(&text.into()))
}

/// Offers `bytes` as a download named `name` of type `mime` (a workspace
/// bundle).
///
/// # Errors
/// When the page cannot create the blob, the URL or the link.
pub fn save_bytes(name: &str, mime: &str, bytes: &[u8]) -> Result<(), String> {
    offer(name, mime, &Array::of1(&Uint8Array::from(bytes)))
}

/// Offers `parts` as one download: a `Blob`, an object URL and a clicked
/// `<a download>`. The URL is revoked a little later, once the browser has
/// taken the file.
fn offer(name: &str, mime: &str, parts: &Array) -> Result<(), String> {
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    let blob = Blob::new_with_u8_array_sequence_and_options(parts, &options)
        .map_err(|e| js_error_text(&e))?;
    let url = Url::create_object_url_with_blob(&blob).map_err(|e| js_error_text(&e))?;
    let clicked = click_download(&url, name);
    set_timeout(
        move || {
            let _ = Url::revoke_object_url(&url);
        },
        Duration::from_secs(30),
    );
    clicked
}

/// Clicks a hidden `<a download>` of `url` named `name`.
fn click_download(url: &str, name: &str) -> Result<(), String> {
    let link = document()
        .create_element("a")
        .map_err(|e| js_error_text(&e))?
        .unchecked_into::<HtmlElement>();
    let body = document().body().ok_or("the page has no body")?;
    let clicked = link
        .set_attribute("href", url)
        .and_then(|()| link.set_attribute("download", name))
        .and_then(|()| link.set_attribute("hidden", ""))
        .and_then(|()| body.append_child(&link).map(drop))
        .map(|()| link.click());
    link.remove();
    clicked.map_err(|e| js_error_text(&e))
}

/// Downloads the drawn canvases among `testids` as one PNG named `name`,
/// `cols` a row on white (one canvas: as it is).
///
/// # Errors
/// When none is drawn, or the page cannot make the image or the link.
pub fn save_canvases(testids: &[&str], cols: usize, name: &str) -> Result<(), String> {
    let canvases: Vec<HtmlCanvasElement> = testids
        .iter()
        .filter_map(|id| {
            document()
                .query_selector(&format!("canvas[data-testid={id}][data-drawn=true]"))
                .ok()
                .flatten()
                .and_then(|c| c.dyn_into::<HtmlCanvasElement>().ok())
        })
        .collect();
    let url = match canvases.as_slice() {
        [] => return Err("nothing is drawn yet".into()),
        [one] => one.to_data_url(),
        all => tiled(all, cols)?.to_data_url(),
    };
    click_download(&url.map_err(|e| js_error_text(&e))?, name)
}

/// `canvases` on one white canvas, `cols` a row.
fn tiled(canvases: &[HtmlCanvasElement], cols: usize) -> Result<HtmlCanvasElement, String> {
    let cols = cols.clamp(1, canvases.len());
    let rows = canvases.len().div_ceil(cols);
    let w = canvases
        .iter()
        .map(HtmlCanvasElement::width)
        .max()
        .unwrap_or(1);
    let h = canvases
        .iter()
        .map(HtmlCanvasElement::height)
        .max()
        .unwrap_or(1);
    let out = document()
        .create_element("canvas")
        .map_err(|e| js_error_text(&e))?
        .unchecked_into::<HtmlCanvasElement>();
    out.set_width(w * cols as u32);
    out.set_height(h * rows as u32);
    let ctx = out
        .get_context("2d")
        .map_err(|e| js_error_text(&e))?
        .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
        .ok_or("no 2D context")?;
    ctx.set_fill_style_str("white");
    ctx.fill_rect(0.0, 0.0, f64::from(out.width()), f64::from(out.height()));
    for (k, c) in canvases.iter().enumerate() {
        let (x, y) = ((k % cols) as u32 * w, (k / cols) as u32 * h);
        ctx.draw_image_with_html_canvas_element(c, f64::from(x), f64::from(y))
            .map_err(|e| js_error_text(&e))?;
    }
    Ok(out)
}
