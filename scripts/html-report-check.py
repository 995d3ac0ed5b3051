#!/usr/bin/env python3
"""Loads bip37-conform's HTML pages in headless Chromium and checks them against their JSON.

    html-report-check.py --out DIR
        [--run PAGE REPORT.json]...        a `run`/`node` page and its `--report json:` report
        [--matrix PAGE MATRIX.json]...     a `matrix --html` page and its `--json` matrix
        [--findings PAGE MATRIX.json]...   a `findings --html` page and its library matrix
        [--hostile PAGE REPORT.json]...    a run page of a hostile adapter (its texts are markup)

For every page: Chromium loads it from file:// with no network; no console message may appear
(the pages log nothing, so any message is an error: a script or style the Content-Security-
Policy refused, a script error, or injected markup that ran); the page's own script must have
run (`data-script="ran"`); every count the page carries as a data attribute must equal the one
computed from the JSON; and a screenshot goes to DIR. A matrix and a findings page are also
loaded with a filter set from the address (`#filter:state=...`), whose count must follow it.
For a hostile page, the dumped DOM must hold no element and no attribute other than the ones
the pages are made of, exactly one script, and no `on...` attribute: the adapter's name and
messages must be text. Standard library only; exits 1 on the first failing page's end, after
checking every page.

CHROMIUM (default `chromium`) names the browser. Runs as root need --no-sandbox, which is
always passed: the pages are local and made by this repository.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from html.parser import HTMLParser

FAILURE_FREE = {"pass", "notClaimed", "expectedFailure"}
ALLOWED_TAGS = {
    "html", "head", "meta", "title", "style", "body", "script", "a", "main", "header", "section",
    "h1", "h2", "h3", "p", "ul", "li", "dl", "dt", "dd", "table", "thead", "tbody", "tr", "th",
    "td", "span", "strong", "code", "pre", "var", "mark", "details", "summary", "div", "label",
    "select", "option", "figure", "figcaption", "svg", "rect", "path", "defs", "pattern", "text",
}
PROBLEMS = []


def conclude(before, text):
    """Says `text` after a page's checks: ok when they added no problem."""
    word = "ok" if len(PROBLEMS) == before else "FAILED"
    print(f"html-report-check: {word} {text}")


def problem(page, text):
    PROBLEMS.append(f"{page}: {text}")
    print(f"html-report-check: FAIL {page}: {text}", file=sys.stderr)


def chromium(*args):
    """Runs headless Chromium with `args`; its stdout and the console lines of its log."""
    binary = os.environ.get("CHROMIUM", "chromium")
    with tempfile.TemporaryDirectory() as profile:
        argv = [
            binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--disable-extensions", f"--user-data-dir={profile}",
            "--enable-logging=stderr", "--v=0", *args,
        ]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    console = [l for l in done.stderr.splitlines() if "CONSOLE" in l or "Refused to" in l]
    return done.stdout, console, done.returncode


def load(page, fragment=""):
    """The page's DOM after load, with its console checked."""
    url = "file://" + os.path.abspath(page) + fragment
    started = time.monotonic()
    dom, console, code = chromium("--dump-dom", url)
    took = time.monotonic() - started
    if code != 0 or not dom:
        problem(page, f"chromium exited {code} with no DOM")
    for line in console:
        problem(page + fragment, f"console: {line.strip()[:300]}")
    if 'data-script="ran"' not in dom:
        problem(page + fragment, "the page's script did not run (refused by its policy?)")
    return dom, took


def attr(dom, name, page):
    # The DOM's serialisation writes attribute names in lower case.
    found = re.search(r'\s' + re.escape(name.lower()) + r'="([^"]*)"', dom)
    if not found:
        problem(page, f"no {name} in the DOM")
        return None
    return found.group(1)


def expect(page, what, shown, wanted):
    if str(shown) != str(wanted):
        problem(page, f"{what}: the page says {shown}, the JSON {wanted}")


def screenshot(page, out, fragment=""):
    name = os.path.splitext(os.path.basename(page))[0] + ".png"
    target = os.path.join(out, name)
    url = "file://" + os.path.abspath(page) + fragment
    _, console, _ = chromium("--window-size=1300,1600", f"--screenshot={target}", url)
    for line in console:
        problem(page, f"console: {line.strip()[:300]}")
    if not os.path.exists(target):
        problem(page, "no screenshot")
    return target


def timing(dom):
    ready = re.search(r'data-ready-ms="(\d+)"', dom)
    loaded = re.search(r'data-load-ms="(\d+)"', dom)
    return f"ready {ready.group(1) if ready else '?'} ms, load {loaded.group(1) if loaded else '?'} ms"


def check_run(page, report_path, out):
    before = len(PROBLEMS)
    report = json.load(open(report_path))
    dom, took = load(page)
    for state, n in report["summary"].items():
        expect(page, f"data-count-{state}", attr(dom, f"data-count-{state}", page), n)
    results = report["results"]
    expect(page, "rows", dom.count("<tr data-row"), len(results))
    failing = sum(1 for r in results if r["state"] not in FAILURE_FREE)
    expect(page, "failures", dom.count('<details class="failure"'), failing)
    expect(page, "shown", attr(dom, "data-shown", page), len(results))
    expect(page, "verdict", attr(dom, "data-conformance", page), report["conformance"])
    shot = screenshot(page, out)
    conclude(before, f"{page}: {os.path.getsize(page)} bytes, {timing(dom)}, "
          f"{took:.1f} s with the browser's start; {shot}")


