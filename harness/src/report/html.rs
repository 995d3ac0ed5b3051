//! The HTML report: one self-contained page (inline style and a small inline script, no
//! network, no other file) that works from `file://` and as a CI artifact, under a strict
//! Content-Security-Policy whose hashes of the inline style and script are computed when the
//! page is made. Every text from outside (names, versions, messages, vector ids and comments,
//! answers) goes through [`escape::html`](super::escape::html); the script only shows and hides
//! rows, it never turns text into markup.
//!
//! The run page shows the verdict, the counts per state (also as `data-count-<state>`
//! attributes, which the browser check compares with the JSON report), a table of every test
//! that filters by operation and state, and for each failure its input, expected and actual
//! answers, a hex diff of every byte string that differs, a bit picture of every filter it
//! involves and the diagnosis. [`page`], [`state_badge`] and the other helpers are shared with
//! the matrix's and the findings' pages of the command line.

use super::escape::html as esc;
use super::{details, expected_failures, notices, verdict_text};
use crate::implementation::Answer;
use crate::runner::select::source_kind;
use crate::runner::{Run, State, TestResult};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Values longer than this are cut in the HTML report's text (the hex diff shows bytes whole).
const VALUE_LIMIT: usize = 4000;

/// The failures shown open; the others are closed until their summary is opened (a run with
/// hundreds of failures opens fast).
const OPEN_FAILURES: usize = 20;

/// Rows of 16 bytes a hex diff shows at most; the rest are summarised.
const HEX_ROWS: usize = 200;

