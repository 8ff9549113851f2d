//! The tenants, sortable and filterable.

use crate::parts::harvest::cycles::desk::SortBy;
use crate::state::Studio;
use crate::widgets::card::Card;
use crate::widgets::format::{count, trimmed};
use leptos::prelude::*;
use skyplan_engine::harvest::TenantRow;

/// One column header of the tenants table.
fn sort_header(studio: Studio, label: &'static str, col: SortBy, num: bool) -> impl IntoView {
    let desk = studio.harvest.cycles;
    let arrow = move || match desk.sort.get() {
        (c, true) if c == col => " ▲",
        (c, false) if c == col => " ▼",
        _ => "",
    };
    view! {
        <th
            class:num=num
            class="sortable"
            data-testid="harvest-sort"
            data-col=label
            on:click=move |_| {
                desk.sort.update(|s| *s = if s.0 == col { (col, !s.1) } else { (col, !num) })
            }
        >
            {label}
            {arrow}
        </th>
    }
}

/// The tenants table, sorted and filtered.
#[component]
pub fn TenantsCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.harvest.cycles;
    let rows = move || {
        let filter = desk.filter.get().to_lowercase();
        let (col, asc) = desk.sort.get();
        let selected = desk.tenant.get();
        desk.classify.view.with(|v| {
            let Some(v) = v else {
                return Vec::new();
            };
            let mut rows: Vec<&TenantRow> = v
                .tenants
                .iter()
                .filter(|r| {
                    filter.is_empty()
                        || r.name.to_lowercase().contains(&filter)
                        || r.pattern.name().contains(&filter)
                        || r.class.to_lowercase().contains(&filter)
                        || r.environment.to_lowercase().contains(&filter)
                })
                .collect();
            rows.sort_by(|a, b| {
                let o = match col {
                    SortBy::Name => a.name.cmp(&b.name),
                    SortBy::Pattern => a.pattern.name().cmp(b.pattern.name()),
                    SortBy::Class => a.class.cmp(&b.class),
                    SortBy::Average => a.average.total_cmp(&b.average),
                    SortBy::Peak => a.peak.total_cmp(&b.peak),
                    SortBy::Servers => a.servers.cmp(&b.servers),
                };
                if asc {
                    o
                } else {
                    o.reverse()
                }
            });
            rows.into_iter()
                .map(|r| {
                    let name = r.name.clone();
                    let is = selected.as_deref() == Some(r.name.as_str());
                    view! {
                        <tr
                            data-testid="harvest-tenant-row"
                            data-name=r.name.clone()
                            data-pattern=r.pattern.name()
                            data-class=r.class.clone()
                            class:selected=is
                            title=r.reason.clone()
                            on:click=move |_| desk.pick_tenant(name.clone())
                        >
                            <td>{r.name.clone()}</td>
                            <td>{format!("{} / {}", r.environment, r.machine_function)}</td>
                            <td><span class=format!("pattern {}", r.pattern.name())>{r.pattern.name()}</span></td>
                            <td>{r.class.clone()}</td>
                            <td class="num">{trimmed(r.average, 1)}</td>
                            <td class="num">{trimmed(r.peak, 1)}</td>
                            <td class="num">{count(r.servers)}</td>
                        </tr>
                    }
                })
                .collect::<Vec<_>>()
        })
    };
    view! {
        <Card
            title="Primary tenants"
            head=move || {
                view! {
                    <div class="head-actions">
                        <input
                            type="search"
                            placeholder="Filter: name, pattern, class"
                            data-testid="harvest-filter"
                            prop:value=move || desk.filter.get()
                            on:input=move |ev| desk.filter.set(event_target_value(&ev))
                        />
                    </div>
                }
            }
        >
            <div class="table-scroll harvest-tenants">
                <table class="data">
                    <thead>
                        <tr>
                            {sort_header(studio, "Tenant", SortBy::Name, false)}
                            <th>"Environment / function"</th>
                            {sort_header(studio, "Pattern", SortBy::Pattern, false)}
                            {sort_header(studio, "Class", SortBy::Class, false)}
                            {sort_header(studio, "Avg %", SortBy::Average, true)}
                            {sort_header(studio, "Peak %", SortBy::Peak, true)}
                            {sort_header(studio, "Servers", SortBy::Servers, true)}
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            <p class="hint">"Click a tenant for its series and spectrum; hover for the verdict's reason."</p>
        </Card>
    }
}
