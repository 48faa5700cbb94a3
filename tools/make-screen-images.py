#!/usr/bin/env python3
"""The screenshots in docs/screens/*.png: what a person sees, as images.

  tools/make-screen-images.py [build/gpudoctor]

For a healthy machine, a broken one and the seeds' Macs (fixtures under tests/fixtures):
  - a terminal at 80 columns: gpudoctor run by script(1) on a pseudo-terminal set to 80 columns,
    in colour, its bytes drawn as a terminal draws them (SGR colours, one cell per character);
    a line wider than 80 columns runs past the window's right edge, where it shows;
  - the HTML report (`report --html`), as a browser shows it;
  - the Markdown block (`report --markdown -`) rendered as GitHub renders a comment (CommonMark
    with tables and raw HTML, so the <details> section is collapsed), in GitHub's light style.
Pages are drawn by headless Chromium and trimmed to their content; the PNGs are quantised
(pngquant) to keep them small. Needs: chromium, python3-pil, python3-markdown-it, pngquant
(Debian packages). Paths of this checkout are written as relative ones.
"""
import html
import os
import re
import shutil
import subprocess
import sys
import tempfile

from PIL import Image, ImageChops

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "docs", "screens")
FX = os.path.join(ROOT, "tests", "fixtures")
BIN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "gpudoctor"))

HEALTHY = "server-h100-torch-cu124"
BROKEN = "rtx5090-torch-cu121-no-sm120"
SEED_MAC = "mac-hackintosh-rx570-tf-metal"      # seed 000
SEED_MAC_CUDA = "mac-highsierra-gtx750ti-cuda"  # seed 002
APPLE_MAC = "mac-m1-miniforge-tf-metal"         # seed 003

# The variables each fixture's person had set, for the trees that record none
# (.gpudoctor/environment.txt), as tools/make-screens.sh gives them.
ENVIRONMENTS = {
    HEALTHY: ["CONDA_PREFIX=/opt/conda", "HOME=/home/user", "PATH=/opt/conda/bin:/usr/bin:/bin"],
    BROKEN: ["VIRTUAL_ENV=/home/user/berkeley-humanoid-lite/.venv", "HOME=/home/user",
             "PATH=/usr/local/bin:/usr/bin:/bin"],
}

# (png name, fixture, gpudoctor arguments after the sysroot, LANG)
TERMINALS = [
    ("term-healthy-h100.png", HEALTHY, ["check"], "C.UTF-8"),
    ("term-broken-rtx5090.png", BROKEN, ["check"], "C.UTF-8"),
    ("term-broken-rtx5090-verbose.png", BROKEN, ["check", "-v"], "C.UTF-8"),
    ("term-broken-rtx5090-quiet-lang-c.png", BROKEN, ["check", "-q"], "C"),
    ("term-query-rtx5090.png", BROKEN, ["query"], "C.UTF-8"),
    ("term-mac-hackintosh-rx570.png", SEED_MAC, ["check"], "C.UTF-8"),
    ("term-mac-highsierra-gtx750ti.png", SEED_MAC_CUDA, ["check"], "C.UTF-8"),
    ("term-mac-m1-tf-metal.png", APPLE_MAC, ["check"], "C.UTF-8"),
]
REPORTS = [
    ("healthy-h100", HEALTHY),
    ("broken-rtx5090", BROKEN),
    ("mac-hackintosh-rx570", SEED_MAC),
]

# xterm's default 16 colours, as most terminals ship them (dark background).
PALETTE = ["#000000", "#cd3131", "#0dbc79", "#e5e510", "#2472c8", "#bc3fbc", "#11a8cd", "#e5e5e5",
           "#666666", "#f14c4c", "#23d18b", "#f5f543", "#3b8eea", "#d670d6", "#29b8db", "#ffffff"]
FG, BG = "#d4d4d4", "#1e1e1e"


def relative(text):
    return text.replace(ROOT + "/", "")


def fixture_args(fixture):
    """The extra arguments of the fixture's replay.txt first run line, if any."""
    path = os.path.join(FX, fixture, "replay.txt")
    if not os.path.exists(path):
        return []
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if line and not line.startswith("#"):
            return [w for w in line.split() if "=" not in w or w.startswith("-")]
    return []


def fixture_env(fixture):
    return ENVIRONMENTS.get(fixture, ["HOME=/nonexistent", "PATH=/usr/bin:/bin"])


def run_terminal(args, lang, fixture):
    """gpudoctor on a pseudo-terminal 80 columns wide (standard output and error); its bytes as
    the terminal received them."""
    quoted = " ".join("'" + a.replace("'", "'\\''") + "'" for a in [BIN] + args)
    cmd = (f"stty cols 80 rows 50; env -i {' '.join(fixture_env(fixture))} LANG={lang} "
           f"TERM=xterm-256color {quoted}")
    out = subprocess.run(["script", "-q", "-e", "-c", cmd, "/dev/null"], capture_output=True,
                         cwd=ROOT).stdout
    return relative(out.decode("utf-8", "replace").replace("\r", ""))


