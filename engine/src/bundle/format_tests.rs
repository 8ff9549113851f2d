//! The bundle's bytes: a whole workspace round-trips equal; a cut, damaged,
//! foreign or newer file is refused with its kind and reason, never a
//! panic.

use super::*;
use crate::agenda::{AgendaParams, Method as AgendaMethod};
use crate::import::{read_decisions_csv, read_queue_csv, Format};
use crate::tuning::{GroupConfig, Policy, QueueConf, SchedulerKind};
use flate2::write::GzEncoder;
use flate2::Compression;
use std::io::Write;

const RUNS: &str = include_str!("../../../fixtures/demo/runs.csv");
const UTIL: &str = include_str!("../../../fixtures/demo/utilization.csv");
const DECISIONS: &str = include_str!("../../../fixtures/demo/decisions.csv");
const QUEUE: &str = include_str!("../../../fixtures/demo/queue.csv");
const TENANTS: &str = include_str!("../../../fixtures/demo/tenants.csv");
const REIMAGES: &str = include_str!("../../../fixtures/demo/reimages.csv");

/// A workspace with every part of a bundle set, names included that a
/// spreadsheet or a browser would run.
fn workspace() -> Bundle {
    let decisions = read_decisions_csv("decisions.csv", DECISIONS).expect("demo decisions");
    let mut agenda = AgendaState::default();
    agenda
        .admit_decisions(
            &AgendaParams::default(),
            &decisions,
            AgendaMethod::LowCost,
            1.0,
        )
        .expect("admitted");
    let queue = read_queue_csv("queue.csv", QUEUE).expect("demo queue");
    Bundle {
        files: vec![
            BundleFile {
                name: "demo/runs.csv".into(),
                format: Some(Format::RunsCsv),
                lenient: false,
                bytes: RUNS.as_bytes().to_vec(),
                kept: None,
            },
            BundleFile {
                name: "=HYPERLINK(\"x\") <script>.csv".into(),
                format: None,
                lenient: true,
                bytes: UTIL.as_bytes().to_vec(),
                kept: None,
            },
            BundleFile {
                name: "empty.log".into(),
                format: None,
                lenient: false,
                bytes: Vec::new(),
                kept: None,
            },
        ],
        decisions,
        agenda: Some(agenda),
        pricing: Some(PricingState {
            settings: Some(PricingSettings::default()),
            queue: queue
                .into_iter()
                .enumerate()
                .map(|(i, job)| AdmittedJob {
                    job,
                    price: (i % 2 == 0).then_some(12.5 + i as f64),
                    method: None,
                })
                .collect(),
        }),
        harvest: Some(HarvestState {
            tenants: Some(("tenants.csv".into(), TENANTS.into())),
            reimages: Some(("reimages.csv".into(), REIMAGES.into())),
            machines: None,
        }),
        shaping: Some(ShapingState {
            files: Some(ShapingFiles {
                files: vec![WorkloadFile {
                    name: "apps.csv".into(),
                    text: "app,submit\n".into(),
                }],
                params: crate::shaping::Params::default(),
            }),
            settings: Some(ShapingSettings::default()),
        }),
        tuning: Some(TuningState {
            settings: TuningSettings {
                containers: 16,
                ..TuningSettings::default()
            },
            current: Some(GroupConfig {
                scheduler: SchedulerKind::Capacity,
                queues: vec![
                    QueueConf::new("a", 0.25, Policy::Fifo),
                    QueueConf::new("b", 0.75, Policy::Fair),
                ],
            }),
            xml: Some(("capacity-scheduler.xml".into(), "<configuration/>".into())),
            parent: "root.etl".into(),
        }),
        forecast: Some(ForecastState {
            settings: ForecastSettings {
                horizon: 24,
                ..ForecastSettings::default()
            },
            series: Some(3),
            method: None,
        }),
        runway: Some(RunwayState {
            params: crate::runway::RunwayParams {
                growth: crate::runway::Growth::Monthly { percent: 4.5 },
                target: 0.75,
                ..crate::runway::RunwayParams::default()
            },
        }),
    }
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::fast());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

