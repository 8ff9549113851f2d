//! The studio's records and a workspace bundle carry the same state: every
//! panel record → its bundle state → bundle bytes → back is lossless, and
//! the records the studio wrote before bundles still read.

use crate::demo::{DEMO_DECISIONS, DEMO_FILES, DEMO_REIMAGES, DEMO_TENANTS};
use crate::parts::agenda::host::SavedAgenda;
use crate::parts::forecast::saved::SavedForecast;
use crate::parts::harvest::files::SavedHarvest;
use crate::parts::pricing::host::SavedPricing;
use crate::parts::runway::saved::SavedRunway;
use crate::parts::shaping::saved::SavedShaping;
use crate::parts::tuning::saved::SavedTuning;
use crate::store::PanelRecord;
use serde_json::json;
use skyplan_engine::agenda::{
    AgendaParams, Capacity, Method, Plan, Recurrence, ReservationRequest,
};
use skyplan_engine::bundle::{
    decode, encode, AdmittedJob, AgendaState, Bundle, BundleFile, ForecastSettings, ForecastState,
    HarvestState, PricingSettings, PricingState, RunwayState, ShapingFiles, ShapingSettings,
    ShapingState, TuningSettings, TuningState, WorkloadFile, WorkloadSource,
};
use skyplan_engine::estimate::Method as EstimateMethod;
use skyplan_engine::forecast::ForecastMethod;
use skyplan_engine::import::read_decisions_csv;
use skyplan_engine::pricing::QueuedJob;
use skyplan_engine::runway::{Growth, ResourceTarget, RunwayParams};
use skyplan_engine::tuning::{equal_queues, SchedulerKind, SearchMethod};
use skyplan_engine::{ContainerSize, Format};

/// A plan of two one-offs, the second locked.
fn agenda() -> AgendaState {
    let capacity = Capacity {
        cores: 40.0,
        memory_mb: 40.0 * 4096.0,
    };
    let mut plan = Plan::new(AgendaParams::default(), vec![capacity]).expect("a plan");
    let mut ids = Vec::new();
    for (name, window) in [("etl", (3_600, 7_200)), ("backup", (10_800, 14_400))] {
        let request = ReservationRequest::from_skyline(
            name,
            Recurrence::OneOff,
            window,
            ContainerSize::default(),
            &[4.0; 10],
            60,
            1.0,
        );
        ids.push(plan.admit(request, Method::LowCost).expect("admitted").0);
    }
    AgendaState {
        origin: Some(1_700_006_400),
        capacity: Some(capacity),
        capacity_note: Some("set by the planner".into()),
        plan: Some(plan),
        locked: vec![ids[1]],
        refused: vec![(
            "late-job".into(),
            "no room for the stage: cores full at step 12".into(),
        )],
    }
}

/// Every panel's state, each off its defaults.
fn states() -> Bundle {
    let mut shaping = ShapingSettings {
        source: WorkloadSource::Files,
        ..ShapingSettings::default()
    };
    shaping.params.k1 = 0.25;
    let tuning = TuningSettings {
        containers: 12,
        search: SearchMethod::Exhaustive,
        jobs: 30,
        ..TuningSettings::default()
    };
    Bundle {
        files: DEMO_FILES
            .iter()
            .map(|(name, text)| BundleFile {
                name: (*name).into(),
                format: None,
                lenient: false,
                bytes: text.as_bytes().to_vec(),
                kept: None,
            })
            .chain([BundleFile {
                name: "mine.csv".into(),
                format: Some(Format::RunsCsv),
                lenient: true,
                bytes: DEMO_FILES[0].1.as_bytes()[..4096].to_vec(),
                kept: None,
            }])
            .collect(),
        decisions: read_decisions_csv(DEMO_DECISIONS.0, DEMO_DECISIONS.1).expect("demo decisions"),
        agenda: Some(agenda()),
        pricing: Some(PricingState {
            settings: Some(PricingSettings {
                method: EstimateMethod::Ols,
                level: 0.9,
                ..PricingSettings::default()
            }),
            queue: vec![
                AdmittedJob {
                    job: QueuedJob {
                        name: "sort".into(),
                        map_work: 1_200.5,
                        reduce_work: 300.25,
                        deadline: 7_200.0,
                    },
                    price: Some(42.125),
                    method: Some(EstimateMethod::Gp),
                },
                AdmittedJob {
                    job: QueuedJob {
                        name: "imported".into(),
                        map_work: 10.0,
                        reduce_work: 0.0,
                        deadline: 60.0,
                    },
                    price: None,
                    method: None,
                },
            ],
        }),
        harvest: Some(HarvestState {
            tenants: Some((DEMO_TENANTS.0.into(), DEMO_TENANTS.1.into())),
            reimages: Some((DEMO_REIMAGES.0.into(), DEMO_REIMAGES.1.into())),
            machines: Some([
                ("machine_meta.csv".into(), "m1,1,a,b,USING,96,100\n".into()),
                ("machine_usage.csv".into(), "m1,0,10,20,,,,,\n".into()),
            ]),
        }),
        shaping: Some(ShapingState {
            files: Some(ShapingFiles {
                files: vec![WorkloadFile {
                    name: "workload.json".into(),
                    text: "{\"applications\": []}".into(),
                }],
                params: shaping.params.clone(),
            }),
            settings: Some(shaping),
        }),
        tuning: Some(TuningState {
            settings: tuning,
            current: Some(equal_queues(SchedulerKind::Fair, 3)),
            xml: Some(("fair-scheduler.xml".into(), "<allocations/>".into())),
            parent: "root.batch".into(),
        }),
        forecast: Some(ForecastState {
            settings: ForecastSettings {
                window: 12,
                horizon: 24,
                level: 0.8,
                ..ForecastSettings::default()
            },
            series: Some(3),
            method: Some(ForecastMethod::Arima),
        }),
        runway: Some(RunwayState {
            params: RunwayParams {
                growth: Growth::Monthly { percent: 3.5 },
                targets: vec![ResourceTarget {
                    resource: skyplan_engine::Resource::Cpu,
                    target: 0.7,
                }],
                horizon_days: 365,
                ..RunwayParams::default()
            },
        }),
    }
}

