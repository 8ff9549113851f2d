//! The bytes of a bundle: one gzip stream (so `zcat name.skyplan | head -2`
//! shows what it is) holding
//!
//! 1. a header line, `skyplan-bundle <version>`;
//! 2. the manifest, one line of JSON: the files' names, formats and sizes,
//!    the SLO decisions and every panel's state;
//! 3. the files' bytes, one after another, as long as the manifest says —
//!    or, for a file kept as records (since version 3: a large import), the
//!    JSON of its [`LoadedFile`], with the source's name, size and hash.
//!
//! The files are not inside the JSON, so a 100 MB trace is copied, not
//! escaped. gzip's CRC-32 and length catch a damaged or cut file; the header
//! catches a foreign one (another gzip file, or not gzip at all); the
//! manifest's sizes catch a bundle whose parts do not add up.

use super::error::BundleError;
use super::migrate::{migrate, upgrade, BUNDLE_VERSION};
use super::panels::{
    AgendaState, ForecastState, HarvestState, PricingState, RunwayState, ShapingState, TuningState,
};
use super::state::{Bundle, BundleFile};
use crate::import::{Format, LoadedFile};
use crate::slo::SloDecision;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;
use serde::{Deserialize, Serialize};
use std::io::{Read, Write};

/// The header's first word.
pub const MAGIC: &str = "skyplan-bundle";
/// The file extension the studio and the CLI give a bundle.
pub const BUNDLE_EXTENSION: &str = "skyplan";

/// The largest bundle opened, uncompressed: a guard against a file that
/// inflates without end (the studio holds it in memory twice).
const MAX_INFLATED: u64 = 2 << 30;

/// A file as the manifest lists it: its bytes follow the manifest.
#[derive(Serialize, Deserialize)]
struct ManifestFile {
    name: String,
    format: Option<Format>,
    lenient: bool,
    size: u64,
    /// Its part is the JSON of the records kept, not the file's bytes
    /// (since version 3).
    #[serde(default)]
    kept: bool,
}

/// The manifest: everything but the files' bytes.
#[derive(Serialize, Deserialize)]
struct Manifest {
    files: Vec<ManifestFile>,
    #[serde(default)]
    decisions: Vec<SloDecision>,
    #[serde(default)]
    agenda: Option<AgendaState>,
    #[serde(default)]
    pricing: Option<PricingState>,
    #[serde(default)]
    harvest: Option<HarvestState>,
    #[serde(default)]
    shaping: Option<ShapingState>,
    #[serde(default)]
    tuning: Option<TuningState>,
    #[serde(default)]
    forecast: Option<ForecastState>,
    #[serde(default)]
    runway: Option<RunwayState>,
}

/// Writes `bundle` as bundle bytes: gzip at level 1, which on 100 MB of
/// generated traces wrote 32.7 MB in 0.54 s natively against level 6's
/// 26.7 MB in 4.7 s (BENCHMARKS.md) — a save the planner waits for is worth
/// a fifth more bytes.
pub fn encode(bundle: &Bundle) -> Result<Vec<u8>, BundleError> {
    bundle.validate("the workspace")?;
    let invalid =
        |e: serde_json::Error| BundleError::Invalid("the workspace".into(), e.to_string());
    let kept: Vec<Option<Vec<u8>>> = bundle
        .files
        .iter()
        .map(|f| f.kept.as_ref().map(serde_json::to_vec).transpose())
        .collect::<Result<_, _>>()
        .map_err(invalid)?;
    let part = |f: &BundleFile, k: &Option<Vec<u8>>| -> u64 {
        k.as_ref().map_or(f.bytes.len(), Vec::len) as u64
    };
    let manifest = Manifest {
        files: bundle
            .files
            .iter()
            .zip(&kept)
            .map(|(f, k)| ManifestFile {
                name: f.name.clone(),
                format: f.format,
                lenient: f.lenient,
                size: part(f, k),
                kept: k.is_some(),
            })
            .collect(),
        decisions: bundle.decisions.clone(),
        agenda: bundle.agenda.clone(),
        pricing: bundle.pricing.clone(),
        harvest: bundle.harvest.clone(),
        shaping: bundle.shaping.clone(),
        tuning: bundle.tuning.clone(),
        forecast: bundle.forecast.clone(),
        runway: bundle.runway.clone(),
    };
    let json = serde_json::to_string(&manifest)
        .map_err(|e| BundleError::Invalid("the workspace".into(), e.to_string()))?;
    let total: usize = bundle
        .files
        .iter()
        .zip(&kept)
        .map(|(f, k)| part(f, k) as usize)
        .sum();
    let mut out = GzEncoder::new(
        Vec::with_capacity(json.len() / 4 + total / 4),
        Compression::fast(),
    );
    let write = |out: &mut GzEncoder<Vec<u8>>, bytes: &[u8]| {
        out.write_all(bytes)
            .map_err(|e| BundleError::Invalid("the workspace".into(), e.to_string()))
    };
    write(&mut out, format!("{MAGIC} {BUNDLE_VERSION}\n").as_bytes())?;
    write(&mut out, json.as_bytes())?;
    write(&mut out, b"\n")?;
    for (f, k) in bundle.files.iter().zip(&kept) {
        write(&mut out, k.as_deref().unwrap_or(&f.bytes))?;
    }
    out.finish()
        .map_err(|e| BundleError::Invalid("the workspace".into(), e.to_string()))
}

