//! Import tests: each format, every error path named in the README, and the
//! chunking invariance the streaming design promises.

use super::*;
use crate::model::Resource;

#[path = "../../tests/cases/import.rs"]
mod cases;
use cases::{lenient, malformed, native_with_bad_lines, strict, NATIVE};

#[test]
fn native_log_like_hadoop() {
    let f = import("native.log", NATIVE.as_bytes(), strict()).unwrap();
    assert_eq!(f.format, Format::NativeLog);
    let r = &f.data.runs;
    assert_eq!(r.len(), 2);
    assert_eq!(r[0].job, "tpch_q12");
    assert_eq!(r[0].instance, "tpch_q12_0");
    assert_eq!(r[0].submit, 1_462_148_517);
    assert_eq!(r[0].start, 1_462_148_527);
    assert_eq!(r[0].skyline.step_secs, 5);
    // Hadoop: 1 container on [0,10), 1074 on [10,15), 2538, 2468, then 0 at 25.
    assert_eq!(
        r[0].skyline.containers,
        vec![1.0, 1.0, 1074.0, 2538.0, 2468.0]
    );
    assert_eq!(r[0].skyline.at(9), 1.0);
    assert_eq!(r[0].skyline.at(24), 2468.0);
    assert_eq!(r[0].skyline.at(25), 0.0);
    assert_eq!(r[0].skyline.duration_secs(), 25);
    assert_eq!(r[0].container.memory_mb, 1024.0);
    assert_eq!(r[1].skyline.containers[2], 794.0);
}

#[test]
fn native_log_sums_repeated_offsets_and_snaps() {
    let line = "j 1 0 0 10000 j_0 x 2:0|3:0|4:7|\n";
    let f = import("n", line.as_bytes(), strict()).unwrap();
    assert_eq!(f.data.runs[0].skyline.containers, vec![5.0, 4.0]);
}

#[test]
fn native_log_errors_have_line_and_column() {
    let text = native_with_bad_lines();
    let (errors, total) = malformed(&text);
    assert_eq!(total, 3);
    assert_eq!((errors[0].line, errors[0].column), (3, 13));
    assert!(
        errors[0].reason.contains("SubmitTime"),
        "{}",
        errors[0].reason
    );
    assert_eq!(errors[1].line, 4);
    assert_eq!(errors[1].column, 27);
    assert!(errors[1].reason.contains("`bad`"));
    assert_eq!(errors[2].line, 5);
    assert!(errors[2].reason.contains("expected 8 fields"));
    assert_eq!(errors[0].file, "n.log");
    // Lenient keeps the two good runs and reports the three bad lines.
    let f = import("n.log", text.as_bytes(), lenient()).unwrap();
    assert_eq!(f.data.runs.len(), 2);
    assert_eq!(f.skipped_lines, 3);
    assert_eq!(f.warnings.len(), 3);
}

#[test]
fn runs_csv_round_trip() {
    let text = "\
# demo runs
job,instance,submit,start,end,input_available,output_first_read,container_cores,container_memory_mb,step_secs,skyline
\"etl, daily\",etl_1,1000,1010,1190,990,1500,2,4096,60,1;2;3
etl,etl_2,2000,2000,2120,,,,,60,4 4
";
    let f = import("runs.csv", text.as_bytes(), strict()).unwrap();
    assert_eq!(f.format, Format::RunsCsv);
    let r = &f.data.runs;
    assert_eq!(r[0].job, "etl, daily");
    assert_eq!(r[0].input_available, Some(990));
    assert_eq!(r[0].output_first_read, Some(1500));
    assert_eq!(r[0].container.cores, 2.0);
    assert_eq!(r[0].skyline.containers, vec![1.0, 2.0, 3.0]);
    assert_eq!(r[1].input_available, None);
    assert_eq!(r[1].container.memory_mb, 1024.0);
    assert_eq!(r[1].skyline.containers, vec![4.0, 4.0]);
    let again = import("again.csv", crate::export::runs_csv(r).as_bytes(), strict()).unwrap();
    assert_eq!(&again.data.runs, r);
}

