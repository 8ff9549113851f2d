//! Import checks that run twice, natively (`src/import/tests.rs`) and in
//! headless Chrome (`tests/wasm/import.rs`): the same inputs, the same
//! assertions. Each includes this file with `#[path]`; the including
//! module brings in `import`, `Format`, `ImportError`, `ImportOptions`,
//! `ParseError` and `Resource`.
#![allow(dead_code)]

use super::{import, Format, ImportError, ImportOptions, ParseError, Resource};

/// Two runs in Hadoop's native format (values modelled on the
/// ResourceEstimator test sample; written here, not copied).
pub const NATIVE: &str = "\
tpch_q12 50 1462148517000 1462148527345 1462148952345 tpch_q12_0 8192:0| 1:0|1:5|1074:10|2538:15|2468:20|
tpch_q12 50 1462148949000 1462148960455 1462149205455 tpch_q12_1 8192:0| 1:0|1:5|794:10|2517:15|2484:20|
";

/// The default: a file with any bad line is refused.
pub fn strict() -> ImportOptions {
    ImportOptions::default()
}

/// Bad lines kept as warnings.
pub fn lenient() -> ImportOptions {
    ImportOptions {
        lenient: true,
        ..ImportOptions::default()
    }
}

/// [`NATIVE`]'s two runs, then three bad lines: a SubmitTime that is not
/// a number (line 3, column 13), a usage pair `bad` (line 4, column 27)
/// and too few fields (line 5).
pub fn native_with_bad_lines() -> String {
    format!(
        "{NATIVE}tpch_q12 50 x 1 2 tpch_q12_2 m 1:0|\ntpch_q12 50 1 1 2 i m 1:0|bad|\nshort line\n"
    )
}

/// Imports `text` strictly as `n.log`, which refuses it as malformed:
/// the bad lines listed and how many there are.
pub fn malformed(text: &str) -> (Vec<ParseError>, u64) {
    let e = import("n.log", text.as_bytes(), strict()).unwrap_err();
    let ImportError::Malformed { errors, total, .. } = e else {
        panic!("{e:?}")
    };
    (errors, total)
}

/// A NAB single series: the server named after the file, CPU, timestamps
/// and values as written.
pub fn nab_single_series() {
    let text = "timestamp,value\r\n2014-02-14 14:30:00,0.132\r\n2014-02-14 14:35:00,0.134\r\n";
    let f = import(
        "data/ec2_cpu_utilization_24ae8d.csv",
        text.as_bytes(),
        strict(),
    )
    .unwrap();
    assert_eq!(f.format, Format::UtilizationCsv);
    let s = &f.data.series[0];
    assert_eq!(s.server, "ec2_cpu_utilization_24ae8d");
    assert_eq!(s.resource, Resource::Cpu);
    assert_eq!(s.timestamps, vec![1_392_388_200, 1_392_388_500]);
    assert_eq!(s.values, vec![0.132, 0.134]);
}
