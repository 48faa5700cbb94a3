# The zsh completion, asked through zsh's own line editor on a pseudo-terminal (zsh/zpty):
# type a command line, press Tab, read what the line became.
#   zsh -f zsh_completion_check.zsh DIR     (DIR holds _gpudoctor)
zmodload zsh/zpty zsh/datetime
zpty z zsh -f -i
zpty -w z "fpath=($1 \$fpath); autoload -U compinit; compinit -u -D; PS1='%% '; bindkey -e; zstyle ':completion:*' menu no"
typeset -i n=0 failures=0
typeset got
read_until() {  # read_until PATTERN: what the terminal shows, until PATTERN or 10 s
  local chunk deadline=$((EPOCHREALTIME + 10))
  got=""
  while ((EPOCHREALTIME < deadline)); do
    if zpty -r -t z chunk; then
      got+=$chunk
      [[ $got == $~1 ]] && return 0
    else
      sleep 0.02
    fi
  done
  return 1
}
sync() {  # a command whose output (not its echo: SY''NC) comes after everything before it
  zpty -w z "print SY''NC$n"
  read_until "*SYNC$n*" || { print -u2 "zsh_completion_check: zsh does not answer"; exit 1; }
}
ask() {  # ask INPUT EXPECTED: type INPUT, press Tab, expect EXPECTED on the line
  n+=1
  zpty -w -n z "$1"$'\t'
  if ! read_until "*${(b)2}*"; then
    print -u2 "FAIL: zsh: '$1<Tab>' did not give '$2': ${(q+)got}"
    failures+=1
  fi
  zpty -w -n z $'\C-e\C-u'
  sync
}
sync
ask 'gpudoctor expl' 'gpudoctor explain'
ask 'gpudoctor explain nvidia.nou' 'nvidia.nouveau_bound'
ask 'gpudoctor check --no-sm' '--no-smoke'
ask 'gpudoctor check --color=al' '--color=always'
ask 'gpudoctor query --backend=pci,ope' 'pci,opencl'
ask 'gpudoctor report --htm' '--html'
zpty -d z
((failures == 0)) || exit 1
print "zsh: $n completions pass"