#[test]
fn runs_csv_header_problems() {
    let missing = "job,submit,start,skyline\netl,1,2,3\n";
    let e = import("r.csv", missing.as_bytes(), lenient()).unwrap_err();
    assert!(e.errors()[0].reason.contains("`end`"), "{e}");
    let twice = "job,job,submit,start,end,skyline\n";
    assert!(import("r.csv", twice.as_bytes(), lenient()).is_err());
    let unknown = "job,submit,start,end,skyline,colour\netl,1,2,3,4,red\n";
    let e = import("r.csv", unknown.as_bytes(), strict()).unwrap_err();
    assert_eq!(e.errors()[0].column, 30);
    let f = import("r.csv", unknown.as_bytes(), lenient()).unwrap();
    assert_eq!(f.data.runs.len(), 1);
    assert_eq!(f.warnings.len(), 1);
}

#[test]
fn runs_csv_bad_values() {
    let text = "job,submit,start,end,skyline,step_secs\n\
a,10,5,20,1,60\n\
a,1,2,1,1,60\n\
a,1,2,3,1;-2,60\n\
a,1,2,3,,60\n\
a,1,2,3,1,0\n\
a,1,2,3,1\n\
a,1,2,3,1,60\n";
    let e = import("r.csv", text.as_bytes(), strict()).unwrap_err();
    let lines: Vec<u64> = e.errors().iter().map(|e| e.line).collect();
    assert_eq!(lines, vec![2, 3, 4, 5, 6, 7]);
    assert!(e.errors()[2].reason.contains("`-2`"));
    assert_eq!(e.errors()[2].column, 11);
}

#[test]
fn nab_single_series() {
    cases::nab_single_series();
}

#[test]
fn nab_errors() {
    let text = "timestamp,value\n2014-02-14 14:30:00,abc\n2014-02-30 00:00:00,1\n2014-02-14 14:40:00,-1\n1,2,3\n";
    let e = import("x.csv", text.as_bytes(), strict()).unwrap_err();
    let got: Vec<(u64, u32)> = e.errors().iter().map(|e| (e.line, e.column)).collect();
    assert_eq!(got, vec![(2, 21), (3, 1), (4, 21), (5, 1)]);
    let bad_header = "time,val\n1,2\n";
    let e = import(
        "x.csv",
        bad_header.as_bytes(),
        ImportOptions {
            format: Some(Format::UtilizationCsv),
            lenient: true,
            ..ImportOptions::default()
        },
    )
    .unwrap_err();
    assert!(e.errors()[0].reason.contains("timestamp,value"), "{e}");
}

#[test]
fn long_form_groups_series() {
    let text = "timestamp,series,resource,value\n\
0,s1,cpu,10\n0,s2,cpu,20\n300,s1,cpu,11\n0,s1,mem,50\n300,s2,cpu,21\n";
    let f = import("u.csv", text.as_bytes(), strict()).unwrap();
    let s = &f.data.series;
    assert_eq!(s.len(), 3);
    assert_eq!(
        (s[0].server.as_str(), &s[0].resource, s[0].values.clone()),
        ("s1", &Resource::Cpu, vec![10.0, 11.0])
    );
    assert_eq!(s[1].values, vec![20.0, 21.0]);
    assert_eq!(s[2].resource, Resource::Memory);
    let no_resource = "series,value,timestamp\na,1,5\n";
    let f = import("u.csv", no_resource.as_bytes(), strict()).unwrap();
    assert_eq!(f.data.series[0].timestamps, vec![5]);
}

#[test]
fn swim_rows() {
    let text = "job0\t49\t49\t740773\t2339561\t627471\njob1\t101\t52\t736346\t1700537\t432269\n";
    let f = import("swim.tsv", text.as_bytes(), strict()).unwrap();
    assert_eq!(f.format, Format::SwimTsv);
    assert_eq!(f.data.workload.len(), 2);
    assert_eq!(f.data.workload[1].submit, 101);
    assert_eq!(f.data.workload[0].features.shuffle_bytes, 2_339_561.0);
    let bad = "job0\t49\t49\t740773\t2339561\n";
    assert!(import(
        "s.tsv",
        bad.as_bytes(),
        ImportOptions {
            format: Some(Format::SwimTsv),
            ..strict()
        }
    )
    .is_err());
}

