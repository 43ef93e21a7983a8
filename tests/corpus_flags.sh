# Sourced by the corpus scripts (bash): the `// run-flags:` and `// env:` lines of a program as
# arrays, never through the shell's expansion: flags are split at blanks without globbing, and an
# env word must be NAME=VALUE (so `env` can never take one for a command to run).
# read_corpus_flags FILE: sets `flag_words` and `env_words`; returns 1 (with a message on
# stderr) when an env word is not an assignment.
read_corpus_flags() {
  local line word
  flag_words=()
  env_words=()
  line=$(sed -n 's|^// run-flags: *||p' "$1" | head -n 1)
  read -r -a flag_words <<<"$line"
  while IFS= read -r line; do
    local words=()
    read -r -a words <<<"$line"
    for word in "${words[@]}"; do
      if [[ ! "$word" =~ ^[A-Za-z_][A-Za-z0-9_]*= ]]; then
        echo "FAIL $1: \`// env:\` takes NAME=VALUE words, not \`$word\`" >&2
        return 1
      fi
      env_words+=("$word")
    done
  done < <(sed -n 's|^// env: *||p' "$1")
  return 0
}
