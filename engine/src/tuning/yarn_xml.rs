//! YARN's scheduler files, in and out: `capacity-scheduler.xml` (Hadoop
//! configuration properties `yarn.scheduler.capacity.<queue path>.…`) and
//! the Fair Scheduler allocation file (`<allocations>` with nested
//! `<queue name="…">` elements), as in Hadoop's CapacityScheduler.md and
//! FairScheduler.md.
//!
//! A tuning group is one parent queue (by default `root`); its children
//! are the group's priority queues. Reading gives the group's
//! [`GroupConfig`]; writing either produces a fresh file or, better,
//! [`update_capacity_xml`] / [`update_fair_xml`] rewrite only the tuned
//! values in the user's own file, leaving every other property, comment
//! and queue as it was, so the tuned file can go straight back to the
//! cluster.
//!
//! Errors carry the line and column of the offending element or value:
//! malformed XML, properties or elements YARN does not define, values that
//! do not parse, and a parent whose children's capacities do not sum to
//! 100.

use super::model::{GroupConfig, Policy, QueueConf, SchedulerKind};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use thiserror::Error;

/// A located problem in a scheduler file.
#[derive(Clone, Debug, Error, PartialEq, Serialize, Deserialize)]
#[error("line {line}, column {column}: {message}")]
pub struct XmlError {
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
    /// What is wrong.
    pub message: String,
}

fn at(doc: &roxmltree::Document<'_>, pos: usize, message: impl Into<String>) -> XmlError {
    let p = doc.text_pos_at(pos);
    XmlError {
        line: p.row,
        column: p.col,
        message: message.into(),
    }
}

fn parse(text: &str) -> Result<roxmltree::Document<'_>, XmlError> {
    roxmltree::Document::parse(text).map_err(|e| {
        let p = e.pos();
        XmlError {
            line: p.row,
            column: p.col,
            message: format!("malformed XML: {e}"),
        }
    })
}

// ---------------------------------------------------------------------------
// capacity-scheduler.xml

const CAPACITY_PREFIX: &str = "yarn.scheduler.capacity.";

/// Global `yarn.scheduler.capacity.*` properties (not per queue) that are
/// accepted and left alone.
const CAPACITY_GLOBAL: &[&str] = &[
    "maximum-applications",
    "maximum-am-resource-percent",
    "resource-calculator",
    "node-locality-delay",
    "rack-locality-additional-delay",
    "queue-mappings",
    "queue-mappings-override.enable",
    "per-node-heartbeat.maximum-offswitch-assignments",
    "per-node-heartbeat.multiple-assignments-enabled",
    "per-node-heartbeat.maximum-container-assignments",
    "application.fail-fast",
    "workflow-priority-mappings",
    "workflow-priority-mappings-override.enable",
    "lazy-preemption-enabled",
    "schedule-asynchronously.enable",
    "schedule-asynchronously.maximum-threads",
    "schedule-asynchronously.scheduling-interval-ms",
    "reservations-continue-look-all-nodes",
    "global-queue-max-application",
    "assignment-limit",
];

/// Per-queue property suffixes YARN defines (accepted; the tuned ones are
/// `capacity`, `maximum-capacity` and `ordering-policy`).
const CAPACITY_QUEUE: &[&str] = &[
    "queues",
    "capacity",
    "maximum-capacity",
    "ordering-policy",
    "minimum-user-limit-percent",
    "user-limit-factor",
    "maximum-applications",
    "maximum-am-resource-percent",
    "maximum-allocation-mb",
    "maximum-allocation-vcores",
    "state",
    "acl_submit_applications",
    "acl_administer_queue",
    "acl_administer_reservations",
    "acl_list_reservations",
    "acl_submit_reservations",
    "default-node-label-expression",
    "accessible-node-labels",
    "user-settings",
    "disable_preemption",
    "intra-queue-preemption.disable_preemption",
    "priority",
    "default-application-priority",
    "default-application-lifetime",
    "maximum-application-lifetime",
    "reservable",
    "ordering-policy.fair.enable-size-based-weight",
    "auto-create-child-queue.enabled",
    "max-parallel-apps",
];

/// One `<property>` of the file.
#[derive(Clone, Debug)]
struct Property {
    value: String,
    /// Byte range of the value's text (empty range after `<value>` when
    /// the value is empty), for rewriting.
    value_range: std::ops::Range<usize>,
    /// Byte offset of the `<name>` text, for errors.
    name_pos: usize,
}

