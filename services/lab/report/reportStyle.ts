/** The report's stylesheet, inlined in the page: light and dark, one column on a phone. */
export const REPORT_STYLE = `
:root { color-scheme: light dark; --ink: #1d1d26; --paper: #fbfaf7; --bar: #6c5ce7; --interval: #1d1d26; --fair: #d63031; --muted: #5f5f6e; --card: #ffffff; --line: #dcdce4; }
@media (prefers-color-scheme: dark) { :root { --ink: #ececf1; --paper: #17171d; --bar: #a29bfe; --interval: #ececf1; --fair: #ff7675; --muted: #a5a5b4; --card: #202029; --line: #3a3a46; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.45 system-ui, sans-serif; color: var(--ink); background: var(--paper); }
header, main { max-width: 860px; margin: 0 auto; padding: 0 12px; }
h1 { font-size: 1.5rem; margin: 16px 0 4px; }
h2 { font-size: 1.2rem; margin: 8px 0; }
h3 { font-size: 1rem; margin: 16px 0 4px; }
.options { font-weight: normal; color: var(--muted); font-size: 0.9em; }
.meta, .note, .ci { color: var(--muted); }
.note, .test { font-size: 0.9rem; margin: 4px 0; }
.section, .comparison { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 12px; margin: 12px 0; }
.plot { display: block; max-width: 560px; height: auto; font-size: 11px; fill: var(--ink); }
.plot .bar { fill: var(--bar); }
.plot .interval { stroke: var(--interval); stroke-width: 1.5; }
.plot .fair { stroke: var(--fair); stroke-dasharray: 3 2; stroke-width: 1.5; }
.plot .axis, .plot .zero { stroke: var(--muted); stroke-width: 1; }
.plot .point { fill: var(--ink); }
.plot .clear .point { fill: var(--fair); }
.table { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
th, td { text-align: left; padding: 4px 6px; border-bottom: 1px solid var(--line); vertical-align: top; }
th[scope="row"] { font-weight: 600; width: 45%; }
code { overflow-wrap: anywhere; }
`;
