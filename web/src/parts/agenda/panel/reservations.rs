//! The reservations table, with where each one is on the canvas.

use super::text::{at, kind};
use crate::parts::agenda::protocol::{method_label, AgendaRequest, ReservationView};
use crate::parts::agenda::timeline::{css_colour, Geometry, Stack};
use crate::state::Studio;
use crate::widgets::card::Card;
use crate::widgets::format::trimmed;
use crate::widgets::table::{col, num, DataTable};
use leptos::prelude::*;

/// Pixel attributes of a row: `(start, end, x, y, step)` in CSS pixels.
fn pixels(g: &Geometry, s: &Stack, r: &ReservationView) -> Option<[String; 5]> {
    let (x, y) = s.grab_point(g, r)?;
    let px = |v: f64| format!("{v:.1}");
    Some([
        px(g.x(r.start as f64)),
        px(g.x((r.start + r.alloc.len()) as f64)),
        px(x),
        px(y),
        format!("{:.4}", g.step_px()),
    ])
}

/// The reservations: name, kind, window, start, peak containers, method,
/// and a remove button each.
#[component]
pub fn ReservationsCard(
    geometry: RwSignal<Option<Geometry>>,
    stacked: Memo<Stack>,
) -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.agenda;
    let rows = move || {
        let g = geometry.get();
        desk.view.with(|v| {
            let Some(v) = v.as_ref() else {
                return Vec::new();
            };
            stacked.with(|s| {
                v.reservations
                    .iter()
                    .enumerate()
                    .map(|(i, r)| {
                        let [start_px, end_px, x_px, y_px, step_px] =
                            g.as_ref().and_then(|g| pixels(g, s, r)).unwrap_or_default();
                        let id = r.id;
                        let len = r.alloc.len();
                        view! {
                            <tr
                                data-testid="agenda-row"
                                data-id=id.to_string()
                                data-name=r.name.clone()
                                data-start=r.start.to_string()
                                data-window-start=r.window.0.to_string()
                                data-window-end=r.window.1.to_string()
                                data-len=len.to_string()
                                data-start-px=start_px
                                data-end-px=end_px
                                data-x-px=x_px
                                data-y-px=y_px
                                data-step-px=step_px
                            >
                                <td>
                                    <span class="swatch" style:background=css_colour(i)></span>
                                    <span class="job-name">{r.name.clone()}</span>
                                </td>
                                <td>{kind(r)}</td>
                                <td>{format!("{}–{}", at(v, r.window.0), at(v, r.window.1))}</td>
                                <td data-testid="agenda-start">
                                    {format!("{}–{}", at(v, r.start), at(v, r.start + len))}
                                </td>
                                <td class="num">{trimmed(r.peak_containers, 1)}</td>
                                <td>{method_label(r.method)}</td>
                                <td>
                                    <label class="check" title="Locked: Optimize leaves it where it is">
                                        <input
                                            type="checkbox"
                                            data-testid="agenda-lock"
                                            prop:checked=move || desk.locked.with(|l| l.contains(&id))
                                            on:change=move |ev| desk.toggle_lock(id, event_target_checked(&ev))
                                        />
                                        " lock"
                                    </label>
                                </td>
                                <td>
                                    <button
                                        class="button ghost small"
                                        data-testid="agenda-remove"
                                        title="Remove this reservation"
                                        on:click=move |_| {
                                            studio.agenda.agenda_change(AgendaRequest::Remove { id })
                                        }
                                    >
                                        "Remove"
                                    </button>
                                </td>
                            </tr>
                        }
                    })
                    .collect::<Vec<_>>()
            })
        })
    };
    view! {
        <Card
            title="Reservations"
            head=move || view! { <span class="card-note">"Stacked bottom-up in this order"</span> }
        >
            <DataTable cols=vec![col("Job"), col("Kind"), col("Window"), col("Reserved"), num("Peak containers"), col("Method"), col("Optimize"), col("")] frame="agenda-table">
                {rows}
                <Show when=move || desk.view.with(|v| v.as_ref().is_none_or(|v| v.reservations.is_empty()))>
                    <tr>
                        <td class="empty" colspan="8">"No reservations."</td>
                    </tr>
                </Show>
            </DataTable>
        </Card>
    }
}
