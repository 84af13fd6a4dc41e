#!/usr/bin/env bash
# Small-job benchmark: the whole process of `bin/lakeops compact` (launcher, JVM start to exit) on
# the demo's 500-file, 46 MiB table. Usage, from anywhere:
#
#   benchmarks/small-job.sh [runs] [work directory]        (defaults: 3, benchmarks/target/small-job)
#
# The first call makes the table with `bin/lakeops demo` and keeps a pristine copy of it as it was
# before the demo's own compaction. Every run starts from that copy (restored outside the timing),
# is timed with /usr/bin/time and checked: exit code 0, 500 -> 10 files, every byte merged without
# decoding, the snapshot's record count. One line per run, with the load average at its start.
# LAKEOPS_JAVA_OPTS and LAKEOPS_QUICK_START pass through to the launcher.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${1:-3}"
work="$(mkdir -p "${2:-$root/benchmarks/target/small-job}" && cd "${2:-$root/benchmarks/target/small-job}" && pwd)"
pristine="$work/pristine"
warehouse="$work/warehouse"
command -v /usr/bin/time >/dev/null || { echo "small-job.sh: needs /usr/bin/time (Debian package: time)" >&2; exit 2; }

if [ ! -d "$pristine/demo/events" ]; then
  echo "small-job.sh: making the 500-file demo table in $pristine ..." >&2
  rm -rf "$pristine"
  "$root/bin/lakeops" demo --files 500 --rows-per-file 4200 --warehouse "$pristine" >/dev/null
  # Back to the state before the demo's compaction: the metadata version that added the last
  # append (later versions hold the compaction and its table lock), and nothing written after it.
  python3 - "$pristine/demo/events/metadata" <<'EOF'
import json, os, sys
meta = sys.argv[1]
table = os.path.dirname(meta)
versions = sorted(int(name[1:-len(".metadata.json")]) for name in os.listdir(meta)
                  if name.startswith("v") and name.endswith(".metadata.json"))
def current(version):
    m = json.load(open(os.path.join(meta, "v%d.metadata.json" % version)))
    found = [s for s in m.get("snapshots", []) if s["snapshot-id"] == m.get("current-snapshot-id")]
    return found[0] if found else None
snapshots = {v: current(v) for v in versions}
last_append = snapshots[max(v for v, s in snapshots.items() if s and s["summary"]["operation"] == "append")]
keep = min(v for v, s in snapshots.items() if s and s["snapshot-id"] == last_append["snapshot-id"])
cutoff = os.path.getmtime(os.path.join(meta, "v%d.metadata.json" % keep))
for directory, _, names in os.walk(table):
    for name in names:
        path = os.path.join(directory, name)
        if os.path.getmtime(path) > cutoff or name == ".version-hint.text.crc":
            os.remove(path)
with open(os.path.join(meta, "version-hint.text"), "w") as hint:
    hint.write(str(keep))
EOF
  rm -rf "$pristine/.lakeops"
fi

for run in $(seq 1 "$runs"); do
  rm -rf "$warehouse" && cp -a "$pristine" "$warehouse" && sync
  load="$(cut -d' ' -f1-3 /proc/loadavg | tr ' ' /)"
  status=0
  /usr/bin/time -o "$work/time.txt" -f '%e %U %S %M' \
    "$root/bin/lakeops" compact demo.events --warehouse "$warehouse" --json >"$work/out.json" 2>"$work/err.txt" || status=$?
  read -r wall user sys rss < <(tail -1 "$work/time.txt")
  checks="$(python3 - "$work/out.json" "$warehouse/demo/events/metadata" <<'EOF'
import json, os, sys
try:
    out = json.load(open(sys.argv[1]))
except ValueError:
    print("no-json"); sys.exit()
meta = sys.argv[2]
version = open(os.path.join(meta, "version-hint.text")).read().strip()
m = json.load(open(os.path.join(meta, "v%s.metadata.json" % version)))
current = [s for s in m["snapshots"] if s["snapshot-id"] == m["current-snapshot-id"]][0]
ok = (out["input_files"], out["output_files"]) == (500, 10) and out["decoded_bytes"] == 0 \
    and current["summary"].get("total-records") == "2100000"
print("%d->%d files, %d bytes decode-free, %s records, %s" % (out["input_files"], out["output_files"],
    out["copied_bytes"], current["summary"].get("total-records"), "ok" if ok else "WRONG"))
EOF
)"
  printf 'run %s: load %s, wall %s s, CPU %s s (user %s, sys %s), peak RSS %s KB, exit %s, %s\n' \
    "$run" "$load" "$wall" "$(echo "$user + $sys" | bc)" "$user" "$sys" "$rss" "$status" "$checks"
  [ "$status" = 0 ] || sed 's/^/  stderr: /' "$work/err.txt" | tail -5
done
