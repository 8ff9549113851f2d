//! Civil time without a time-zone database: parse and format UTC timestamps.
//!
//! Traces carry either Unix epoch seconds or `YYYY-MM-DD HH:MM:SS` (NAB style,
//! UTC). A hand-written conversion keeps the engine free of a date crate and
//! of the host clock, and is fast enough for 100 MB files.

use crate::model::Timestamp;

/// Seconds in one day.
pub const DAY: i64 = 86_400;
/// Seconds in one hour.
pub const HOUR: i64 = 3_600;

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
pub fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = month as i64;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + day as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date `(year, month, day)` of a day count since 1970-01-01.
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        _ => 28,
    }
}

fn digits(s: &[u8]) -> Option<i64> {
    if s.is_empty() || !s.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(
        s.iter()
            .fold(0i64, |acc, &b| acc * 10 + i64::from(b - b'0')),
    )
}

/// Parses a timestamp: integer Unix seconds (optionally negative), or a UTC
/// date-time `YYYY-MM-DD[( |T)HH:MM[:SS[.fff]]][Z]`. Fractions of a second are
/// truncated. Returns a human-readable reason on failure.
pub fn parse_timestamp(text: &str) -> Result<Timestamp, String> {
    let s = text.trim();
    let b = s.as_bytes();
    if b.is_empty() {
        return Err("empty timestamp".into());
    }
    if b.len() < 10 || b[4] != b'-' {
        let (neg, body) = match b[0] {
            b'-' => (true, &b[1..]),
            _ => (false, b),
        };
        if body.len() > 15 {
            return Err(format!("timestamp `{s}` is out of range"));
        }
        return match digits(body) {
            Some(v) => Ok(if neg { -v } else { v }),
            None => Err(format!(
                "`{s}` is neither epoch seconds nor YYYY-MM-DD HH:MM:SS"
            )),
        };
    }
    let bad = || format!("`{s}` is not a date-time YYYY-MM-DD HH:MM:SS");
    if b[7] != b'-' {
        return Err(bad());
    }
    let year = digits(&b[0..4]).ok_or_else(bad)?;
    let month = digits(&b[5..7]).ok_or_else(bad)? as u32;
    let day = digits(&b[8..10]).ok_or_else(bad)? as u32;
    if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return Err(format!("`{s}` is not a valid calendar date"));
    }
    let mut rest = &b[10..];
    let (mut hh, mut mm, mut ss) = (0i64, 0i64, 0i64);
    if !rest.is_empty() && (rest[0] == b' ' || rest[0] == b'T') {
        rest = &rest[1..];
        if rest.len() < 5 || rest[2] != b':' {
            return Err(bad());
        }
        hh = digits(&rest[0..2]).ok_or_else(bad)?;
        mm = digits(&rest[3..5]).ok_or_else(bad)?;
        rest = &rest[5..];
        if rest.len() >= 3 && rest[0] == b':' {
            ss = digits(&rest[1..3]).ok_or_else(bad)?;
            rest = &rest[3..];
            if !rest.is_empty() && rest[0] == b'.' {
                let n = rest[1..].iter().take_while(|c| c.is_ascii_digit()).count();
                if n == 0 {
                    return Err(bad());
                }
                rest = &rest[1 + n..];
            }
        }
        if hh > 23 || mm > 59 || ss > 60 {
            return Err(format!("`{s}` has an out-of-range time of day"));
        }
    }
    if rest == b"Z" || rest == b"z" {
        rest = &[];
    }
    if !rest.is_empty() {
        return Err(bad());
    }
    Ok(days_from_civil(year, month, day) * DAY + hh * HOUR + mm * 60 + ss)
}

/// Formats Unix seconds as `YYYY-MM-DD HH:MM:SS` (UTC).
pub fn format_timestamp(t: Timestamp) -> String {
    let days = t.div_euclid(DAY);
    let secs = t.rem_euclid(DAY);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02}",
        secs / HOUR,
        (secs % HOUR) / 60,
        secs % 60
    )
}

/// Formats a duration in seconds compactly (`45s`, `12m`, `3h20m`, `2d4h`).
pub fn format_duration(secs: i64) -> String {
    let s = secs.abs();
    let sign = if secs < 0 { "-" } else { "" };
    if s < 60 {
        format!("{sign}{s}s")
    } else if s < HOUR {
        format!(
            "{sign}{}m{}",
            s / 60,
            if s % 60 > 0 {
                format!("{}s", s % 60)
            } else {
                String::new()
            }
        )
    } else if s < DAY {
        format!(
            "{sign}{}h{}",
            s / HOUR,
            if s % HOUR >= 60 {
                format!("{}m", (s % HOUR) / 60)
            } else {
                String::new()
            }
        )
    } else {
        format!(
            "{sign}{}d{}",
            s / DAY,
            if s % DAY >= HOUR {
                format!("{}h", (s % DAY) / HOUR)
            } else {
                String::new()
            }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_dates() {
        assert_eq!(parse_timestamp("1970-01-01 00:00:00"), Ok(0));
        // 2014-02-14 14:30:00 UTC, first sample of NAB ec2_cpu_utilization_24ae8d.
        assert_eq!(parse_timestamp("2014-02-14 14:30:00"), Ok(1_392_388_200));
        assert_eq!(parse_timestamp("2000-02-29T12:00:00Z"), Ok(951_825_600));
        assert_eq!(parse_timestamp("2000-02-29"), Ok(951_782_400));
        assert_eq!(parse_timestamp("1462148517"), Ok(1_462_148_517));
        assert_eq!(parse_timestamp("-5"), Ok(-5));
        assert_eq!(
            parse_timestamp("2014-02-14 14:30:00.999"),
            Ok(1_392_388_200)
        );
    }

    #[test]
    fn rejects_garbage() {
        for bad in [
            "",
            "abc",
            "2014-13-01",
            "2014-02-30 00:00:00",
            "2014-02-14 25:00:00",
            "2014-02-14 14:30:00junk",
            "12a",
            "99999999999999999999",
            "2014-02-14 1",
        ] {
            assert!(parse_timestamp(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn round_trip_against_independent_day_walk() {
        // Walk day by day from 1970 and compare with the closed form.
        let (mut y, mut m, mut d) = (1970i64, 1u32, 1u32);
        for n in 0..40_000i64 {
            assert_eq!(days_from_civil(y, m, d), n);
            assert_eq!(civil_from_days(n), (y, m, d));
            d += 1;
            if d > days_in_month(y, m) {
                d = 1;
                m += 1;
                if m > 12 {
                    m = 1;
                    y += 1;
                }
            }
        }
        assert_eq!(format_timestamp(1_392_388_200), "2014-02-14 14:30:00");
    }

    #[test]
    fn durations() {
        assert_eq!(format_duration(45), "45s");
        assert_eq!(format_duration(720), "12m");
        assert_eq!(format_duration(12_000), "3h20m");
        assert_eq!(format_duration(2 * DAY + 4 * HOUR), "2d4h");
    }
}
