//! A figure with its numbers: a chart of a result and the table under it,
//! the way the parts show a run (the Harvest classes, simulations and
//! storage figures), and a chart with a line on how to read it.

use super::chart::{Plot, PlotCanvas};
use super::table::{Col, DataTable};
use leptos::prelude::*;

/// A [`PlotCanvas`] of `data` and a [`DataTable`] of `cols` below it; the
/// table's rows are the children.
#[component]
pub fn ChartTable<T: Plot>(
    /// What to draw (`None`: nothing yet).
    data: Signal<Option<T>>,
    /// What the chart says while there is nothing to draw.
    #[prop(into)]
    placeholder: Signal<String>,
    /// The canvas's `data-testid`.
    testid: &'static str,
    /// The table's columns.
    cols: Vec<Col>,
    /// The table's body rows.
    children: Children,
) -> impl IntoView {
    view! {
        <PlotCanvas data=data placeholder=placeholder testid=testid/>
        <DataTable cols=cols>{children()}</DataTable>
    }
}

/// A [`PlotCanvas`] of `data` with a line under it saying how to read the
/// picture: a chart's legend cannot explain its marks, so the hint does.
#[component]
pub fn HintedChart<T: Plot>(
    /// What to draw (`None`: nothing yet).
    data: Signal<Option<T>>,
    /// What the chart says while there is nothing to draw.
    #[prop(into)]
    placeholder: Signal<String>,
    /// The canvas's `data-testid`.
    testid: &'static str,
    /// How to read the chart.
    hint: &'static str,
) -> impl IntoView {
    view! {
        <PlotCanvas data=data placeholder=placeholder testid=testid/>
        <p class="hint">{hint}</p>
    }
}
