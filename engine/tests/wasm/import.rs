//! The importers in a real browser: the engine compiled to wasm32 and run in
//! headless Chrome (`wasm-pack test --headless --chrome engine`, part of
//! `make test`). Each format on small inline inputs, line/column errors,
//! chunked pushes, the demo fixtures (generated in wasm byte for byte as the
//! committed files) and the real NAB and SWIM files from `fixtures/real`.

use skyplan_engine::fixtures::demo;
use skyplan_engine::{
    import, Format, ImportError, ImportOptions, Importer, LoadedFile, ParseError, Resource,
};
use wasm_bindgen_test::wasm_bindgen_test;

#[path = "../cases/import.rs"]
mod cases;
use cases::{lenient, malformed, native_with_bad_lines, strict, NATIVE};

const RUNS: &str = "\
job,instance,submit,start,end,input_available,output_first_read,container_cores,container_memory_mb,step_secs,skyline
\"etl, daily\",etl_1,1000,1010,1190,990,1500,2,4096,60,1;2;3
etl,etl_2,2000,2000,2120,,,,,60,4 4
";
const NAB: &str = "timestamp,value\r\n2014-02-14 14:30:00,0.132\r\n2014-02-14 14:35:00,0.134\r\n";
const LONG: &str =
    "timestamp,series,resource,value\n0,s1,cpu,10\n0,s2,cpu,20\n300,s1,cpu,11\n0,s1,memory,50\n";
const SWIM: &str =
    "job0\t49\t49\t740773\t2339561\t627471\njob1\t101\t52\t736346\t1700537\t432269\n";

const DEMO_RUNS: &str = include_str!("../../../fixtures/demo/runs.csv");
const DEMO_UTILIZATION: &str = include_str!("../../../fixtures/demo/utilization.csv");
const DEMO_NATIVE: &str = include_str!("../../../fixtures/demo/native.log");
const REAL_NAB: &[u8] = include_bytes!("../../../fixtures/real/nab/ec2_cpu_utilization_24ae8d.csv");
const REAL_SWIM: &[u8] =
    include_bytes!("../../../fixtures/real/swim/FB-2009_samples_24_times_1hr_0.tsv");

