//! Where the tenants come from, the clustering's settings, Classify.

use crate::fields;
use crate::parts::harvest::cycles::desk::ClassifyForm;
use crate::state::Studio;
use crate::toolkit::run::{ErrorLine, JobCard, RunButton};
use crate::widgets::button::button;
use crate::widgets::field::{name_choice, text_field, Field};
use crate::widgets::file_button::FileButton;
use crate::widgets::file_source::{FileSource, Forget};
use crate::widgets::format::{count, trimmed};
use leptos::prelude::*;

const CLASSIFY_FIELDS: [Field<ClassifyForm>; 5] = fields![ClassifyForm:
    ("k periodic", "harvest-k-periodic", k[0]),
    ("k constant", "harvest-k-constant", k[1]),
    ("k unpredictable", "harvest-k-unpredictable", k[2]),
    ("Peak percentile", "harvest-peak", peak),
    ("Capacity low percentile", "harvest-low", low),
];

/// Where the tenants come from, the clustering's settings, Classify.
#[component]
pub fn SettingsCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.harvest.cycles;
    let files = move || {
        studio.traces.workspace.with(|w| {
            w.summary
                .files
                .iter()
                .filter(|f| f.series > 0)
                .map(|f| f.name.clone())
                .collect::<Vec<_>>()
        })
    };
    let status = desk.classify.status("classifying", "", "idle", |v| {
        format!(
            "{} tenants, {} classes, {} slots of {} s in {} ms",
            count(v.tenants.len()),
            v.classes.len(),
            count(v.slots),
            v.step_secs,
            trimmed(v.millis, 0)
        )
    });
    view! {
        <JobCard
            title="Tenants"
            text="A tenant is an environment × machine function with its servers; its utilization is their average server per slot. Servers come from the loaded CPU series named tenant/server, or listed in a tenants CSV."
            job=desk.classify
            status_testid="harvest-status"
            status=status
        >
            <FileSource
                hint_testid="harvest-tenants-file"
                hint=Signal::derive(move || match desk.tenants_file.get() {
                    Some((name, n)) => format!("Tenants file: {name} ({n} tenants)"),
                    None => "No tenants file: each series' tenant is its name before '/'.".to_owned(),
                })
                label="Read tenants CSV…"
                testid="harvest-tenants-input"
                accept=".csv,text/csv"
                on_file=move |f| desk.import_tenants(f)
                forget=Forget {
                    label: "Forget tenants file",
                    shown: Signal::derive(move || desk.tenants_file.with(Option::is_some)),
                    on_forget: Callback::new(move |()| desk.forget_tenants()),
                }
            />
            <p class="hint" data-testid="harvest-machines-file">
                {move || match desk.machines_file.get() {
                    Some((name, machines, tenants)) => format!(
                        "Alibaba v2018 machines: {name} ({} machines, {} failure domains as tenants; they stand in for the series and tenants file)",
                        count(machines),
                        count(tenants)
                    ),
                    None => "Or Alibaba v2018 machine_meta.csv with machine_usage.csv (headerless, as published): machines grouped by failure_domain_1.".to_owned(),
                }}
            </p>
            <div class="actions">
                <FileButton
                    label="Read Alibaba machine files…"
                    testid="harvest-machines-input"
                    accept=".csv,text/csv"
                    multiple=true
                    on_files=move |files| desk.import_machines(files)
                />
                <Show when=move || desk.machines_file.with(Option::is_some)>
                    {button(
                        "button small",
                        "harvest-machines-forget",
                        "Forget machine files",
                        || false,
                        move || desk.forget_machines(),
                    )}
                </Show>
            </div>
            {name_choice(
                desk.form,
                fields![ClassifyForm: ("Series from", "harvest-file", file)][0],
                "automatic",
                files,
                true,
            )}
            <div class="form-grid two">
                {CLASSIFY_FIELDS.into_iter().map(|f| text_field(desk.form, f)).collect_view()}
            </div>
            <div class="actions">
                <RunButton
                    job=desk.classify
                    testid="harvest-classify"
                    label="Classify"
                    on_run=move || desk.classify()
                />
            </div>
            <ErrorLine testid="harvest-error" error=desk.classify.error/>
            <p class="hint">
                {move || {
                    desk.classify
                        .view
                        .with(|v| {
                            v.as_ref()
                                .map(|v| {
                                    let k = v
                                        .k
                                        .iter()
                                        .map(|k| {
                                            format!(
                                                "{} {} of {} tenants{}",
                                                k.pattern.name(),
                                                k.k,
                                                k.tenants,
                                                if k.overridden { " (set)" } else { "" }
                                            )
                                        })
                                        .collect::<Vec<_>>()
                                        .join(" · ");
                                    let missing = if v.missing.is_empty() {
                                        String::new()
                                    } else {
                                        format!(
                                            " {} tenant(s) of the file have no series: {}.",
                                            v.missing.len(),
                                            v.missing.join(", ")
                                        )
                                    };
                                    format!("From {}. Classes: {k}.{missing}", v.source)
                                })
                        })
                        .unwrap_or_else(|| "Empty k: the elbow rule chooses (the least k explaining 90 % of the spread).".to_owned())
                }}
            </p>
        </JobCard>
    }
}
