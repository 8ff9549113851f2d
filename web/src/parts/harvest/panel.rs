//! The Harvest panel: the spare-cycle half's cards (tenants, classes,
//! capacity, selection, the simulation, where it pays) and the storage
//! half's card;
//! classified now and whenever the workspace changes, and YARN-PT compared
//! with YARN-H at the tenants' current utilization as soon as they are
//! classified, so the panel opens with what class selection buys.
//!
//! Test ids: `harvest-panel`; each half lists its own in its `panel`.

use super::cycles::panel::{
    CapacityCard, ClassesCard, PaysCard, SelectCard, SettingsCard, SimulationCard, TenantCard, TenantsCard,
};
use super::storage::panel::StorageCard;
use crate::state::Studio;
use leptos::prelude::*;

/// The Harvest panel.
#[component]
pub fn HarvestPanel() -> impl IntoView {
    let studio = expect_context::<Studio>();
    // Classify now and whenever the workspace changes.
    Effect::new(move |_| {
        studio.traces.workspace.track();
        studio.harvest.classify();
    });
    // Once tenants are classified (none loaded: nothing starts), the
    // comparison at their current utilization, unless one is shown,
    // running or refused.
    Effect::new(move |_| {
        let cycles = studio.harvest.cycles;
        if let Some(level) = cycles
            .classify
            .view
            .with(|v| v.as_ref().map(|v| v.current_level))
        {
            cycles.simulate_on_open(level);
        }
    });
    view! {
        <div class="pricing-page tuning-page harvest-page" data-testid="harvest-panel">
            <div class="agenda">
                <div class="main-column">
                    <TenantsCard/>
                    <TenantCard/>
                    <ClassesCard/>
                    <CapacityCard/>
                </div>
                <aside class="sidebar">
                    <SettingsCard/>
                    <SelectCard/>
                </aside>
            </div>
            <SimulationCard/>
            <PaysCard/>
            <StorageCard/>
        </div>
    }
}
