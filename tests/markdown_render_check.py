#!/usr/bin/env python3
"""`gpudoctor report --markdown -` rendered as GitHub would render a comment (a ctest).

    markdown_render_check.py GPUDOCTOR FIXTURES

Renders the block of a broken fixture machine, a healthy one and a Mac with markdown-it-py
(CommonMark with tables, python3-markdown-it) and, where it is installed, cmark; checks that the
diagnosis comes first (the heading, then the areas' table with one row per area), that the
machine is inside one collapsed <details> whose <summary> says it is redacted, that the machine's
text is one code block inside it, that no text from the machine became HTML, and that the block
stays under GitHub's 65,536 characters. Exits 77 (skipped) when no renderer is installed.
"""
import html
import json
import os
import re
import shutil
import subprocess
import sys

GITHUB_COMMENT_LIMIT = 65536
failures = []


def render_markdown_it(text):
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": True}).enable("table").render(text)


def render_cmark(text):
    return subprocess.run(["cmark", "--unsafe"], input=text.encode(), capture_output=True,
                          check=True).stdout.decode()


def check(name, block, report, render, renderer):
    out = render(block)
    where = f"{name} ({renderer})"
    if len(block) >= GITHUB_COMMENT_LIMIT:
        failures.append(f"{where}: {len(block)} characters, over a GitHub comment")
    heading = out.find("<h3>gpudoctor:")
    details = out.find("<details>")
    if heading != 0:
        failures.append(f"{where}: does not open with the diagnosis heading: {out[:120]!r}")
    if details < 0 or out.count("<details>") != 1 or "</details>" not in out:
        failures.append(f"{where}: not one collapsed <details> section")
        return
    summary = re.search(r"<summary>(.*?)</summary>", out)
    if not summary or "redacted" not in summary.group(1):
        failures.append(f"{where}: the <summary> does not say the machine is redacted")
    inside = out[details:out.rfind("</details>")]
    if inside.count("<pre><code") != 1:
        failures.append(f"{where}: the machine is not one code block inside <details>")
    before = out[:details]
    for f in report["findings"]:
        if f["severity"] in ("fail", "warn") and html.escape(f["id"], quote=False) not in before:
            failures.append(f"{where}: problem {f['id']} is not in the diagnosis before the machine")
    if renderer == "markdown-it":
        rows = re.findall(r"<tr>", before)
        if len(rows) != len(report["areas"]) + 1:
            failures.append(f"{where}: {len(rows) - 1} rows for {len(report['areas'])} areas")
    # No text from the machine became markup: every tag is one the block writes itself.
    tags = set(re.findall(r"</?([a-z0-9]+)", out))
    allowed = {"h3", "table", "thead", "tbody", "tr", "th", "td", "p", "strong", "em", "ul", "li",
               "code", "pre", "details", "summary", "sub", "a", "br"}
    if tags - allowed:
        failures.append(f"{where}: unexpected tags {sorted(tags - allowed)}")


def main():
    gpudoctor, fixtures = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    renderers = []
    try:
        render_markdown_it("x")
        renderers.append(("markdown-it", render_markdown_it))
    except ImportError:
        # python3-markdown-it is installed for the system's Python, which may not be the one
        # CMake found (a pyenv shim): run there instead.
        system = "/usr/bin/python3"
        if os.path.realpath(sys.executable) != os.path.realpath(system) and os.path.exists(system):
            if subprocess.run([system, "-c", "import markdown_it"], capture_output=True).returncode == 0:
                os.execv(system, [system] + sys.argv)
    if shutil.which("cmark"):
        renderers.append(("cmark", render_cmark))
    if not renderers:
        print("no Markdown renderer (python3-markdown-it or cmark): skipped")
        return 77
    machines = ["rtx5090-torch-cu121-no-sm120", "corpus-healthy-vllm-8x-a800",
                "mac-m1-miniforge-tf-metal", "nvidia-driver-library-mismatch"]
    for m in machines:
        root = os.path.join(fixtures, m)
        if not os.path.isdir(root):
            continue
        block = subprocess.run([gpudoctor, "report", "--sysroot", root, "--markdown", "-"],
                               capture_output=True, check=True).stdout.decode()
        report = json.loads(subprocess.run([gpudoctor, "report", "--sysroot", root],
                                           capture_output=True, check=True).stdout)
        for renderer, render in renderers:
            check(m, block, report, render, renderer)
    for f in failures:
        print("FAIL:", f)
    print(f"{len(machines)} machines, {len(renderers)} renderers, {len(failures)} problems")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
