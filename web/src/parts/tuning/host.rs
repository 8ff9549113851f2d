//! The Tuning part in the worker: reads the cluster's YARN files, runs the
//! tuning pass with progress, keeps the last run for the schedules of other
//! candidates and writes the tuned configuration back as XML.

use super::protocol::{TuningRequest, TuningResponse};
use super::saved::SavedTuning;
use super::views::{candidate_schedule, run, LastRun};
use crate::store::PanelRecord;
use crate::toolkit::host::{timed, Ctx, PartHost};
use crate::toolkit::protocol::Failure;
use skyplan_engine::bundle::TuningState;
use skyplan_engine::tuning::{
    read_capacity_xml, read_fair_xml, update_capacity_xml, update_fair_xml, write_capacity_xml,
    write_fair_xml, FairContext, GroupConfig, SchedulerKind, XmlError,
};

/// The Tuning part's worker state.
#[derive(Default)]
pub struct TuningHost {
    /// The saved record was read (on the first request of the session).
    restored: bool,
    /// What is saved: settings, queue tree, parent queue and the imported
    /// file (name and text, updated in place on export).
    state: TuningState,
    /// The last run.
    last: Option<LastRun>,
}

impl PartHost for TuningHost {
    type Request = TuningRequest;

    async fn handle(&mut self, ctx: &mut Ctx<'_>, request: TuningRequest) {
        self.restore_once(ctx).await;
        let send = |r: TuningResponse| ctx.send(r);
        match request {
            TuningRequest::Open => send(TuningResponse::Restored(self.state.clone())),
            TuningRequest::Keep {
                settings,
                current,
                parent,
            } => {
                self.state.settings = settings;
                self.state.current = Some(current);
                self.state.parent = parent;
                self.save(ctx).await;
            }
            TuningRequest::ReadXml {
                name,
                text,
                parent,
                containers,
            } => match read_current(&text, &parent, containers) {
                Ok(config) => {
                    self.state.xml = Some((name.clone(), text));
                    self.state.current = Some(config.clone());
                    self.state.parent = parent;
                    self.save(ctx).await;
                    send(TuningResponse::Config { name, config });
                }
                Err(e) => send(TuningResponse::ConfigFailed {
                    message: format!("{name}: {e}"),
                    name,
                }),
            },
            TuningRequest::ForgetXml => {
                self.state.xml = None;
                self.save(ctx).await;
            }
            TuningRequest::Run {
                ticket,
                settings,
                current,
            } => {
                let mut progress = ctx.progress(ticket, TuningResponse::Progress);
                let (answer, millis) =
                    timed(|| run(ctx.workspace(), ticket, &settings, &current, &mut progress));
                match answer {
                    Ok((mut view, last)) => {
                        view.millis = millis;
                        self.last = Some(last);
                        send(TuningResponse::Ready(Box::new(view)));
                    }
                    Err(message) => send(TuningResponse::Failed(Failure::new(ticket, message))),
                }
            }
            TuningRequest::Schedule {
                ticket,
                group,
                candidate,
            } => {
                let schedule = match &self.last {
                    Some(last) if last.ticket == ticket => {
                        candidate_schedule(last, group, candidate)
                    }
                    _ => Err(
                        "This run is no longer in the engine (it restarted, or a later run \
                              replaced it): run it again."
                            .to_owned(),
                    ),
                };
                match schedule {
                    Ok(view) => send(TuningResponse::Schedule(Box::new(view))),
                    Err(message) => send(TuningResponse::Failed(Failure::new(ticket, message))),
                }
            }
            TuningRequest::Export {
                config,
                containers,
                parent,
            } => {
                let ctx = FairContext::paper(containers);
                let written = match (&self.state.xml, config.scheduler) {
                    (Some((name, text)), kind) if same_kind(text, kind) => {
                        let updated = match kind {
                            SchedulerKind::Capacity => update_capacity_xml(text, &parent, &config),
                            SchedulerKind::Fair => update_fair_xml(text, &parent, &config, &ctx),
                        };
                        updated
                            .map(|t| (name.clone(), t))
                            .map_err(|e| format!("{name}: {e}"))
                    }
                    _ => Ok(fresh(&config, &parent, &ctx)),
                };
                match written {
                    Ok((name, text)) => send(TuningResponse::Xml { name, text }),
                    Err(message) => send(TuningResponse::ExportFailed { message }),
                }
            }
        }
    }

    /// "Clear": the imported file and the last run go (saved so, and the
    /// panel told); the settings and the queue tree stay.
    async fn clear(&mut self, ctx: &mut Ctx<'_>) {
        self.restore_once(ctx).await;
        self.last = None;
        self.state.xml = None;
        self.save(ctx).await;
        ctx.send(TuningResponse::Restored(self.state.clone()));
    }
}

impl TuningHost {
    /// Reads the saved record on the first request of a worker session (a
    /// new page, or the worker restarted by Cancel).
    async fn restore_once(&mut self, ctx: &Ctx<'_>) {
        if !self.restored {
            self.restored = true;
            if let Some(saved) = ctx.read_record::<SavedTuning>().await {
                self.state = saved.into_state();
            }
        }
    }

    /// Saves the record (a failure is a notice; the session goes on).
    async fn save(&self, ctx: &Ctx<'_>) {
        ctx.write_record(&SavedTuning::of_state(self.state.clone()))
            .await;
    }
}

/// A Fair allocation file (`<allocations>`) or a capacity-scheduler.xml.
fn is_fair(text: &str) -> bool {
    text.contains("<allocations")
}

/// Whether the imported file is of the configuration's scheduler.
fn same_kind(text: &str, kind: SchedulerKind) -> bool {
    is_fair(text) == (kind == SchedulerKind::Fair)
}

/// The configuration in `text`, told apart by its root element.
fn read_current(text: &str, parent: &str, containers: u32) -> Result<GroupConfig, XmlError> {
    if is_fair(text) {
        read_fair_xml(text, parent, &FairContext::paper(containers))
    } else {
        read_capacity_xml(text, parent)
    }
}

/// A fresh file for `config`.
fn fresh(config: &GroupConfig, parent: &str, ctx: &FairContext) -> (String, String) {
    match config.scheduler {
        SchedulerKind::Capacity => (
            "capacity-scheduler.xml".into(),
            write_capacity_xml(config, parent),
        ),
        SchedulerKind::Fair => ("fair-scheduler.xml".into(), write_fair_xml(config, ctx)),
    }
}
