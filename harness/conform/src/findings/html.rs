//! The findings page as one self-contained HTML page (`findings --html FILE`): the same
//! summary and deviations as the Markdown page ([`super::markdown`]), with filters by kind,
//! severity and bug class. The page, its policy and its script are the run report's
//! ([`bip37_harness::report::html::page`]); every text from a manifest, an expectations file or
//! a vector is escaped.
//!
//! For the browser check: `#summary` carries `data-count-entries` and `data-count-findings`,
//! and each implementation's row `data-column`, `data-node`, `data-answered` and `data-total`
//! (from the matrix, which the check recomputes).

use super::severity::Severity;
use super::{Entry, Findings, Reproduction, Sources};
use bip37_harness::report::escape::html as esc;
use bip37_harness::report::html::{filter_select, page};
use std::collections::BTreeSet;
use std::fmt::Write;

fn slug(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            'a'..='z' | '0'..='9' => c,
            'A'..='Z' => c.to_ascii_lowercase(),
            _ => '-',
        })
        .collect()
}

/// A bug class as one word of a `data-class` list (a node's `BUG_TYPE: name` has spaces).
fn token(class: &str) -> String {
    class.replace(char::is_whitespace, "_")
}

fn anchor(entry: &Entry) -> String {
    format!(
        "e-{}-{}",
        slug(&entry.subject.column),
        slug(&entry.subject.library.version)
    )
}

/// The page of `findings`.
pub fn render(findings: &Findings, sources: &Sources) -> String {
    let total: usize = findings.entries.iter().map(|e| e.findings.len()).sum();
    let mut body = format!(
        "<header><h1>Findings</h1>\n<p>Every deviation from Bitcoin Core that the suite \
         reproduced, per implementation and version, from the committed runs: the library \
         matrix <code>{}</code>{}, the manifests and each one's expectations file. Made by \
         bip37-conform {} on {}; the Markdown page is <code>docs/FINDINGS.md</code>.</p>\n\
         </header>\n",
        esc(&sources.matrix.display().to_string()),
        match &sources.node_matrix {
            Some(p) => format!(
                ", the node section <code>{}</code>",
                esc(&p.display().to_string())
            ),
            None => String::new(),
        },
        env!("CARGO_PKG_VERSION"),
        bip37_harness::report::html::now_utc()
    );
    let _ = write!(
        body,
        "<section id=\"summary\" data-count-entries=\"{}\" data-count-findings=\"{total}\">\n\
         <h2>Summary</h2>\n<table><thead><tr><th>implementation</th><th>kind</th><th>column</th>\
         <th>answered</th>",
        findings.entries.len()
    );
    for severity in Severity::ALL {
        let _ = write!(body, "<th>{}</th>", esc(severity.label()));
    }
    body.push_str("<th>deviations</th></tr></thead><tbody>\n");
    for entry in &findings.entries {
        let s = &entry.subject;
        let _ = write!(
            body,
            "<tr data-column=\"{}\" data-node=\"{}\" data-answered=\"{}\" data-total=\"{}\">\
             <td><a href=\"#{}\">{} {}</a></td><td>{}</td><td>{}</td><td>{} of {}</td>",
            esc(&s.column),
            s.node,
            entry.answered,
            entry.total,
            anchor(entry),
            esc(&s.library.name),
            esc(&s.library.version),
            if s.node { "node" } else { "library" },
            esc(&s.column),
            entry.answered,
            entry.total
        );
        if entry.answered == 0 {
            let _ = writeln!(
                body,
                "<td colspan=\"{}\">not run here</td></tr>",
                Severity::ALL.len() + 1
            );
            continue;
        }
        for severity in Severity::ALL {
            let n = (entry.findings.iter())
                .filter(|f| f.severity == *severity)
                .count();
            let _ = write!(body, "<td class=\"n\">{n}</td>");
        }
        let _ = writeln!(body, "<td class=\"n\">{}</td></tr>", entry.findings.len());
    }
    body.push_str("</tbody></table>\n</section>\n");
    if !findings.left_out.is_empty() {
        let names: Vec<String> = findings.left_out.iter().map(|n| esc(n)).collect();
        let _ = writeln!(
            body,
            "<p>Left out: the library matrix's columns no manifest names, which fail nothing \
             ({}).</p>",
            names.join(", ")
        );
    }
    body.push_str("<h2>Severity</h2><ul>");
    for severity in Severity::ALL {
        let _ = write!(
            body,
            "<li><strong>{}</strong>: {}.</li>",
            esc(severity.label()),
            esc(severity.meaning())
        );
    }
    body.push_str("</ul>\n");
    let classes: BTreeSet<String> = (findings.entries.iter())
        .flat_map(|e| {
            e.findings
                .iter()
                .flat_map(|f| f.classes.iter().map(|c| token(c)))
        })
        .collect();
    let severities: Vec<String> = Severity::ALL.iter().map(|s| slug(s.label())).collect();
    let _ = writeln!(
        body,
        "<h2 id=\"deviations\">Deviations</h2>\n<div class=\"controls\">{}{}{}<span>shown: \
         <strong id=\"shown\" data-shown=\"{total}\">{total}</strong> of {total} deviations\
         </span></div>",
        filter_select("kind", "Kind", &["library".into(), "node".into()]),
        filter_select("severity", "Severity", &severities),
        filter_select(
            "class",
            "Bug class",
            &classes
                .into_iter()
                .chain(["unknown".into()])
                .collect::<Vec<_>>()
        ),
    );
    for entry in &findings.entries {
        section(&mut body, entry);
    }
    page("bip37-conform findings", &body)
}

