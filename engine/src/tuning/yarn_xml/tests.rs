//! The YARN files on real-looking examples (after Hadoop's
//! CapacityScheduler.md and FairScheduler.md): reading, the round trip,
//! in-place updates and located errors.

use super::*;
use crate::tuning::{GroupConfig, Policy, SchedulerKind};

/// A capacity-scheduler.xml as Hadoop ships and CapacityScheduler.md
/// extends it: global settings, root with two queues, `default` split in
/// two priority queues (the tuning group), descriptions and comments.
const CAPACITY: &str = r#"<?xml version="1.0"?>
<!--
  Licensed under the Apache License, Version 2.0.
-->
<configuration>

  <property>
    <name>yarn.scheduler.capacity.maximum-applications</name>
    <value>10000</value>
    <description>
      Maximum number of applications that can be pending and running.
    </description>
  </property>

  <property>
    <name>yarn.scheduler.capacity.maximum-am-resource-percent</name>
    <value>0.1</value>
  </property>

  <property>
    <name>yarn.scheduler.capacity.resource-calculator</name>
    <value>org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator</value>
  </property>

  <property>
    <name>yarn.scheduler.capacity.root.queues</name>
    <value>default,etl</value>
    <description>The queues at the this level (root is the root queue).</description>
  </property>

  <property>
    <name>yarn.scheduler.capacity.root.default.capacity</name>
    <value>70</value>
  </property>

  <property>
    <name>yarn.scheduler.capacity.root.etl.capacity</name>
    <value>30</value>
  </property>

  <property>
    <name>yarn.scheduler.capacity.root.default.queues</name>
    <value>high,low</value>
  </property>

  <property>
    <name>yarn.scheduler.capacity.root.default.high.capacity</name>
    <value>50</value>
  </property>

  <property>
    <name>yarn.scheduler.capacity.root.default.high.maximum-capacity</name>
    <value>90</value>
  </property>

  <property>
    <name>yarn.scheduler.capacity.root.default.low.capacity</name>
    <value>50</value>
  </property>

  <property>
    <name>yarn.scheduler.capacity.root.default.low.maximum-capacity</name>
    <value>-1</value>
  </property>

  <property>
    <name>yarn.scheduler.capacity.root.default.low.user-limit-factor</name>
    <value>1</value>
  </property>

  <property>
    <name>yarn.scheduler.capacity.root.default.high.state</name>
    <value>RUNNING</value>
  </property>

  <property>
    <name>yarn.scheduler.capacity.root.default.high.acl_submit_applications</name>
    <value>*</value>
  </property>

  <property>
    <name>yarn.scheduler.capacity.node-locality-delay</name>
    <value>40</value>
  </property>

</configuration>
"#;

/// An allocation file after FairScheduler.md's example: nested queues,
/// resources as "X mb,Y vcores", defaults, a placement policy.
const FAIR: &str = r#"<?xml version="1.0"?>
<allocations>
  <queue name="sample_queue">
    <minResources>10000 mb,0vcores</minResources>
    <maxResources>90000 mb,0vcores</maxResources>
    <maxRunningApps>50</maxRunningApps>
    <maxAMShare>0.1</maxAMShare>
    <weight>2.0</weight>
    <schedulingPolicy>fair</schedulingPolicy>
    <queue name="sample_sub_queue">
      <aclSubmitApps>charlie</aclSubmitApps>
      <minResources>5000 mb,0vcores</minResources>
    </queue>
    <queue name="sample_reservable_queue">
      <reservation></reservation>
    </queue>
  </queue>

  <queueMaxAMShareDefault>0.5</queueMaxAMShareDefault>
  <queueMaxResourcesDefault>40000 mb,0vcores</queueMaxResourcesDefault>

  <!-- Queue 'secondary_group_queue' is a parent queue and may have
       user queues under it -->
  <queue name="secondary_group_queue" type="parent">
    <weight>3.0</weight>
    <maxChildResources>4096 mb,4vcores</maxChildResources>
  </queue>

  <user name="sample_user">
    <maxRunningApps>30</maxRunningApps>
  </user>
  <userMaxAppsDefault>5</userMaxAppsDefault>

  <queuePlacementPolicy>
    <rule name="specified" />
    <rule name="primaryGroup" create="false" />
    <rule name="nestedUserQueue">
        <rule name="secondaryGroupExistingQueue" create="false" />
    </rule>
    <rule name="default" queue="sample_queue"/>
  </queuePlacementPolicy>
</allocations>
"#;