/// `state` written as record `R` (through serde's data model, as
/// `serde-wasm-bindgen` takes it to IndexedDB), read back, as a state.
fn through_record<R: PanelRecord>(state: R::State) -> R::State
where
    R::State: Clone,
{
    let value = serde_json::to_value(R::of_state(state)).expect("written");
    assert_eq!(
        value["version"],
        json!(R::VERSION),
        "{} is versioned",
        R::KEY
    );
    serde_json::from_value::<R>(value)
        .expect("read back")
        .into_state()
}

/// The studio's records of `bundle`, read back into a bundle.
fn through_records(bundle: &Bundle) -> Bundle {
    Bundle {
        files: bundle.files.clone(),
        decisions: bundle.decisions.clone(),
        agenda: bundle.agenda.clone().map(through_record::<SavedAgenda>),
        pricing: bundle.pricing.clone().map(through_record::<SavedPricing>),
        harvest: bundle.harvest.clone().map(through_record::<SavedHarvest>),
        shaping: bundle.shaping.clone().map(through_record::<SavedShaping>),
        tuning: bundle.tuning.clone().map(through_record::<SavedTuning>),
        forecast: bundle.forecast.clone().map(through_record::<SavedForecast>),
        runway: bundle.runway.clone().map(through_record::<SavedRunway>),
    }
}

#[test]
fn studio_state_to_bundle_to_state_is_lossless() {
    let studio = states();
    // Saving: the records as the studio keeps them, into bundle bytes.
    let saved = through_records(&studio);
    assert_eq!(saved, studio, "every panel record keeps its state");
    let bytes = encode(&saved).expect("encoded");
    // Opening: the bytes, back into records, back into state.
    let opened = through_records(&decode("team.skyplan", &bytes).expect("decoded"));
    assert_eq!(opened, studio, "the bundle brings every panel back");
    // Each panel is there, and off its default: a dropped field would show.
    assert_eq!(opened.agenda.as_ref().map(|a| a.locked.len()), Some(1));
    assert_eq!(
        opened.tuning.as_ref().map(|t| t.parent.as_str()),
        Some("root.batch")
    );
    assert_eq!(
        opened.runway.as_ref().map(|r| r.params.horizon_days),
        Some(365)
    );
    assert!(opened.decisions.len() > 5 && opened.files.len() == DEMO_FILES.len() + 1);
}

#[test]
fn an_empty_studio_round_trips_too() {
    let empty = Bundle::default();
    let bytes = encode(&through_records(&empty)).expect("encoded");
    assert_eq!(
        through_records(&decode("empty.skyplan", &bytes).expect("decoded")),
        empty
    );
}

#[test]
fn a_shaping_record_opened_from_a_bundle_keeps_settings_without_a_run() {
    let settings = ShapingSettings {
        source: WorkloadSource::Generated,
        ..ShapingSettings::default()
    };
    // Written without a run, as an opened bundle writes it: Open runs these.
    let record = SavedShaping::of_state(ShapingState {
        files: None,
        settings: Some(settings.clone()),
    });
    assert!(record.run.is_none());
    assert_eq!(record.clone().into_state().settings, Some(settings));
}

#[test]
fn records_written_before_bundles_still_read() {
    // The shapes the studio wrote before the engine's panel types: the
    // same fields, so IndexedDB records of earlier sessions load.
    let agenda: SavedAgenda = serde_json::from_value(json!({
        "version": 1,
        "agenda": { "origin": 1_700_006_400, "capacity": null, "capacity_note": null, "plan": null }
    }))
    .expect("an agenda record without locks");
    assert_eq!(agenda.into_state().locked, Vec::<u32>::new());
    let pricing: SavedPricing = serde_json::from_value(json!({
        "version": 1,
        "desk": { "settings": null, "queue": [
            { "job": { "name": "a", "map_work": 1.0, "reduce_work": 2.0, "deadline": 3.0 },
              "price": 4.0, "method": "gp" }
        ] }
    }))
    .expect("a pricing record");
    assert_eq!(pricing.into_state().queue.len(), 1);
    let harvest: SavedHarvest = serde_json::from_value(json!({
        "version": 1, "tenants": ["t.csv", "server,tenant\n"]
    }))
    .expect("a harvest record from before reimages and machine tables");
    assert_eq!(
        harvest.into_state().tenants,
        Some(("t.csv".into(), "server,tenant\n".into()))
    );
    let shaping: SavedShaping =
        serde_json::from_value(json!({ "version": 1, "files": null, "run": null }))
            .expect("a shaping record from before kept settings");
    assert_eq!(shaping.settings, None);
    let tuning: SavedTuning = serde_json::from_value(json!({
        "version": 1,
        "tuning": { "settings": serde_json::to_value(TuningSettings::default()).unwrap(),
                    "current": null, "xml": null }
    }))
    .expect("a tuning record without a parent queue");
    assert_eq!(tuning.into_state().parent, "root");
}
