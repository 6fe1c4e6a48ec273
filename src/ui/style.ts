// The dashboard's stylesheet: system fonts, light and dark following the system, readable from
// 390 px (a phone) to wide screens. Served from the package at /_sandbox/ui/assets/ui.css.
export const CSS = `
:root { color-scheme: light dark; --bg: #f6f7f9; --fg: #1b1f24; --muted: #5c6670; --card: #fff; --line: #dfe3e8;
  --accent: #0a66c2; --ok: #1a7f37; --ok-bg: #dcf5e3; --warn: #9a6700; --warn-bg: #fff4d0; --bad: #c62828; --bad-bg: #fde3e3;
  --info: #3b5bdb; --info-bg: #e3e9ff; --code-bg: #eef1f4; --on-accent: #fff; }
@media (prefers-color-scheme: dark) { :root { --bg: #0f1216; --fg: #e6e9ed; --muted: #9aa4ae; --card: #171b21; --line: #2b323b;
  --accent: #6cb2ff; --ok: #6fdc8c; --ok-bg: #143d22; --warn: #f0c450; --warn-bg: #3d3110; --bad: #ff8a80; --bad-bg: #4a1c1c;
  --info: #9db2ff; --info-bg: #1d2750; --code-bg: #222831; --on-accent: #0f1216; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; background: var(--bg); color: var(--fg); }
a { color: var(--accent); }
code, .mono, textarea.code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 13px; }
header { display: flex; align-items: center; gap: 8px 12px; padding: 10px 20px; background: var(--card); border-bottom: 1px solid var(--line); }
header .brand { font-weight: 700; text-decoration: none; color: var(--fg); white-space: nowrap; }
header nav { display: flex; gap: 2px; flex: 1 1 0; min-width: 0; }
header nav a { padding: 4px 8px; border-radius: 6px; text-decoration: none; color: var(--fg); white-space: nowrap; }
header nav a[aria-current=page] { background: var(--code-bg); font-weight: 600; }
header .who { display: flex; align-items: center; gap: 8px; color: var(--muted); font-size: 13px; white-space: nowrap; min-width: 0; }
header .who .name { overflow: hidden; text-overflow: ellipsis; max-width: 16em; }
main { max-width: 1240px; margin: 0 auto; padding: 16px 20px 40px; }
h1 { font-size: 22px; margin: 8px 0 16px; overflow-wrap: anywhere; } h2 { font-size: 17px; margin: 0 0 12px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 16px; margin-bottom: 16px; min-width: 0; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(340px, 1fr)); gap: 16px; margin-bottom: 16px; }
.grid > .card { margin-bottom: 0; }
.stack > * + * { margin-top: 12px; }
form.stack { display: flex; flex-direction: column; align-items: flex-start; gap: 8px; } form.stack > * + * { margin-top: 0; } form.stack label { width: 100%; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 7px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: 12px; text-transform: uppercase; letter-spacing: .03em; color: var(--muted); font-weight: 600; }
td.num, th.num { text-align: right; white-space: nowrap; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 6px 16px; margin: 0; }
dl.facts dt { color: var(--muted); } dl.facts dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 999px; font-size: 12px; font-weight: 600; border: 1px solid currentColor; white-space: nowrap; }
.badge.ok { color: var(--ok); background: var(--ok-bg); } .badge.warn { color: var(--warn); background: var(--warn-bg); }
.badge.bad { color: var(--bad); background: var(--bad-bg); } .badge.info { color: var(--info); background: var(--info-bg); }
.badge.muted { color: var(--muted); }
.id { display: inline-flex; flex-wrap: wrap; align-items: center; gap: 4px; max-width: 100%; }
code.wrap { overflow-wrap: anywhere; }
@media (min-width: 701px) { table.events td.data { width: 55%; } }
.id code { white-space: nowrap; }
dl.facts .id code, .flash .id code { white-space: normal; overflow-wrap: anywhere; }
button, .button { font: inherit; font-size: 14px; padding: 6px 12px; border-radius: 6px; border: 1px solid var(--line); background: var(--card); color: var(--fg); cursor: pointer; text-decoration: none; display: inline-block; }
button.primary { background: var(--accent); border-color: var(--accent); color: var(--on-accent); font-weight: 600; }
button.danger { color: var(--bad); border-color: var(--bad); }
button.copy { font-size: 12px; padding: 1px 6px; white-space: nowrap; flex: none; }
input, select, textarea { font: inherit; font-size: 14px; padding: 6px 8px; border-radius: 6px; border: 1px solid var(--line); background: var(--bg); color: var(--fg); max-width: 100%; }
textarea.code { width: 100%; min-height: 84px; resize: vertical; overflow-wrap: anywhere; }
form.inline { display: inline-flex; flex-wrap: wrap; gap: 6px; align-items: center; margin: 0; }
form.fields { display: grid; grid-template-columns: repeat(6, minmax(0, 1fr)); gap: 10px 12px; align-items: end; margin: 0; }
form.fields > label > input:not([type=checkbox]), form.fields > label > select, form.fields > label > textarea { width: 100%; }
form.fields > button { justify-self: start; }
form.fields .c2 { grid-column: span 2; } form.fields .c3 { grid-column: span 3; } form.fields .c4 { grid-column: span 4; } form.fields .all { grid-column: 1 / -1; }
form.fields.two { grid-template-columns: repeat(2, minmax(0, 1fr)); } form.fields.two :is(.c2, .c3, .c4) { grid-column: 1 / -1; }
fieldset.fields { display: grid; gap: 10px 12px; align-items: end; } fieldset.chaos { grid-template-columns: repeat(4, minmax(0, 1fr)); } fieldset.chaos > .check, fieldset.chaos > .row { grid-column: 1 / -1; }
fieldset.fields > label > input:not([type=checkbox]) { width: 100%; }
label.check { flex-direction: row; align-items: center; gap: 6px; color: var(--fg); }
fieldset { border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px 12px; margin: 0; min-width: 0; }
legend { font-size: 13px; color: var(--muted); padding: 0 4px; }
.actions { margin: 14px 0 18px; }
.card > h2:not(:first-child), .card .stack > h2 { margin-top: 20px; }
.apart { margin-top: 16px; padding-top: 12px; border-top: 1px solid var(--line); }
div.inline { display: inline-flex; flex-wrap: wrap; gap: 6px; align-items: end; }
.row { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
label { display: inline-flex; flex-direction: column; gap: 2px; font-size: 13px; color: var(--muted); }
.flash { padding: 10px 14px; border-radius: 8px; margin-bottom: 16px; border: 1px solid; }
.flash.ok { color: var(--ok); background: var(--ok-bg); } .flash.error { color: var(--bad); background: var(--bad-bg); }
.flash p { margin: 0; color: var(--fg); } .flash .id { margin-top: 6px; }
.empty { color: var(--muted); } .empty pre { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--code-bg); padding: 8px; border-radius: 6px; color: var(--fg); }
.muted { color: var(--muted); }
.qr { background: #fff; padding: 8px; border-radius: 8px; width: 264px; max-width: 100%; }
.qr svg { display: block; width: 100%; height: auto; }
.charge-top { display: grid; grid-template-columns: 280px 1fr; gap: 20px; }
ol.timeline { list-style: none; margin: 0; padding: 0; border-left: 2px solid var(--line); }
ol.timeline li { padding: 2px 0 10px 14px; position: relative; }
ol.timeline li::before { content: ""; position: absolute; left: -6px; top: 8px; width: 10px; height: 10px; border-radius: 50%; background: var(--accent); }
pre.body { background: var(--code-bg); padding: 8px; border-radius: 6px; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 360px; margin: 0; }
@media (min-width: 701px) { td.attempts { min-width: 240px; } } td.attempts summary { cursor: pointer; }
pre.body.headers { margin: 4px 0 6px; font-size: 12px; }
tr.fresh { animation: fresh 2s ease-out; }
@keyframes fresh { from { background: var(--info-bg); } to { background: transparent; } }
.signin { max-width: 420px; margin: 48px auto; }
.signin form { display: flex; flex-direction: column; gap: 10px; } .signin label { color: var(--fg); }
.signin input { width: 100%; }
.pager { display: flex; gap: 8px; margin-top: 12px; }
.flash ul.lines { margin: 6px 0 0; padding-left: 18px; color: var(--fg); } .flash ul.lines li { overflow-wrap: anywhere; }
.coverage .big { font-size: 20px; margin: 0 0 8px; }
progress.coverage-bar { width: 100%; height: 12px; appearance: none; border: none; border-radius: 6px; background: var(--code-bg); overflow: hidden; }
progress.coverage-bar::-webkit-progress-bar { background: var(--code-bg); border-radius: 6px; }
progress.coverage-bar::-webkit-progress-value { background: var(--ok); border-radius: 6px; }
progress.coverage-bar::-moz-progress-bar { background: var(--ok); border-radius: 6px; }
ul.findings { list-style: none; margin: 0; padding: 0; } ul.findings > li + li { margin-top: 14px; padding-top: 14px; border-top: 1px solid var(--line); }
ul.findings p { margin: 6px 0 0; overflow-wrap: anywhere; } ul.findings .advice { color: var(--fg); } ul.findings .seen { color: var(--muted); }
h3 { font-size: 14px; margin: 16px 0 6px; } .card > h3:first-of-type { margin-top: 4px; }
table.checklist td.how { overflow-wrap: anywhere; font-size: 13px; } @media (min-width: 701px) { table.checklist td.how { width: 48%; } }
@media (max-width: 700px) {
  header { flex-wrap: wrap; padding: 8px 12px; } main { padding: 12px; }
  header { gap: 6px 8px; } header .who { margin-left: auto; gap: 6px; font-size: 12px; } header .who .name { max-width: 7em; } header .who .label { display: none; }
  header .who button { padding: 4px 8px; font-size: 13px; }
  header nav { order: 3; flex: 1 1 100%; display: grid; grid-template-columns: repeat(4, minmax(0, 1fr)); gap: 2px; }
  header nav a { padding: 4px 2px; text-align: center; font-size: 14px; }
  form.fields, fieldset.chaos { grid-template-columns: repeat(2, minmax(0, 1fr)); }
  form.fields .c2, form.fields .c3, form.fields .c4, form.fields > button { grid-column: 1 / -1; }
  .charge-top { grid-template-columns: 1fr; }
  .grid { grid-template-columns: 1fr; }
  .hide-narrow { display: none; }
  .id code { white-space: normal; word-break: break-all; }
  table.stacked thead { display: none; }
  table.stacked tr { display: block; padding: 6px 0; border-bottom: 1px solid var(--line); }
  table.stacked td { display: grid; grid-template-columns: 96px 1fr; gap: 8px; border: none; padding: 2px 0; text-align: left; }
  table.stacked td::before { content: attr(data-label); color: var(--muted); font-size: 13px; }
  table.stacked td:has(> div:empty) { display: none; }
  th, td { padding: 6px 4px; }
}
`
