//! Resource kinds and container sizes.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The size of one container, the unit in which skylines count.
///
/// Hadoop's ResourceEstimator assumes `<1 core, 1 GB>` for its native log
/// format, which is the default here.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ContainerSize {
    /// Virtual cores per container.
    pub cores: f64,
    /// Memory per container, in MiB.
    pub memory_mb: f64,
}

impl Default for ContainerSize {
    fn default() -> Self {
        ContainerSize {
            cores: 1.0,
            memory_mb: 1024.0,
        }
    }
}

/// A resource dimension of a server or a container.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Resource {
    /// Processor utilization.
    Cpu,
    /// Memory utilization.
    Memory,
    /// Disk (space or bandwidth) utilization.
    Disk,
    /// Network bandwidth utilization.
    Network,
    /// Any other named resource, kept as written (lowercased).
    Other(String),
}

impl Resource {
    /// Reads a resource name; common aliases (`mem`, `net`, `vcores`) are
    /// understood, anything else is kept as [`Resource::Other`].
    pub fn parse(name: &str) -> Resource {
        let n = name.trim().to_ascii_lowercase();
        match n.as_str() {
            "cpu" | "cores" | "vcores" | "core" => Resource::Cpu,
            "memory" | "mem" | "ram" => Resource::Memory,
            "disk" | "io" | "storage" => Resource::Disk,
            "network" | "net" => Resource::Network,
            _ => Resource::Other(n),
        }
    }

    /// The canonical name, as written back to CSV.
    pub fn name(&self) -> &str {
        match self {
            Resource::Cpu => "cpu",
            Resource::Memory => "memory",
            Resource::Disk => "disk",
            Resource::Network => "network",
            Resource::Other(s) => s,
        }
    }
}

impl fmt::Display for Resource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases() {
        assert_eq!(Resource::parse(" MEM "), Resource::Memory);
        assert_eq!(Resource::parse("vcores"), Resource::Cpu);
        assert_eq!(Resource::parse("GPU"), Resource::Other("gpu".into()));
        assert_eq!(Resource::parse("gpu").name(), "gpu");
    }
}