/// Reads the properties: name → property; errors located.
fn capacity_properties(
    doc: &roxmltree::Document<'_>,
) -> Result<BTreeMap<String, Property>, XmlError> {
    let root = doc.root_element();
    if root.tag_name().name() != "configuration" {
        return Err(at(
            doc,
            root.range().start,
            format!(
                "expected <configuration>, found <{}>",
                root.tag_name().name()
            ),
        ));
    }
    let mut out = BTreeMap::new();
    for p in root.children().filter(|n| n.is_element()) {
        if p.tag_name().name() != "property" {
            return Err(at(
                doc,
                p.range().start,
                format!("unexpected <{}> in <configuration>", p.tag_name().name()),
            ));
        }
        let mut name = None;
        let mut value = None;
        for c in p.children().filter(|n| n.is_element()) {
            match c.tag_name().name() {
                "name" => name = Some(c),
                "value" => value = Some(c),
                "description" | "final" | "source" => {}
                other => {
                    return Err(at(
                        doc,
                        c.range().start,
                        format!("unexpected <{other}> in <property>"),
                    ))
                }
            }
        }
        let Some(name) = name else {
            return Err(at(doc, p.range().start, "<property> without <name>"));
        };
        let key = name.text().unwrap_or("").trim().to_string();
        let Some(value) = value else {
            return Err(at(doc, p.range().start, format!("{key}: no <value>")));
        };
        let value_range = match value.first_child() {
            Some(t) if t.is_text() => t.range(),
            _ => {
                let inner = value.range().start + "<value>".len();
                inner..inner
            }
        };
        let name_pos = name
            .first_child()
            .map_or(name.range().start, |t| t.range().start);
        let Some(rest) = key.strip_prefix(CAPACITY_PREFIX) else {
            return Err(at(doc, name_pos, format!("unknown property {key}")));
        };
        if !CAPACITY_GLOBAL.contains(&rest) && !rest.starts_with("root") {
            return Err(at(doc, name_pos, format!("unknown property {key}")));
        }
        if out
            .insert(
                key.clone(),
                Property {
                    value: value.text().unwrap_or("").trim().to_string(),
                    value_range,
                    name_pos,
                },
            )
            .is_some()
        {
            return Err(at(doc, name_pos, format!("{key} is set twice")));
        }
    }
    Ok(out)
}

/// The queue tree the `queues` properties describe: path → children.
fn capacity_tree(
    doc: &roxmltree::Document<'_>,
    props: &BTreeMap<String, Property>,
) -> Result<BTreeMap<String, Vec<String>>, XmlError> {
    let mut tree = BTreeMap::new();
    let mut stack = vec!["root".to_string()];
    while let Some(path) = stack.pop() {
        let key = format!("{CAPACITY_PREFIX}{path}.queues");
        let Some(p) = props.get(&key) else { continue };
        let children: Vec<String> = p
            .value
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect();
        if children.is_empty() {
            return Err(at(
                doc,
                p.value_range.start,
                format!("{key} lists no queue"),
            ));
        }
        for c in &children {
            stack.push(format!("{path}.{c}"));
        }
        tree.insert(path, children);
    }
    // Every per-queue property names a known queue and a known suffix.
    let mut queues: Vec<String> = vec!["root".into()];
    for (parent, children) in &tree {
        queues.extend(children.iter().map(|c| format!("{parent}.{c}")));
    }
    for (key, p) in props {
        let rest = &key[CAPACITY_PREFIX.len()..];
        if CAPACITY_GLOBAL.contains(&rest) {
            continue;
        }
        let known = queues.iter().any(|q| {
            rest.strip_prefix(q.as_str())
                .and_then(|s| s.strip_prefix('.'))
                .is_some_and(|suffix| {
                    CAPACITY_QUEUE.contains(&suffix)
                        || suffix.starts_with("accessible-node-labels.")
                        || suffix.starts_with("user-settings.")
                        || suffix.starts_with("ordering-policy.")
                })
        });
        if !known {
            return Err(at(doc, p.name_pos, format!("unknown property {key}")));
        }
    }
    Ok(tree)
}

fn percent(doc: &roxmltree::Document<'_>, key: &str, p: &Property) -> Result<f64, XmlError> {
    let v: f64 = p.value.parse().map_err(|_| {
        at(
            doc,
            p.value_range.start,
            format!("{key}: {:?} is not a percentage", p.value),
        )
    })?;
    if v == -1.0 && key.ends_with("maximum-capacity") {
        return Ok(100.0);
    }
    if !(0.0..=100.0).contains(&v) {
        return Err(at(
            doc,
            p.value_range.start,
            format!("{key}: {v} is not in [0, 100]"),
        ));
    }
    Ok(v)
}