#[test]
fn a_whole_workspace_round_trips_equal() {
    let b = workspace();
    let bytes = encode(&b).expect("encoded");
    let back = decode("w.skyplan", &bytes).expect("decoded");
    // Part by part first, so a failure names the part (the whole is long).
    assert!(back.files == b.files, "files differ");
    assert!(back.decisions == b.decisions, "decisions differ");
    assert!(back.agenda == b.agenda, "agenda differs");
    assert!(back.pricing == b.pricing, "pricing differs");
    assert!(back.harvest == b.harvest, "harvest differs");
    assert!(back.shaping == b.shaping, "shaping differs");
    assert!(back.tuning == b.tuning, "tuning differs");
    assert!(back.forecast == b.forecast, "forecast differs");
    assert!(back == b);
    // The files' bytes are stored, not escaped into the manifest: the
    // bundle is smaller than its text.
    let text: usize = b.files.iter().map(|f| f.bytes.len()).sum();
    assert!(bytes.len() < text / 3, "{} of {text}", bytes.len());
    // An empty workspace too.
    let empty = Bundle::default();
    assert_eq!(decode("e", &encode(&empty).unwrap()).unwrap(), empty);
}

#[test]
fn the_header_says_what_it_is() {
    let bytes = encode(&workspace()).unwrap();
    let mut text = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut text).unwrap();
    let first = text.split(|&b| b == b'\n').next().unwrap();
    assert_eq!(first, format!("{MAGIC} {BUNDLE_VERSION}").as_bytes());
}

#[test]
fn a_cut_bundle_is_refused_as_truncated_at_every_length() {
    let bytes = encode(&workspace()).unwrap();
    for cut in (2..bytes.len()).step_by(bytes.len() / 97 + 1) {
        match decode("cut.skyplan", &bytes[..cut]) {
            Err(BundleError::Truncated(name, why)) => {
                assert_eq!(name, "cut.skyplan");
                assert!(why.contains(&cut.to_string()), "{why}");
            }
            other => panic!("cut at {cut}: {other:?}"),
        }
    }
}

#[test]
fn a_damaged_bundle_is_refused_and_never_read_wrong() {
    let bytes = encode(&workspace()).unwrap();
    let mut refused = 0;
    // Flip one byte at a time across the compressed data (past gzip's
    // 10-byte header, whose flags an edit may turn into a foreign file).
    for at in (10..bytes.len() - 8).step_by(bytes.len() / 61 + 1) {
        let mut bad = bytes.clone();
        bad[at] ^= 0x5a;
        match decode("bad.skyplan", &bad) {
            Err(BundleError::Corrupt(..) | BundleError::Truncated(..)) => refused += 1,
            Err(e) => panic!("flip at {at}: {e}"),
            Ok(_) => panic!("flip at {at} read as a bundle"),
        }
    }
    assert!(refused > 50);
    // The CRC trailer itself.
    let mut bad = bytes.clone();
    let n = bad.len();
    bad[n - 6] ^= 1;
    let e = decode("crc.skyplan", &bad).unwrap_err();
    assert!(matches!(e, BundleError::Corrupt(..)), "{e}");
}

#[test]
fn foreign_files_are_refused_with_what_they_are() {
    let cases: [(&[u8], &str); 5] = [
        (b"", "empty"),
        (b"job,start\na,1\n", "text"),
        (b"PK\x03\x04rest", "zip"),
        (b"{\"files\": []}", "JSON"),
        (
            &[0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0],
            "gzip",
        ),
    ];
    for (bytes, what) in cases {
        let e = decode("x.skyplan", bytes).unwrap_err();
        assert!(matches!(e, BundleError::Foreign(..)), "{what}: {e}");
        assert!(e.to_string().contains(what), "{what}: {e}");
    }
    // Another gzip file: a compressed CSV.
    let e = decode("runs.csv.gz", &gzip(RUNS.as_bytes())).unwrap_err();
    assert!(matches!(e, BundleError::Foreign(..)), "{e}");
    assert!(e.to_string().contains("a gzip file"), "{e}");
}