/// Reads bundle bytes; `what` (the file's name) is said in every error.
/// Nothing is kept from a bundle that fails: the caller's workspace stays
/// as it was.
pub fn decode(what: &str, bytes: &[u8]) -> Result<Bundle, BundleError> {
    let foreign = |why: String| Err(BundleError::Foreign(what.to_string(), why));
    let corrupt = |why: String| BundleError::Corrupt(what.to_string(), why);
    if bytes.len() < 2 || bytes[0] != 0x1f || bytes[1] != 0x8b {
        return foreign(describe_foreign(bytes));
    }
    let mut inflated = Vec::with_capacity(bytes.len().saturating_mul(4));
    let read = GzDecoder::new(bytes)
        .take(MAX_INFLATED + 1)
        .read_to_end(&mut inflated);
    if let Err(e) = read {
        return Err(match e.kind() {
            std::io::ErrorKind::UnexpectedEof => BundleError::Truncated(
                what.to_string(),
                format!("its compressed data ends after {} bytes", bytes.len()),
            ),
            _ => corrupt(format!("its compressed data does not read: {e}")),
        });
    }
    if inflated.len() as u64 > MAX_INFLATED {
        return Err(corrupt(format!(
            "it inflates to more than {} GiB",
            MAX_INFLATED >> 30
        )));
    }
    // The header line.
    let Some(eol) = inflated.iter().take(64).position(|&b| b == b'\n') else {
        return foreign("a gzip file, but without a skyplan bundle header".into());
    };
    let header = String::from_utf8_lossy(&inflated[..eol]);
    let Some(version) = header
        .strip_prefix(MAGIC)
        .and_then(|rest| rest.strip_prefix(' '))
    else {
        return foreign(format!(
            "a gzip file whose first line is `{}`, not `{MAGIC} <version>`",
            header.chars().take(40).collect::<String>()
        ));
    };
    let version: u32 = version
        .trim()
        .parse()
        .map_err(|_| corrupt(format!("its header `{header}` has no version number")))?;
    // The manifest line.
    let rest = &inflated[eol + 1..];
    let Some(end) = memchr::memchr(b'\n', rest) else {
        return Err(corrupt("its manifest has no end".into()));
    };
    let value: serde_json::Value = serde_json::from_slice(&rest[..end])
        .map_err(|e| corrupt(format!("its manifest does not read: {e}")))?;
    let value = migrate(what, version, value)?;
    let manifest: Manifest = serde_json::from_value(value)
        .map_err(|e| corrupt(format!("its manifest does not read: {e}")))?;
    // The files.
    let mut data = &rest[end + 1..];
    let mut files = Vec::with_capacity(manifest.files.len());
    for f in manifest.files {
        let size = usize::try_from(f.size).unwrap_or(usize::MAX);
        if size > data.len() {
            return Err(corrupt(format!(
                "file `{}` should have {} bytes and has {}",
                f.name,
                f.size,
                data.len()
            )));
        }
        let (bytes, tail) = data.split_at(size);
        data = tail;
        if f.kept {
            let mut kept: LoadedFile = serde_json::from_slice(bytes).map_err(|e| {
                corrupt(format!("the records kept of `{}` do not read: {e}", f.name))
            })?;
            kept.kept = true;
            files.push(BundleFile {
                name: f.name,
                format: f.format,
                lenient: f.lenient,
                bytes: Vec::new(),
                kept: Some(Box::new(kept)),
            });
        } else {
            files.push(BundleFile::of_bytes(
                f.name,
                f.format,
                f.lenient,
                bytes.to_vec(),
            ));
        }
    }
    if !data.is_empty() {
        return Err(corrupt(format!(
            "{} bytes follow the last file the manifest lists",
            data.len()
        )));
    }
    let mut bundle = Bundle {
        files,
        decisions: manifest.decisions,
        agenda: manifest.agenda,
        pricing: manifest.pricing,
        harvest: manifest.harvest,
        shaping: manifest.shaping,
        tuning: manifest.tuning,
        forecast: manifest.forecast,
        runway: manifest.runway,
    };
    upgrade(version, &mut bundle);
    bundle.validate(what)?;
    Ok(bundle)
}

/// What a file that is not gzip looks like, for the refusal.
fn describe_foreign(bytes: &[u8]) -> String {
    match bytes {
        [] => "it is empty".into(),
        [b'P', b'K', ..] => "it is a zip archive".into(),
        [b'{', ..] | [b'[', ..] => "it is JSON text".into(),
        _ if bytes.iter().take(512).all(|b| b.is_ascii()) => {
            let line: String = String::from_utf8_lossy(bytes)
                .lines()
                .next()
                .unwrap_or("")
                .chars()
                .take(40)
                .collect();
            format!("it is text (first line `{line}`), not a compressed bundle")
        }
        _ => "it does not start with gzip's signature".into(),
    }
}
