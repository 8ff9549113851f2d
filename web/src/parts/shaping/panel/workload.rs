//! Where the workload comes from: the generator's settings, or files.

use crate::fields;
use crate::parts::shaping::desk::ShapingForm;
use crate::parts::shaping::protocol::WorkloadSource;
use crate::state::Studio;
use crate::toolkit::run::ErrorLine;
use crate::widgets::button::button;
use crate::widgets::card::Card;
use crate::widgets::field::{text_field, Field};
use crate::widgets::file_button::FileButton;
use crate::widgets::format::{count, hours};
use leptos::prelude::*;

/// The generator's and the cluster's fields.
const WORKLOAD_FIELDS: [Field<ShapingForm>; 6] = fields![ShapingForm:
    ("Applications", "shaping-apps", apps),
    ("Seed", "shaping-seed", seed),
    ("Load (requested / capacity)", "shaping-load", load),
    ("Hosts", "shaping-hosts", hosts),
    ("Cores per host", "shaping-host-cpu", host_cpu),
    ("GB per host", "shaping-host-mem", host_mem),
];

/// Where the workload comes from: the generator's settings, or files.
#[component]
pub fn WorkloadCard() -> impl IntoView {
    let desk = expect_context::<Studio>().shaping;
    let files = move || desk.form.with(|f| f.source == WorkloadSource::Files);
    let loaded = move || {
        desk.loaded.with(|l| match l {
            Some((name, s)) => format!(
                "{name}: {} applications ({} rigid), {} components, arrivals over {} h",
                count(s.apps),
                count(s.rigid),
                count(s.components),
                hours(s.arrival_span_s)
            ),
            None => "no file read".to_owned(),
        })
    };
    view! {
        <Card
            title="Workload"
            text="§IV's synthetic workload — rigid and elastic applications, components from one to thousands, runtimes from seconds to weeks, bursty arrivals at the paper's rate per host — or your own."
        >
            <label class="field">
                <span class="field-label">"Source"</span>
                <select
                    data-testid="shaping-source"
                    on:change=move |ev| {
                        let source = if event_target_value(&ev) == "files" {
                            WorkloadSource::Files
                        } else {
                            WorkloadSource::Generated
                        };
                        desk.form.update(|f| f.source = source);
                    }
                >
                    <option value="generated" selected=move || !files()>"Generated (§IV-like)"</option>
                    <option
                        value="files"
                        selected=files
                        disabled=move || desk.loaded.with(Option::is_none)
                    >
                        "Files read below"
                    </option>
                </select>
            </label>
            <div class="form-grid two">
                {WORKLOAD_FIELDS.into_iter().map(|f| text_field(desk.form, f)).collect_view()}
            </div>
            <p class="hint">
                "Applications, seed and load shape the generated workload; the cluster (hosts of equal cores and GB) is used by both sources."
            </p>
            <div class="actions">
                <FileButton
                    label="Read workload files…"
                    testid="shaping-files-input"
                    accept=".csv,.json,text/csv,application/json"
                    multiple=true
                    on_files=move |files| desk.read_files(files)
                />
                <Show when=move || desk.loaded.with(Option::is_some)>
                    {button(
                        "button small",
                        "shaping-forget",
                        "Forget files",
                        || false,
                        move || desk.forget_files(),
                    )}
                </Show>
            </div>
            <p class="hint" data-testid="shaping-loaded">{loaded}</p>
            <ErrorLine testid="shaping-read-error" error=desk.read_error pre=true/>
            <p class="hint">
                "Choose together: an applications CSV (app,arrival,runtime,kind,count,cpu,mem) with its usage CSV (app,minute,cpu,mem), or a workload JSON, or Alibaba v2018 container_meta.csv with container_usage.csv (every container a core component), or Google 2019 instance_events with instance_usage, as CSV or JSON lines (one application per collection, every instance a core component, requests as shares of the cores and GB per host)."
            </p>
        </Card>
    }
}