const HISTORY: &str = "\
# finished jobs
job,submit,map_tasks,reduce_tasks,input_bytes,shuffle_bytes,output_bytes,map_secs,reduce_secs
grep_logs,1000,16,2,1073741824,1048576,4096,42.5,7.25
\"sort, daily\",2014-02-14 14:30:00,8,4,536870912,536870912,536870912,30,55
wc,1200,1,0,1000,0,0,3,0
";

#[test]
fn job_history_rows() {
    let f = import("history.csv", HISTORY.as_bytes(), strict()).unwrap();
    assert_eq!(f.format, Format::JobHistoryCsv);
    let w = &f.data.workload;
    assert_eq!(w.len(), 3);
    assert_eq!(w[0].name, "grep_logs");
    assert_eq!(w[0].submit, 1000);
    assert_eq!(w[0].features.map_tasks, Some(16));
    assert_eq!(w[0].features.reduce_tasks, Some(2));
    assert_eq!(w[0].features.input_bytes, 1_073_741_824.0);
    assert_eq!(w[0].map_secs, Some(42.5));
    assert_eq!(w[0].reduce_secs, Some(7.25));
    assert_eq!(w[1].name, "sort, daily");
    assert_eq!(w[1].submit, 1_392_388_200);
    assert_eq!(w[2].reduce_secs, Some(0.0));
    // What the exporter writes reads back the same; columns in any order.
    let again = import(
        "again.csv",
        crate::export::job_history_csv(w).as_bytes(),
        strict(),
    )
    .unwrap();
    assert_eq!(&again.data.workload, w);
    let shuffled = "map_secs,reduce_secs,JOB,submit,map_tasks,reduce_tasks,input_bytes,shuffle_bytes,output_bytes\n1.5,0,a,5,1,0,10,0,0\n";
    let f = import("h.csv", shuffled.as_bytes(), strict()).unwrap();
    assert_eq!(f.data.workload[0].map_secs, Some(1.5));
}

#[test]
fn job_history_errors_have_line_and_column() {
    let text = "job,submit,map_tasks,reduce_tasks,input_bytes,shuffle_bytes,output_bytes,map_secs,reduce_secs\n\
a,1,2,1,10,5,1,3,4\n\
b,1,-2,1,10,5,1,3,4\n\
c,1,2,1,10,5,1,NaN,4\n\
d,1,2,1,-10,5,1,3,4\n\
e,x,2,1,10,5,1,3,4\n\
,1,2,1,10,5,1,3,4\n\
f,1,2,1,10,5,1,3\n\
g,1,2,99999999999,10,5,1,3,4\n\
h,1,2,1,10,5,1,3,inf\n";
    let e = import("h.csv", text.as_bytes(), strict()).unwrap_err();
    let ImportError::Malformed {
        errors,
        total,
        format,
        ..
    } = &e
    else {
        panic!("{e:?}")
    };
    assert_eq!(*format, Format::JobHistoryCsv);
    assert_eq!(*total, 8);
    let got: Vec<(u64, u32)> = errors.iter().map(|e| (e.line, e.column)).collect();
    assert_eq!(
        got,
        vec![
            (3, 5),
            (4, 16),
            (5, 9),
            (6, 3),
            (7, 1),
            (8, 17),
            (9, 7),
            (10, 18)
        ]
    );
    assert!(
        errors[0].reason.contains("map_tasks"),
        "{}",
        errors[0].reason
    );
    assert!(errors[1].reason.contains("`NaN`"), "{}", errors[1].reason);
    assert!(
        errors[2].reason.contains("must not be negative"),
        "{}",
        errors[2].reason
    );
    assert!(errors[3].reason.contains("submit"), "{}", errors[3].reason);
    assert!(errors[4].reason.contains("empty job name"));
    assert!(errors[5].reason.contains("expected 9 fields"));
    assert!(
        errors[6].reason.contains("more than"),
        "{}",
        errors[6].reason
    );
    assert!(errors[7].reason.contains("`inf`"), "{}", errors[7].reason);
    // Lenient keeps the one good job and lists the eight bad lines.
    let f = import("h.csv", text.as_bytes(), lenient()).unwrap();
    assert_eq!(f.data.workload.len(), 1);
    assert_eq!((f.skipped_lines, f.warnings.len()), (8, 8));
}