#[test]
fn reads_a_capacity_scheduler_xml() {
    let root = read_capacity_xml(CAPACITY, "root").unwrap();
    assert_eq!(root.scheduler, SchedulerKind::Capacity);
    let names: Vec<&str> = root.queues.iter().map(|q| q.name.as_str()).collect();
    assert_eq!(names, ["default", "etl"]);
    assert_eq!(root.queues[0].share, 0.7);
    let g = read_capacity_xml(CAPACITY, "root.default").unwrap();
    assert_eq!(g.queues[0].share, 0.5);
    assert_eq!(g.queues[0].max_share, 0.9);
    assert_eq!(g.queues[1].max_share, 1.0); // -1
    assert!(g.queues.iter().all(|q| q.policy == Policy::Fifo));
    g.validate().unwrap();
}

#[test]
fn capacity_round_trip_and_in_place_update() {
    let g = read_capacity_xml(CAPACITY, "root.default").unwrap();
    // Fresh file: read back equal.
    let fresh = write_capacity_xml(&g, "root");
    assert_eq!(read_capacity_xml(&fresh, "root").unwrap(), g);
    // Tuned values written into the user's file, all else kept.
    let mut tuned = g.clone();
    tuned.queues[0].share = 1.0 / 3.0;
    tuned.queues[1].share = 2.0 / 3.0;
    tuned.queues[1].policy = Policy::Fair;
    let out = update_capacity_xml(CAPACITY, "root.default", &tuned).unwrap();
    let back = read_capacity_xml(&out, "root.default").unwrap();
    assert!((back.queues[0].share - 0.3333).abs() < 1e-9, "{out}");
    assert!((back.queues[1].share - 0.6667).abs() < 1e-9);
    assert_eq!(back.queues[1].policy, Policy::Fair);
    assert_eq!(back.queues[0].max_share, 0.9);
    assert!(out.contains("<value>33.33</value>"));
    assert!(out.contains("Maximum number of applications"));
    assert!(out.contains("Licensed under"));
    assert!(out.contains("root.default.low.ordering-policy"));
    // The other parent is untouched.
    assert_eq!(
        read_capacity_xml(&out, "root").unwrap(),
        read_capacity_xml(CAPACITY, "root").unwrap()
    );
    // A second update changes nothing more.
    assert_eq!(
        update_capacity_xml(&out, "root.default", &tuned).unwrap(),
        out
    );
}

/// The 1-based line of `text` holding `what`.
fn line_of(text: &str, what: &str) -> u32 {
    let at = text.find(what).expect("in the text");
    text[..at].matches('\n').count() as u32 + 1
}

fn located(e: XmlError, line: u32, needle: &str) {
    assert_eq!(e.line, line, "{e}");
    assert!(e.to_string().contains(needle), "{e}");
    assert!(e.column >= 1);
}

#[test]
fn capacity_errors_are_located() {
    // Malformed XML.
    let bad = CAPACITY.replace("<value>30</value>", "<value>30</vale>");
    located(
        read_capacity_xml(&bad, "root").unwrap_err(),
        line_of(&bad, "</vale>"),
        "malformed XML",
    );
    // Capacities not summing to 100: at root's `queues` value.
    let bad = CAPACITY.replace("<value>30</value>", "<value>20</value>");
    located(
        read_capacity_xml(&bad, "root").unwrap_err(),
        line_of(&bad, "default,etl"),
        "sum to 90, not 100",
    );
    // Unknown property: YARN ignores it; we warn, at its name.
    let bad = CAPACITY.replace(
        "yarn.scheduler.capacity.root.default.low.user-limit-factor",
        "yarn.scheduler.capacity.root.default.low.user-limit-fctor",
    );
    let (_, w) = read_capacity_xml_with_warnings(&bad, "root").unwrap();
    located(
        w[0].clone(),
        line_of(&bad, "user-limit-fctor"),
        "unknown property",
    );
    let bad = CAPACITY.replace(
        "yarn.scheduler.capacity.node-locality-delay",
        "yarn.resourcemanager.scheduler.class",
    );
    let (_, w) = read_capacity_xml_with_warnings(&bad, "root").unwrap();
    located(
        w[0].clone(),
        line_of(&bad, "scheduler.class"),
        "unknown property",
    );
    // A value that is not a number.
    let bad = CAPACITY.replace("<value>90</value>", "<value>ninety</value>");
    located(
        read_capacity_xml(&bad, "root.default").unwrap_err(),
        line_of(&bad, "ninety"),
        "not a percentage",
    );
    // Not a configuration file at all.
    let e = read_capacity_xml("<allocations/>", "root").unwrap_err();
    assert_eq!((e.line, e.column), (1, 1));
}

