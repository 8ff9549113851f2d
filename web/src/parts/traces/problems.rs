//! The list of import problems: refused files with their bad lines, and
//! lines skipped by lenient imports. Stays until dismissed.

use super::desk::{Problem, ProblemKind};
use crate::widgets::button::button;
use leptos::prelude::*;

/// Every problem, newest last; nothing when there are none.
#[component]
pub fn ProblemList(
    /// Problems to show.
    #[prop(into)]
    problems: Signal<Vec<Problem>>,
    /// Dismisses one problem by id.
    on_dismiss: Callback<u32>,
    /// Dismisses them all.
    on_dismiss_all: Callback<()>,
) -> impl IntoView {
    move || {
        let list = problems.get();
        (!list.is_empty()).then(|| {
            let failed = list
                .iter()
                .filter(|p| matches!(p.kind, ProblemKind::Failed(_)))
                .count();
            let heading = match failed {
                0 => "Lines skipped".to_owned(),
                1 => "1 file not loaded".to_owned(),
                n => format!("{n} files not loaded"),
            };
            view! {
                <section class="card problems" data-testid="error-list" aria-live="polite">
                    <header class="card-head">
                        <h2>{heading}</h2>
                        <span class="card-note">"What is loaded is unchanged."</span>
                        {button(
                            "button ghost small",
                            "dismiss-errors",
                            "Dismiss all",
                            || false,
                            move || on_dismiss_all.run(()),
                        )}
                    </header>
                    {list
                        .into_iter()
                        .map(|p| view! { <ProblemItem problem=p on_dismiss=on_dismiss/> })
                        .collect_view()}
                </section>
            }
        })
    }
}

/// One problem: what happened to the file, then its bad lines as
/// `file:line:col: reason`, then how many more there were.
#[component]
fn ProblemItem(problem: Problem, on_dismiss: Callback<u32>) -> impl IntoView {
    let Problem {
        id,
        name,
        kind,
        lines,
        total,
    } = problem;
    let more = total.saturating_sub(lines.len() as u64);
    let (class, testid, line_testid, title, detail) = match kind {
        ProblemKind::Failed(message) => (
            "problem failed",
            "import-failed",
            "error-line",
            format!("{name} was not loaded"),
            message,
        ),
        ProblemKind::Skipped => (
            "problem skipped",
            "import-skipped",
            "warning-line",
            format!("{name} was loaded without {total} bad line(s)"),
            "Lenient import: the lines below were skipped.".to_owned(),
        ),
    };
    view! {
        <div class=class data-testid=testid data-name=name>
            <div class="problem-head">
                <strong class="problem-title">{title}</strong>
                <button
                    class="icon-button"
                    title="Dismiss"
                    aria-label="Dismiss"
                    on:click=move |_| on_dismiss.run(id)
                >
                    "×"
                </button>
            </div>
            <p class="problem-detail">{detail}</p>
            {(!lines.is_empty())
                .then(|| {
                    view! {
                        <ol class="problem-lines">
                            {lines
                                .into_iter()
                                .map(|e| view! { <li data-testid=line_testid>{e.to_string()}</li> })
                                .collect_view()}
                        </ol>
                    }
                })}
            {(more > 0)
                .then(|| {
                    view! {
                        <p class="problem-more" data-testid="error-more">
                            {format!("… and {more} more bad line(s)")}
                        </p>
                    }
                })}
        </div>
    }
}
