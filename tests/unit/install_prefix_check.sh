#!/usr/bin/env bash
# The installed man page names the files where this install put them: `cmake --install` with a
# prefix other than the configured one (--prefix), and with DESTDIR staging (the path in the page
# is the prefix, not the staging directory). Usage: install_prefix_check.sh BUILD_DIR
set -uo pipefail
build=$1
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
configured=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$build/CMakeCache.txt")

# 1. --prefix other than the configured one.
prefix="$tmp/opt/gpu-doctor"
cmake --install "$build" --component man --prefix "$prefix" >/dev/null || fail "cmake --install --prefix"
page="$prefix/share/man/man1/gpudoctor.1"
if [[ -f $page ]]; then
  grep -qF ".I $prefix/share/gpudoctor/report.schema.json" "$page" || fail "$page does not name $prefix/share/gpudoctor/report.schema.json"
  grep -qxF ".I $prefix/share/doc/gpudoctor" "$page" || fail "$page does not name $prefix/share/doc/gpudoctor"
  grep -q "@GPUDOCTOR_" "$page" && fail "$page keeps a placeholder"
  if [[ $configured != "$prefix" ]] && grep -qF "$configured/share/gpudoctor" "$page"; then
    fail "$page names the configured prefix $configured"
  fi
  if command -v man >/dev/null; then
    warnings=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
    [[ -z $warnings ]] || fail "man --warnings -l $page: $warnings"
    MANWIDTH=80 man -l "$page" 2>/dev/null | grep -qF "$prefix/share/gpudoctor/report.schema.json" \
      || fail "man -l $page does not show the schema's path"
  fi
else
  fail "cmake --install --prefix $prefix wrote no $page"
fi

# 2. DESTDIR staging: the page is under the staging directory, its paths are the prefix's.
DESTDIR="$tmp/stage" cmake --install "$build" --component man --prefix /opt/gd >/dev/null || fail "DESTDIR cmake --install"
page="$tmp/stage/opt/gd/share/man/man1/gpudoctor.1"
if [[ -f $page ]]; then
  grep -qF ".I /opt/gd/share/gpudoctor/report.schema.json" "$page" || fail "$page does not name /opt/gd/share/gpudoctor/report.schema.json"
  grep -qF "$tmp/stage" "$page" && fail "$page names the DESTDIR staging directory"
else
  fail "DESTDIR=$tmp/stage cmake --install --prefix /opt/gd wrote no $page"
fi

if ((failures)); then
  echo "install_prefix_check: $failures failed" >&2
  exit 1
fi
echo "install_prefix_check: the installed man page follows --prefix and DESTDIR"
