//! The Alibaba cluster-trace-v2018 machine tables as the Harvest panel's
//! tenants: `machine_meta.csv` groups the machines into tenants by
//! `failure_domain_1` and `machine_usage.csv` gives their CPU series, as
//! `skyplan harvest classify --machine-meta F --machine-usage F` reads
//! them. The trace's files have no header; the two are told apart by their
//! column counts (7 and 9), so their names do not matter.

use skyplan_engine::harvest::{
    machine_tenants, HarvestError, TenantInfo, MACHINE_META_COLUMNS, MACHINE_USAGE_COLUMNS,
};
use skyplan_engine::UtilizationSeries;

/// At most this many located reasons are shown.
const MAX_REASONS: usize = 8;

/// The machine tables in use, read.
#[derive(Clone, Debug)]
pub struct Machines {
    /// `machine_meta.csv`'s name and text.
    pub meta: (String, String),
    /// `machine_usage.csv`'s name and text.
    pub usage: (String, String),
    /// One tenant per failure domain.
    pub tenants: Vec<TenantInfo>,
    /// One CPU series per machine.
    pub series: Vec<UtilizationSeries>,
}

impl Machines {
    /// Both names, as the panel shows them.
    pub fn name(&self) -> String {
        format!("{} + {}", self.meta.0, self.usage.0)
    }

    /// Machines with a CPU series.
    pub fn machines(&self) -> usize {
        self.series.len()
    }
}

/// Which table a file is, from its first line's field count.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Table {
    Meta,
    Usage,
}

fn table_of(name: &str, text: &str) -> Result<Table, String> {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty());
    let Some(first) = first else {
        return Err(format!("{name}: empty file"));
    };
    match first.split(',').count() {
        n if n == MACHINE_META_COLUMNS.len() => Ok(Table::Meta),
        n if n == MACHINE_USAGE_COLUMNS.len() => Ok(Table::Usage),
        n => Err(format!(
            "{name}:1:1: not an Alibaba v2018 machine table: {n} fields, where machine_meta has {} ({}) and machine_usage {} ({})",
            MACHINE_META_COLUMNS.len(),
            MACHINE_META_COLUMNS.join(","),
            MACHINE_USAGE_COLUMNS.len(),
            MACHINE_USAGE_COLUMNS.join(",")
        )),
    }
}

/// An engine error in words: the first [`MAX_REASONS`] located reasons.
fn error_text(e: &HarvestError) -> String {
    match e {
        HarvestError::Parse(reasons) if reasons.len() > MAX_REASONS => format!(
            "{}\n… and {} more",
            reasons[..MAX_REASONS]
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n"),
            reasons.len() - MAX_REASONS
        ),
        other => other.to_string(),
    }
}

/// Reads `files` — both tables, or one replacing its kind among those in
/// use (`current`) — or says why not, with every bad line located.
pub fn read_machines(
    files: &[(String, String)],
    current: Option<&Machines>,
) -> Result<Machines, String> {
    const BOTH: &str = "choose machine_meta.csv together with machine_usage.csv";
    let (mut meta, mut usage) = (None, None);
    for (name, text) in files {
        let slot = match table_of(name, text)? {
            Table::Meta => &mut meta,
            Table::Usage => &mut usage,
        };
        if slot.is_some() {
            return Err(format!("{name}: a second table of the same kind; {BOTH}."));
        }
        *slot = Some((name.clone(), text.clone()));
    }
    let meta = meta
        .or_else(|| current.map(|c| c.meta.clone()))
        .ok_or_else(|| format!("No machine_meta table (7 fields a line): {BOTH}."))?;
    let usage = usage
        .or_else(|| current.map(|c| c.usage.clone()))
        .ok_or_else(|| format!("No machine_usage table (9 fields a line): {BOTH}."))?;
    let (tenants, series) =
        machine_tenants((&meta.0, &meta.1), (&usage.0, &usage.1)).map_err(|e| error_text(&e))?;
    Ok(Machines {
        meta,
        usage,
        tenants,
        series,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const META: &str = "m_2,0,7,20,96,100,USING\nm_1,0,7,20,96,100,USING\nm_3,0,9,21,,,USING\n";
    const USAGE: &str =
        "m_1,20,30,50,,,,,\nm_1,0,10,50,,,,,\nm_2,0,20,40,,,,,\nm_3,0,,3,,,,,\nm_3,10,5,3,,,,,\n";

    fn files(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(n, t)| ((*n).to_owned(), (*t).to_owned()))
            .collect()
    }

    #[test]
    fn tables_are_told_apart_by_columns_and_grouped_by_failure_domain() {
        let m = read_machines(&files(&[("b.csv", USAGE), ("a.csv", META)]), None).unwrap();
        assert_eq!(m.name(), "a.csv + b.csv");
        let names: Vec<_> = m.tenants.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["fd1-7", "fd1-9"]);
        assert_eq!(m.tenants[0].servers, 2);
        assert_eq!(m.machines(), 3);
        // Unsorted timestamps sorted; the empty CPU value left out.
        let m1 = m.series.iter().find(|s| s.server == "m_1").unwrap();
        assert_eq!(m1.timestamps, [0, 20]);
        assert_eq!(
            m.series.iter().find(|s| s.server == "m_3").unwrap().values,
            [5.0]
        );
    }

    #[test]
    fn one_table_replaces_its_kind_and_bad_files_are_located() {
        let m = read_machines(&files(&[("meta.csv", META), ("usage.csv", USAGE)]), None).unwrap();
        let usage2 = "m_1,0,50,50,,,,,\n";
        let m2 = read_machines(&files(&[("usage2.csv", usage2)]), Some(&m)).unwrap();
        assert_eq!(m2.name(), "meta.csv + usage2.csv");
        let alone = read_machines(&files(&[("usage.csv", USAGE)]), None).unwrap_err();
        assert!(alone.contains("No machine_meta table"), "{alone}");
        let bad = read_machines(
            &files(&[("u.csv", "m_1,0,10,5,,,,,\nm_1,10,lots,5,,,,,\n")]),
            Some(&m),
        )
        .unwrap_err();
        assert_eq!(bad, "u.csv:2:8: cpu_util_percent `lots` is not a number");
        let other = read_machines(&files(&[("x.csv", "a,b,c\n")]), Some(&m)).unwrap_err();
        assert!(
            other.starts_with("x.csv:1:1: not an Alibaba v2018 machine table: 3 fields"),
            "{other}"
        );
    }
}