SGR = re.compile(r"\x1b\[([0-9;]*)m")
OTHER_ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


def ansi_to_html(text):
    """SGR colours and bold as spans; every other escape dropped."""
    text = OTHER_ESCAPE.sub(lambda m: m.group(0) if m.group(0).endswith("m") else "", text)
    out, pos = [], 0
    fg, bold, dim, open_span = None, False, False, False
    for m in SGR.finditer(text):
        out.append(html.escape(text[pos:m.start()]))
        pos = m.end()
        codes = [int(c) if c else 0 for c in m.group(1).split(";")]
        i = 0
        while i < len(codes):
            c = codes[i]
            if c == 0:
                fg, bold, dim = None, False, False
            elif c == 1:
                bold = True
            elif c == 2:
                dim = True
            elif c == 22:
                bold = dim = False
            elif 30 <= c <= 37:
                fg = PALETTE[c - 30]
            elif 90 <= c <= 97:
                fg = PALETTE[c - 90 + 8]
            elif c == 39:
                fg = None
            elif c == 38 and i + 2 < len(codes) and codes[i + 1] == 5:
                n = codes[i + 2]
                fg = PALETTE[n] if n < 16 else None
                i += 2
            i += 1
        if open_span:
            out.append("</span>")
            open_span = False
        style = []
        if fg:
            style.append(f"color:{PALETTE[PALETTE.index(fg) + 8] if bold and PALETTE.index(fg) < 8 else fg}")
        if bold:
            style.append("font-weight:bold")
        if dim:
            style.append("opacity:.65")
        if style:
            out.append(f'<span style="{";".join(style)}">')
            open_span = True
    out.append(html.escape(text[pos:]))
    if open_span:
        out.append("</span>")
    return "".join(out)


def terminal_page(prompt, body):
    return f"""<!doctype html><meta charset="utf-8"><style>
html,body{{margin:0;background:#f0f0f0}}
.win{{display:inline-block;margin:12px;border-radius:8px;overflow:visible;
     box-shadow:0 2px 10px rgba(0,0,0,.35);background:{BG}}}
.bar{{height:26px;background:#3c3c3c;border-radius:8px 8px 0 0;color:#ccc;font:12px sans-serif;
     line-height:26px;text-align:center;position:relative}}
.bar i{{position:absolute;top:8px;width:11px;height:11px;border-radius:50%}}
pre{{margin:0;padding:10px 12px 14px;width:80ch;color:{FG};white-space:pre;overflow:visible;
    font:14px/18px 'DejaVu Sans Mono',monospace}}
.p{{color:#23d18b}}
</style><div class="win"><div class="bar"><i style="left:10px;background:#ff5f56"></i>
<i style="left:27px;background:#ffbd2e"></i><i style="left:44px;background:#27c93f"></i>
80 columns</div><pre><span class="p">$</span> {html.escape(prompt)}
{body}</pre></div>"""


GITHUB_CSS = """
body{margin:0;background:#fff}
.c{width:850px;margin:16px;border:1px solid #d0d7de;border-radius:6px}
.h{background:#f6f8fa;border-bottom:1px solid #d0d7de;padding:8px 16px;border-radius:6px 6px 0 0;
   font:14px -apple-system,'Segoe UI','Noto Sans','DejaVu Sans',sans-serif;color:#57606a}
.markdown-body{padding:16px;font:14px/1.5 -apple-system,'Segoe UI','Noto Sans','DejaVu Sans',
   sans-serif;color:#1f2328;word-wrap:break-word}
.markdown-body h1,.markdown-body h2,.markdown-body h3{font-weight:600;line-height:1.25;
   margin:24px 0 16px}
.markdown-body h1{font-size:2em;border-bottom:1px solid #d8dee4;padding-bottom:.3em}
.markdown-body h2{font-size:1.5em;border-bottom:1px solid #d8dee4;padding-bottom:.3em}
.markdown-body h3{font-size:1.25em}
.markdown-body>:first-child{margin-top:0}
.markdown-body p,.markdown-body ul,.markdown-body ol,.markdown-body table,.markdown-body pre,
.markdown-body details{margin:0 0 16px}
.markdown-body ul,.markdown-body ol{padding-left:2em}
.markdown-body table{border-collapse:collapse;display:block;width:max-content;max-width:100%;
   overflow:auto}
.markdown-body td,.markdown-body th{border:1px solid #d0d7de;padding:6px 13px}
.markdown-body th{font-weight:600}
.markdown-body tr:nth-child(2n){background:#f6f8fa}
.markdown-body code{font:85% ui-monospace,'DejaVu Sans Mono',monospace;background:rgba(175,184,193,.2);
   padding:.2em .4em;border-radius:6px}
.markdown-body pre{background:#f6f8fa;border-radius:6px;padding:16px;overflow:auto;
   font:85%/1.45 ui-monospace,'DejaVu Sans Mono',monospace}
.markdown-body pre code{background:none;padding:0;font-size:100%}
.markdown-body summary{cursor:pointer}
.markdown-body a{color:#0969da;text-decoration:none}
"""


