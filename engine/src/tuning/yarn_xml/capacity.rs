//! `capacity-scheduler.xml`: Hadoop configuration properties
//! `yarn.scheduler.capacity.<queue path>.…` (CapacityScheduler.md), read
//! into a group's configuration, written fresh, or updated in place.

use super::xml::{apply, at, escape, ignored, parse, same_queues, XmlError};
use crate::tuning::model::{GroupConfig, Policy, QueueConf, SchedulerKind};
use std::collections::BTreeMap;
use std::fmt::Write as _;

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
    /// `<final>true</final>`: a later definition does not override it.
    is_final: bool,
}

/// Reads the properties: name → property; errors located. As Hadoop's
/// `Configuration` does, elements other than `<property>` and unknown
/// property names are ignored with a warning, and a property set twice
/// takes the later value unless the earlier is `final` (a warning either
/// way).
fn capacity_properties(
    doc: &roxmltree::Document<'_>,
    warnings: &mut Vec<XmlError>,
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
    let mut out: BTreeMap<String, Property> = BTreeMap::new();
    for p in root.children().filter(|n| n.is_element()) {
        if p.tag_name().name() != "property" {
            warnings.push(ignored(doc, p, "unexpected", "configuration"));
            continue;
        }
        let mut name = None;
        let mut value = None;
        let mut is_final = false;
        for c in p.children().filter(|n| n.is_element()) {
            match c.tag_name().name() {
                "name" => name = Some(c),
                "value" => value = Some(c),
                "final" => is_final = c.text().unwrap_or("").trim() == "true",
                "description" | "source" | "tag" => {}
                _ => warnings.push(ignored(doc, c, "unexpected", "property")),
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
        let known = key
            .strip_prefix(CAPACITY_PREFIX)
            .is_some_and(|rest| CAPACITY_GLOBAL.contains(&rest) || rest.starts_with("root"));
        if !known {
            warnings.push(at(
                doc,
                name_pos,
                format!("unknown property {key}: ignored"),
            ));
            continue;
        }
        let prop = Property {
            value: value.text().unwrap_or("").trim().to_string(),
            value_range,
            name_pos,
            is_final,
        };
        match out.get(&key) {
            Some(earlier) if earlier.is_final => warnings.push(at(
                doc,
                name_pos,
                format!("{key} is set twice; the first is final, this value is ignored"),
            )),
            Some(_) => {
                warnings.push(at(
                    doc,
                    name_pos,
                    format!("{key} is set twice; the later value is used"),
                ));
                out.insert(key, prop);
            }
            None => {
                out.insert(key, prop);
            }
        }
    }
    Ok(out)
}

/// The queue tree the `queues` properties describe: path → children.
fn capacity_tree(
    doc: &roxmltree::Document<'_>,
    props: &BTreeMap<String, Property>,
    warnings: &mut Vec<XmlError>,
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
            warnings.push(at(
                doc,
                p.name_pos,
                format!("unknown property {key}: ignored"),
            ));
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

/// A value in [0, 1] (`maximum-am-resource-percent` is a fraction despite
/// its name).
fn fraction(doc: &roxmltree::Document<'_>, key: &str, p: &Property) -> Result<f64, XmlError> {
    match p.value.parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(at(
            doc,
            p.value_range.start,
            format!("{key}: {:?} is not a fraction in [0, 1]", p.value),
        )),
    }
}

/// Reads `capacity-scheduler.xml`: the children of `parent` (e.g. `root`
/// or `root.analytics`) as the group's queues. Capacities are percentages
/// of the parent and every parent's children must sum to 100; `maximum-
/// capacity` defaults to 100 (−1 means 100); `ordering-policy` `fifo`
/// (default) or `fair`.
pub fn read_capacity_xml(text: &str, parent: &str) -> Result<GroupConfig, XmlError> {
    read_capacity_xml_with_warnings(text, parent).map(|(g, _)| g)
}

/// [`read_capacity_xml`] with what YARN would accept and warn about
/// (unknown properties and elements, a property set twice), located.
pub fn read_capacity_xml_with_warnings(
    text: &str,
    parent: &str,
) -> Result<(GroupConfig, Vec<XmlError>), XmlError> {
    let doc = parse(text)?;
    let mut warnings = Vec::new();
    let props = capacity_properties(&doc, &mut warnings)?;
    let tree = capacity_tree(&doc, &props, &mut warnings)?;
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
        // The queue's own AM percent, else the global one (a fraction).
        let am_key = format!("{base}.maximum-am-resource-percent");
        let global_am = format!("{CAPACITY_PREFIX}maximum-am-resource-percent");
        let am_share = match props
            .get(&am_key)
            .map(|p| (&am_key, p))
            .or(props.get(&global_am).map(|p| (&global_am, p)))
        {
            Some((key, p)) => Some(fraction(&doc, key, p)?),
            None => None,
        };
        let user_limit_factor = match get("user-limit-factor") {
            Some(p) => {
                let key = format!("{base}.user-limit-factor");
                match p.value.parse::<f64>() {
                    Ok(v) if v.is_finite() && v > 0.0 => Some(v),
                    // YARN reads −1 as "no user limit".
                    Ok(-1.0) => Some(1e6),
                    _ => {
                        return Err(at(
                            &doc,
                            p.value_range.start,
                            format!("{key}: {:?} is not a positive number", p.value),
                        ))
                    }
                }
            }
            None => None,
        };
        queues.push(QueueConf {
            name: c.clone(),
            share,
            min_share: 0.0,
            max_share,
            policy,
            am_share,
            user_limit_factor,
        });
    }
    Ok((
        GroupConfig {
            scheduler: SchedulerKind::Capacity,
            queues,
        },
        warnings,
    ))
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

/// A fresh `capacity-scheduler.xml` for `config` under `parent` (`root`
/// for a whole file; for a deeper parent only its properties). Capacity
/// has no DRF or EDF ordering: `fair`, `drf` write `fair`, the others `fifo`.
pub fn write_capacity_xml(config: &GroupConfig, parent: &str) -> String {
    let mut out = String::from("<?xml version=\"1.0\"?>\n<configuration>\n");
    for (k, v) in capacity_values(config, parent) {
        property_xml(&mut out, &k, &v);
    }
    // The limits read from a file travel with it (not tuned, so not part
    // of in-place updates).
    for q in &config.queues {
        let base = format!("{CAPACITY_PREFIX}{parent}.{}", q.name);
        if let Some(a) = q.am_share {
            property_xml(
                &mut out,
                &format!("{base}.maximum-am-resource-percent"),
                &a.to_string(),
            );
        }
        if let Some(f) = q.user_limit_factor {
            property_xml(
                &mut out,
                &format!("{base}.user-limit-factor"),
                &f.to_string(),
            );
        }
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
    same_queues(parent, &current, config)?;
    let doc = parse(text)?;
    let props = capacity_properties(&doc, &mut Vec::new())?;
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
