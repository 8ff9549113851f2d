//! What one file contributed: its records, by kind.

use super::{JobRun, Timestamp, UtilizationSeries, WorkloadJob};
use serde::{Deserialize, Serialize};

/// The records one file contributed, by kind.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Dataset {
    /// Job runs with skylines.
    pub runs: Vec<JobRun>,
    /// Utilization series.
    pub series: Vec<UtilizationSeries>,
    /// Workload jobs with size features.
    pub workload: Vec<WorkloadJob>,
    /// How the records were derived where it is not one line one record:
    /// what was aggregated, left out or estimated (a cluster export's
    /// reader says so here, and the files table shows it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl Dataset {
    /// Number of records of all kinds (series count as one each).
    pub fn records(&self) -> usize {
        self.runs.len() + self.series.len() + self.workload.len()
    }

    /// Earliest and latest time the dataset mentions.
    pub fn span(&self) -> Option<(Timestamp, Timestamp)> {
        let runs = self.runs.iter().map(|r| (r.submit.min(r.start), r.end));
        let series = self.series.iter().filter_map(|s| s.span());
        let jobs = self.workload.iter().map(|j| (j.submit, j.submit));
        runs.chain(series)
            .chain(jobs)
            .reduce(|a, b| (a.0.min(b.0), a.1.max(b.1)))
    }
}