#[test]
fn job_history_header_problems() {
    // Detected from `job` + `map_secs`; a missing column is fatal even when lenient.
    let missing = "job,submit,map_tasks,reduce_tasks,input_bytes,shuffle_bytes,output_bytes,map_secs\na,1,2,1,10,5,1,3\n";
    let e = import("h.csv", missing.as_bytes(), lenient()).unwrap_err();
    assert!(matches!(
        e,
        ImportError::Malformed {
            format: Format::JobHistoryCsv,
            ..
        }
    ));
    assert!(e.errors()[0].reason.contains("`reduce_secs`"), "{e}");
    let twice = "job,job,submit,map_tasks,reduce_tasks,input_bytes,shuffle_bytes,output_bytes,map_secs,reduce_secs\n";
    assert!(import("h.csv", twice.as_bytes(), lenient()).is_err());
    let extra = "job,submit,map_tasks,reduce_tasks,input_bytes,shuffle_bytes,output_bytes,map_secs,reduce_secs,queue\na,1,2,1,10,5,1,3,4,prod\n";
    let e = import("h.csv", extra.as_bytes(), strict()).unwrap_err();
    assert_eq!((e.errors()[0].line, e.errors()[0].column), (1, 95));
    let f = import("h.csv", extra.as_bytes(), lenient()).unwrap();
    assert_eq!(f.data.workload.len(), 1);
    let forced = import(
        "h.txt",
        HISTORY.as_bytes(),
        ImportOptions {
            format: Some("history".parse().unwrap()),
            ..strict()
        },
    )
    .unwrap();
    assert_eq!(forced.data.workload.len(), 3);
}

#[test]
fn unknown_empty_and_utf8() {
    assert!(matches!(
        import("x", b"hello there\n", strict()),
        Err(ImportError::UnknownFormat { .. })
    ));
    assert!(matches!(
        import("x", b"\n\n# only comments\n", strict()),
        Err(ImportError::Empty { .. })
    ));
    assert!(matches!(
        import("x", b"timestamp,value\n", strict()),
        Err(ImportError::Empty { .. })
    ));
    let bad = b"timestamp,value\n1,\xff\xfe\n2,3\n";
    let e = import("x", bad, strict()).unwrap_err();
    assert_eq!((e.errors()[0].line, e.errors()[0].column), (2, 3));
    assert!(e.errors()[0].reason.contains("UTF-8"));
    // A BOM on the first line is ignored.
    let f = import("x", b"\xEF\xBB\xBFtimestamp,value\n1,2\n", strict()).unwrap();
    assert_eq!(f.data.series[0].len(), 1);
}

#[test]
fn error_list_is_capped_but_counted() {
    let mut text = String::from("timestamp,value\n");
    for _ in 0..50 {
        text.push_str("x,y\n");
    }
    let opts = ImportOptions {
        max_reported_errors: 10,
        ..strict()
    };
    let e = import("x", text.as_bytes(), opts).unwrap_err();
    let ImportError::Malformed { errors, total, .. } = e else {
        panic!()
    };
    assert_eq!((errors.len(), total), (10, 50));
}

#[test]
fn chunk_boundaries_do_not_matter() {
    let text = format!("{NATIVE}{NATIVE}");
    let whole = import("n", text.as_bytes(), strict()).unwrap();
    for size in [1, 2, 3, 7, 64] {
        let mut imp = Importer::new("n", strict());
        for c in text.as_bytes().chunks(size) {
            imp.push(c);
        }
        assert_eq!(imp.bytes_read(), text.len() as u64);
        assert_eq!(imp.finish().unwrap(), whole, "chunk size {size}");
    }
}

