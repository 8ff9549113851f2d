//! The report's style sheet, inline: screen and print. The page margins
//! fit both A4 (210 × 297 mm) and US Letter (216 × 279 mm): `@page` names
//! no size, so the printer's paper is used, and the content is at most
//! 190 mm wide (A4's width less 10 mm a side) and flows in height; tables,
//! charts and a section's key figures are not split across pages.

/// The `<style>` element's content.
pub const CSS: &str = r#"
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif;
  color: #1a1a1a; background: #fff; margin: 0 auto; max-width: 190mm; padding: 12mm 8mm;
  font-size: 10.5pt; line-height: 1.4; }
header h1 { font-size: 20pt; margin: 0 0 2mm; }
header p { margin: 0; color: #555; }
nav ol { columns: 2; padding-left: 5mm; margin: 4mm 0; }
nav a { color: inherit; }
section { border-top: 1.5pt solid #1f5fa8; margin-top: 8mm; padding-top: 2mm; }
h2 { font-size: 14pt; margin: 1mm 0 2mm; color: #1f5fa8; }
h3 { font-size: 11.5pt; margin: 4mm 0 1.5mm; }
table { border-collapse: collapse; width: 100%; margin: 2mm 0 3mm; font-size: 9pt; }
caption { text-align: left; font-weight: 600; padding-bottom: 1mm; }
th, td { border-bottom: 0.5pt solid #ccc; padding: 0.8mm 1.5mm; text-align: left; vertical-align: top;
  overflow-wrap: break-word; }
td { max-width: 60mm; }
th { background: #eef2f7; }
.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
figure { margin: 2mm 0 3mm; }
.small-charts { display: grid; grid-template-columns: 1fr 1fr; gap: 2mm 6mm; }
.small-charts figure { margin: 0; }
figcaption { font-size: 8.5pt; color: #555; }
svg.chart { width: 100%; height: auto; display: block; }
svg .grid { stroke: #e3e3e3; stroke-width: 0.6; }
svg .axis { stroke: #888; stroke-width: 0.8; }
svg .reference { stroke: #c0392b; stroke-width: 1; stroke-dasharray: 4 3; }
svg .series { fill: none; stroke-width: 1.6; }
svg text { font-family: system-ui, Helvetica, Arial, sans-serif; fill: #333; }
svg .tick { font-size: 9px; }
svg .legend { font-size: 9.5px; }
svg .title { font-size: 10px; fill: #555; }
.figures { display: flex; flex-wrap: wrap; gap: 3mm 8mm; margin: 2mm 0 3mm; }
.figure { display: flex; flex-direction: column; }
.figure .value { font-size: 15pt; font-weight: 600; }
.figure .label { font-size: 8.5pt; color: #555; }
.settings { background: #f6f6f3; border-left: 2pt solid #bbb; padding: 1.5mm 3mm; margin: 2mm 0 3mm;
  font-size: 8.5pt; }
.settings-title { font-weight: 600; display: block; margin-bottom: 0.5mm; }
.settings dl { display: grid; grid-template-columns: max-content 1fr; gap: 0 4mm; margin: 0; }
.settings dt { color: #555; }
.settings dd { margin: 0; overflow-wrap: anywhere; }
.absent { color: #555; font-style: italic; }
.problem { color: #a52a1a; }
.verdict { font-weight: 600; }
.note { color: #555; font-size: 9pt; }
footer { margin-top: 10mm; font-size: 8.5pt; color: #777; }
@page { margin: 12mm 10mm; }
@media print {
  body { max-width: none; padding: 0; font-size: 9.5pt; }
  table { font-size: 8.5pt; }
  nav { display: none; }
  section { break-before: auto; }
  h2, h3 { break-after: avoid; }
  table, figure, .figures, .settings, .keep { break-inside: avoid; }
  .small-charts { display: block; }
  .small-charts figure { display: inline-block; width: 48%; vertical-align: top; margin-right: 1%; }
  tr { break-inside: avoid; }
  thead { display: table-header-group; }
  a { text-decoration: none; }
}
"#;
