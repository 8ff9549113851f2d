//! Reading the files a user picks (a tenants CSV, a YARN file, a workload)
//! as text on the page, to send to the worker.

use crate::protocol::js_error_text;

/// Reads `files` as text, in order, then hands their names and texts to
/// `then` — or, when one cannot be read, `{name} could not be read: why`.
pub fn read_texts(
    files: Vec<web_sys::File>,
    then: impl FnOnce(Result<Vec<(String, String)>, String>) + 'static,
) {
    leptos::task::spawn_local(async move {
        let mut read = Vec::with_capacity(files.len());
        for file in files {
            let name = file.name();
            match wasm_bindgen_futures::JsFuture::from(file.text()).await {
                Ok(text) => read.push((name, text.as_string().unwrap_or_default())),
                Err(e) => {
                    then(Err(format!(
                        "{name} could not be read: {}",
                        js_error_text(&e)
                    )));
                    return;
                }
            }
        }
        then(Ok(read));
    });
}

/// Reads one file as text, then hands `(name, text)` to `then` — or the
/// reason it could not be read.
pub fn read_text(
    file: web_sys::File,
    then: impl FnOnce(Result<(String, String), String>) + 'static,
) {
    read_texts(vec![file], move |read| {
        then(read.and_then(|mut files| files.pop().ok_or_else(|| "no file".to_owned())))
    });
}