def matrix_tests(matrix):
    return sum(len(r["tests"]) for r in matrix["rows"])


def check_matrix(page, matrix_path, out):
    before = len(PROBLEMS)
    matrix = json.load(open(matrix_path))
    dom, took = load(page)
    tests = matrix_tests(matrix)
    expect(page, "data-count-tests", attr(dom, "data-count-tests", page), tests)
    cells = {}
    for row in matrix["rows"]:
        for cell in row["cells"]:
            cells[cell["state"]] = cells.get(cell["state"], 0) + len(row["tests"])
    for state, n in cells.items():
        expect(page, f"cells {state}", attr(dom, f"data-count-cells-{state}", page), n)
    expect(page, "rows", dom.count("<tr data-row"), tests)
    expect(page, "shown", attr(dom, "data-shown", page), tests)
    for column in matrix["columns"]:
        header = re.search(r'<th[^>]*data-column="' + re.escape(html_attr(column["name"]))
                           + r'"([^>]*)>', dom)
        if not header:
            problem(page, f"no column {column['name']}")
            continue
        for state, n in column["counts"].items():
            shown = re.search(r'data-count-' + state.lower() + r'="(\d+)"', header.group(1))
            expect(page, f"{column['name']} {state}", shown and shown.group(1), n)
    # A filter from the address, and the count that follows it.
    for state in sorted(cells):
        wanted = sum(len(r["tests"]) for r in matrix["rows"]
                     if any(c["state"] == state for c in r["cells"]))
        filtered, _ = load(page, f"#filter:state={state}")
        expect(page, f"shown with state={state}", attr(filtered, "data-shown", page), wanted)
    shot = screenshot(page, out)
    conclude(before, f"{page}: {os.path.getsize(page)} bytes, {tests} tests x "
          f"{len(matrix['columns'])} columns, {timing(dom)}, {took:.1f} s with the browser's "
          f"start; {shot}")


def html_attr(text):
    return (text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
            .replace(">", "&gt;"))


def check_findings(page, matrix_path, out):
    before = len(PROBLEMS)
    matrix = json.load(open(matrix_path))
    dom, took = load(page)
    tests = matrix_tests(matrix)
    unanswered = {"unsupported", "notClaimed", "notRun"}
    for i, column in enumerate(matrix["columns"]):
        row = re.search(r'<tr data-column="' + re.escape(html_attr(column["name"]))
                        + r'" data-node="false" data-answered="(\d+)" data-total="(\d+)"', dom)
        if not row:
            continue  # a column no manifest names (the reference) is left out
        answered = sum(len(r["tests"]) for r in matrix["rows"]
                       if r["cells"][i]["state"] not in unanswered)
        expect(page, f"{column['name']} answered", row.group(1), answered)
        expect(page, f"{column['name']} total", row.group(2), tests)
    total = attr(dom, "data-count-findings", page)
    expect(page, "shown", attr(dom, "data-shown", page), total)
    expect(page, "deviation rows", dom.count("<tr data-row"), total)
    filtered, _ = load(page, "#filter:severity=crash")
    crashes = filtered.count('data-severity="crash"')
    expect(page, "shown with severity=crash", attr(filtered, "data-shown", page), crashes)
    shot = screenshot(page, out)
    conclude(before, f"{page}: {os.path.getsize(page)} bytes, {timing(dom)}, "
          f"{took:.1f} s with the browser's start; {shot}")


class Elements(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.handlers, self.scripts, self.text = set(), [], 0, []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.scripts += tag == "script"
        self.handlers += [(tag, name) for name, _ in attrs if name.startswith("on")]
        self.handlers += [(tag, name) for name, value in attrs
                          if name in ("href", "src") and value
                          and not value.startswith("#")]

    def handle_data(self, data):
        self.text.append(data)


def check_hostile(page, report_path, out):
    before = len(PROBLEMS)
    report = json.load(open(report_path))
    check_run(page, report_path, out)
    dom, _ = load(page)
    parsed = Elements()
    parsed.feed(dom)
    strange = parsed.tags - ALLOWED_TAGS
    if strange:
        problem(page, f"elements the pages are not made of: {sorted(strange)}")
    if parsed.scripts != 1:
        problem(page, f"{parsed.scripts} scripts (the page has one)")
    if parsed.handlers:
        problem(page, f"event handlers or links out: {parsed.handlers[:5]}")
    text = "".join(parsed.text)
    if report["implementation"] not in text:
        problem(page, "the hostile name is not on the page as text")
    conclude(before, f"{page}: markup check of the hostile adapter's texts")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True)
    for kind in ("run", "matrix", "findings", "hostile"):
        parser.add_argument(f"--{kind}", nargs=2, action="append", default=[],
                            metavar=("PAGE", "JSON"))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for page, report in args.run:
        check_run(page, report, args.out)
    for page, matrix in args.matrix:
        check_matrix(page, matrix, args.out)
    for page, matrix in args.findings:
        check_findings(page, matrix, args.out)
    for page, report in args.hostile:
        check_hostile(page, report, args.out)
    if PROBLEMS:
        print(f"html-report-check: {len(PROBLEMS)} problems", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
