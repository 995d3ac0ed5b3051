#!/usr/bin/env python3
"""Runs the composite GitHub Action (action.yml) as GitHub would, and checks what it leaves.

Usage: scripts/action-test.py [--install]   (needs PyYAML: .ci/requirements.txt; .ci/run uses a venv)

Each step of action.yml runs in order with the variables a runner sets (GITHUB_ACTION_PATH,
GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_PATH, RUNNER_TEMP, RUNNER_OS), its `env:` evaluated
from the inputs and the earlier steps' outputs, and `bash --noprofile --norc -eo pipefail`.
`actions/cache` is played by this script: by default the cache holds a bip37-conform built
here under the key the `key` step computed (a cache hit; `cargo build` is cheap after
`cargo test`); with --install the cache is empty, so the install step runs `cargo install
--locked` (a release build, minutes). Scenarios: a conformant implementation (exit 0), a failing
one (exit 1, failures in JUnit and the summary), the same with an expectations file (exit 0),
selection options with quotes, unbalanced quotes and an adapter that cannot start (exit 2, the
summary says why).
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

import yaml

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INSTALL = "--install" in sys.argv[1:]


def fail(message):
    sys.exit(f"action-test: {message}")


def build_binary():
    subprocess.run(
        ["cargo", "build", "-q", "-p", "bip37-conform"],
        cwd=REPO,
        check=True,
    )
    return os.path.join(REPO, "target", "debug", "bip37-conform")


def read_outputs(path):
    outputs = {}
    with open(path) as f:
        for line in f:
            if "=" in line:
                name, value = line.rstrip("\n").split("=", 1)
                outputs[name] = value
    return outputs


def evaluate(text, inputs, steps):
    """Replaces ${{ inputs.x }} and ${{ steps.id.outputs.y }} as GitHub's expressions do."""

    def value(match):
        expression = match.group(1).strip()
        parts = expression.split(".")
        if parts[0] == "inputs":
            return inputs.get(parts[1], "")
        if parts[0] == "steps" and parts[2] == "outputs":
            return steps.get(parts[1], {}).get(parts[3], "")
        fail(f"cannot evaluate ${{{{ {expression} }}}}")

    return re.sub(r"\$\{\{(.*?)\}\}", value, str(text))


def run_action(work, inputs, cached_binary):
    """Runs every step; returns (exit code of the last step run, step outputs, summary text)."""
    with open(os.path.join(REPO, "action.yml")) as f:
        action = yaml.safe_load(f)
    defaults = {k: str(v.get("default", "")) for k, v in action["inputs"].items()}
    inputs = {**defaults, **inputs}
    for name, spec in action["inputs"].items():
        if spec.get("required") and not inputs.get(name):
            fail(f"input {name} is required")
    files = {name: os.path.join(work, name) for name in ("output", "summary", "path")}
    for path in files.values():
        open(path, "w").close()
    temp = os.path.join(work, "runner-temp")
    os.makedirs(temp)
    workspace = os.path.join(work, "workspace")
    os.makedirs(workspace)
    # Only what the runner image has: no bip37-conform on PATH until the action adds it.
    path = os.pathsep.join(
        d for d in os.environ["PATH"].split(os.pathsep) if not os.path.exists(os.path.join(d, "bip37-conform"))
    )
    steps, code, uploaded = {}, 0, []
    for step in action["runs"]["steps"]:
        if "uses" in step and step["uses"].startswith("actions/upload-artifact@"):
            # Reached only after a passing run here (a failed step ends the loop); GitHub runs it
            # after a failing one too (`if: always()`). The page it uploads must be there.
            page = evaluate(step["with"]["path"], inputs, steps)
            if page and not os.path.isfile(os.path.join(workspace, page)):
                fail(f"the upload step names {page!r}, which the run did not write")
            uploaded.append(page)
            continue
        if "uses" in step:
            if not step["uses"].startswith("actions/cache@"):
                fail(f"unexpected action {step['uses']}")
            root = evaluate(step["with"]["path"], inputs, steps)
            key = evaluate(step["with"]["key"], inputs, steps)
            if not root.startswith(temp) or not key:
                fail(f"the cache step got path {root!r} and key {key!r}")
            if cached_binary:
                os.makedirs(os.path.join(root, "bin"))
                shutil.copy(cached_binary, os.path.join(root, "bin", "bip37-conform"))
                with open(os.path.join(root, "key"), "w") as f:
                    f.write(key + "\n")
            continue
        env = {
            **os.environ,
            "PATH": path,
            "GITHUB_ACTION_PATH": REPO,
            "GITHUB_OUTPUT": files["output"],
            "GITHUB_STEP_SUMMARY": files["summary"],
            "GITHUB_PATH": files["path"],
            "RUNNER_TEMP": temp,
            "RUNNER_OS": "Linux",
        }
        for name, value in step.get("env", {}).items():
            env[name] = evaluate(value, inputs, steps)
        open(files["output"], "w").close()
        result = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
            cwd=workspace,
            env=env,
            capture_output=True,
            text=True,
        )
        sys.stderr.write(result.stdout + result.stderr)
        steps[step.get("id", "")] = read_outputs(files["output"])
        with open(files["path"]) as f:
            added = [line.strip() for line in f if line.strip()]
        path = os.pathsep.join(added[::-1] + [path])
        code = result.returncode
        if code != 0:
            break
    with open(files["summary"]) as f:
        summary = f.read()
    return code, steps, summary, workspace


