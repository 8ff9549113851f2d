//! `forecast`: Alibaba container usage with the trace's markers left out,
//! and bad lines located.

use crate::common::{skyplan, temp_file};

#[test]
fn forecasts_alibaba_container_usage_with_markers_left_out() {
    // Two containers, 300 ten-second samples each; every 7th CPU value is
    // the trace's −1 marker and every 11th memory value 101: left out, not
    // filled in.
    let mut text = String::new();
    for c in ["c_1", "c_2"] {
        for i in 0..300u32 {
            let cpu = if i % 7 == 3 {
                "-1".to_owned()
            } else {
                format!("{}", 20 + (i * 13 + u32::from(c == "c_2") * 5) % 17)
            };
            let mem = if i % 11 == 5 {
                "101".to_owned()
            } else {
                format!("{}", 40 + (i * 7) % 9)
            };
            text.push_str(&format!("{c},m_1,{},{cpu},{mem},,,,,,\n", i * 10));
        }
    }
    let file = temp_file("container_usage.csv", &text);
    let (code, out, err) = skyplan(&[
        "forecast",
        &file,
        "--alibaba-usage",
        "--method",
        "naive",
        "--horizon",
        "3",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let text = v.to_string();
    for name in ["c_1", "c_2"] {
        assert!(text.contains(name), "{name} forecast: {text}");
    }
    // Without the flag the headerless file is not a format `import` reads.
    let (code, _, err) = skyplan(&["forecast", &file]);
    assert_eq!(code, 1, "{err}");
    // A line with the wrong number of fields is located.
    let bad = temp_file("bad_usage.csv", "c_1,m_1,0,20,40,,,,,,\nc_1,m_1,10,20\n");
    let (code, _, err) = skyplan(&["forecast", &bad, "--alibaba-usage"]);
    assert_eq!(code, 1);
    assert!(err.contains("bad_usage.csv:2:"), "{err}");
}
