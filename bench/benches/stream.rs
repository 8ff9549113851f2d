//! Streaming import of multi-gigabyte files, native: a Google cluster-data
//! 2019 `instance_usage` CSV written to the real schema
//! (`skyplan_bench::data::write_google_instance_usage`) at 100 MB, 2 GB
//! and 10 GB under `target/bench-data/` (generated once, never committed;
//! delete them after), each read from disk through a buffered reader in
//! 4 MiB chunks into the `Importer`, as `skyplan import` does. One process
//! per file, so its peak RSS is the import's.
//!
//! `cargo bench -p skyplan-bench --bench stream -- --sizes 100M,2G,10G`
//! generates what is missing, then runs itself once per size with
//! `--import FILE` and prints a table row each: time, MB/s (10⁶ bytes/s),
//! peak RSS, CPU time, and what the panels get (series, points kept, the
//! aggregation note).
//!
//! A file that does not fit on the disk is streamed through a pipe instead:
//! `--write 10G` writes the same generated file to stdout and `--import -`
//! reads stdin, so
//! `stream --write 10G | stream --import - --name google-instance_usage-10G.csv`
//! measures 10 GB with nothing written (the writer runs on the other core).

mod common;

use common::{cpu_s, peak_rss_mib, Args};
use skyplan_bench::data::write_google_instance_usage;
use skyplan_engine::import::{ImportOptions, Importer};
use std::io::Read;
use std::path::PathBuf;
use std::time::Instant;

/// Bytes of a size such as `100M`, `2G`, `10G` (10⁶ and 10⁹).
fn size(text: &str) -> u64 {
    let (n, unit) = text.split_at(text.len() - 1);
    let n: u64 = n.parse().expect("sizes like 100M,2G");
    match unit {
        "M" => n * 1_000_000,
        "G" => n * 1_000_000_000,
        _ => panic!("sizes like 100M,2G"),
    }
}

fn data_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/bench-data");
    std::fs::create_dir_all(&dir).expect("target/bench-data");
    dir
}

/// Imports `path` (`-`: stdin, named `name`) and prints one row.
fn import(path: &str, name: &str) {
    let t0 = Instant::now();
    let source: Box<dyn Read> = if path == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(path).expect("the generated file"))
    };
    let mut file = std::io::BufReader::with_capacity(4 << 20, source);
    let mut importer = Importer::new(name, ImportOptions::default());
    let mut chunk = vec![0u8; 4 << 20];
    loop {
        let n = file.read(&mut chunk).expect("read");
        if n == 0 {
            break;
        }
        importer.push(&chunk[..n]);
    }
    let loaded = importer.finish().expect("the generated file imports");
    let secs = t0.elapsed().as_secs_f64();
    let summary = loaded.summary();
    println!(
        "| {} | {} bytes | {:.1} s | {:.0} | {:.0} MiB | {:.1} s | {} series, {} points; {} |",
        std::path::Path::new(name)
            .file_name()
            .unwrap_or_default()
            .to_string_lossy(),
        summary.bytes,
        secs,
        summary.bytes as f64 / 1e6 / secs,
        peak_rss_mib().unwrap_or(f64::NAN),
        cpu_s().unwrap_or(f64::NAN),
        summary.series,
        summary.points,
        summary.notes.join("; ")
    );
}

fn main() {
    let args = Args::from_env();
    if let Some(path) = args.text("--import") {
        import(path, args.text("--name").unwrap_or(path));
        return;
    }
    if let Some(s) = args.text("--write") {
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        write_google_instance_usage(&mut out, size(s)).expect("write to stdout");
        return;
    }
    let sizes = args.text("--sizes").unwrap_or("100M,2G,10G").to_string();
    let me = std::env::args().next().expect("the bench binary");
    println!("| file | size | time | MB/s | peak RSS | CPU | what the panels get |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: | --- |");
    for s in sizes.split(',') {
        let path = data_dir().join(format!("google-instance_usage-{s}.csv"));
        if !path.exists() {
            let tmp = path.with_extension("partial");
            let mut out = std::io::BufWriter::new(std::fs::File::create(&tmp).expect("create"));
            write_google_instance_usage(&mut out, size(s)).expect("write");
            drop(out);
            std::fs::rename(&tmp, &path).expect("rename");
        }
        let status = std::process::Command::new(&me)
            .args(["--import", &path.to_string_lossy()])
            .status()
            .expect("the import process");
        assert!(status.success());
    }
}