#[test]
fn reads_a_fair_allocation_file() {
    // 100 containers of 2 GB: 10000 MB is 4.88 % of 204800 MB.
    let ctx = FairContext::paper(100);
    let top = read_fair_xml(FAIR, "root", &ctx).unwrap();
    let names: Vec<&str> = top.queues.iter().map(|q| q.name.as_str()).collect();
    assert_eq!(names, ["sample_queue", "secondary_group_queue"]);
    assert_eq!(top.queues[0].share, 2.0);
    assert_eq!(top.queues[1].share, 3.0);
    assert_eq!(top.queues[0].policy, Policy::Fair);
    assert!((top.queues[0].min_share - 10000.0 / 204800.0).abs() < 1e-12);
    assert!((top.queues[0].max_share - 90000.0 / 204800.0).abs() < 1e-12);
    let sub = read_fair_xml(FAIR, "root.sample_queue", &ctx).unwrap();
    assert_eq!(sub.queues.len(), 2);
    assert_eq!(sub.queues[1].share, 1.0);
}

#[test]
fn fair_round_trip_and_in_place_update() {
    let ctx = FairContext::paper(100);
    let top = read_fair_xml(FAIR, "root", &ctx).unwrap();
    let fresh = write_fair_xml(&top, &ctx);
    let back = read_fair_xml(&fresh, "root", &ctx).unwrap();
    for (a, b) in back.queues.iter().zip(&top.queues) {
        assert_eq!(a.name, b.name);
        assert_eq!(a.share, b.share);
        assert_eq!(a.policy, b.policy);
        assert!((a.min_share - b.min_share).abs() < 1e-4);
        assert!((a.max_share - b.max_share).abs() < 1e-4);
    }
    let tuned = GroupConfig {
        scheduler: SchedulerKind::Fair,
        queues: top
            .queues
            .iter()
            .zip([(25.0, Policy::Drf), (75.0, Policy::Fifo)])
            .map(|(q, (w, p))| {
                let mut q = q.clone();
                q.share = w;
                q.policy = p;
                q
            })
            .collect(),
    };
    let out = update_fair_xml(FAIR, "root", &tuned, &ctx).unwrap();
    let back = read_fair_xml(&out, "root", &ctx).unwrap();
    assert_eq!(back.queues[0].share, 25.0);
    assert_eq!(back.queues[0].policy, Policy::Drf);
    assert_eq!(back.queues[1].policy, Policy::Fifo);
    assert!(out.contains("<queuePlacementPolicy>"));
    assert!(out.contains("<aclSubmitApps>charlie</aclSubmitApps>"));
    assert!(
        out.contains("<schedulingPolicy>fifo</schedulingPolicy>"),
        "{out}"
    );
    // The sub-queues are untouched.
    assert_eq!(
        read_fair_xml(&out, "root.sample_queue", &ctx).unwrap(),
        read_fair_xml(FAIR, "root.sample_queue", &ctx).unwrap()
    );
    // An empty element is filled, a self-closing queue opened.
    let bare = "<allocations>\n  <queue name=\"a\"/>\n  <queue name=\"b\"><weight></weight></queue>\n</allocations>";
    let g = read_fair_xml(bare, "root", &ctx);
    assert!(g.is_err(), "empty weight is refused: {g:?}");
    let bare = "<allocations>\n  <queue name=\"a\"/>\n  <queue name=\"b\"></queue>\n</allocations>";
    let g = read_fair_xml(bare, "root", &ctx).unwrap();
    let out = update_fair_xml(bare, "root", &tuned_names(&g), &ctx).unwrap();
    let back = read_fair_xml(&out, "root", &ctx).unwrap();
    assert_eq!(back.queues[0].share, 4.0, "{out}");
    assert_eq!(back.queues[1].policy, Policy::Drf);
}

fn tuned_names(g: &GroupConfig) -> GroupConfig {
    let mut t = g.clone();
    t.queues[0].share = 4.0;
    t.queues[1].policy = Policy::Drf;
    t
}

#[test]
fn fair_errors_are_located() {
    let ctx = FairContext::paper(100);
    let bad = FAIR.replace("<schedulingPolicy>fair</", "<schedulingPolicy>lottery</");
    located(
        read_fair_xml(&bad, "root", &ctx).unwrap_err(),
        line_of(&bad, "lottery"),
        "not fifo, fair or drf",
    );
    let bad = FAIR.replace(
        "<maxAMShare>0.1</maxAMShare>",
        "<maxAMShares>0.1</maxAMShares>",
    );
    let (_, w) = read_fair_xml_with_warnings(&bad, "root", &ctx).unwrap();
    located(
        w[0].clone(),
        line_of(&bad, "maxAMShares"),
        "unknown element <maxAMShares>",
    );
    let bad = FAIR.replace("<weight>3.0</weight>", "<weight>-3</weight>");
    located(
        read_fair_xml(&bad, "root", &ctx).unwrap_err(),
        line_of(&bad, "-3"),
        "weight",
    );
    let bad = FAIR.replace("90000 mb,0vcores", "lots");
    located(
        read_fair_xml(&bad, "root", &ctx).unwrap_err(),
        line_of(&bad, "lots"),
        "not \"X mb",
    );
    let bad = FAIR.replace("</allocations>", "");
    assert!(read_fair_xml(&bad, "root", &ctx)
        .unwrap_err()
        .message
        .contains("malformed"));
    assert!(read_fair_xml(FAIR, "root.nowhere", &ctx).is_err());
}

