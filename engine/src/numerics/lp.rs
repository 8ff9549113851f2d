//! Linear and integer programming: the one place the engine chooses its
//! solvers. Parts build their programs with the names re-exported here and
//! never name a solver crate, so a change of solver is a change of this
//! file.
//!
//! - Linear programs use `minilp`, the product's LP crate: a pure-Rust
//!   simplex solver that builds for wasm32, with no integer support to pay
//!   for.
//!   The skyline LP of Morpheus §5 ([`crate::resource_model`]'s simplex
//!   solver) and the agenda's LP lower bound ([`crate::agenda::lower_bounds`])
//!   are solved with it, and the min-cost-flow solver is checked against it.
//! - Integer programs use `microlp` ([`integer`]), minilp's API with
//!   integer and boolean variables by branch and bound, a warm start and a
//!   node budget: the agenda's batch optimizer ([`crate::agenda::optimize_plan`])
//!   states its time-indexed model with binary start variables; the same
//!   model, solved relaxed, gives its certified lower bound, so the bound and
//!   the exact program share one formulation. Nothing that needs no
//!   integers uses it.

pub use minilp::{
    ComparisonOp, Error, LinearExpr, OptimizationDirection, Problem, Solution, Variable,
};

/// Integer programs (and the LP relaxation of the same model) on `microlp`.
pub mod integer {
    pub use microlp::{
        ComparisonOp, OptimizationDirection, Problem, SolutionStatus, SolveOptions, SolveOutcome,
        Variable,
    };
}