/// The page's style, hashed into its Content-Security-Policy.
pub const STYLE: &str = r#"
:root{--pass:#1b7f3b;--fail:#b3261e;--neutral:#7a5b00;--grey:#555}
body{font:14px/1.45 system-ui,sans-serif;margin:1.5em;color:#111;background:#fff;max-width:1400px}
h1{font-size:1.4em;margin:.2em 0}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ccc}
code,pre,.hex{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}
pre{white-space:pre-wrap;word-break:break-all;background:#f5f5f5;padding:.4em;margin:.2em 0;max-height:24em;overflow:auto}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:.1em 1em}dl.meta dt{font-weight:600}dl.meta dd{margin:0}
.verdict{font-size:1.1em;font-weight:600;padding:.4em .6em;border-left:6px solid var(--grey)}
.v-conformant{border-color:var(--pass)}.v-failures,.v-breakdown{border-color:var(--fail)}.v-nothingExercised{border-color:var(--neutral)}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.15em .4em;text-align:left;vertical-align:top}
th{background:#eee}td.n{text-align:right}
.st{white-space:nowrap;font-weight:600}
.s-pass{color:var(--pass)}.s-notClaimed,.s-expectedFailure{color:var(--neutral)}.s-unsupported{color:#6a3d9a}
.s-wrongValue,.s-rejectedValid,.s-acceptedInvalid,.s-protocolError,.s-unexpectedPass{color:var(--fail)}
.s-crash,.s-timeout,.s-notRun{color:#fff;background:var(--fail);padding:0 .2em}
td.c-pass{background:#d9f2df}td.c-notClaimed{background:#f4f4f4}td.c-expectedFailure{background:#fff1c2}td.c-unsupported{background:#eadcf5}
td.c-wrongValue,td.c-rejectedValid,td.c-acceptedInvalid,td.c-protocolError,td.c-unexpectedPass{background:#f9d3d0}
td.c-crash,td.c-timeout,td.c-notRun{background:#e8a19b}
details.failure{border:1px solid #ccc;margin:.6em 0;padding:.3em .6em}details.failure>summary{cursor:pointer;font-weight:600}
summary:focus-visible,a:focus-visible,select:focus-visible,button:focus-visible{outline:3px solid #1a6cff;outline-offset:2px}
.seq code{word-break:break-all}.seq td{max-width:30em}
.hexdiff td{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;white-space:pre}
mark{background:#ffd54a;color:#000;font-weight:700;text-decoration:underline}
.pics{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start}figure{margin:0}figcaption{font-weight:600}
svg.bits{border:1px solid #888;display:block}
.controls{display:flex;gap:1em;flex-wrap:wrap;align-items:center;margin:.6em 0}
.legend{font-size:12px;color:#333}
.matrix td{padding:0 .3em;text-align:center}.matrix td.id{text-align:left;font-family:ui-monospace,monospace;font-size:12px}
.matrix td[tabindex]:focus{outline:2px solid #000;outline-offset:-2px}
#cell-detail{min-height:1.4em;font-size:13px}
.matrix th.col{writing-mode:vertical-rl;transform:rotate(180deg);font-size:12px;white-space:nowrap}
.skip{position:absolute;left:-999px}.skip:focus{left:1em;top:1em;background:#fff;padding:.3em}
@media print{.controls,.skip{display:none}body{margin:0;max-width:none}pre{max-height:none}details.failure{break-inside:avoid}}
"#;

/// The page's script, hashed into its Content-Security-Policy: the filters (each
/// `select[data-filter=K]` keeps the `[data-row]` elements whose `data-K` lists its value), the
/// count that follows them (`#shown`, also `data-shown`), filters set from the address
/// (`page.html#filter:state=crash&op=buildFilter`, so a filtered view can be linked and
/// checked), a matrix cell's title shown in `#cell-detail` when the keyboard focuses it,
/// every `details` opened to print, and the milliseconds from navigation to the
/// script's end and to the load event (`data-ready-ms`, `data-load-ms` on `body`). It reads and sets
/// attributes and `textContent` only.
pub const SCRIPT: &str = r#"
(function(){
var sel=[].slice.call(document.querySelectorAll('select[data-filter]'));
var rows=[].slice.call(document.querySelectorAll('[data-row]'));
var shown=document.getElementById('shown');
function apply(){
 var n=0;
 rows.forEach(function(r){
  var ok=sel.every(function(s){
   if(s.value==='')return true;
   var have=' '+(r.getAttribute('data-'+s.getAttribute('data-filter'))||'')+' ';
   return have.indexOf(' '+s.value+' ')>=0;
  });
  r.hidden=!ok;if(ok)n++;
 });
 if(shown){shown.textContent=String(n);shown.setAttribute('data-shown',String(n));}
}
var h=decodeURIComponent(location.hash||'');
if(h.indexOf('#filter:')===0){h.slice(8).split('&').forEach(function(kv){
 var p=kv.split('=');sel.forEach(function(s){
  if(s.getAttribute('data-filter')===p[0]&&[].some.call(s.options,function(o){return o.value===p[1];}))s.value=p[1];
 });
});}
sel.forEach(function(s){s.addEventListener('change',apply);});
var detail=document.getElementById('cell-detail');
if(detail)document.addEventListener('focusin',function(e){
 var t=e.target;if(t&&t.tagName==='TD'&&t.hasAttribute('title'))detail.textContent=t.getAttribute('title');
});
apply();
window.addEventListener('beforeprint',function(){
 [].slice.call(document.querySelectorAll('details')).forEach(function(d){d.open=true;});
});
document.body.setAttribute('data-script','ran');
document.body.setAttribute('data-ready-ms',String(Math.round(performance.now())));
window.addEventListener('load',function(){
 document.body.setAttribute('data-load-ms',String(Math.round(performance.now())));
});
})();
"#;

/// A whole page: `title` (escaped here) and `body` (markup the caller escaped), with the style,
/// the script and the Content-Security-Policy that allows those two and nothing else.
pub fn page(title: &str, body: &str) -> String {
    let csp = format!(
        "default-src 'none'; style-src '{}'; script-src '{}'; img-src 'none'; base-uri 'none'; \
         form-action 'none'",
        csp_hash(STYLE),
        csp_hash(SCRIPT)
    );
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{csp}\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <a class=\"skip\" href=\"#main\">Skip to the content</a>\n<main id=\"main\">\n{body}\n\
         </main>\n<script>{SCRIPT}</script>\n</body>\n</html>\n",
        esc(title)
    )
}

/// The CSP source of an inline element's text: `sha256-<base64 of its SHA-256>`.
pub fn csp_hash(text: &str) -> String {
    format!(
        "sha256-{}",
        base64(&bip37_reference::sha256::sha256(text.as_bytes()))
    )
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The symbol shown with a state, so that a state reads without colour.
pub fn state_symbol(state: &str) -> &'static str {
    match state {
        "pass" => "✓",
        "wrongValue" | "rejectedValid" | "acceptedInvalid" => "✗",
        "unsupported" => "?",
        "notClaimed" => "–",
        "protocolError" | "unexpectedPass" => "!",
        "crash" => "‼",
        "timeout" => "⋯",
        "expectedFailure" => "≈",
        "notRun" => "∅",
        _ => "•",
    }
}

/// A state as a badge: its symbol and name, in its colour.
pub fn state_badge(state: &str) -> String {
    format!(
        "<span class=\"st s-{0}\">{1} {0}</span>",
        esc(state),
        state_symbol(state)
    )
}

/// A legend of the symbols of `states`.
pub fn legend(states: &[&str]) -> String {
    let items: Vec<String> = states.iter().map(|s| state_badge(s)).collect();
    format!("<p class=\"legend\">States: {}</p>", items.join(" · "))
}

/// A `<select>` filtering rows on `key` among `values` (escaped), labelled `label`.
pub fn filter_select(key: &str, label: &str, values: &[String]) -> String {
    let mut out = format!(
        "<label>{} <select data-filter=\"{}\"><option value=\"\">all</option>",
        esc(label),
        esc(key)
    );
    for v in values {
        let _ = write!(out, "<option value=\"{0}\">{0}</option>", esc(v));
    }
    out.push_str("</select></label>");
    out
}

/// The bug class a diagnosis names first (`likely SeedNotWrapped (...)` gives
/// `SeedNotWrapped`), `adapter-fault`, `bad-vector`, or `unexplained`.
pub fn bug_class(diagnosis: &str) -> String {
    let d = diagnosis.trim();
    if d.starts_with("adapter fault") {
        return "adapter-fault".into();
    }
    if d.starts_with("bad vector") {
        return "bad-vector".into();
    }
    for hedge in ["likely ", "possibly ", "probably "] {
        if let Some(rest) = d.strip_prefix(hedge) {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
                .collect();
            if !name.is_empty() {
                return name;
            }
        }
    }
    "unexplained".into()
}

/// The date and time now, in UTC (`2026-12-08 00:10 UTC`).
pub fn now_utc() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default();
    let days = (secs / 86_400) as i64;
    let (h, m) = ((secs % 86_400) / 3600, (secs % 3600) / 60);
    // Howard Hinnant's days-to-civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let mo = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(mo <= 2);
    format!("{y:04}-{mo:02}-{d:02} {h:02}:{m:02} UTC")
}

/// The implementation's name and version from the name a run gives (`template-python 0.1.0`):
/// the last word is the version when it holds a digit.
pub fn name_and_version(implementation: &str) -> (String, String) {
    match implementation.trim().rsplit_once(' ') {
        Some((name, version)) if version.chars().any(|c| c.is_ascii_digit()) => {
            (name.to_string(), version.to_string())
        }
        _ => (implementation.to_string(), "not given".to_string()),
    }
}

/// Renders `run` as one HTML page.
pub fn render(run: &Run) -> String {
    let mut body = String::new();
    let (name, version) = name_and_version(&run.implementation);
    let conformance = super::conformance_name(run.conformance());
    let _ = write!(
        body,
        "<header>\n<h1>bip37-conform report: {}</h1>\n\
         <p class=\"verdict v-{conformance}\" id=\"verdict\" data-conformance=\"{conformance}\">\
         Verdict: {}</p>\n<dl class=\"meta\">\
         <dt>Implementation</dt><dd id=\"implementation\">{}</dd>\
         <dt>Version</dt><dd>{}</dd>\
         <dt>Vectors</dt><dd>{}</dd>\
         <dt>Date</dt><dd>{}</dd>\
         <dt>Tool</dt><dd>bip37-conform {}</dd>\
         <dt>Tests</dt><dd>{} in {:.3} s</dd>\
         <dt>Claimed operations</dt><dd>{}</dd></dl>\n</header>\n",
        esc(&run.implementation),
        esc(&verdict_text(run)),
        esc(&name),
        esc(&version),
        vectors_source(run),
        now_utc(),
        env!("CARGO_PKG_VERSION"),
        run.results.len(),
        run.elapsed.as_secs_f64(),
        esc(&run
            .claimed
            .iter()
            .map(|o| o.as_str())
            .collect::<Vec<_>>()
            .join(", "))
    );
    body.push_str(&summary(run));
    if let Some(why) = &run.aborted {
        let _ = writeln!(
            body,
            "<p><strong>The run stopped early:</strong> {}</p>",
            esc(why)
        );
    }
    for notice in notices(run) {
        let _ = writeln!(body, "<p class=\"notice\">{}</p>", esc(&notice));
    }
    let tolerated = expected_failures(run);
    if !tolerated.is_empty() {
        let _ = writeln!(
            body,
            "<h2>Expected failures ({}, listed in the expectations file)</h2><ul>",
            tolerated.len()
        );
        for (id, why) in tolerated {
            let _ = writeln!(body, "<li><code>{}</code>: {}</li>", esc(id), esc(why));
        }
        body.push_str("</ul>\n");
    }
    let failures: Vec<(usize, &TestResult)> = (run.results.iter().enumerate())
        .filter(|(_, r)| r.state.is_failure())
        .collect();
    let _ = writeln!(
        body,
        "<h2 id=\"failures\">Failures ({})</h2>",
        failures.len()
    );
    if failures.is_empty() {
        body.push_str("<p>None.</p>\n");
    }
    let mut pictures = 0;
    if failures.len() > OPEN_FAILURES {
        let _ = writeln!(
            body,
            "<p>The first {OPEN_FAILURES} are open; open the others with their summary line \
             (all open when printed).</p>"
        );
    }
    for (n, (i, r)) in failures.iter().enumerate() {
        body.push_str(&failure(*i, r, n < OPEN_FAILURES, &mut pictures));
    }
    body.push_str(&sizing_section(run));
    body.push_str(&tests_table(run));
    page(&format!("bip37-conform: {}", run.implementation), &body)
}

/// The vectors' files and sources, and the Core commits they were taken at.
fn vectors_source(run: &Run) -> String {
    let mut files: BTreeMap<&str, usize> = BTreeMap::new();
    let mut sources: BTreeMap<&str, usize> = BTreeMap::new();
    let mut commits: BTreeMap<String, usize> = BTreeMap::new();
    for r in &run.results {
        *files.entry(r.test.file.as_str()).or_default() += 1;
        *sources
            .entry(source_kind(&r.test.group.source))
            .or_default() += 1;
        if let crate::vectors::model::Source::Core { commit, .. } = &r.test.group.source {
            *commits
                .entry(commit.chars().take(12).collect())
                .or_default() += 1;
        }
    }
    let list = |m: &BTreeMap<&str, usize>| {
        m.iter()
            .map(|(k, n)| format!("{} ({n})", esc(k)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let commits: Vec<String> = commits.keys().map(|c| esc(c)).collect();
    format!(
        "{} tests from {} files: {}; sources: {}{}",
        run.results.len(),
        files.len(),
        list(&files),
        list(&sources),
        match commits.is_empty() {
            true => String::new(),
            false => format!("; Bitcoin Core at {}", commits.join(", ")),
        }
    )
}

/// The counts per state, every state listed (zero included), as a table and as
/// `data-count-<state>` attributes on `#summary`.
fn summary(run: &Run) -> String {
    let counts = run.counts();
    let mut attrs = format!("data-count-total=\"{}\"", run.results.len());
    let mut rows = String::new();
    for state in State::ALL {
        let n = counts.get(state).copied().unwrap_or(0);
        let _ = write!(attrs, " data-count-{}=\"{n}\"", state.as_str());
        let _ = write!(
            rows,
            "<tr><td>{}</td><td class=\"n\" data-state=\"{}\">{n}</td></tr>",
            state_badge(state.as_str()),
            state.as_str()
        );
    }
    format!(
        "<section id=\"summary\" {attrs}>\n<h2>Counts</h2>\n<table><tr><th>state</th>\
         <th>tests</th></tr>{rows}<tr><th>total</th><th class=\"n\">{}</th></tr></table>\n\
         </section>\n",
        run.results.len()
    )
}

/// Every test in a table that filters by operation and state.
fn tests_table(run: &Run) -> String {
    let mut ops: Vec<String> = run
        .results
        .iter()
        .map(|r| r.test.request.op().as_str().to_string())
        .collect();
    ops.sort();
    ops.dedup();
    let states: Vec<String> = State::ALL
        .iter()
        .filter(|s| run.results.iter().any(|r| r.state == **s))
        .map(|s| s.as_str().to_string())
        .collect();
    let mut out = format!(
        "<h2 id=\"tests\">Every test</h2>\n<div class=\"controls\">{}{}<span>shown: \
         <strong id=\"shown\" data-shown=\"{n}\">{n}</strong> of {n}</span></div>\n{}\n\
         <table><thead><tr><th>test</th><th>operation</th><th>state</th><th>why</th></tr></thead><tbody>\n",
        filter_select("op", "Operation", &ops),
        filter_select("state", "State", &states),
        legend(&states.iter().map(String::as_str).collect::<Vec<_>>()),
        n = run.results.len()
    );
    for (i, r) in run.results.iter().enumerate() {
        let id = match r.state.is_failure() {
            true => format!("<a href=\"#f{i}\">{}</a>", esc(&r.test.case.id)),
            false => esc(&r.test.case.id),
        };
        let why: String = r.message.chars().take(200).collect();
        let _ = writeln!(
            out,
            "<tr data-row data-op=\"{op}\" data-state=\"{state}\"><td><code>{id}</code></td>\
             <td>{op}</td><td>{}</td><td>{}</td></tr>",
            state_badge(r.state.as_str()),
            esc(&why),
            op = esc(r.test.request.op().as_str()),
            state = r.state.as_str(),
        );
    }
    out.push_str("</tbody></table>\n");
    out
}

/// One failure: its details, hex diffs, filter pictures and how to reproduce it.
fn failure(index: usize, r: &TestResult, open: bool, pictures: &mut usize) -> String {
    let test = &r.test;
    let mut out = format!(
        "<details class=\"failure\" id=\"f{index}\" data-state=\"{}\"{}>\n<summary>{} \
         <code>{}</code> ({})</summary>\n<dl class=\"meta\">",
        r.state.as_str(),
        if open { " open" } else { "" },
        state_badge(r.state.as_str()),
        esc(&test.case.id),
        esc(test.request.op().as_str())
    );
    for (label, value) in details(r, Some(VALUE_LIMIT)) {
        let shown = match label {
            "diagnosis" => hedged(&value),
            // stderr's lines one under the other, each escaped (a newline inside a line of
            // any other value is shown as `\n`).
            "stderr" => format!(
                "<pre>{}</pre>",
                value.split('\n').map(esc).collect::<Vec<_>>().join("\n")
            ),
            "input" | "expected" | "actual" => format!("<pre>{}</pre>", esc(&value)),
            _ => esc(&value),
        };
        let _ = write!(out, "<dt>{}</dt><dd>{shown}</dd>", esc(label));
    }
    out.push_str("</dl>\n");
    let expected = test.expected.as_ref().map(|e| e.to_json());
    let actual = match &r.answer {
        Answer::Ok(output) => Some(output.to_json()),
        _ => None,
    };
    if let (Some(e), Some(a)) = (&expected, &actual) {
        let mut e_hex = Vec::new();
        let mut a_hex = Vec::new();
        hex_fields(e, String::new(), &mut e_hex);
        hex_fields(a, String::new(), &mut a_hex);
        let a_hex: BTreeMap<String, Vec<u8>> = a_hex.into_iter().collect();
        for (path, e_bytes) in &e_hex {
            if let Some(a_bytes) = a_hex.get(path).filter(|a| *a != e_bytes) {
                out.push_str(&hex_diff(path, e_bytes, a_bytes));
            }
        }
    }
    let input = test.request.input_json();
    if test.request.op().as_str() == "sequence" {
        out.push_str(&sequence_table(&input, expected.as_ref(), actual.as_ref()));
    }
    let e_filters = expected
        .as_ref()
        .map(|e| filters(e, &input))
        .unwrap_or_default();
    let a_filters: BTreeMap<String, Filter> = actual
        .as_ref()
        .map(|a| filters(a, &input))
        .unwrap_or_default()
        .into_iter()
        .collect();
    let elements: Vec<Vec<u8>> = input
        .get("insert")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().and_then(unhex))
                .collect()
        })
        .unwrap_or_default();
    for (path, e) in &e_filters {
        out.push_str(&filter_pictures(
            path,
            e,
            a_filters.get(path),
            &elements,
            pictures,
        ));
    }
    let _ = write!(
        out,
        "<p><strong>Reproduce</strong> (with your adapter's command):</p><pre><code>{}</code></pre>\n\
         </details>\n",
        esc(&format!(
            "bip37-conform run --impl 'YOUR ADAPTER COMMAND' --id {}",
            shell_quote(&test.case.id)
        ))
    );
    out
}

/// `value` as compact JSON, cut to `max` characters.
fn short_json(value: Option<&Value>, max: usize) -> String {
    let Some(value) = value else {
        return "—".into();
    };
    let text = value.to_string();
    match text.chars().count() > max {
        true => format!("{}…", text.chars().take(max).collect::<String>()),
        false => text,
    }
}

/// A sequence (a node check, a session of messages): each message sent in order beside what
/// Core does and what the implementation did, the steps that disagree marked.
fn sequence_table(input: &Value, expected: Option<&Value>, actual: Option<&Value>) -> String {
    let list = |v: Option<&Value>, key: &str| {
        v.and_then(|v| v.get(key))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let steps = list(Some(input), "steps");
    let expected = list(expected, "results");
    let actual = list(actual, "results");
    let n = steps.len().max(expected.len()).max(actual.len());
    if n == 0 {
        return String::new();
    }
    let disagreeing = (0..n).filter(|&i| expected.get(i) != actual.get(i)).count();
    let mut out = format!(
        "<h3>The messages in order</h3>\n<p>{n} steps; {disagreeing} answered otherwise than \
         Core (marked ≠).</p>\n<table class=\"seq\"><thead><tr><th>#</th><th></th><th>sent</th>\
         <th>Core</th><th>received</th></tr></thead><tbody>\n"
    );
    for i in 0..n {
        let differs = expected.get(i) != actual.get(i);
        let step = steps.get(i);
        let name = step
            .and_then(|s| s.get("step"))
            .and_then(Value::as_str)
            .unwrap_or("");
        let received = esc(&short_json(actual.get(i), 300));
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td><strong>{}</strong> <code>{}</code></td>\
             <td><code>{}</code></td><td><code>{}</code></td></tr>",
            i + 1,
            if differs { "≠" } else { "" },
            esc(name),
            esc(&short_json(step, 120)),
            esc(&short_json(expected.get(i), 300)),
            match differs {
                true => format!("<mark>{received}</mark>"),
                false => received,
            }
        );
    }
    out.push_str("</tbody></table>\n");
    out
}

/// `text` quoted for a POSIX shell.
fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// A diagnosis with its hedge (`likely`, `possibly`, `no known bug class`) in bold.
fn hedged(diagnosis: &str) -> String {
    for hedge in [
        "likely",
        "possibly",
        "probably",
        "no known bug class",
        "adapter fault",
        "bad vector",
    ] {
        if let Some(rest) = diagnosis.strip_prefix(hedge) {
            return format!("<strong>{}</strong>{}", esc(hedge), esc(rest));
        }
    }
    esc(diagnosis)
}

/// The bytes of `text` when it is non-empty hex of whole bytes.
fn unhex(text: &str) -> Option<Vec<u8>> {
    if text.is_empty()
        || !text.len().is_multiple_of(2)
        || !text.bytes().all(|b| b.is_ascii_hexdigit())
    {
        return None;
    }
    hex::decode(text).ok()
}

/// Every hex string of `value`, by its path (`filterload`, `results[0].payload`).
fn hex_fields(value: &Value, path: String, out: &mut Vec<(String, Vec<u8>)>) {
    match value {
        Value::String(s) => {
            if let Some(bytes) = unhex(s) {
                out.push((path, bytes));
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                hex_fields(v, format!("{path}[{i}]"), out);
            }
        }
        Value::Object(map) => {
            for (k, v) in map {
                let p = match path.is_empty() {
                    true => k.clone(),
                    false => format!("{path}.{k}"),
                };
                hex_fields(v, p, out);
            }
        }
        _ => {}
    }
}

fn hex_row(bytes: &[u8], other: &[u8], start: usize) -> (String, bool) {
    let mut cell = String::new();
    let mut differs = false;
    for i in start..start + 16 {
        if i > start {
            cell.push(' ');
        }
        match (bytes.get(i), other.get(i)) {
            (Some(b), o) if o != Some(b) => {
                differs = true;
                let _ = write!(cell, "<mark>{b:02x}</mark>");
            }
            (Some(b), _) => {
                let _ = write!(cell, "{b:02x}");
            }
            (None, Some(_)) => {
                differs = true;
                cell.push_str("<mark>--</mark>");
            }
            (None, None) => cell.push_str("  "),
        }
    }
    (cell, differs)
}

/// The expected and actual bytes at `path` side by side, 16 a row with their offsets, the
/// bytes that differ marked; identical rows away from a difference are left out.
pub fn hex_diff(path: &str, expected: &[u8], actual: &[u8]) -> String {
    let len = expected.len().max(actual.len());
    let rows = len.div_ceil(16);
    let differing: Vec<bool> = (0..rows)
        .map(|r| hex_row(expected, actual, r * 16).1 || hex_row(actual, expected, r * 16).1)
        .collect();
    let near = |r: usize| (r.saturating_sub(1)..=(r + 1).min(rows - 1)).any(|x| differing[x]);
    let bytes_differing = (0..len)
        .filter(|&i| expected.get(i) != actual.get(i))
        .count();
    let mut out = format!(
        "<h3>Hex diff of <code>{}</code></h3>\n<p>expected {} bytes, actual {} bytes; {} byte \
         positions differ (marked, and <mark>--</mark> where one side has no byte); rows marked \
         ≠ differ.</p>\n<table class=\"hexdiff\"><tr><th>offset</th><th></th><th>expected</th>\
         <th>actual</th></tr>\n",
        esc(path),
        expected.len(),
        actual.len(),
        bytes_differing
    );
    let mut shown = 0;
    let mut skipped = 0;
    for (r, &row_differs) in differing.iter().enumerate() {
        if !near(r) || shown >= HEX_ROWS {
            skipped += 1;
            continue;
        }
        if skipped > 0 {
            let _ = writeln!(
                out,
                "<tr><td colspan=\"4\">… {skipped} rows ({} bytes) not shown</td></tr>",
                skipped * 16
            );
            skipped = 0;
        }
        shown += 1;
        let (e, _) = hex_row(expected, actual, r * 16);
        let (a, _) = hex_row(actual, expected, r * 16);
        let _ = writeln!(
            out,
            "<tr><td>{:06x}</td><td>{}</td><td>{e}</td><td>{a}</td></tr>",
            r * 16,
            if row_differs { "≠" } else { "" }
        );
    }
    if skipped > 0 {
        let _ = writeln!(
            out,
            "<tr><td colspan=\"4\">… {skipped} rows not shown</td></tr>"
        );
    }
    out.push_str("</table>\n");
    out
}

/// A filter found in an answer: its bytes and, when the answer or the input says them, its
/// hash-function count, tweak and flags.
#[derive(Debug, Clone, PartialEq)]
pub struct Filter {
    pub data: Vec<u8>,
    pub hash_funcs: Option<u32>,
    pub tweak: Option<u32>,
    pub flags: Option<u8>,
}

/// The filters of an answer, by path: a `filterload` payload, a `data` beside `hashFuncs` (a
/// decoded filterload) or a `filterData` (the filter after a match, its functions from the
/// input's filter).
pub fn filters(output: &Value, input: &Value) -> Vec<(String, Filter)> {
    let mut out = Vec::new();
    let from_input = |key: &str| {
        input
            .get("filter")
            .and_then(|f| f.get(key))
            .and_then(Value::as_u64)
    };
    collect_filters(output, String::new(), &mut out, &|key| from_input(key));
    out
}

fn collect_filters(
    value: &Value,
    path: String,
    out: &mut Vec<(String, Filter)>,
    from_input: &dyn Fn(&str) -> Option<u64>,
) {
    let join = |k: &str| match path.is_empty() {
        true => k.to_string(),
        false => format!("{path}.{k}"),
    };
    match value {
        Value::Object(map) => {
            let num = |k: &str| map.get(k).and_then(Value::as_u64);
            for (k, v) in map {
                let bytes = v.as_str().and_then(|s| hex::decode(s).ok());
                match (k.as_str(), bytes) {
                    ("filterload", Some(payload)) => {
                        if let Ok(f) = bip37_reference::FilterLoad::decode(&payload) {
                            out.push((
                                join(k),
                                Filter {
                                    data: f.data,
                                    hash_funcs: Some(f.hash_funcs),
                                    tweak: Some(f.tweak),
                                    flags: Some(f.flags),
                                },
                            ));
                        }
                    }
                    ("data", Some(data)) if num("hashFuncs").is_some() => out.push((
                        join(k),
                        Filter {
                            data,
                            hash_funcs: num("hashFuncs").map(|n| n as u32),
                            tweak: num("tweak").map(|n| n as u32),
                            flags: num("flags").map(|n| n as u8),
                        },
                    )),
                    ("filterData", Some(data)) => out.push((
                        join(k),
                        Filter {
                            data,
                            hash_funcs: from_input("hashFuncs").map(|n| n as u32),
                            tweak: from_input("tweak").map(|n| n as u32),
                            flags: from_input("flags").map(|n| n as u8),
                        },
                    )),
                    _ => collect_filters(v, join(k), out, from_input),
                }
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                collect_filters(v, format!("{path}[{i}]"), out, from_input);
            }
        }
        _ => {}
    }
}

fn bit(data: &[u8], i: usize) -> Option<bool> {
    data.get(i / 8).map(|b| b >> (i % 8) & 1 == 1)
}

/// The expected and actual filters at `path` drawn as bit grids side by side, with their sizes,
/// hash-function counts, the differing bits crossed and listed, and the bits the inserted
/// `elements` select in the expected filter ringed.
pub fn filter_pictures(
    path: &str,
    expected: &Filter,
    actual: Option<&Filter>,
    elements: &[Vec<u8>],
    pictures: &mut usize,
) -> String {
    let e_bits = expected.data.len() * 8;
    let a_bits = actual.map(|a| a.data.len() * 8).unwrap_or(0);
    let bits = e_bits.max(a_bits);
    let differing: Vec<usize> = match actual {
        Some(a) => (0..bits)
            .filter(|&i| bit(&expected.data, i) != bit(&a.data, i))
            .collect(),
        None => Vec::new(),
    };
    let mut element_bits: Vec<usize> = Vec::new();
    if let (Some(hf), Some(tweak)) = (expected.hash_funcs, expected.tweak) {
        if !expected.data.is_empty() && hf <= 50 && elements.len() <= 1000 {
            let filter = bip37_reference::BloomFilter::from_parts(
                expected.data.clone(),
                hf,
                tweak,
                expected.flags.unwrap_or(0),
            );
            for e in elements {
                element_bits.extend(filter.bit_indexes(e).into_iter().map(|i| i as usize));
            }
        }
    }
    element_bits.sort_unstable();
    element_bits.dedup();
    let mut out = format!(
        "<h3 id=\"bits{}\">Filter <code>{}</code> as bits</h3>\n<div class=\"pics\">\n",
        *pictures + 1,
        esc(path)
    );
    let mut side = |label: &str, f: &Filter, other: Option<&Filter>| {
        *pictures += 1;
        let mark = |same: bool, text: String| match same {
            true => text,
            false => format!("<mark>{text}</mark>"),
        };
        let opt = |v: Option<u32>| {
            v.map(|v| v.to_string())
                .unwrap_or_else(|| "not known".into())
        };
        let set = (0..f.data.len() * 8)
            .filter(|&i| bit(&f.data, i) == Some(true))
            .count();
        let _ = write!(
            out,
            "<figure>\n<figcaption>{label}</figcaption>\n{}\n<dl class=\"meta\">\
             <dt>size</dt><dd>{}</dd><dt>hash functions</dt><dd>{}</dd>\
             <dt>tweak</dt><dd>{}</dd><dt>bits set</dt><dd>{set}</dd></dl>\n</figure>\n",
            bits_svg(f, &differing, &element_bits, *pictures, label),
            mark(
                other.is_none_or(|o| o.data.len() == f.data.len()),
                format!("{} bytes ({} bits)", f.data.len(), f.data.len() * 8)
            ),
            mark(
                other.is_none_or(|o| o.hash_funcs == f.hash_funcs),
                opt(f.hash_funcs)
            ),
            mark(other.is_none_or(|o| o.tweak == f.tweak), opt(f.tweak)),
        );
    };
    side("expected", expected, actual);
    if let Some(a) = actual {
        side("actual", a, Some(expected));
    }
    out.push_str("</div>\n");
    let _ = writeln!(
        out,
        "<p class=\"legend\">Bit <var>i</var> is byte <var>i</var>/8, bit <var>i</var> mod 8 \
         (least significant first, as Core's <code>vData[i &gt;&gt; 3] &amp; (1 &lt;&lt; (7 &amp; \
         i))</code>), drawn at row <var>i</var>/{cols}, column <var>i</var> mod {cols}. ■ set, □ \
         clear, a red outline: differs (each listed below), ○ selected by an inserted element in the expected filter.</p>",
        cols = columns(bits)
    );
    if !differing.is_empty() {
        let listed: Vec<String> = differing
            .iter()
            .take(40)
            .map(|&i| {
                let e = bit(&expected.data, i);
                let a = actual.and_then(|a| bit(&a.data, i));
                let word = |b: Option<bool>| match b {
                    Some(true) => "set",
                    Some(false) => "clear",
                    None => "absent",
                };
                let ours = if element_bits.binary_search(&i).is_ok() {
                    ", an element's bit"
                } else {
                    ""
                };
                format!(
                    "{i} (byte {}, bit {}): expected {}, actual {}{ours}",
                    i / 8,
                    i % 8,
                    word(e),
                    word(a)
                )
            })
            .collect();
        let _ = writeln!(
            out,
            "<p>{} bits differ{}: {}.</p>",
            differing.len(),
            if differing.len() > 40 {
                " (the first 40)"
            } else {
                ""
            },
            listed.join("; ")
        );
    }
    if !element_bits.is_empty() {
        let _ = writeln!(
            out,
            "<p>Bits the {} inserted elements select: {}.</p>",
            elements.len(),
            element_bits
                .iter()
                .take(200)
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    out
}

fn columns(bits: usize) -> usize {
    match bits {
        0..=64 => 8,
        65..=512 => 32,
        513..=4096 => 64,
        _ => 128,
    }
}

/// One filter's bits as an SVG grid.
fn bits_svg(
    f: &Filter,
    differing: &[usize],
    element_bits: &[usize],
    id: usize,
    label: &str,
) -> String {
    let bits = f.data.len() * 8;
    let cols = columns(bits.max(differing.last().map(|d| d + 1).unwrap_or(0)));
    let cell = match bits {
        0..=64 => 20,
        65..=512 => 16,
        513..=4096 => 8,
        _ => 5,
    };
    let rows = bits.div_ceil(cols).max(1);
    let (w, h) = (cols * cell, rows * cell);
    let mut set = String::new();
    for i in (0..bits).filter(|&i| bit(&f.data, i) == Some(true)) {
        let _ = write!(
            set,
            "M{} {}h{cell}v{cell}h-{cell}z",
            i % cols * cell,
            i / cols * cell
        );
    }
    // A differing bit is outlined inside its cell, its fill (set or clear) still visible.
    let outline = (cell as f64 / 5.0).max(1.0);
    let side = cell as f64 - outline;
    let mut cross = String::new();
    for &i in differing.iter().filter(|&&i| i < bits.max(1)) {
        let (x, y) = (
            (i % cols * cell) as f64 + outline / 2.0,
            (i / cols * cell) as f64 + outline / 2.0,
        );
        let _ = write!(cross, "M{x:.1} {y:.1}h{side:.1}v{side:.1}h-{side:.1}z");
    }
    let mut rings = String::new();
    let r = cell as f64 * 0.2;
    for &i in element_bits.iter().filter(|&&i| i < bits) {
        let (cx, cy) = (
            (i % cols * cell) as f64 + cell as f64 / 2.0,
            (i / cols * cell) as f64 + cell as f64 / 2.0,
        );
        let _ = write!(
            rings,
            "M{:.1} {cy:.1}a{r:.1} {r:.1} 0 1 0 {:.1} 0a{r:.1} {r:.1} 0 1 0 -{:.1} 0",
            cx - r,
            2.0 * r,
            2.0 * r
        );
    }
    let grid = match cell >= 8 {
        true => format!(
            "<defs><pattern id=\"g{id}\" width=\"{cell}\" height=\"{cell}\" \
             patternUnits=\"userSpaceOnUse\"><path d=\"M{cell} 0H0V{cell}\" fill=\"none\" \
             stroke=\"#bbb\" stroke-width=\"1\"/></pattern></defs><rect width=\"{w}\" \
             height=\"{h}\" fill=\"url(#g{id})\"/>"
        ),
        false => String::new(),
    };
    let sw = (cell as f64 / 4.0).max(1.0);
    format!(
        "<svg class=\"bits\" role=\"img\" aria-labelledby=\"t{id}\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" xmlns=\"http://www.w3.org/2000/svg\"><title id=\"t{id}\">{} \
         filter: {} bits, {} set, {} differing</title><rect width=\"{w}\" height=\"{h}\" \
         fill=\"#fff\"/>{grid}<path d=\"{set}\" fill=\"#222\"/><path d=\"{rings}\" fill=\"none\" \
         stroke=\"#4d94ff\" stroke-width=\"{:.1}\"/><path d=\"{cross}\" fill=\"none\" \
         stroke=\"#e00\" stroke-width=\"{outline:.1}\"/></svg>",
        esc(label),
        bits,
        (0..bits).filter(|&i| bit(&f.data, i) == Some(true)).count(),
        differing.len(),
        sw * 0.6,
    )
}

/// A sizing test's point: its inputs and the expected and actual (bytes, functions).
struct SizingPoint {
    n: f64,
    p: f64,
    expected: (f64, f64),
    actual: Option<(f64, f64)>,
    state: State,
    id: String,
}

fn sizing_points(run: &Run) -> Vec<SizingPoint> {
    let pair = |v: &Value| {
        Some((
            v.get("filterBytes")?.as_f64()?,
            v.get("hashFuncs")?.as_f64()?,
        ))
    };
    (run.results.iter())
        .filter(|r| r.test.request.op().as_str() == "sizing")
        .filter_map(|r| {
            let input = r.test.request.input_json();
            let n = input.get("nElements")?.as_f64()?;
            let p = input.get("fpRate")?.as_f64()?;
            let expected = pair(&r.test.expected.as_ref()?.to_json())?;
            let actual = match &r.answer {
                Answer::Ok(output) => pair(&output.to_json()),
                _ => None,
            };
            (n > 0.0 && p > 0.0 && p < 1.0).then(|| SizingPoint {
                n,
                p,
                expected,
                actual,
                state: r.state,
                id: r.test.case.id.clone(),
            })
        })
        .collect()
}

/// The sizing tests' expected and actual filter bytes and hash functions plotted against the
/// filter the inputs ask for (its ideal bits, -n ln p / ln² 2), with the same in a table.
fn sizing_section(run: &Run) -> String {
    let points = sizing_points(run);
    if points.is_empty() {
        return String::new();
    }
    let ideal = |pt: &SizingPoint| -pt.n * pt.p.ln() / (2f64.ln() * 2f64.ln());
    let xs: Vec<f64> = points.iter().map(|pt| ideal(pt).max(1.0).log10()).collect();
    let (x0, x1) = (
        xs.iter().copied().fold(f64::INFINITY, f64::min).floor(),
        xs.iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max)
            .ceil()
            .max(1.0),
    );
    let (w, h, pad) = (520.0, 220.0, 40.0);
    let sx = |x: f64| pad + (x - x0) / (x1 - x0).max(1.0) * (w - 2.0 * pad);
    let mut out = String::from(
        "<h2 id=\"sizing\">Sizing: expected and actual against the inputs</h2>\n<p>Each sizing \
         test at the filter its inputs ask for (ideal bits −n·ln p / ln²2, log scale): ○ \
         expected, ✕ actual (a ✕ inside its ○ agrees).</p>\n<div class=\"pics\">",
    );
    for (label, pick, log) in [
        ("filter bytes (log scale)", 0usize, true),
        ("hash functions", 1usize, false),
    ] {
        let value = |pair: (f64, f64)| if pick == 0 { pair.0 } else { pair.1 };
        let scale = |v: f64| if log { (v + 1.0).log10() } else { v };
        let top = (points.iter())
            .flat_map(|pt| [Some(pt.expected), pt.actual])
            .flatten()
            .map(|pair| scale(value(pair)))
            .fold(1.0, f64::max);
        let sy = |v: f64| h - pad - scale(v) / top * (h - 2.0 * pad);
        let mut circles = String::new();
        let mut crosses = String::new();
        for (pt, x) in points.iter().zip(&xs) {
            let (cx, cy) = (sx(*x), sy(value(pt.expected)));
            let _ = write!(
                circles,
                "M{:.1} {cy:.1}a4 4 0 1 0 8 0a4 4 0 1 0 -8 0",
                cx - 4.0
            );
            if let Some(actual) = pt.actual {
                let (ax, ay) = (sx(*x), sy(value(actual)));
                let _ = write!(
                    crosses,
                    "M{:.1} {:.1}l6 6M{:.1} {:.1}l-6 6",
                    ax - 3.0,
                    ay - 3.0,
                    ax + 3.0,
                    ay - 3.0
                );
            }
        }
        let top_label = match log {
            true => format!("{:.0}", 10f64.powf(top) - 1.0),
            false => format!("{top:.0}"),
        };
        let _ = write!(
            out,
            "<figure><figcaption>{label}</figcaption><svg class=\"bits\" role=\"img\" \
             aria-label=\"{label} of each sizing test, expected and actual\" width=\"{w}\" \
             height=\"{h}\" viewBox=\"0 0 {w} {h}\" xmlns=\"http://www.w3.org/2000/svg\">\
             <rect width=\"{w}\" height=\"{h}\" fill=\"#fff\"/><path d=\"M{pad} {pad}V{b}H{r}\" \
             fill=\"none\" stroke=\"#555\"/><text x=\"2\" y=\"{pad}\" font-size=\"11\">{top_label}\
             </text><text x=\"{pad}\" y=\"{tl}\" font-size=\"11\">10^{x0}</text><text x=\"{xr}\" \
             y=\"{tl}\" font-size=\"11\">10^{x1} bits</text><path d=\"{circles}\" fill=\"none\" \
             stroke=\"#222\" stroke-width=\"1.5\"/><path d=\"{crosses}\" stroke=\"#e00\" \
             stroke-width=\"2\"/></svg></figure>",
            b = h - pad,
            r = w - pad,
            tl = h - pad + 16.0,
            xr = w - pad - 60.0,
        );
    }
    out.push_str(
        "</div>\n<table><thead><tr><th>test</th><th>nElements</th><th>fpRate</th>\
         <th>expected bytes, functions</th><th>actual bytes, functions</th><th>state</th></tr>\
         </thead><tbody>\n",
    );
    for pt in &points {
        let actual = match pt.actual {
            Some(a) if a == pt.expected => format!("{}, {}", a.0, a.1),
            Some(a) => format!(
                "{}, {}",
                if a.0 != pt.expected.0 {
                    format!("<mark>{}</mark>", a.0)
                } else {
                    a.0.to_string()
                },
                if a.1 != pt.expected.1 {
                    format!("<mark>{}</mark>", a.1)
                } else {
                    a.1.to_string()
                }
            ),
            None => "no value".into(),
        };
        let _ = writeln!(
            out,
            "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}, {}</td><td>{actual}</td>\
             <td>{}</td></tr>",
            esc(&pt.id),
            pt.n,
            pt.p,
            pt.expected.0,
            pt.expected.1,
            state_badge(pt.state.as_str())
        );
    }
    out.push_str("</tbody></table>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::implementation::Answer;
    use crate::ops::{BuildFilterOutput, Output};

    fn run_of(implementation: &str, answer_filter: bool) -> Run {
        let tests: Vec<crate::vectors::LoadedTest> = crate::vectors::embedded::load()
            .unwrap()
            .into_iter()
            .flat_map(|f| f.tests)
            .collect();
        let test = (tests.iter())
            .find(|t| t.case.id == "filter/core-insert-serialize")
            .unwrap()
            .clone();
        let murmur = (tests.iter())
            .find(|t| t.request.op().as_str() == "murmur3")
            .unwrap()
            .clone();
        let wrong = match test.expected.clone().unwrap() {
            Output::BuildFilter(mut o) if answer_filter => {
                let mut bytes = o.filterload.0.clone();
                bytes[1] ^= 0x05;
                o.filterload = crate::ops::Hex(bytes);
                Answer::Ok(Output::BuildFilter(BuildFilterOutput { ..o }))
            }
            other => Answer::Ok(other),
        };
        let mut run = Run {
            implementation: implementation.into(),
            results: Vec::new(),
            aborted: None,
            elapsed: Default::default(),
            stale_expectations: Vec::new(),
            claimed: vec![test.request.op()],
            capabilities: Default::default(),
            warnings: Vec::new(),
            missing_operations: Vec::new(),
            allow_empty: false,
        };
        run.results.push(TestResult {
            test: test.clone(),
            state: State::WrongValue,
            answer: wrong,
            message: "<b>wrong</b> \"><img src=x onerror=alert(2)>".into(),
            difference: Some("filter byte 0".into()),
            diagnosis: Some("likely MsbFirstBits (1 of 1 failures explained)".into()),
            duration: Default::default(),
        });
        run.results.push(TestResult {
            test: murmur.clone(),
            state: State::Pass,
            answer: Answer::Ok(murmur.expected.clone().unwrap()),
            message: String::new(),
            difference: None,
            diagnosis: None,
            duration: Default::default(),
        });
        run
    }

    /// The markup a page holds outside its style and script.
    fn markup(page: &str) -> String {
        let start = page.find("<body>").unwrap();
        let end = page.rfind("<script>").unwrap();
        page[start..end].to_string()
    }

    #[test]
    fn a_hostile_name_renders_as_text() {
        for name in [
            "<script>alert(1)</script> 1.0",
            "\"><img src=x onerror=alert(1)> 2",
            "x' onmouseover='alert(1) 3",
        ] {
            let page = render(&run_of(name, true));
            let body = markup(&page);
            assert!(!body.contains("<script"), "{name}");
            assert!(!body.contains("<img"), "{name}");
            assert!(!body.contains("<b>"), "{name}");
            assert!(!body.contains("' onmouseover='"), "{name}");
            assert!(body.contains("&lt;") || body.contains("&#39;"), "{name}");
            assert_eq!(page.matches("<script>").count(), 1);
        }
    }

    #[test]
    fn the_counts_are_the_runs() {
        let run = run_of("counted 1.0", true);
        let page = render(&run);
        assert!(page.contains("data-count-total=\"2\""), "{page}");
        assert!(page.contains("data-count-pass=\"1\""));
        assert!(page.contains("data-count-wrongValue=\"1\""));
        assert!(page.contains("data-count-crash=\"0\""));
        assert_eq!(page.matches("<tr data-row").count(), run.results.len());
        assert_eq!(page.matches("<details class=\"failure\"").count(), 1);
    }

    #[test]
    fn the_policy_hashes_the_inline_style_and_script() {
        let page = render(&run_of("n 1", true));
        assert!(page.contains(&csp_hash(STYLE)) && page.contains(&csp_hash(SCRIPT)));
        assert!(page.contains("default-src 'none'"));
        assert!(
            !page.contains("http://")
                || !page
                    .replace("http://www.w3.org/2000/svg", "")
                    .contains("http://")
        );
        assert!(!page.contains("https://"));
        assert_eq!(base64(b"abc"), "YWJj");
        assert_eq!(base64(b"ab"), "YWI=");
        assert_eq!(base64(b"a"), "YQ==");
    }

    #[test]
    fn a_wrong_filter_is_drawn_with_its_differing_bits() {
        let page = render(&run_of("n 1", true));
        assert!(
            page.contains("Hex diff of <code>filterload</code>"),
            "{page}"
        );
        assert!(page.contains("<mark>"));
        assert!(page.contains("<h3 id=\"bits1\">Filter <code>filterload</code> as bits"));
        assert!(page.contains("<svg class=\"bits\""));
        assert!(page.contains("2 bits differ"), "{page}");
        assert!(page.contains("hash functions</dt><dd>5"));
        assert!(page.contains("Bits the 3 inserted elements select"));
        assert!(page.contains("<strong>likely</strong> MsbFirstBits"));
        assert!(page.contains("--id &#39;filter/core-insert-serialize&#39;"));
    }

    #[test]
    fn sizing_tests_are_plotted_and_tabled() {
        let mut run = run_of("n 1", true);
        let tests: Vec<crate::vectors::LoadedTest> = crate::vectors::embedded::load()
            .unwrap()
            .into_iter()
            .flat_map(|f| f.tests)
            .collect();
        let sizing = (tests.iter())
            .find(|t| t.case.id == "sizing/core-n3-p0.01")
            .unwrap()
            .clone();
        run.results.push(TestResult {
            answer: Answer::Ok(sizing.expected.clone().unwrap()),
            test: sizing,
            state: State::Pass,
            message: String::new(),
            difference: None,
            diagnosis: None,
            duration: Default::default(),
        });
        let page = render(&run);
        assert!(page.contains("<h2 id=\"sizing\">"), "{page}");
        assert!(page.contains("<td><code>sizing/core-n3-p0.01</code></td><td>3</td><td>0.01</td><td>3, 5</td><td>3, 5</td>"), "{page}");
        assert!(!render(&run_of("n 1", true)).contains("id=\"sizing\""));
    }

    #[test]
    fn a_sequence_shows_its_messages_in_order_with_the_disagreement_marked() {
        let input = serde_json::json!({"steps": [{"step": "filterload", "payload": "00"}, {"step": "<b>x</b>"}]});
        let expected =
            serde_json::json!({"results": [{"outcome": "accepted"}, {"outcome": "misbehaving"}]});
        let actual =
            serde_json::json!({"results": [{"outcome": "accepted"}, {"outcome": "accepted"}]});
        let table = sequence_table(&input, Some(&expected), Some(&actual));
        assert!(table.contains("2 steps; 1 answered otherwise"), "{table}");
        assert!(
            table.contains("<td>2</td><td>≠</td><td><strong>&lt;b&gt;x&lt;/b&gt;</strong>"),
            "{table}"
        );
        assert!(
            table.contains("<mark>{&quot;outcome&quot;:&quot;accepted&quot;}</mark>"),
            "{table}"
        );
    }

    #[test]
    fn a_hex_diff_marks_only_the_differing_bytes() {
        let d = hex_diff("x", &[1, 2, 3], &[1, 9, 3, 4]);
        assert!(d.contains("01 <mark>02</mark> 03 <mark>--</mark>"), "{d}");
        assert!(d.contains("01 <mark>09</mark> 03 <mark>04</mark>"), "{d}");
        assert!(
            d.contains("expected 3 bytes, actual 4 bytes; 2 byte"),
            "{d}"
        );
    }

    #[test]
    fn bug_classes_and_versions() {
        assert_eq!(
            bug_class("likely SeedNotWrapped (98 of 98)"),
            "SeedNotWrapped"
        );
        assert_eq!(bug_class("adapter fault: crashed"), "adapter-fault");
        assert_eq!(
            bug_class("no known bug class explains this failure"),
            "unexplained"
        );
        assert_eq!(
            name_and_version("template-python 0.1.0"),
            ("template-python".into(), "0.1.0".into())
        );
        assert_eq!(name_and_version("reference").1, "not given");
    }
}
