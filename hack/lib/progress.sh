# progress.sh: shell helpers that say what a long step does while it runs.
# Source it; it defines:
#
#   progress_run NAME LOG CMD...   runs CMD with its output in LOG, and
#       meanwhile reports "NAME: 1m20s elapsed": on a terminal (stderr) one
#       line redrawn every second, otherwise a line every 15 seconds. Ends
#       with "NAME: done in ..." or "NAME: FAILED after ... (log: LOG)" and
#       LOG's last lines; returns CMD's exit status.
#
# The messages go to stderr, so a script's stdout stays its result.

# progress_prefix is written before every line (e.g. "demo.sh: ").
progress_prefix="${progress_prefix:-}"

progress_fmt() { # seconds -> 1h2m3s / 2m3s / 3s
  local s=$1
  if [ "$s" -ge 3600 ]; then printf '%dh%dm%ds' $((s / 3600)) $((s % 3600 / 60)) $((s % 60))
  elif [ "$s" -ge 60 ]; then printf '%dm%ds' $((s / 60)) $((s % 60))
  else printf '%ds' "$s"; fi
}

progress_run() {
  local name="$1" log="$2"
  shift 2
  local live=0 start=$SECONDS last=$SECONDS pid rc
  if [ -t 2 ] && [ "${TERM:-dumb}" != dumb ]; then live=1; fi
  mkdir -p "$(dirname "$log")"
  "$@" >"$log" 2>&1 &
  pid=$!
  if [ "$live" = 0 ]; then echo "${progress_prefix}$name: started (log: $log)" >&2; fi
  while kill -0 "$pid" 2>/dev/null; do
    if [ "$live" = 1 ]; then
      printf '\r\033[K%s%s: %s elapsed' "$progress_prefix" "$name" "$(progress_fmt $((SECONDS - start)))" >&2
    elif [ $((SECONDS - last)) -ge 15 ]; then
      echo "${progress_prefix}$name: $(progress_fmt $((SECONDS - start))) elapsed" >&2
      last=$SECONDS
    fi
    sleep 1
  done
  rc=0
  wait "$pid" || rc=$?
  if [ "$live" = 1 ]; then printf '\r\033[K' >&2; fi
  if [ "$rc" = 0 ]; then
    echo "${progress_prefix}$name: done in $(progress_fmt $((SECONDS - start)))" >&2
  else
    echo "${progress_prefix}$name: FAILED after $(progress_fmt $((SECONDS - start))) (exit $rc; log: $log); its last lines:" >&2
    tail -n 20 "$log" >&2
  fi
  return "$rc"
}
