//! The Fair Scheduler allocation file: `<allocations>` with nested
//! `<queue name="…">` elements (FairScheduler.md), read into a group's
//! configuration, written fresh, or updated in place.

use super::xml::{apply, at, escape, ignored, parse, same_queues, XmlError};
use crate::tuning::model::{GroupConfig, Policy, QueueConf, SchedulerKind};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// The container the group's resources are counted in, to turn
/// `minResources` / `maxResources` into shares of the group.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct FairContext {
    /// Containers of the group.
    pub containers: u32,
    /// Memory per container, MB (the paper's: 2048).
    pub container_mb: u32,
    /// Cores per container (the paper's: 1).
    pub container_vcores: u32,
}

impl FairContext {
    /// `containers` of the paper's size (1 core, 2 GB).
    pub fn paper(containers: u32) -> Self {
        FairContext {
            containers,
            container_mb: 2048,
            container_vcores: 1,
        }
    }
}

const FAIR_TOP: &[&str] = &[
    "queue",
    "pool",
    "user",
    "userMaxAppsDefault",
    "defaultFairSharePreemptionTimeout",
    "defaultMinSharePreemptionTimeout",
    "defaultFairSharePreemptionThreshold",
    "queueMaxAppsDefault",
    "queueMaxResourcesDefault",
    "queueMaxAMShareDefault",
    "defaultQueueSchedulingPolicy",
    "queuePlacementPolicy",
    "reservation-agent",
    "reservation-policy",
    "reservation-planner",
];

const FAIR_QUEUE: &[&str] = &[
    "queue",
    "pool",
    "minResources",
    "maxResources",
    "maxChildResources",
    "maxContainerAllocation",
    "maxRunningApps",
    "maxAMShare",
    "weight",
    "schedulingPolicy",
    "aclSubmitApps",
    "aclAdministerApps",
    "aclAdministerReservations",
    "aclListReservations",
    "aclSubmitReservations",
    "minSharePreemptionTimeout",
    "fairSharePreemptionTimeout",
    "fairSharePreemptionThreshold",
    "allowPreemptionFrom",
    "reservation",
];

/// A Fair resource string as a share of the group: `"X mb, Y vcores"`
/// (either order, the larger share of the two), `"X%"` or `"memory-mb=X,
/// vcores=Y"`.
fn fair_share(s: &str, ctx: &FairContext) -> Option<f64> {
    let s = s.trim();
    if let Some(p) = s.strip_suffix('%') {
        let v: f64 = p.trim().parse().ok()?;
        return (0.0..=100.0).contains(&v).then_some(v / 100.0);
    }
    let mut mb = None;
    let mut vcores = None;
    for part in s.split(',') {
        let part = part.trim().to_ascii_lowercase();
        if part.is_empty() {
            continue;
        }
        if let Some((k, v)) = part.split_once('=') {
            let v: f64 = v.trim().parse().ok()?;
            match k.trim() {
                "memory-mb" | "memory" => mb = Some(v),
                "vcores" => vcores = Some(v),
                _ => return None,
            }
        } else if let Some(v) = part.strip_suffix("mb") {
            mb = Some(v.trim().parse().ok()?);
        } else if let Some(v) = part.strip_suffix("vcores") {
            vcores = Some(v.trim().parse().ok()?);
        } else {
            return None;
        }
    }
    if mb.is_none() && vcores.is_none() {
        return None;
    }
    let total_mb = f64::from(ctx.containers) * f64::from(ctx.container_mb);
    let total_cores = f64::from(ctx.containers) * f64::from(ctx.container_vcores);
    let share =
        (mb.unwrap_or(0.0) / total_mb.max(1.0)).max(vcores.unwrap_or(0.0) / total_cores.max(1.0));
    (share.is_finite() && share >= 0.0).then_some(share.min(1.0))
}

