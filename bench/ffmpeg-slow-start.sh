#!/bin/sh
# ffmpeg that starts 150 ms later: a slower machine's ffmpeg start, emulated (issue 48's bar is stated for a
# machine where the bare start is ≥ 150 ms). `FFMPEG_PATH=bench/ffmpeg-slow-start.sh node bench/music.ts`
# makes the server's ffmpegs and the bench's bare baselines both pay it. The ffmpeg run is the one on PATH.
sleep 0.15
exec ffmpeg "$@"
