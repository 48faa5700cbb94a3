#!/bin/sh
# Renders `gpudoctor report --html` in headless Chromium and saves a screenshot, to look at the
# page the way a reader of a ticket will, for any report options. Needs chromium (apt-get install
# chromium). The test suite takes its own screenshots and checks them
# (tests/replay/screenshot_test.cpp); this is for looking by hand.
#
# usage: tools/html-screenshot.sh GPUDOCTOR OUT.png [report options…]
#   e.g. tools/html-screenshot.sh build/gpudoctor /tmp/report.png \
#          --sysroot tests/fixtures/nvidia-driver-library-mismatch
set -eu
gpudoctor=$1
png=$2
shift 2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$gpudoctor" report --html "$dir/report.html" "$@"
# --virtual-time-budget lets layout settle; the page has no script and loads nothing.
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1200,${HEIGHT:-2400} \
  --virtual-time-budget=2000 --screenshot="$png" "file://$dir/report.html" 2>/dev/null
echo "$png"
