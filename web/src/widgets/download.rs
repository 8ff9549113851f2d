//! Saving text the worker produced as a file the browser downloads.

use crate::protocol::js_error_text;
use js_sys::Array;
use leptos::prelude::*;
use std::time::Duration;
use wasm_bindgen::JsCast;
use web_sys::{Blob, BlobPropertyBag, HtmlElement, Url};

/// Offers `text` as a download named `name` of type `mime`: a `Blob`, an
/// object URL and a clicked `<a download>`. The URL is revoked a little
/// later, once the browser has taken the file.
///
/// # Errors
/// When the page cannot create the blob, the URL or the link.
pub fn save_text(name: &str, mime: &str, text: &str) -> Result<(), String> {
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    let blob = Blob::new_with_str_sequence_and_options(&Array::of1(&text.into()), &options)
        .map_err(|e| js_error_text(&e))?;
    let url = Url::create_object_url_with_blob(&blob).map_err(|e| js_error_text(&e))?;
    let link = document()
        .create_element("a")
        .map_err(|e| js_error_text(&e))?
        .unchecked_into::<HtmlElement>();
    let body = document().body().ok_or("the page has no body")?;
    let clicked = link
        .set_attribute("href", &url)
        .and_then(|()| link.set_attribute("download", name))
        .and_then(|()| link.set_attribute("hidden", ""))
        .and_then(|()| body.append_child(&link).map(drop))
        .map(|()| link.click());
    link.remove();
    set_timeout(
        move || {
            let _ = Url::revoke_object_url(&url);
        },
        Duration::from_secs(30),
    );
    clicked.map_err(|e| js_error_text(&e))
}