/// The `<queue>` (or legacy `<pool>`) children of `node`; elements YARN
/// does not know there (a `<queuePlacementPolicy>` nested in the root
/// queue, say) are ignored with a warning, as YARN's loader does.
fn fair_queue_children<'a, 'i>(
    doc: &roxmltree::Document<'_>,
    node: roxmltree::Node<'a, 'i>,
    allowed: &[&str],
    warnings: &mut Vec<XmlError>,
) -> Result<Vec<roxmltree::Node<'a, 'i>>, XmlError> {
    let mut out = Vec::new();
    for c in node.children().filter(|n| n.is_element()) {
        let name = c.tag_name().name();
        if !allowed.contains(&name) {
            warnings.push(ignored(doc, c, "unknown element", node.tag_name().name()));
            continue;
        }
        if name == "queue" || name == "pool" {
            if c.attribute("name").is_none_or(|n| n.trim().is_empty()) {
                return Err(at(doc, c.range().start, format!("<{name}> without a name")));
            }
            out.push(c);
        }
    }
    Ok(out)
}

/// Reads a Fair Scheduler allocation file: the children of the queue at
/// `parent` (`root` for the top-level queues, else a dot path such as
/// `root.analytics`) as the group's queues. `weight` defaults to 1,
/// `schedulingPolicy` to `defaultQueueSchedulingPolicy` or `fair`;
/// `minResources` / `maxResources` become shares of the group by `ctx`.
pub fn read_fair_xml(text: &str, parent: &str, ctx: &FairContext) -> Result<GroupConfig, XmlError> {
    read_fair_xml_with_warnings(text, parent, ctx).map(|(g, _)| g)
}

/// [`read_fair_xml`] with what YARN would accept and warn about (unknown
/// or misplaced elements), located. Each element is reported once.
pub fn read_fair_xml_with_warnings(
    text: &str,
    parent: &str,
    ctx: &FairContext,
) -> Result<(GroupConfig, Vec<XmlError>), XmlError> {
    let doc = parse(text)?;
    let mut warnings = Vec::new();
    let root = doc.root_element();
    if root.tag_name().name() != "allocations" {
        return Err(at(
            &doc,
            root.range().start,
            format!("expected <allocations>, found <{}>", root.tag_name().name()),
        ));
    }
    let mut default_policy = Policy::Fair;
    let mut default_am = None;
    for c in root.children().filter(|n| n.is_element()) {
        match c.tag_name().name() {
            "defaultQueueSchedulingPolicy" => default_policy = fair_policy(&doc, c)?,
            "queueMaxAMShareDefault" => default_am = am_share(&doc, c, "")?,
            _ => {}
        }
    }
    let mut level = fair_queue_children(&doc, root, FAIR_TOP, &mut warnings)?;
    // Validate every queue's elements (warnings gathered once, here), and
    // walk to the parent.
    let mut stack = level.clone();
    while let Some(q) = stack.pop() {
        stack.extend(fair_queue_children(&doc, q, FAIR_QUEUE, &mut warnings)?);
    }
    let mut path = parent.split('.').collect::<Vec<_>>();
    if path.first() == Some(&"root") {
        path.remove(0);
    }
    if level.len() == 1 && level[0].attribute("name") == Some("root") {
        level = fair_queue_children(&doc, level[0], FAIR_QUEUE, &mut Vec::new())?;
    }
    for step in path {
        let Some(next) = level.iter().find(|q| q.attribute("name") == Some(step)) else {
            return Err(XmlError {
                line: 1,
                column: 1,
                message: format!("no queue {parent}"),
            });
        };
        level = fair_queue_children(&doc, *next, FAIR_QUEUE, &mut Vec::new())?;
    }
    if level.is_empty() {
        return Err(XmlError {
            line: 1,
            column: 1,
            message: format!("{parent} has no child queues"),
        });
    }
    let mut queues = Vec::new();
    for q in level {
        let name = q.attribute("name").unwrap_or_default().to_string();
        let mut conf = QueueConf {
            name: name.clone(),
            share: 1.0,
            min_share: 0.0,
            max_share: 1.0,
            policy: default_policy,
            am_share: default_am,
            user_limit_factor: None,
        };
        for c in q.children().filter(|n| n.is_element()) {
            let text = c.text().unwrap_or("").trim();
            let pos = c.first_child().map_or(c.range().start, |t| t.range().start);
            match c.tag_name().name() {
                "weight" => {
                    conf.share = text
                        .parse::<f64>()
                        .ok()
                        .filter(|w| w.is_finite() && *w > 0.0)
                        .ok_or_else(|| {
                            at(
                                &doc,
                                pos,
                                format!("queue {name}: weight {text:?} is not a positive number"),
                            )
                        })?;
                }
                "minResources" | "maxResources" => {
                    let share = fair_share(text, ctx).ok_or_else(|| {
                        at(&doc, pos, format!("queue {name}: {text:?} is not \"X mb, Y vcores\", \"X%\" or \"memory-mb=X, vcores=Y\""))
                    })?;
                    if c.tag_name().name() == "minResources" {
                        conf.min_share = share;
                    } else {
                        conf.max_share = share.max(1e-9);
                    }
                }
                "schedulingPolicy" => conf.policy = fair_policy(&doc, c)?,
                "maxAMShare" => conf.am_share = am_share(&doc, c, &name)?,
                _ => {}
            }
        }
        if conf.min_share > conf.max_share {
            return Err(at(
                &doc,
                q.range().start,
                format!("queue {name}: minResources above maxResources"),
            ));
        }
        queues.push(conf);
    }
    Ok((
        GroupConfig {
            scheduler: SchedulerKind::Fair,
            queues,
        },
        warnings,
    ))
}