#[test]
fn no_trailing_newline() {
    let f = import("x", b"timestamp,value\n1,2", strict()).unwrap();
    assert_eq!(f.data.series[0].values, vec![2.0]);
    assert_eq!(f.lines, 2);
}

#[test]
fn relative_time_spans_stay_out_of_the_workspace_span() {
    use crate::workspace::Workspace;
    let mut ws = Workspace::new();
    ws.add(import("swim.tsv", b"job0\t49\t49\t1\t2\t3\n", strict()).unwrap());
    ws.add(
        import(
            "nab.csv",
            b"timestamp,value\n2014-02-14 14:30:00,1\n",
            strict(),
        )
        .unwrap(),
    );
    let s = ws.summary();
    assert!(s.files[0].relative_time && !s.files[1].relative_time);
    assert_eq!(s.span, Some((1_392_388_200, 1_392_388_200)));
}

#[test]
fn job_histories_before_1980_are_trace_relative() {
    use crate::workspace::Workspace;
    let head = "job,submit,map_tasks,reduce_tasks,input_bytes,shuffle_bytes,output_bytes,map_secs,reduce_secs\n";
    let relative = format!("{head}a,49,1,1,10,10,10,2,2\na,86449,1,1,10,10,10,2,2\n");
    let dated = format!("{head}a,2026-11-02 00:00:49,1,1,10,10,10,2,2\n");
    let mut ws = Workspace::new();
    ws.add(import("relative.csv", relative.as_bytes(), strict()).unwrap());
    ws.add(import("dated.csv", dated.as_bytes(), strict()).unwrap());
    let s = ws.summary();
    assert_eq!(s.files[0].format, Format::JobHistoryCsv);
    assert!(s.files[0].relative_time && !s.files[1].relative_time);
    assert_eq!(s.files[0].span, Some((49, 86_449)));
    assert_eq!(s.span, Some((1_793_577_649, 1_793_577_649)));
    // The rule's edge: 1980-01-01 00:00 UTC is calendar time.
    let edge = format!("{head}a,315532800,1,1,10,10,10,2,2\n");
    assert!(!import("edge.csv", edge.as_bytes(), strict())
        .unwrap()
        .relative_time());
}

#[test]
fn queue_csv_round_trip_and_errors() {
    use crate::import::read_queue_csv;
    use crate::pricing::QueuedJob;
    let queue = vec![
        QueuedJob {
            name: "etl, nightly".into(),
            map_work: 1200.0,
            reduce_work: 300.5,
            deadline: 900.0,
        },
        QueuedJob {
            name: "adhoc".into(),
            map_work: 10.0,
            reduce_work: 0.0,
            deadline: 60.0,
        },
    ];
    let text = crate::export::queue_csv(&queue);
    assert_eq!(read_queue_csv("q.csv", &text).unwrap(), queue);
    // Any column order, comments and blank lines.
    let text = "# admitted\ndeadline,NAME,reduce_work,map_work\n\n60,a,0,5\n";
    assert_eq!(read_queue_csv("q.csv", text).unwrap()[0].map_work, 5.0);
    let errors = read_queue_csv(
        "q.csv",
        "name,map_work,reduce_work,deadline\na,1,2,3\nb,-1,0,4\na,1,1,1\nc,1,x,2\nd,1,2\n",
    )
    .unwrap_err();
    let got: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        got,
        [
            "q.csv:3:3: map_work must not be negative",
            "q.csv:4:1: job `a` appears twice",
            "q.csv:5:5: reduce_work: `x` is not a finite number",
            "q.csv:6:6: expected 4 fields as in the header, found 3",
        ]
    );
    let errors = read_queue_csv("q.csv", "name,map_work,deadline\n").unwrap_err();
    assert!(errors[0].reason.contains("`reduce_work`"), "{errors:?}");
    assert!(read_queue_csv("q.csv", "").unwrap_err()[0]
        .reason
        .contains("no header"));
}
