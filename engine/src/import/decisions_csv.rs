//! SLO decisions as CSV, read back: the inverse of
//! [`crate::export::decisions_csv`], so the agenda can take the decisions
//! exported from the studio.
//!
//! Header (any order, case-insensitive): `job`, `decision`
//! (`signed-off`, `overridden` or `rejected`), `period_secs`, `reference`
//! (epoch seconds or `YYYY-MM-DD HH:MM:SS` UTC) are required;
//! `earliest_start_secs`, `deadline_secs` (the window from each period
//! start), `step_secs` (default 60), `skyline` (containers per step, `;` or
//! space separated) and `note` are optional, but a signed-off or overridden
//! decision needs its window and skyline (a rejected one's are not read). Every bad line is reported with
//! its line and column; a bad header stops the reading.

use super::csv;
use super::located::{column_of, FieldError, ParseError};
use crate::model::Skyline;
use crate::slo::{DecisionKind, SloDecision};
use crate::time::parse_timestamp;

/// Columns in the order [`crate::export::decisions_csv`] writes them.
pub const DECISION_COLUMNS: [&str; 9] = [
    "job",
    "decision",
    "period_secs",
    "reference",
    "earliest_start_secs",
    "deadline_secs",
    "step_secs",
    "skyline",
    "note",
];
const REQUIRED: [&str; 4] = ["job", "decision", "period_secs", "reference"];
const JOB: usize = 0;
const DECISION: usize = 1;
const PERIOD: usize = 2;
const REFERENCE: usize = 3;
const START: usize = 4;
const DEADLINE: usize = 5;
const STEP: usize = 6;
const SKYLINE: usize = 7;
const NOTE: usize = 8;

/// Reads a decisions CSV (`file` names it in errors). Strict: any bad line
/// refuses the file, and every bad line is returned.
pub fn read_decisions_csv(file: &str, text: &str) -> Result<Vec<SloDecision>, Vec<ParseError>> {
    csv::read_rows(file, text, &DECISION_COLUMNS, &REQUIRED, row)
}