/// A `maxAMShare` (or `queueMaxAMShareDefault`): a fraction in [0, 1], or
/// −1 (YARN: no check, here the whole queue).
fn am_share(
    doc: &roxmltree::Document<'_>,
    node: roxmltree::Node<'_, '_>,
    queue: &str,
) -> Result<Option<f64>, XmlError> {
    let text = node.text().unwrap_or("").trim();
    match text.parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(Some(v)),
        Ok(-1.0) => Ok(Some(1.0)),
        _ => Err(at(
            doc,
            node.first_child()
                .map_or(node.range().start, |t| t.range().start),
            format!(
                "{}{}: {text:?} is not a fraction in [0, 1] or -1",
                if queue.is_empty() { "" } else { "queue " },
                if queue.is_empty() {
                    "queueMaxAMShareDefault".to_string()
                } else {
                    format!("{queue}: maxAMShare")
                }
            ),
        )),
    }
}

fn fair_policy(
    doc: &roxmltree::Document<'_>,
    node: roxmltree::Node<'_, '_>,
) -> Result<Policy, XmlError> {
    let text = node.text().unwrap_or("").trim();
    match text.to_ascii_lowercase().as_str() {
        "fifo" => Ok(Policy::Fifo),
        "fair" => Ok(Policy::Fair),
        "drf" => Ok(Policy::Drf),
        _ => Err(at(
            doc,
            node.first_child()
                .map_or(node.range().start, |t| t.range().start),
            format!("schedulingPolicy {text:?} is not fifo, fair or drf"),
        )),
    }
}

/// `share` of the group as `"X mb, Y vcores"`: memory carries the share
/// (rounded to the MB), cores are rounded down so they never claim more.
fn fair_resources(share: f64, ctx: &FairContext) -> String {
    let c = f64::from(ctx.containers) * share;
    format!(
        "{} mb, {} vcores",
        (c * f64::from(ctx.container_mb)).round() as u64,
        (c * f64::from(ctx.container_vcores) + 1e-9).floor() as u64
    )
}

fn fair_values(q: &QueueConf, ctx: &FairContext) -> Vec<(&'static str, String)> {
    let mut v = vec![
        ("weight", format!("{}", (q.share * 1000.0).round() / 1000.0)),
        (
            "schedulingPolicy",
            match q.policy {
                Policy::Fifo | Policy::Edf | Policy::Lrtf => "fifo",
                Policy::Fair => "fair",
                Policy::Drf => "drf",
            }
            .to_string(),
        ),
    ];
    if q.min_share > 0.0 {
        v.push(("minResources", fair_resources(q.min_share, ctx)));
    }
    if q.max_share < 1.0 {
        v.push(("maxResources", fair_resources(q.max_share, ctx)));
    }
    v
}

