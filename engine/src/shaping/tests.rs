//! Tests of the shaping module.
