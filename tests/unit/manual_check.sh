#!/usr/bin/env bash
# The generated man page and shell completions, as a user's tools read them:
#   man -l renders gpudoctor.1 without a warning, groff -ww finds nothing to warn about;
#   the bash completion, sourced in a clean bash, answers COMP_WORDS/COMP_CWORD queries;
#   zsh and fish parse theirs (zsh -n, fish -n); zsh answers Tab on a pseudo-terminal
#   (zsh_completion_check.zsh) and fish answers `complete -C` queries.
# Usage: manual_check.sh BUILD_MANUAL_DIR
set -uo pipefail
dir=$1
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
need() { command -v "$1" >/dev/null || { echo "manual_check: $1 is missing (Debian: $2; packaging/install-deps.sh --tests installs it)" >&2; exit 1; }; }
need man man-db
need groff groff-base
need zsh zsh
need fish fish

# man: every warning groff and man-db can give, at a terminal's width.
warnings=$(MANWIDTH=80 man --warnings -l "$dir/gpudoctor.1" 2>&1 >/dev/null)
[[ -z $warnings ]] || fail "man --warnings -l: $warnings"
warnings=$(groff -ww -z -man "$dir/gpudoctor.1" 2>&1)
[[ -z $warnings ]] || fail "groff -ww: $warnings"
text=$(MANWIDTH=80 man -l "$dir/gpudoctor.1" 2>/dev/null)
for heading in NAME SYNOPSIS DESCRIPTION OPTIONS COMMANDS BACKENDS "FINDING IDS" "EXIT STATUS" \
               ENVIRONMENT FILES EXAMPLES "SEE ALSO"; do
  grep -q "^$heading\$" <<<"$text" || fail "man page has no $heading section"
done
grep -q "^   gpudoctor diff\$" <<<"$text" || fail "man page has no section for gpudoctor diff"

# bash: the completion function with the words a user typed, in a bash with no startup files.
complete_bash() {  # complete_bash WORD... ; the last word is the one being completed
  bash --norc --noprofile -c '
    source "$1"; shift
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
    _gpudoctor
    printf "%s\n" "${COMPREPLY[@]}" | sort' _ "$dir/gpudoctor.bash" "$@"
}
expect_bash() {  # expect_bash "EXPECTED (one per line)" WORD...
  local expected=$1; shift
  local got; got=$(complete_bash "$@")
  [[ $got == "$expected" ]] || fail "bash: '$*' completed to [${got//$'\n'/ }], expected [${expected//$'\n'/ }]"
}
expect_bash $'bench\ncheck\ndiff\nexplain\nquery\nreport\nsummary' gpudoctor ""
expect_bash "check" gpudoctor ch
expect_bash "--version" gpudoctor --ver
expect_bash "--no-smoke" gpudoctor check --no-s
expect_bash $'--no-redact\n--no-smoke' gpudoctor report --no-
expect_bash "pci,opencl" gpudoctor query --backend pci,op
expect_bash "opencl" gpudoctor query --backend = op
expect_bash $'always\nauto' gpudoctor check --color a
expect_bash $'cuda\nlevel_zero\nmetal\nopencl\nrocm\nvulkan' gpudoctor bench --backend ""
expect_bash "nvidia.nouveau_bound" gpudoctor explain nvidia.nou
expect_bash $'cuda.driver_too_old' gpudoctor explain cuda.dr
expect_bash "" gpudoctor check --timeout ""
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/root-dir" && touch "$tmp/root-file.json"
expect_bash "$tmp/root-dir" gpudoctor check --sysroot "$tmp/root"
expect_bash $'/dev/null' gpudoctor check --from /dev/nul
expect_bash $"$tmp/root-dir"$'\n'"$tmp/root-file.json" gpudoctor diff "$tmp/root"

# zsh and fish: parsed, then asked: zsh through its line editor on a pty, fish with complete -C.
zsh -n "$dir/_gpudoctor" || fail "zsh -n _gpudoctor"
zsh -f "$(dirname "$0")/zsh_completion_check.zsh" "$dir" || fail "zsh completion"
fish -n "$dir/gpudoctor.fish" || fail "fish -n gpudoctor.fish"
complete_fish() { fish --no-config -c 'source $argv[1]; complete -C $argv[2] | string replace -r "\t.*" ""' "$dir/gpudoctor.fish" "$1" | sort; }
expect_fish() {
  local got; got=$(complete_fish "$2")
  [[ $got == "$1" ]] || fail "fish: '$2' completed to [${got//$'\n'/ }], expected [${1//$'\n'/ }]"
}
expect_fish $'bench\ncheck\ndiff\nexplain\nquery\nreport\nsummary' "gpudoctor "
expect_fish "--no-smoke" "gpudoctor check --no-s"
expect_fish "--backend=pci,opencl" "gpudoctor check --backend=pci,op"
expect_fish "nvidia.nouveau_bound" "gpudoctor explain nvidia.nou"
expect_fish $'always\nauto\nnever' "gpudoctor check --color "

if ((failures)); then
  echo "manual_check: $failures failed" >&2
  exit 1
fi
echo "manual_check: man page and completions pass"
