//! Points in time.

/// A point in time: seconds since the Unix epoch, UTC (or since the start of
/// the trace for traces that only carry relative times, such as SWIM).
pub type Timestamp = i64;
