//! Bringing an older bundle's manifest to this version, one step a
//! version, on the JSON before it is read into types — so a step can rename
//! or reshape what the older build wrote.

use super::error::BundleError;
use serde_json::Value;

/// The version this build writes; it reads every version from 1 up to it.
pub const BUNDLE_VERSION: u32 = 1;

/// Migrates `manifest`, written at `version`, to [`BUNDLE_VERSION`].
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
    // One step per version; none yet: version 1 is the first.
    Ok(manifest)
}
