//! Bringing an older bundle to this version, one step a version: on the
//! manifest's JSON before it is read into types (for what an older build
//! named or shaped otherwise), then on the bundle read (for what an older
//! build did not keep but can be worked out).
//!
//! - **1 → 2**: version 1 did not keep the agenda's refused requests. They
//!   are the admitted decisions' requests that are not in the plan: each
//!   non-rejected decision without a reservation is listed as refused, the
//!   reason saying it was not kept.
//! - **2 → 3**: version 3 may keep a large file as its records instead of
//!   its bytes (`kept` in the manifest); every file of an older bundle is
//!   bytes, which is what a missing `kept` reads as — nothing to change.
//!   Version 3 also keeps the Runway panel's settings (`runway`, optional):
//!   a bundle without them opens on the runway's defaults, nothing to
//!   change either.

use super::error::BundleError;
use super::state::Bundle;
use serde_json::Value;

/// The version this build writes; it reads every version from 1 up to it.
pub const BUNDLE_VERSION: u32 = 3;

/// The reason given to a refusal worked out from a version-1 bundle.
pub const UNKNOWN_REASON: &str =
    "not in the plan; the bundle (version 1) did not keep why it was refused";

/// Checks `version` and migrates the manifest's JSON, written at `version`,
/// to [`BUNDLE_VERSION`]'s shape.
pub(super) fn migrate(what: &str, version: u32, manifest: Value) -> Result<Value, BundleError> {
    if version == 0 {
        return Err(BundleError::Corrupt(
            what.to_string(),
            "it says bundle version 0, which no skyplan wrote".into(),
        ));
    }
    if version > BUNDLE_VERSION {
        return Err(BundleError::Newer(
            what.to_string(),
            version,
            BUNDLE_VERSION,
        ));
    }
    // No step renames or reshapes anything yet.
    Ok(manifest)
}

/// Completes a bundle read from `version` with what that version did not
/// keep.
pub(super) fn upgrade(version: u32, bundle: &mut Bundle) {
    if version < 2 {
        if let Some(agenda) = bundle.agenda.as_mut() {
            if agenda.plan.is_some() {
                let left = agenda.admissible(&bundle.decisions);
                agenda.refused = left
                    .into_iter()
                    .map(|d| (d.job, UNKNOWN_REASON.to_string()))
                    .collect();
            }
        }
    }
}
