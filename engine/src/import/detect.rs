//! Format detection from the first content line of a file.

use super::format::Format;

/// Guesses the format from the first non-blank, non-comment line, or `None`
/// when nothing matches. Headers decide for CSVs; data lines decide for the
/// headerless formats (SWIM TSV, native log, header-less `timestamp,value`).
pub fn detect(first_line: &str) -> Option<Format> {
    let line = first_line.trim();
    if line.contains('\t') {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() == 6 && f[1..].iter().all(|x| x.trim().parse::<u64>().is_ok()) {
            return Some(Format::SwimTsv);
        }
    }
    if line.contains(',') {
        let cols: Vec<String> = line
            .split(',')
            .map(|c| c.trim().trim_matches('"').to_ascii_lowercase())
            .collect();
        let has = |n: &str| cols.iter().any(|c| c == n);
        if has("job") && has("skyline") {
            return Some(Format::RunsCsv);
        }
        if has("job") && has("map_secs") {
            return Some(Format::JobHistoryCsv);
        }
        if has("timestamp") && has("series") && has("value") {
            return Some(Format::UtilizationLongCsv);
        }
        if cols.len() == 2 && cols[0] == "timestamp" && cols[1] == "value" {
            return Some(Format::UtilizationCsv);
        }
        if cols.len() == 2
            && crate::time::parse_timestamp(&cols[0]).is_ok()
            && cols[1].parse::<f64>().is_ok()
        {
            return Some(Format::UtilizationCsv);
        }
        return None;
    }
    let f: Vec<&str> = line.split_whitespace().collect();
    if f.len() == 8 && f[1..5].iter().all(|x| x.parse::<i64>().is_ok()) && f[7].contains(':') {
        return Some(Format::NativeLog);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_each_format() {
        assert_eq!(
            detect(
                "tpch_q12 50 1462148517000 1462148527345 1462148952345 tpch_q12_0 8192:0| 1:0|1:5|"
            ),
            Some(Format::NativeLog)
        );
        assert_eq!(
            detect("job0\t49\t49\t740773\t2339561\t627471"),
            Some(Format::SwimTsv)
        );
        assert_eq!(detect("timestamp,value"), Some(Format::UtilizationCsv));
        assert_eq!(
            detect("2014-02-14 14:30:00,0.132"),
            Some(Format::UtilizationCsv)
        );
        assert_eq!(
            detect("timestamp,series,resource,value"),
            Some(Format::UtilizationLongCsv)
        );
        assert_eq!(
            detect("job,instance,submit,start,end,skyline"),
            Some(Format::RunsCsv)
        );
        assert_eq!(
            detect("job,submit,map_tasks,reduce_tasks,input_bytes,shuffle_bytes,output_bytes,map_secs,reduce_secs"),
            Some(Format::JobHistoryCsv)
        );
        assert_eq!(detect("hello world"), None);
        assert_eq!(detect("a,b,c"), None);
    }
}