/// A capacity-scheduler.xml as clusters write them: a licence comment,
/// odd whitespace, a property set twice (the later wins), a final one
/// redefined (the final wins), a non-property element, three queues.
const CAPACITY_AS_WRITTEN: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<?xml-stylesheet type="text/xsl" href="configuration.xsl"?>
<!--
  Licensed under the Apache License, Version 2.0
-->
<configuration>
  <property>
    <name>yarn.scheduler.capacity.root.queues</name>
    <value>
       a ,b,  c
    </value>
    <description>three queues</description>
  </property>
  <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>50</value></property>
  <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>40</value></property>
  <property>
    <name>yarn.scheduler.capacity.root.b.capacity</name>
    <value>30</value>
    <final>true</final>
  </property>
  <property><name>yarn.scheduler.capacity.root.b.capacity</name><value>35</value></property>
  <property><name>yarn.scheduler.capacity.root.c.capacity</name><value>30</value></property>
  <property><name>yarn.scheduler.capacity.maximum-am-resource-percent</name><value>0.2</value></property>
  <include xmlns="http://www.w3.org/2001/XInclude" href="extra.xml"/>
</configuration>
"#;

#[test]
fn capacity_files_are_read_as_leniently_as_yarn() {
    let (g, w) = read_capacity_xml_with_warnings(CAPACITY_AS_WRITTEN, "root").unwrap();
    let names: Vec<&str> = g.queues.iter().map(|q| q.name.as_str()).collect();
    assert_eq!(names, ["a", "b", "c"]);
    // The later a (40), the final b (30).
    assert_eq!(g.queues[0].share, 0.4);
    assert_eq!(g.queues[1].share, 0.3);
    assert!(g.queues.iter().all(|q| q.am_share == Some(0.2)));
    g.validate().unwrap();
    let msgs: Vec<&str> = w.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(w.len(), 3, "{msgs:?}");
    assert!(msgs[0].contains("root.a.capacity is set twice; the later value is used"));
    assert!(msgs[1].contains("the first is final"));
    assert!(msgs[2].contains("unexpected <include>"));
    assert_eq!(w[0].line, line_of(CAPACITY_AS_WRITTEN, "<value>40<"));
    // What YARN refuses is still refused, located: capacities that do not
    // sum to 100 once the later value is taken.
    let bad = CAPACITY_AS_WRITTEN.replace("<value>40</value>", "<value>45</value>");
    assert!(read_capacity_xml(&bad, "root")
        .unwrap_err()
        .message
        .contains("sum to 105"));
}

/// A Fair allocation file with a `<queuePlacementPolicy>` nested inside
/// the root queue, legacy `<pool>` elements, comments and seven queues.
const FAIR_AS_WRITTEN: &str = r#"<?xml version="1.0"?>
<allocations>
  <!-- seven teams -->
  <queue name="root">
    <queue name="a"><weight>1</weight></queue>
    <queue name="b"><weight> 2 </weight><maxAMShare>0.3</maxAMShare></queue>
    <pool name="c"/>
    <queue name="d"><schedulingPolicy>FIFO</schedulingPolicy></queue>
    <queue name="e"/>
    <queue name="f"/>
    <queue name="g"><minResources>1024 mb, 1 vcores</minResources></queue>
    <queuePlacementPolicy>
      <rule name="specified"/>
      <rule name="default"/>
    </queuePlacementPolicy>
  </queue>
  <queueMaxAMShareDefault>0.4</queueMaxAMShareDefault>
</allocations>
"#;

#[test]
fn fair_files_are_read_as_leniently_as_yarn() {
    let ctx = FairContext::paper(16);
    let (g, w) = read_fair_xml_with_warnings(FAIR_AS_WRITTEN, "root", &ctx).unwrap();
    assert_eq!(g.queues.len(), 7);
    assert_eq!(g.queues[1].share, 2.0);
    assert_eq!(g.queues[1].am_share, Some(0.3));
    assert_eq!(g.queues[0].am_share, Some(0.4));
    assert_eq!(g.queues[3].policy, Policy::Fifo);
    g.validate().unwrap();
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].message.contains("<queuePlacementPolicy> in <queue>"));
    assert_eq!(
        w[0].line,
        line_of(FAIR_AS_WRITTEN, "<queuePlacementPolicy>")
    );
}
