#!/bin/sh
# ffmpeg on a slower CPU: every ffmpeg started through this runs in one cgroup whose CPU bandwidth is
# BENCH_FFMPEG_CPU_PCT % of one core (default 50), shared by all of them, so its start (loading its libraries,
# opening the input) and its decoding are slower the way a slower machine's are, unlike ffmpeg-slow-start.sh's
# fixed sleep. `FFMPEG_PATH=bench/ffmpeg-slow-cpu.sh node bench/music.ts` (as root: it writes the cgroup;
# cgroup v2 at /sys/fs/cgroup, or v1's cpu controller at /sys/fs/cgroup/cpu). The ffmpeg run is the one on PATH.
pct="${BENCH_FFMPEG_CPU_PCT:-50}"
if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
  g=/sys/fs/cgroup/guildhall-slow-ffmpeg
  mkdir -p "$g" 2>/dev/null
  echo "$((pct * 100)) 10000" > "$g/cpu.max"
  echo $$ > "$g/cgroup.procs"
else
  g=/sys/fs/cgroup/cpu/guildhall-slow-ffmpeg
  mkdir -p "$g" 2>/dev/null
  echo 10000 > "$g/cpu.cfs_period_us"
  echo "$((pct * 100))" > "$g/cpu.cfs_quota_us"
  echo $$ > "$g/tasks"
fi
exec ffmpeg "$@"
