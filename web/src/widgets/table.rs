//! A data table: its scroll frame, its header row and its body.

use leptos::prelude::*;
use std::borrow::Cow;

/// A column: its header, and whether it holds numbers (right-aligned). A
/// header is mostly a fixed word, but may say a setting (`95% PI (s)`).
pub type Col = (Cow<'static, str>, bool);

/// A column of text.
pub fn col(header: impl Into<Cow<'static, str>>) -> Col {
    (header.into(), false)
}

/// A column of numbers.
pub fn num(header: impl Into<Cow<'static, str>>) -> Col {
    (header.into(), true)
}

/// A `<table class="data">` of `cols` in a scroll frame; the body rows are
/// the children.
#[component]
pub fn DataTable(
    /// The columns.
    cols: Vec<Col>,
    /// More classes of the table.
    #[prop(optional)]
    class: &'static str,
    /// More classes of the scroll frame.
    #[prop(optional)]
    frame: &'static str,
    /// The body rows.
    children: Children,
) -> impl IntoView {
    let joined = |base: &str, more: &str| {
        if more.is_empty() {
            base.to_owned()
        } else {
            format!("{base} {more}")
        }
    };
    view! {
        <div class=joined("table-scroll", frame)>
            <table class=joined("data", class)>
                <thead>
                    <tr>
                        {cols
                            .into_iter()
                            .map(|(header, num)| view! { <th class=num.then_some("num")>{header}</th> })
                            .collect_view()}
                    </tr>
                </thead>
                <tbody>{children()}</tbody>
            </table>
        </div>
    }
}
