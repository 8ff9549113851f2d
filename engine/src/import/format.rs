//! The trace formats the engine reads. Below the importer and its parsers
//! (and [`crate::import::LoadedFile`], which records a file's format), so
//! none of them has to import the module that dispatches to them.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A trace format the engine reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Apache Hadoop ResourceEstimator "native" log lines.
    NativeLog,
    /// skyplan's CSV of job runs with skylines.
    RunsCsv,
    /// One utilization series as `timestamp,value` (NAB style).
    UtilizationCsv,
    /// Many series as `timestamp,series,resource,value`.
    UtilizationLongCsv,
    /// SWIM workload TSV (Facebook Hadoop samples).
    SwimTsv,
    /// skyplan's CSV of finished jobs with sizes and phase durations (MRM §3.2).
    JobHistoryCsv,
    /// YARN ResourceManager `/ws/v1/cluster/apps` JSON.
    YarnAppsJson,
    /// MapReduce JobHistory server `/ws/v1/history/mapreduce/jobs` (and a
    /// job's tasks) JSON.
    MapreduceHistoryJson,
    /// Spark event log (JSON lines, plain or compressed).
    SparkEventLog,
    /// Prometheus HTTP API `query_range` JSON (a matrix).
    PrometheusJson,
    /// Grafana's CSV export of a panel.
    GrafanaCsv,
    /// Google cluster-data 2019 `instance_usage` (CSV or JSON lines).
    GoogleInstanceUsage,
    /// Google cluster-data 2019 `collection_events` / `instance_events`
    /// (CSV or JSON lines).
    GoogleEvents,
    /// Alibaba cluster-trace-v2018 `batch_task` / `batch_instance`.
    AlibabaBatchCsv,
}

impl Format {
    /// Every format, in the order the UI lists them.
    pub const ALL: [Format; 14] = [
        Format::NativeLog,
        Format::RunsCsv,
        Format::UtilizationCsv,
        Format::UtilizationLongCsv,
        Format::SwimTsv,
        Format::JobHistoryCsv,
        Format::YarnAppsJson,
        Format::MapreduceHistoryJson,
        Format::SparkEventLog,
        Format::PrometheusJson,
        Format::GrafanaCsv,
        Format::GoogleInstanceUsage,
        Format::GoogleEvents,
        Format::AlibabaBatchCsv,
    ];

    /// Short name used on the command line and in JSON.
    pub fn id(self) -> &'static str {
        match self {
            Format::NativeLog => "native-log",
            Format::RunsCsv => "runs-csv",
            Format::UtilizationCsv => "utilization-csv",
            Format::UtilizationLongCsv => "utilization-long-csv",
            Format::SwimTsv => "swim-tsv",
            Format::JobHistoryCsv => "job-history-csv",
            Format::YarnAppsJson => "yarn-apps-json",
            Format::MapreduceHistoryJson => "mapreduce-history-json",
            Format::SparkEventLog => "spark-event-log",
            Format::PrometheusJson => "prometheus-json",
            Format::GrafanaCsv => "grafana-csv",
            Format::GoogleInstanceUsage => "google-instance-usage",
            Format::GoogleEvents => "google-events",
            Format::AlibabaBatchCsv => "alibaba-batch-csv",
        }
    }

    /// Whether its times are always seconds from the start of the trace
    /// rather than calendar (epoch) times (a job history's may be either:
    /// [`crate::import::LoadedFile::relative_time`] tells a file's).
    pub fn relative_times(self) -> bool {
        matches!(self, Format::SwimTsv | Format::AlibabaBatchCsv)
    }

    /// Whether the file is one JSON document (or several one after
    /// another), read by the push tokenizer rather than line by line.
    pub fn json_document(self) -> bool {
        matches!(
            self,
            Format::YarnAppsJson | Format::MapreduceHistoryJson | Format::PrometheusJson
        )
    }

    /// Human-readable name.
    pub fn label(self) -> &'static str {
        match self {
            Format::NativeLog => "Hadoop ResourceEstimator native log",
            Format::RunsCsv => "skyplan job runs CSV",
            Format::UtilizationCsv => "utilization CSV (timestamp,value)",
            Format::UtilizationLongCsv => "utilization CSV (timestamp,series,resource,value)",
            Format::SwimTsv => "SWIM workload TSV",
            Format::JobHistoryCsv => "skyplan job history CSV",
            Format::YarnAppsJson => "YARN ResourceManager apps JSON",
            Format::MapreduceHistoryJson => "MapReduce JobHistory jobs/tasks JSON",
            Format::SparkEventLog => "Spark event log",
            Format::PrometheusJson => "Prometheus query_range JSON (matrix)",
            Format::GrafanaCsv => "Grafana panel CSV",
            Format::GoogleInstanceUsage => "Google cluster-data 2019 instance_usage",
            Format::GoogleEvents => "Google cluster-data 2019 collection/instance events",
            Format::AlibabaBatchCsv => "Alibaba v2018 batch_task / batch_instance",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim().to_ascii_lowercase();
        let f = match s.as_str() {
            "native-log" | "native" | "hadoop" => Format::NativeLog,
            "runs-csv" | "runs" => Format::RunsCsv,
            "utilization-csv" | "nab" | "util" => Format::UtilizationCsv,
            "utilization-long-csv" | "long" | "util-long" => Format::UtilizationLongCsv,
            "swim-tsv" | "swim" => Format::SwimTsv,
            "job-history-csv" | "history" => Format::JobHistoryCsv,
            "yarn-apps-json" | "yarn-apps" | "rm-apps" => Format::YarnAppsJson,
            "mapreduce-history-json" | "jobhistory" => Format::MapreduceHistoryJson,
            "spark-event-log" | "spark" => Format::SparkEventLog,
            "prometheus-json" | "prometheus" => Format::PrometheusJson,
            "grafana-csv" | "grafana" => Format::GrafanaCsv,
            "google-instance-usage" | "instance-usage" => Format::GoogleInstanceUsage,
            "google-events" | "collection-events" | "instance-events" => Format::GoogleEvents,
            "alibaba-batch-csv" | "batch-task" | "batch-instance" => Format::AlibabaBatchCsv,
            _ => {
                let names: Vec<&str> = Format::ALL.iter().map(|f| f.id()).collect();
                return Err(format!(
                    "unknown format `{s}` (expected one of {})",
                    names.join(", ")
                ));
            }
        };
        Ok(f)
    }
}
