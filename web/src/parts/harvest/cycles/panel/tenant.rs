//! The chosen tenant's series and spectrum.

use crate::parts::harvest::cycles::charts::{SeriesPlot, SpectrumPlot};
use crate::state::Studio;
use crate::widgets::card::Card;
use crate::widgets::PlotCanvas;
use leptos::prelude::*;

/// The chosen tenant: its series, spectrum and the verdict's evidence.
#[component]
pub fn TenantCard() -> impl IntoView {
    let desk = expect_context::<Studio>().harvest.cycles;
    let series = Signal::derive(move || {
        desk.spectrum.get().map(|v| SeriesPlot {
            key: format!("{}:{}", v.ticket, v.spectrum.name),
            spectrum: v.spectrum,
        })
    });
    let spectrum = Signal::derive(move || {
        desk.spectrum.get().map(|v| SpectrumPlot {
            key: format!("{}:{}", v.ticket, v.spectrum.name),
            spectrum: v.spectrum,
        })
    });
    let verdict = move || {
        desk.spectrum.with(|s| {
            s.as_ref().map(|s| {
                let v = &s.spectrum.verdict;
                let top = v
                    .evidence
                    .top
                    .iter()
                    .map(|f| format!("{} cycles {:.0} %", f.cycles, f.share * 100.0))
                    .collect::<Vec<_>>()
                    .join(", ");
                view! {
                    <p class="hint" data-testid="harvest-verdict" data-pattern=v.pattern.name()>
                        <strong>{format!("{}: ", v.pattern.name())}</strong>
                        {v.reason.clone()}
                        {format!(
                            " Mean {:.1} %, σ {:.1}, CV {:.2}; top frequencies: {top}.",
                            v.evidence.mean,
                            v.evidence.std,
                            v.evidence.cv
                        )}
                    </p>
                }
            })
        })
    };
    let empty = Signal::derive(|| "Pick a tenant in the table.".to_owned());
    view! {
        <Card
            title=Signal::derive(move || desk.tenant.get().unwrap_or_else(|| "Tenant".to_owned()))
        >
            <PlotCanvas data=series placeholder=empty testid="harvest-series"/>
            <PlotCanvas data=spectrum placeholder=empty testid="harvest-spectrum"/>
            {verdict}
        </Card>
    }
}