fn section(out: &mut String, entry: &Entry) {
    let s = &entry.subject;
    let _ = writeln!(
        out,
        "<h3 id=\"{}\">{} {} ({}, column {})</h3>",
        anchor(entry),
        esc(&s.library.name),
        esc(&s.library.version),
        esc(&s.library.registry),
        esc(&s.column)
    );
    if let Some(link) = &s.library.link {
        // Shown as text, not a link: a manifest's link is outside text, and the page links out
        // to nothing.
        let _ = writeln!(out, "<p><code>{}</code></p>", esc(link));
    }
    if entry.answered == 0 {
        out.push_str(
            "<p>Not run here: the committed runs hold no answer of it, so nothing is known.</p>\n",
        );
        return;
    }
    if !entry.legitimate.is_empty() {
        out.push_str("<p>Legitimate differences from Core (not deviations):</p><ul>");
        for (id, detail) in &entry.legitimate {
            let _ = write!(out, "<li><code>{}</code>: {}</li>", esc(id), esc(detail));
        }
        out.push_str("</ul>\n");
    }
    if entry.findings.is_empty() {
        let _ = writeln!(
            out,
            "<p>No deviation from Bitcoin Core in the {} of {} it answered.</p>",
            entry.answered, entry.total
        );
        return;
    }
    out.push_str(
        "<table><thead><tr><th>#</th><th>tests</th><th>bug class</th><th>severity</th>\
         <th>state</th><th>what it does</th><th>minimal reproduction</th>\
         <th>upstream status</th></tr></thead><tbody>\n",
    );
    for (n, f) in entry.findings.iter().enumerate() {
        let tests: Vec<String> = (f.tests.iter())
            .map(|t| format!("<code>{}</code>", esc(t)))
            .collect();
        let classes = match f.classes.is_empty() {
            true => "unknown".to_string(),
            false => f.classes.join(", "),
        };
        let tokens = match f.classes.is_empty() {
            true => "unknown".to_string(),
            false => f
                .classes
                .iter()
                .map(|c| token(c))
                .collect::<Vec<_>>()
                .join(" "),
        };
        let states: Vec<String> = (f.states.iter())
            .map(|st| bip37_harness::report::html::state_badge(st.as_str()))
            .collect();
        let _ = writeln!(
            out,
            "<tr data-row data-kind=\"{}\" data-severity=\"{}\" data-class=\"{}\"><td>{}</td>\
             <td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            if s.node { "node" } else { "library" },
            slug(f.severity.label()),
            esc(&tokens),
            n + 1,
            tests.join(", "),
            esc(&classes),
            esc(f.severity.label()),
            states.join(" "),
            esc(&f.reason),
            reproduction(&f.reproduction, &f.tests),
            esc(&f.status.to_string())
        );
    }
    out.push_str("</tbody></table>\n");
}

fn reproduction(reproduction: &Reproduction, tests: &[String]) -> String {
    match reproduction {
        Reproduction::Input { test, input } => format!(
            "{}<code>{}</code>{}",
            match tests.len() {
                1 => String::new(),
                _ => format!("<code>{}</code>: ", esc(test)),
            },
            esc(&input.text),
            match input.exact {
                true => "",
                false => " (long strings cut: the vector holds the whole input)",
            }
        ),
        Reproduction::Check { description } => format!(
            "<code>{}</code>: {}",
            esc(&format!("bip37-conform node --id {}", tests.join(" --id "))),
            esc(description)
        ),
        Reproduction::Withheld => esc(super::nodes::WITHHELD),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};

    fn committed() -> (Findings, Sources) {
        let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
        let sources = Sources {
            matrix: PathBuf::from("adapters/matrix.json"),
            node_matrix: Some(PathBuf::from("adapters/nodes/matrix.json")),
            adapters: PathBuf::from("adapters"),
            node_adapters: PathBuf::from("adapters/nodes"),
        };
        (super::super::collect(root, &sources).unwrap(), sources)
    }

    #[test]
    fn the_counts_are_the_findings() {
        let (findings, sources) = committed();
        let page = render(&findings, &sources);
        let total: usize = findings.entries.iter().map(|e| e.findings.len()).sum();
        assert!(page.contains(&format!("data-count-findings=\"{total}\"")));
        assert_eq!(page.matches("<tr data-row").count(), total);
        assert_eq!(
            page.matches("<tr data-column=").count(),
            findings.entries.len()
        );
    }

    #[test]
    fn a_hostile_manifest_renders_as_text() {
        let (mut findings, sources) = committed();
        let entry = &mut findings.entries[0];
        entry.subject.library.name = "<script>alert(1)</script>".into();
        entry.subject.library.link = Some("javascript:alert(1)\"><img src=x>".into());
        if let Some(f) = entry.findings.first_mut() {
            f.reason = "<b onmouseover=alert(1)>x</b>".into();
        }
        let page = render(&findings, &sources);
        let body = &page[page.find("<body>").unwrap()..page.rfind("<script>").unwrap()];
        assert!(!body.contains("<script") && !body.contains("<img") && !body.contains("<b "));
        assert!(!body.contains("href=\"javascript"));
    }
}