fn row(line: &str, fields: &[csv::Field<'_>], h: &csv::Header) -> Result<SloDecision, FieldError> {
    let field = |k: usize| {
        h.pos[k]
            .map(|i| &fields[i])
            .filter(|f| !f.text.trim().is_empty())
    };
    let col = |k: usize| {
        h.pos[k]
            .map(|i| column_of(line, fields[i].offset))
            .unwrap_or(1)
    };
    let need = |k: usize| {
        field(k)
            .ok_or_else(|| FieldError::at(col(k), format!("{} is required", DECISION_COLUMNS[k])))
    };
    let int = |k: usize| -> Result<Option<i64>, FieldError> {
        field(k)
            .map(|f| {
                f.text.trim().parse::<i64>().map_err(|_| {
                    FieldError::at(
                        col(k),
                        format!(
                            "{}: `{}` is not an integer",
                            DECISION_COLUMNS[k],
                            csv::shorten(f.text.trim())
                        ),
                    )
                })
            })
            .transpose()
    };
    let job = need(JOB)?.text.trim().to_string();
    let kind = match need(DECISION)?.text.trim().to_ascii_lowercase().as_str() {
        "signed-off" => DecisionKind::SignedOff,
        "overridden" => DecisionKind::Overridden,
        "rejected" => DecisionKind::Rejected,
        other => {
            return Err(FieldError::at(
                col(DECISION),
                format!(
                    "decision `{}` is not signed-off, overridden or rejected",
                    csv::shorten(other)
                ),
            ))
        }
    };
    need(PERIOD)?;
    let period_secs = int(PERIOD)?.unwrap_or(0);
    // Any integer (the export writes the number as is), or a date.
    let reference = match int(REFERENCE) {
        Ok(Some(t)) => t,
        _ => parse_timestamp(&need(REFERENCE)?.text)
            .map_err(|e| FieldError::at(col(REFERENCE), format!("reference: {e}")))?,
    };
    // A rejected job has no window or skyline: whatever those columns hold
    // is not read.
    let (window, skyline) = if kind == DecisionKind::Rejected {
        (None, None)
    } else {
        need(START)?;
        need(DEADLINE)?;
        let window = (int(START)?.unwrap_or(0), int(DEADLINE)?.unwrap_or(0));
        let step = match field(STEP) {
            None => 60,
            Some(f) => {
                let v = csv::count(line, f, "step_secs")?;
                u32::try_from(v).ok().filter(|&v| v > 0).ok_or_else(|| {
                    FieldError::at(
                        col(STEP),
                        format!("step_secs must be between 1 and {}", u32::MAX),
                    )
                })?
            }
        };
        let sky = csv::samples(
            line,
            need(SKYLINE)?,
            "skyline",
            super::runs_csv::MAX_SAMPLES,
        )?;
        (Some(window), Some(Skyline::new(step, sky)))
    };
    let d = SloDecision {
        job,
        kind,
        period_secs,
        reference,
        window,
        skyline,
        model: None,
        note: field(NOTE).map(|f| f.text.to_string()),
    };
    d.validate()
        .map_err(|e| FieldError::at(col(JOB), e.to_string()))?;
    Ok(d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::decisions_csv;

    fn decisions() -> Vec<SloDecision> {
        vec![
            SloDecision {
                job: "revenue_rollup".into(),
                kind: DecisionKind::SignedOff,
                period_secs: 86_400,
                reference: 1_793_577_600,
                window: Some((3_600, 21_600)),
                skyline: Some(Skyline::new(60, vec![20.0, 40.5, 12.0])),
                model: None,
                note: None,
            },
            SloDecision {
                job: "clicks, hourly".into(),
                kind: DecisionKind::Overridden,
                period_secs: 3_600,
                reference: 1_793_577_600,
                window: Some((0, 3_000)),
                skyline: Some(Skyline::new(300, vec![4.0, 4.0])),
                model: None,
                note: Some("input \"grows\" 2× tomorrow".into()),
            },
            SloDecision {
                job: "adhoc".into(),
                kind: DecisionKind::Rejected,
                period_secs: 86_400,
                reference: 1_793_577_600,
                window: None,
                skyline: None,
                model: None,
                note: Some("no SLO".into()),
            },
        ]
    }

    #[test]
    fn reads_what_the_export_writes() {
        let ds = decisions();
        let text = decisions_csv(&ds);
        assert_eq!(read_decisions_csv("d.csv", &text).unwrap(), ds);
        // Columns in another order, CRLF, a comment and a date reference.
        let text = "# decisions\r\nDecision,job,reference,period_secs,skyline,earliest_start_secs,deadline_secs\r\n\
                    signed-off,etl,2026-11-02 00:00:00,86400,5;5,0,600\r\n";
        let got = read_decisions_csv("d.csv", text).unwrap();
        assert_eq!(got[0].reference, 1_793_577_600);
        assert_eq!(got[0].skyline.as_ref().unwrap().step_secs, 60);
    }

    #[test]
    fn bad_lines_are_located() {
        let text = "job,decision,period_secs,reference,earliest_start_secs,deadline_secs,step_secs,skyline,note\n\
                    a,approved,86400,0,0,600,60,1;2,\n\
                    b,signed-off,86400,0,,,60,1;2,\n\
                    c,signed-off,86400,0,0,600,60,1;x,\n\
                    d,signed-off,86400,0,600,0,60,1;2,\n\
                    e,rejected,86400,0,,,,,fine\n";
        let errs = read_decisions_csv("d.csv", text).unwrap_err();
        let got: Vec<(u64, u32)> = errs.iter().map(|e| (e.line, e.column)).collect();
        assert_eq!(got, [(2, 3), (3, 22), (4, 33), (5, 1)], "{errs:?}");
        assert!(errs[0].reason.contains("`approved`"), "{errs:?}");
        assert!(errs[1].reason.contains("earliest_start_secs is required"));
        assert!(errs[2].reason.contains("sample `x`"));
        assert!(errs[3].reason.contains("window [600, 0]"), "{errs:?}");
        assert_eq!(
            errs[0].to_string(),
            "d.csv:2:3: decision `approved` is not signed-off, overridden or rejected"
        );
        let errs = read_decisions_csv("d.csv", "job,kind\nx,y\n").unwrap_err();
        assert!(
            errs[0].reason.contains("required column `decision`"),
            "{errs:?}"
        );
        let errs = read_decisions_csv("d.csv", "\n# nothing\n").unwrap_err();
        assert!(errs[0].reason.contains("no header"), "{errs:?}");
    }
}