#[test]
fn a_newer_bundle_is_refused_and_an_inconsistent_one_is_corrupt() {
    let newer = gzip(b"skyplan-bundle 99\n{\"files\":[]}\n");
    let e = decode("n.skyplan", &newer).unwrap_err();
    assert_eq!(
        e,
        BundleError::Newer("n.skyplan".into(), 99, BUNDLE_VERSION)
    );
    let cases: [(&[u8], &str); 5] = [
        (b"skyplan-bundle x\n{}\n", "no version"),
        (b"skyplan-bundle 0\n{\"files\":[]}\n", "version 0"),
        (b"skyplan-bundle 1\n{\"files\":[]}", "no end"),
        (
            b"skyplan-bundle 1\n{\"files\":[{\"name\":\"a\",\"format\":null,\"lenient\":false,\"size\":9}]}\nabc",
            "should have 9 bytes",
        ),
        (b"skyplan-bundle 1\n{\"files\":[]}\nextra", "follow the last file"),
    ];
    for (raw, why) in cases {
        let e = decode("c.skyplan", &gzip(raw)).unwrap_err();
        assert!(matches!(e, BundleError::Corrupt(..)), "{why}: {e}");
        assert!(e.to_string().contains(why), "{why}: {e}");
    }
    // A manifest that reads but does not hold together.
    let two = gzip(
        b"skyplan-bundle 1\n{\"files\":[{\"name\":\" \",\"format\":null,\"lenient\":false,\"size\":0}]}\n",
    );
    let e = decode("v.skyplan", &two).unwrap_err();
    assert!(matches!(e, BundleError::Invalid(..)), "{e}");
}

#[test]
fn a_workspace_that_does_not_hold_together_is_not_written() {
    let mut b = workspace();
    b.forecast.as_mut().unwrap().settings.level = f64::NAN;
    assert!(matches!(encode(&b), Err(BundleError::Invalid(..))));
    let mut b = workspace();
    let d = b.decisions[0].clone();
    b.decisions.push(d);
    let e = encode(&b).unwrap_err();
    assert!(e.to_string().contains("two SLO decisions"), "{e}");
}

/// `bytes` rewritten as an older `version` wrote it: that header, and its
/// manifest changed by `edit`.
fn as_version(bytes: &[u8], version: u32, edit: impl FnOnce(&mut serde_json::Value)) -> Vec<u8> {
    let mut text = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(bytes), &mut text).unwrap();
    let header_end = text.iter().position(|&b| b == b'\n').unwrap();
    let rest = &text[header_end + 1..];
    let manifest_end = rest.iter().position(|&b| b == b'\n').unwrap();
    let mut manifest: serde_json::Value = serde_json::from_slice(&rest[..manifest_end]).unwrap();
    edit(&mut manifest);
    let mut out = format!("{MAGIC} {version}\n").into_bytes();
    out.extend(serde_json::to_vec(&manifest).unwrap());
    out.push(b'\n');
    out.extend(&rest[manifest_end + 1..]);
    gzip(&out)
}

/// `bytes` rewritten as the bundle version 1 wrote it: header `1`, and no
/// `refused` in the agenda (version 1 did not keep it).
fn as_version_1(bytes: &[u8]) -> Vec<u8> {
    as_version(bytes, 1, |manifest| {
        let agenda = manifest["agenda"].as_object_mut().unwrap();
        assert!(agenda.remove("refused").is_some());
    })
}