fn load(name: &str, text: &str) -> LoadedFile {
    import(name, text.as_bytes(), strict()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Pushes `bytes` in chunks of `size` bytes.
fn import_chunked(
    name: &str,
    bytes: &[u8],
    size: usize,
    options: ImportOptions,
) -> Result<LoadedFile, ImportError> {
    let mut importer = Importer::new(name, options);
    for chunk in bytes.chunks(size) {
        importer.push(chunk);
    }
    assert_eq!(importer.bytes_read(), bytes.len() as u64);
    importer.finish()
}

#[wasm_bindgen_test]
fn native_log() {
    let f = load("native.log", NATIVE);
    assert_eq!(f.format, Format::NativeLog);
    let r = &f.data.runs;
    assert_eq!(r.len(), 2);
    assert_eq!(
        (r[0].job.as_str(), r[0].instance.as_str()),
        ("tpch_q12", "tpch_q12_0")
    );
    assert_eq!((r[0].submit, r[0].start), (1_462_148_517, 1_462_148_527));
    assert_eq!(r[0].skyline.step_secs, 5);
    assert_eq!(
        r[0].skyline.containers,
        vec![1.0, 1.0, 1074.0, 2538.0, 2468.0]
    );
    assert_eq!(r[1].skyline.containers[2], 794.0);
}

#[wasm_bindgen_test]
fn runs_csv() {
    let f = load("runs.csv", RUNS);
    assert_eq!(f.format, Format::RunsCsv);
    let r = &f.data.runs;
    assert_eq!(r[0].job, "etl, daily");
    assert_eq!(
        (r[0].input_available, r[0].output_first_read),
        (Some(990), Some(1500))
    );
    assert_eq!(r[0].container.cores, 2.0);
    assert_eq!(r[0].skyline.containers, vec![1.0, 2.0, 3.0]);
    assert_eq!(r[1].input_available, None);
    assert_eq!(r[1].skyline.containers, vec![4.0, 4.0]);
    let again = load("again.csv", &skyplan_engine::export::runs_csv(&f.data.runs));
    assert_eq!(again.data.runs, f.data.runs);
}

#[wasm_bindgen_test]
fn utilization_single_series() {
    cases::nab_single_series();
}

#[wasm_bindgen_test]
fn utilization_long_form() {
    let f = load("u.csv", LONG);
    assert_eq!(f.format, Format::UtilizationLongCsv);
    let s = &f.data.series;
    assert_eq!(s.len(), 3);
    assert_eq!(
        (s[0].server.as_str(), s[0].values.clone()),
        ("s1", vec![10.0, 11.0])
    );
    assert_eq!(s[1].values, vec![20.0]);
    assert_eq!(s[2].resource, Resource::Memory);
}

#[wasm_bindgen_test]
fn swim_tsv() {
    let f = load("swim.tsv", SWIM);
    assert_eq!(f.format, Format::SwimTsv);
    assert_eq!(f.data.workload.len(), 2);
    assert_eq!(f.data.workload[1].submit, 101);
    assert_eq!(f.data.workload[0].features.shuffle_bytes, 2_339_561.0);
}

#[wasm_bindgen_test]
fn forced_format_and_unknown_content() {
    let forced = ImportOptions {
        format: Some(Format::SwimTsv),
        ..strict()
    };
    let e = import("s.tsv", b"job0\t49\t49\t740773\t2339561\n", forced).unwrap_err();
    assert_eq!(e.errors()[0].line, 1);
    assert!(matches!(
        import("x", b"hello there\n", strict()),
        Err(ImportError::UnknownFormat { .. })
    ));
    assert!(matches!(
        import("x", b"\n# only a comment\n", strict()),
        Err(ImportError::Empty { .. })
    ));
}

#[wasm_bindgen_test]
fn errors_carry_file_line_and_column() {
    let text = native_with_bad_lines();
    let (errors, total) = malformed(&text);
    assert_eq!(total, 3);
    let at: Vec<(u64, u32)> = errors.iter().map(|e| (e.line, e.column)).collect();
    assert_eq!(at, vec![(3, 13), (4, 27), (5, 1)]);
    assert!(
        errors[0].to_string().starts_with("n.log:3:13: SubmitTime"),
        "{}",
        errors[0]
    );
    assert!(errors[2].reason.contains("expected 8 fields"));
    // Lenient keeps the good runs and returns the bad lines as warnings.
    let f = import("n.log", text.as_bytes(), lenient()).unwrap();
    assert_eq!((f.data.runs.len(), f.skipped_lines), (2, 3));
    assert_eq!(f.warnings, errors);

    let nab = "timestamp,value\n2014-02-14 14:30:00,abc\n2014-02-30 00:00:00,1\n2014-02-14 14:40:00,-1\n1,2,3\n";
    let e = import("x.csv", nab.as_bytes(), strict()).unwrap_err();
    let at: Vec<(u64, u32)> = e.errors().iter().map(|e| (e.line, e.column)).collect();
    assert_eq!(at, vec![(2, 21), (3, 1), (4, 21), (5, 1)]);

    // Columns count characters, not bytes; invalid UTF-8 is located too.
    let e = import(
        "é.csv",
        "timestamp,value\n2014-02-14 14:30:00,é\n".as_bytes(),
        strict(),
    )
    .unwrap_err();
    assert_eq!((e.errors()[0].line, e.errors()[0].column), (2, 21));
    let e = import("x", b"timestamp,value\n1,\xff\xfe\n2,3\n", strict()).unwrap_err();
    assert_eq!((e.errors()[0].line, e.errors()[0].column), (2, 3));
    assert!(e.errors()[0].reason.contains("UTF-8"));
}

#[wasm_bindgen_test]
fn chunked_pushes_match_one_push() {
    let bad_native = format!("{NATIVE}tpch_q12 50 x 1 2 tpch_q12_2 m 1:0|\n");
    let inputs: [(&str, &str); 6] = [
        ("native.log", NATIVE),
        ("runs.csv", RUNS),
        ("ec2.csv", NAB),
        ("u.csv", LONG),
        ("swim.tsv", SWIM),
        ("bad.log", &bad_native),
    ];
    for (name, text) in inputs {
        for options in [strict(), lenient()] {
            let whole = import(name, text.as_bytes(), options.clone());
            for size in [1, 2, 3, 7, 64, 4096] {
                let pieces = import_chunked(name, text.as_bytes(), size, options.clone());
                assert_eq!(pieces, whole, "{name}, chunks of {size}");
            }
        }
    }
    let whole = import("demo.csv", DEMO_UTILIZATION.as_bytes(), strict()).unwrap();
    for size in [1000, 65_536, 4 << 20] {
        let pieces = import_chunked("demo.csv", DEMO_UTILIZATION.as_bytes(), size, strict());
        assert_eq!(pieces.unwrap(), whole, "demo utilization, chunks of {size}");
    }
}

#[wasm_bindgen_test]
fn demo_fixtures_are_generated_identically_in_wasm() {
    let files = demo().files();
    // Byte for byte what the native generator committed: the demo the
    // studio builds in the browser is the one the CLI writes.
    assert!(files.runs_csv == DEMO_RUNS, "runs.csv differs in wasm");
    assert!(
        files.utilization_csv == DEMO_UTILIZATION,
        "utilization.csv differs in wasm"
    );
    assert!(
        files.native_log == DEMO_NATIVE,
        "native.log differs in wasm"
    );
}

#[wasm_bindgen_test]
fn demo_fixtures_import() {
    let fixtures = demo();
    let runs = load("runs.csv", DEMO_RUNS);
    assert_eq!(runs.format, Format::RunsCsv);
    assert_eq!(runs.data.runs, fixtures.runs);
    let util = load("utilization.csv", DEMO_UTILIZATION);
    assert_eq!(util.format, Format::UtilizationLongCsv);
    assert_eq!(util.data.series.len(), fixtures.series.len());
    for (read, made) in util.data.series.iter().zip(&fixtures.series) {
        assert_eq!(read.server, made.server);
        assert_eq!(read.timestamps, made.timestamps);
        // Written with two decimals.
        for (a, b) in read.values.iter().zip(&made.values) {
            assert!((a - b).abs() <= 0.005 + 1e-9, "{}: {a} vs {b}", read.server);
        }
    }
    let native = load("native.log", DEMO_NATIVE);
    assert_eq!(native.format, Format::NativeLog);
    assert!(!native.data.runs.is_empty());
    assert!(native.data.runs.iter().all(|r| r.skyline.step_secs == 5));
    let summary = {
        let mut ws = skyplan_engine::Workspace::new();
        ws.add(runs);
        ws.add(util);
        ws.add(native);
        ws.summary()
    };
    assert!(summary.jobs > 0 && summary.runs > 0 && summary.series > 0 && summary.points > 0);
}

#[wasm_bindgen_test]
fn real_nab_and_swim_files() {
    let nab = import("ec2_cpu_utilization_24ae8d.csv", REAL_NAB, strict()).unwrap();
    assert_eq!(nab.format, Format::UtilizationCsv);
    assert_eq!(nab.data.series.len(), 1);
    assert_eq!(nab.data.series[0].len(), 4032);
    assert_eq!(nab.data.series[0].median_step_secs(), Some(300));
    let swim = import("FB-2009_samples_24_times_1hr_0.tsv", REAL_SWIM, strict()).unwrap();
    assert_eq!(swim.format, Format::SwimTsv);
    assert_eq!(swim.data.workload.len(), 5894);
    for size in [4096, 65_536] {
        let pieces = import_chunked("ec2_cpu_utilization_24ae8d.csv", REAL_NAB, size, strict());
        assert_eq!(pieces.unwrap(), nab);
    }
}