/// Reads `capacity-scheduler.xml`: the children of `parent` (e.g. `root`
/// or `root.analytics`) as the group's queues. Capacities are percentages
/// of the parent and every parent's children must sum to 100; `maximum-
/// capacity` defaults to 100 (−1 means 100); `ordering-policy` `fifo`
/// (default) or `fair`.
pub fn read_capacity_xml(text: &str, parent: &str) -> Result<GroupConfig, XmlError> {
    let doc = parse(text)?;
    let props = capacity_properties(&doc)?;
    let tree = capacity_tree(&doc, &props)?;
    for (path, children) in &tree {
        let mut sum = 0.0;
        for c in children {
            let key = format!("{CAPACITY_PREFIX}{path}.{c}.capacity");
            if let Some(p) = props.get(&key) {
                sum += percent(&doc, &key, p)?;
            }
        }
        if (sum - 100.0).abs() > 1e-6 {
            let key = format!("{CAPACITY_PREFIX}{path}.queues");
            return Err(at(
                &doc,
                props[&key].value_range.start,
                format!(
                    "the capacities of {path}'s queues ({}) sum to {sum}, not 100",
                    children.join(", ")
                ),
            ));
        }
    }
    let Some(children) = tree.get(parent) else {
        return Err(XmlError {
            line: 1,
            column: 1,
            message: format!(
                "no queue {parent} with child queues (no {CAPACITY_PREFIX}{parent}.queues)"
            ),
        });
    };
    let mut queues = Vec::new();
    for c in children {
        let base = format!("{CAPACITY_PREFIX}{parent}.{c}");
        let get = |s: &str| props.get(&format!("{base}.{s}"));
        let share = match get("capacity") {
            Some(p) => percent(&doc, &format!("{base}.capacity"), p)? / 100.0,
            None => 0.0,
        };
        let max_share = match get("maximum-capacity") {
            Some(p) => percent(&doc, &format!("{base}.maximum-capacity"), p)? / 100.0,
            None => 1.0,
        };
        if max_share < share {
            let p = get("maximum-capacity").map_or(0, |p| p.value_range.start);
            return Err(at(
                &doc,
                p,
                format!(
                    "{base}.maximum-capacity {} is below its capacity {}",
                    max_share * 100.0,
                    share * 100.0
                ),
            ));
        }
        let policy = match get("ordering-policy") {
            None => Policy::Fifo,
            Some(p) => match p.value.to_ascii_lowercase().as_str() {
                "fifo" => Policy::Fifo,
                "fair" => Policy::Fair,
                other => {
                    return Err(at(
                        &doc,
                        p.value_range.start,
                        format!("{base}.ordering-policy: {other:?} is not fifo or fair"),
                    ))
                }
            },
        };
        queues.push(QueueConf {
            name: c.clone(),
            share,
            min_share: 0.0,
            max_share,
            policy,
        });
    }
    Ok(GroupConfig {
        scheduler: SchedulerKind::Capacity,
        queues,
    })
}

