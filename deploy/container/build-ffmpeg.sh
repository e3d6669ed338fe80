#!/bin/sh
# Builds ffmpeg and ffprobe into /opt/ffmpeg from Debian's source package of the running release (Debian's
# patches and security updates included), with only what Guildhall uses (docs/operations.md, "Containers"):
#   music:   the common audio decoders and containers, HTTPS and HLS input (GnuTLS), ffconcat scripts on stdin
#            (the warm decoders, music/warm-decoders.ts), the bot's filters
#            (music/ffmpeg.ts: effects, equaliser, loudnorm/ebur128, volume, limiter), Opus in Ogg out;
#   posters: the common video decoders and containers (AV1 through libdav1d), scale, PNG out
#            (files/thumbnails/video.ts);
#   checks:  the lavfi input with sine/testsrc (the container test feeds the real chains with them).
# Debian's own ffmpeg package would bring ≈ 250 MB of codec, device and GPU libraries the portal never loads.
set -eu
export DEBIAN_FRONTEND=noninteractive

# Source entries beside the binary ones, on the same mirror (one-line or deb822 style).
if [ -f /etc/apt/sources.list ]; then sed -n 's/^deb /deb-src /p' /etc/apt/sources.list > /etc/apt/sources.list.d/src.list; fi
for f in /etc/apt/sources.list.d/*.sources; do
  if [ -f "$f" ]; then sed 's/^Types: deb$/Types: deb-src/' "$f" > "${f%.sources}-src.sources"; fi
done
apt-get update -qq
apt-get install -y -qq --no-install-recommends ca-certificates dpkg-dev build-essential nasm pkg-config \
  libopus-dev libdav1d-dev libgnutls28-dev zlib1g-dev >/dev/null

mkdir -p /build/src
cd /build/src
apt-get source -qq ffmpeg >/dev/null 2>&1
cd ffmpeg-*/

./configure --prefix=/opt/ffmpeg --disable-debug --disable-doc --disable-ffplay --disable-autodetect \
  --enable-gnutls --enable-libopus --enable-libdav1d --enable-zlib \
  --disable-hwaccels --disable-devices --enable-indev=lavfi \
  --disable-encoders --enable-encoder=libopus,png,mjpeg,pcm_s16le,pcm_f32le,wrapped_avframe \
  --disable-muxers --enable-muxer=ogg,opus,null,image2,image2pipe,wav,pcm_s16le,pcm_f32le \
  --disable-decoders \
  --enable-decoder='aac*,ac3*,eac3,alac,als,ape,dca,flac,mlp,truehd,mp1*,mp2*,mp3*,opus,vorbis,wavpack,tta,wma*,amrnb,amrwb,gsm*,pcm_*,adpcm_*,dsd_*' \
  --enable-decoder='h264,hevc,vp8,vp9,libdav1d,mpeg4,mpeg1video,mpeg2video,h263,h263p,msmpeg4*,wmv*,vc1,theora,mjpeg,prores,dnxhd,png,gif,flv,vp6*,rv30,rv40,cinepak,hap,webp' \
  --disable-demuxers \
  --enable-demuxer='concat,mov,matroska,webm_dash_manifest,ogg,mp3,aac,ac3,eac3,dts,truehd,flac,wav,w64,aiff,caf,ape,wv,tta,asf,amr,au,hls,mpegts,mpegps,avi,flv,live_flv,h264,hevc,m4v,mpegvideo,image2,image2pipe,png_pipe,jpeg_pipe,webp_pipe,gif,dsf,loas,mlp' \
  --disable-filters \
  --enable-filter='aresample,asetrate,atempo,bass,treble,equalizer,aecho,apulsator,volume,loudnorm,ebur128,alimiter,aformat,anull,atrim,asplit,amix,sine,anullsrc,scale,format,null,trim,hflip,vflip,transpose,setpts,fps,testsrc' \
  >/dev/null
make -j"$(nproc)" >/dev/null
make install >/dev/null
strip /opt/ffmpeg/bin/ffmpeg /opt/ffmpeg/bin/ffprobe
/opt/ffmpeg/bin/ffmpeg -hide_banner -version | head -1