#[test]
fn a_version_1_bundle_opens_with_its_refusals_worked_out() {
    let b = workspace();
    let refused_jobs: Vec<String> = b
        .decisions
        .iter()
        .filter(|d| {
            b.agenda
                .as_ref()
                .unwrap()
                .refused
                .iter()
                .any(|(name, _)| crate::agenda::of_job(name, &d.job))
        })
        .map(|d| d.job.clone())
        .collect();
    assert!(!refused_jobs.is_empty(), "the demo has refusals to lose");
    let old = as_version_1(&encode(&b).unwrap());
    let back = decode("old.skyplan", &old).expect("a version-1 bundle opens");
    // Everything but the refusals' reasons is as written.
    assert_eq!(back.files, b.files);
    assert_eq!(back.decisions, b.decisions);
    assert_eq!(back.pricing, b.pricing);
    assert_eq!(back.tuning, b.tuning);
    let agenda = back.agenda.unwrap();
    assert_eq!(agenda.plan, b.agenda.as_ref().unwrap().plan);
    let jobs: Vec<&str> = agenda.refused.iter().map(|(j, _)| j.as_str()).collect();
    assert_eq!(jobs, refused_jobs);
    assert!(agenda.refused.iter().all(|(_, why)| why == UNKNOWN_REASON));
    // Written again, it is this version's bundle.
    let again = encode(&decode("old.skyplan", &old).unwrap()).unwrap();
    let mut text = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&again[..]), &mut text).unwrap();
    assert!(text.starts_with(format!("{MAGIC} {BUNDLE_VERSION}\n").as_bytes()));
}

/// `bytes` rewritten as version 2 wrote it: header `2`, no `kept` in the
/// manifest's files (version 2 kept every file as bytes) and no `runway`
/// (version 2 had no Runway settings).
fn as_version_2(bytes: &[u8]) -> Vec<u8> {
    as_version(bytes, 2, |manifest| {
        for f in manifest["files"].as_array_mut().unwrap() {
            assert_eq!(
                f.as_object_mut().unwrap().remove("kept"),
                Some(false.into())
            );
        }
        assert!(manifest.as_object_mut().unwrap().remove("runway").is_some());
    })
}

#[test]
fn a_version_2_bundle_opens_as_bytes() {
    let b = workspace();
    let old = as_version_2(&encode(&b).unwrap());
    let back = decode("v2.skyplan", &old).expect("a version-2 bundle opens");
    // Everything but the Runway settings, which open on their defaults.
    assert_eq!(back.runway, None);
    assert_eq!(back, Bundle { runway: None, ..b });
    assert!(back.files.iter().all(|f| f.kept.is_none()));
}

#[test]
fn the_runway_settings_round_trip_and_bad_ones_are_refused() {
    let b = workspace();
    let back = decode("w.skyplan", &encode(&b).unwrap()).unwrap();
    assert_eq!(back.runway, b.runway);
    let mut bad = workspace();
    bad.runway.as_mut().unwrap().params.target = 2.0;
    let e = encode(&bad).unwrap_err().to_string();
    assert!(e.contains("the runway settings: target"), "{e}");
}

#[test]
fn a_large_import_travels_as_its_records_and_says_so() {
    let text = "timestamp,series,value\n".to_string()
        + &(0..2000)
            .map(|t| format!("{},s,{}\n", t * 60, t % 9))
            .collect::<String>();
    let loaded = crate::import::import("big.csv", text.as_bytes(), Default::default()).unwrap();
    assert!(!keeps_records(&loaded), "a small file travels as bytes");
    let mut b = workspace();
    b.files.push(BundleFile::of_records(&loaded, false));
    let bytes = encode(&b).unwrap();
    let back = decode("kept.skyplan", &bytes).unwrap();
    assert_eq!(back, b);
    let kept = back.files.last().unwrap();
    assert!(kept.bytes.is_empty());
    let reopened = kept.load(Default::default()).unwrap();
    assert!(reopened.kept && reopened.summary().kept);
    assert_eq!(reopened.data, loaded.data);
    let source = reopened.source.clone().unwrap();
    assert_eq!(
        (source.name.as_str(), source.bytes),
        ("big.csv", text.len() as u64)
    );
    assert_eq!(source.hash, loaded.source.unwrap().hash);
    // Above the threshold, or aggregated, a file is kept as records.
    let mut large = reopened.clone();
    large.kept = false;
    large.bytes = KEEP_RECORDS_ABOVE + 1;
    assert!(keeps_records(&large));
}
