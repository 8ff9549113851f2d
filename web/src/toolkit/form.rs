//! Reading the fields of a form as typed, with one wording for what is
//! wrong: `{what}: a number, got `abc``, `{what}: a whole number, got
//! `2.5``, `{what}: a number ≥ 0, got -1`. Forms keep what was typed (so a
//! half-typed number is never refused while typing) and their desk parses
//! them with these when the form is sent; the engine judges the ranges it
//! knows.

use std::str::FromStr;

/// A number (a trailing `%` is allowed), finite.
///
/// # Errors
/// `{what}: a number, got `{text}``.
pub fn number(text: &str, what: &str) -> Result<f64, String> {
    let t = text.trim();
    t.trim_end_matches('%')
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| format!("{what}: a number, got `{t}`"))
}

/// A whole number of type `T` (a count, an index, a seed).
///
/// # Errors
/// `{what}: a whole number, got `{text}``.
pub fn whole<T: FromStr>(text: &str, what: &str) -> Result<T, String> {
    let t = text.trim();
    t.parse::<T>()
        .map_err(|_| format!("{what}: a whole number, got `{t}`"))
}

/// `value` when it is at least `min`.
///
/// # Errors
/// `{what}: a number ≥ {min}, got {value}`.
pub fn at_least<T: PartialOrd + std::fmt::Display>(
    value: T,
    min: T,
    what: &str,
) -> Result<T, String> {
    if value >= min {
        Ok(value)
    } else {
        Err(format!("{what}: a number ≥ {min}, got {value}"))
    }
}

/// A number above zero.
///
/// # Errors
/// As [`number`], or `{what}: a number > 0, got {value}`.
pub fn positive(text: &str, what: &str) -> Result<f64, String> {
    let value = number(text, what)?;
    if value > 0.0 {
        Ok(value)
    } else {
        Err(format!("{what}: a number > 0, got {value}"))
    }
}

/// A list of numbers separated by commas, semicolons or spaces (blanks
/// between them ignored).
///
/// # Errors
/// As [`number`], for the first that is not one.
pub fn numbers(text: &str, what: &str) -> Result<Vec<f64>, String> {
    text.split([',', ';', ' '])
        .filter(|t| !t.trim().is_empty())
        .map(|t| number(t, what))
        .collect()
}

/// `None` for an empty field, else what `parse` makes of it.
///
/// # Errors
/// What `parse` says.
pub fn optional<T>(
    text: &str,
    parse: impl FnOnce(&str) -> Result<T, String>,
) -> Result<Option<T>, String> {
    if text.trim().is_empty() {
        Ok(None)
    } else {
        parse(text).map(Some)
    }
}

/// A time of day `HH:MM` (up to `24:00`, the end of the day) as seconds.
///
/// # Errors
/// `{what}: a time HH:MM up to 24:00, got `{text}``.
pub fn clock(text: &str, what: &str) -> Result<i64, String> {
    let t = text.trim();
    let seconds = t.split_once(':').and_then(|(h, m)| {
        let (h, m): (i64, i64) = (h.parse().ok()?, m.parse().ok()?);
        ((0..=24).contains(&h) && (0..60).contains(&m) && h * 60 + m <= 1440)
            .then_some(h * 3600 + m * 60)
    });
    seconds.ok_or_else(|| format!("{what}: a time HH:MM up to 24:00, got `{t}`"))
}

/// Numbers as a form shows a list of them: `10, 30, 50`.
pub fn list(values: &[f64]) -> String {
    values
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_parse_or_say_why_in_one_wording() {
        assert_eq!(number(" 2.5 ", "Load"), Ok(2.5));
        assert_eq!(number("5 %", "K1"), Ok(5.0));
        assert_eq!(number("x", "Load"), Err("Load: a number, got `x`".into()));
        assert!(number("inf", "Load").is_err());
        assert_eq!(whole::<u32>("7", "Seed"), Ok(7));
        assert_eq!(
            whole::<u32>("many", "Containers"),
            Err("Containers: a whole number, got `many`".into())
        );
        assert_eq!(
            at_least(-1.0, 0.0, "K1"),
            Err("K1: a number ≥ 0, got -1".into())
        );
        assert_eq!(at_least(1usize, 1, "First job"), Ok(1));
        assert_eq!(
            positive("0", "Cores"),
            Err("Cores: a number > 0, got 0".into())
        );
        assert_eq!(
            numbers("10, 30;50  70", "Levels"),
            Ok(vec![10.0, 30.0, 50.0, 70.0])
        );
        assert!(numbers("10, x", "Levels").unwrap_err().contains("`x`"));
        assert_eq!(optional("  ", |t| number(t, "Root")), Ok(None));
        assert_eq!(optional("2", |t| number(t, "Root")), Ok(Some(2.0)));
        assert_eq!(list(&[10.0, 2.5]), "10, 2.5");
    }

    #[test]
    fn clock_fields_read_hours_and_minutes_up_to_the_end_of_the_day() {
        assert_eq!(clock("13:05", "Start"), Ok(13 * 3600 + 300));
        assert_eq!(clock(" 24:00 ", "Deadline"), Ok(86_400));
        assert_eq!(
            clock("24:01", "Deadline"),
            Err("Deadline: a time HH:MM up to 24:00, got `24:01`".into())
        );
        assert!(clock("7", "Start").is_err());
        assert!(clock("12:60", "Start").is_err());
    }
}