/// A fresh allocation file with `config`'s queues at the top level. Fair
/// has no EDF or LRTF: they are written as `fifo`.
pub fn write_fair_xml(config: &GroupConfig, ctx: &FairContext) -> String {
    let mut out = String::from("<?xml version=\"1.0\"?>\n<allocations>\n");
    for q in &config.queues {
        let _ = writeln!(out, "  <queue name=\"{}\">", escape(&q.name));
        for (k, v) in fair_values(q, ctx) {
            let _ = writeln!(out, "    <{k}>{}</{k}>", escape(&v));
        }
        if let Some(a) = q.am_share {
            let _ = writeln!(out, "    <maxAMShare>{a}</maxAMShare>");
        }
        out.push_str("  </queue>\n");
    }
    out.push_str("</allocations>\n");
    out
}

/// `text` with the weights, policies and bounds of `parent`'s child
/// queues set to `config`'s, in place; elements a queue lacks are added
/// before its first child queue or its end tag. Everything else is kept.
pub fn update_fair_xml(
    text: &str,
    parent: &str,
    config: &GroupConfig,
    ctx: &FairContext,
) -> Result<String, XmlError> {
    let current = read_fair_xml(text, parent, ctx)?;
    same_queues(parent, &current, config)?;
    let doc = parse(text)?;
    // The queue elements of the parent, found as read_fair_xml does.
    let mut level: Vec<roxmltree::Node<'_, '_>> = doc
        .root_element()
        .children()
        .filter(|n| n.is_element() && matches!(n.tag_name().name(), "queue" | "pool"))
        .collect();
    if level.len() == 1 && level[0].attribute("name") == Some("root") {
        level = level[0]
            .children()
            .filter(|n| n.is_element() && matches!(n.tag_name().name(), "queue" | "pool"))
            .collect();
    }
    for step in parent.split('.').filter(|s| *s != "root") {
        let next = level
            .iter()
            .find(|q| q.attribute("name") == Some(step))
            .copied();
        level = next
            .map(|n| {
                n.children()
                    .filter(|c| c.is_element() && matches!(c.tag_name().name(), "queue" | "pool"))
                    .collect()
            })
            .unwrap_or_default();
    }
    let mut edits = Vec::new();
    for (node, q) in level.iter().zip(&config.queues) {
        let mut add = String::new();
        for (k, v) in fair_values(q, ctx) {
            match node
                .children()
                .find(|c| c.is_element() && c.tag_name().name() == k)
            {
                Some(c) => {
                    let r = match c.first_child() {
                        Some(t) if t.is_text() => t.range(),
                        _ => {
                            // <k/> or <k></k>: replace the element.
                            c.range()
                        }
                    };
                    let v = if c.first_child().is_some_and(|t| t.is_text()) {
                        escape(&v)
                    } else {
                        format!("<{k}>{}</{k}>", escape(&v))
                    };
                    edits.push((r, v));
                }
                None => {
                    let _ = write!(add, "<{k}>{}</{k}>", escape(&v));
                }
            }
        }
        if !add.is_empty() && text[node.range()].ends_with("/>") {
            // <queue name="x"/>: open it up.
            let tag = node.tag_name().name();
            let head = &text[node.range().start..node.range().end - 2];
            edits.push((node.range(), format!("{}>{add}</{tag}>", head.trim_end())));
        } else if !add.is_empty() {
            let pos = node
                .children()
                .find(|c| c.is_element() && matches!(c.tag_name().name(), "queue" | "pool"))
                .map_or_else(
                    || {
                        let end = node.range().end;
                        text[..end].rfind("</").unwrap_or(end)
                    },
                    |c| c.range().start,
                );
            edits.push((pos..pos, add));
        }
    }
    Ok(apply(text, edits))
}