fn capacity_values(config: &GroupConfig, parent: &str) -> Vec<(String, String)> {
    let mut out = vec![(
        format!("{CAPACITY_PREFIX}{parent}.queues"),
        config
            .queues
            .iter()
            .map(|q| q.name.as_str())
            .collect::<Vec<_>>()
            .join(","),
    )];
    // Percentages with two decimals that still sum to exactly 100.
    let mut hundredths: Vec<i64> = config
        .queues
        .iter()
        .map(|q| (q.share * 10_000.0).round() as i64)
        .collect();
    let drift = 10_000 - hundredths.iter().sum::<i64>();
    if let Some(last) = hundredths.last_mut() {
        *last += drift;
    }
    let pct = |h: i64| {
        let s = format!("{}.{:02}", h / 100, h % 100);
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    for (q, h) in config.queues.iter().zip(hundredths) {
        let base = format!("{CAPACITY_PREFIX}{parent}.{}", q.name);
        out.push((format!("{base}.capacity"), pct(h)));
        out.push((
            format!("{base}.maximum-capacity"),
            pct((q.max_share * 10_000.0).round() as i64),
        ));
        out.push((
            format!("{base}.ordering-policy"),
            match q.policy {
                Policy::Fair | Policy::Drf => "fair",
                _ => "fifo",
            }
            .into(),
        ));
    }
    out
}

fn property_xml(out: &mut String, name: &str, value: &str) {
    let _ = write!(
        out,
        "  <property>\n    <name>{}</name>\n    <value>{}</value>\n  </property>\n",
        escape(name),
        escape(value)
    );
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A fresh `capacity-scheduler.xml` for `config` under `parent` (`root`
/// for a whole file; for a deeper parent only its properties). Capacity
/// has no DRF or EDF ordering: `fair`, `drf` write `fair`, the others `fifo`.
pub fn write_capacity_xml(config: &GroupConfig, parent: &str) -> String {
    let mut out = String::from("<?xml version=\"1.0\"?>\n<configuration>\n");
    for (k, v) in capacity_values(config, parent) {
        property_xml(&mut out, &k, &v);
    }
    out.push_str("</configuration>\n");
    out
}

/// `text` (a `capacity-scheduler.xml` whose `parent` has the queues of
/// `config`) with the tuned values replaced in place and missing ones added
/// before `</configuration>`; all else kept byte for byte.
pub fn update_capacity_xml(
    text: &str,
    parent: &str,
    config: &GroupConfig,
) -> Result<String, XmlError> {
    let current = read_capacity_xml(text, parent)?;
    let names = |c: &GroupConfig| c.queues.iter().map(|q| q.name.clone()).collect::<Vec<_>>();
    if names(&current) != names(config) {
        return Err(XmlError {
            line: 1,
            column: 1,
            message: format!(
                "{parent} has queues {:?}, the tuned configuration {:?}",
                names(&current),
                names(config)
            ),
        });
    }
    let doc = parse(text)?;
    let props = capacity_properties(&doc)?;
    let mut edits: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    let mut missing = String::new();
    for (k, v) in capacity_values(config, parent) {
        match props.get(&k) {
            Some(p) => edits.push((p.value_range.clone(), escape(&v))),
            None => property_xml(&mut missing, &k, &v),
        }
    }
    let end = doc.root_element().range().end;
    let close = text[..end].rfind("</configuration>").unwrap_or(end);
    edits.push((close..close, missing));
    Ok(apply(text, edits))
}

fn apply(text: &str, mut edits: Vec<(std::ops::Range<usize>, String)>) -> String {
    edits.sort_by_key(|e| std::cmp::Reverse(e.0.start));
    let mut out = text.to_string();
    for (r, v) in edits {
        out.replace_range(r, &v);
    }
    out
}

// ---------------------------------------------------------------------------
// Fair Scheduler allocation file

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

fn fair_queue_children<'a, 'i>(
    doc: &roxmltree::Document<'_>,
    node: roxmltree::Node<'a, 'i>,
    allowed: &[&str],
) -> Result<Vec<roxmltree::Node<'a, 'i>>, XmlError> {
    let mut out = Vec::new();
    for c in node.children().filter(|n| n.is_element()) {
        let name = c.tag_name().name();
        if !allowed.contains(&name) {
            return Err(at(
                doc,
                c.range().start,
                format!("unknown element <{name}> in <{}>", node.tag_name().name()),
            ));
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
    let doc = parse(text)?;
    let root = doc.root_element();
    if root.tag_name().name() != "allocations" {
        return Err(at(
            &doc,
            root.range().start,
            format!("expected <allocations>, found <{}>", root.tag_name().name()),
        ));
    }
    let mut default_policy = Policy::Fair;
    for c in root.children().filter(|n| n.is_element()) {
        if c.tag_name().name() == "defaultQueueSchedulingPolicy" {
            default_policy = fair_policy(&doc, c)?;
        }
    }
    let mut level = fair_queue_children(&doc, root, FAIR_TOP)?;
    // Validate every queue's elements, and walk to the parent.
    let mut stack = level.clone();
    while let Some(q) = stack.pop() {
        stack.extend(fair_queue_children(&doc, q, FAIR_QUEUE)?);
    }
    let mut path = parent.split('.').collect::<Vec<_>>();
    if path.first() == Some(&"root") {
        path.remove(0);
    }
    if level.len() == 1 && level[0].attribute("name") == Some("root") {
        level = fair_queue_children(&doc, level[0], FAIR_QUEUE)?;
    }
    for step in path {
        let Some(next) = level.iter().find(|q| q.attribute("name") == Some(step)) else {
            return Err(XmlError {
                line: 1,
                column: 1,
                message: format!("no queue {parent}"),
            });
        };
        level = fair_queue_children(&doc, *next, FAIR_QUEUE)?;
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
    Ok(GroupConfig {
        scheduler: SchedulerKind::Fair,
        queues,
    })
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
    let names = |c: &GroupConfig| c.queues.iter().map(|q| q.name.clone()).collect::<Vec<_>>();
    if names(&current) != names(config) {
        return Err(XmlError {
            line: 1,
            column: 1,
            message: format!(
                "{parent} has queues {:?}, the tuned configuration {:?}",
                names(&current),
                names(config)
            ),
        });
    }
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