def markdown_page(markdown, title):
    from markdown_it import MarkdownIt
    # GitHub: CommonMark plus tables, strikethrough and autolinks, raw HTML allowed (sanitised:
    # <details>/<summary> kept).
    body = MarkdownIt("commonmark", {"html": True, "linkify": False}).enable(
        ["table", "strikethrough"]).render(markdown)
    return (f'<!doctype html><meta charset="utf-8"><style>{GITHUB_CSS}</style>'
            f'<div class="c"><div class="h"><b>{html.escape(title)}</b> commented</div>'
            f'<div class="markdown-body">{body}</div></div>')


def env_of(fixture):
    env = dict(v.split("=", 1) for v in fixture_env(fixture))
    env["LANG"] = "C.UTF-8"
    return env


def screenshot(page_path, png, width, height):
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--force-device-scale-factor=1", f"--user-data-dir={profile}",
             f"--window-size={width},{height}", f"--screenshot={png}", "file://" + page_path],
            capture_output=True, check=True, timeout=180)


def trim(png, background, max_height=None):
    """Cut the page's empty right and bottom; keep at most max_height pixels of it."""
    img = Image.open(png).convert("RGB")
    if background is None:
        background = img.getpixel((img.width - 1, img.height - 1))  # the page's own background
    diff = ImageChops.difference(img, Image.new("RGB", img.size, background))
    box = diff.getbbox()
    if box:
        right = min(img.width, box[2] + 12)
        bottom = min(img.height, box[3] + 12)
        if max_height:
            bottom = min(bottom, max_height)
        img = img.crop((0, 0, right, bottom))
    img.save(png)
    if shutil.which("pngquant"):
        subprocess.run(["pngquant", "--force", "--skip-if-larger", "--output", png, "64", png],
                       check=False)
    return img.size


def main():
    if not os.path.exists(BIN):
        sys.exit(f"no {BIN}: build gpudoctor first")
    work = tempfile.mkdtemp(prefix="gpudoctor-screens-")
    made = []
    for png, fixture, args, lang in TERMINALS:
        sysroot = os.path.join("tests", "fixtures", fixture)
        # Run from the checkout with the tree's relative path, as a person would type it.
        full = args + ["--color", "always", "--sysroot", sysroot] + fixture_args(fixture)
        text = run_terminal(full, lang, fixture)
        shown = " ".join(["gpudoctor"] + args + ["--sysroot", sysroot] + fixture_args(fixture))
        page = os.path.join(work, png + ".html")
        with open(page, "w", encoding="utf-8") as f:
            f.write(terminal_page(shown, ansi_to_html(text)))
        lines = text.count("\n") + 3
        out = os.path.join(OUT, png)
        screenshot(page, out, 1000, 60 + 18 * lines)
        made.append((png, trim(out, (240, 240, 240))))
    for name, fixture in REPORTS:
        sysroot = os.path.join(FX, fixture)
        extra = fixture_args(fixture)
        report_html = os.path.join(work, name + "-report.html")
        subprocess.run([BIN, "report", "--sysroot", sysroot, *extra, "--html", report_html],
                       capture_output=True, cwd=work, env=env_of(fixture))
        out = os.path.join(OUT, f"html-{name}.png")
        screenshot(report_html, out, 1000, 4000)
        made.append((f"html-{name}.png", trim(out, None, 2400)))
        md = subprocess.run([BIN, "report", "--sysroot", sysroot, *extra, "--markdown", "-"],
                            capture_output=True, cwd=work,
                            env=env_of(fixture)).stdout.decode()
        page = os.path.join(work, name + "-ticket.html")
        with open(page, "w", encoding="utf-8") as f:
            f.write(markdown_page(relative(md), "gpudoctor user"))
        out = os.path.join(OUT, f"ticket-{name}.png")
        screenshot(page, out, 900, 3000)
        made.append((f"ticket-{name}.png", trim(out, (255, 255, 255))))
    shutil.rmtree(work)
    for png, size in made:
        print(f"{png}: {size[0]}x{size[1]}, {os.path.getsize(os.path.join(OUT, png)) // 1024} KiB")


if __name__ == "__main__":
    main()