def junit_counts(path):
    root = ET.parse(path).getroot()
    suites = [root] if root.tag == "testsuite" else root.findall("testsuite")
    return (
        sum(int(s.get("tests")) for s in suites),
        sum(int(s.get("failures")) for s in suites),
    )


def main():
    binary = None if INSTALL else build_binary()
    # Found on the PATH the install step adds, as a workflow would find it.
    serve = "bip37-conform serve"
    with tempfile.TemporaryDirectory() as tmp:

        def scenario(name, inputs, expected_code):
            work = os.path.join(tmp, name)
            os.makedirs(work)
            code, steps, summary, workspace = run_action(work, inputs, binary)
            if code != expected_code:
                fail(f"{name}: exit {code}, expected {expected_code}")
            outputs = steps.get("run", {})
            if outputs.get("exit-code") != str(expected_code):
                fail(f"{name}: output exit-code={outputs.get('exit-code')!r}")
            return outputs, summary, workspace

        outputs, summary, workspace = scenario(
            "conformant", {"implementation": serve, "selection": "--op murmur3"}, 0
        )
        tests, failures = junit_counts(os.path.join(workspace, outputs["junit"]))
        if tests < 20 or failures != 0:
            fail(f"conformant: JUnit has {tests} tests, {failures} failures")
        if "**conformant" not in summary or f"{tests} tests" not in summary:
            fail(f"conformant: the job summary is {summary!r}")
        page = os.path.join(workspace, outputs.get("html", ""))
        if outputs.get("html") != "bip37-report.html" or not os.path.isfile(page):
            fail(f"conformant: no HTML report ({outputs.get('html')!r})")
        if "artifact `bip37-report`" not in summary:
            fail(f"conformant: the job summary does not name the HTML report: {summary!r}")

        failing = serve + " --mutant murmur-tail"
        outputs, summary, workspace = scenario(
            "failing",
            {
                "implementation": failing,
                "selection": "--op murmur3 --id 'murmur3/core-*'",
                "junit": "reports/junit.xml",
                "markdown": "reports/summary.md",
                "html": "",
            },
            1,
        )
        if outputs.get("html") != "" or os.path.exists(os.path.join(workspace, "bip37-report.html")):
            fail(f"failing: an HTML report though none was asked for: {outputs.get('html')!r}")
        tests, failures = junit_counts(os.path.join(workspace, "reports/junit.xml"))
        if failures == 0 or tests >= 26:
            fail(f"failing: JUnit has {tests} tests, {failures} failures")
        if "murmur3/core-" not in summary or "MurmurTail" not in summary:
            fail(f"failing: the summary does not show the failures: {summary[:500]!r}")
        with open(os.path.join(workspace, "reports/summary.md")) as f:
            if f.read() not in summary:
                fail("failing: the summary is not the Markdown report")

        expectations = os.path.join(tmp, "expectations.toml")
        installed = os.path.join(tmp, "conformant", "runner-temp", "bip37-conform", "bin")
        subprocess.run(
            ["bip37-conform", "run", "--impl", failing, "--op", "murmur3", "--format", "tap"]
            + ["--expectations", expectations, "--update-expectations"],
            capture_output=True,
            env={**os.environ, "PATH": installed + os.pathsep + os.environ["PATH"]},
        )
        scenario(
            "expected",
            {"implementation": failing, "selection": "--op murmur3", "expectations": expectations},
            0,
        )

        bad = {"implementation": serve, "selection": "--id 'unbalanced"}
        _, summary, _ = scenario("bad-selection", bad, 2)
        if "cannot split the selection" not in summary:
            fail(f"bad-selection: the summary does not say why: {summary!r}")

        _, summary, _ = scenario("no-start", {"implementation": "/nonexistent/adapter"}, 2)
        if "no report (exit 2)" not in summary or "/nonexistent/adapter" not in summary:
            fail(f"no-start: the summary does not say why: {summary!r}")
    how = "installed with cargo install" if INSTALL else "from a primed cache"
    print(f"action-test: action.yml's steps pass, fail, honour expectations and explain a failed start ({how})")


if __name__ == "__main__":
    main()
