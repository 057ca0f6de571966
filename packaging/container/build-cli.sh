#!/bin/sh
# The container's build stage (packaging/container/Dockerfile), also runnable in any Debian 12
# root: a small OpenCV (core, imgproc, imgcodecs, videoio; PNG and JPEG; no FFmpeg, GStreamer,
# GDAL, TIFF, ...) built static from Debian's own source package, then the bagscope-cli .deb
# linked against it. Debian's shared OpenCV would pull in ~570 MB (GDAL, FFmpeg, GStreamer).
# Video: AVI (MJPG) through OpenCV's built-in writer; MP4 needs FFmpeg, so the image has none.
# usage: build-cli.sh SOURCE_DIR   -> SOURCE_DIR/build/cli/bagscope-cli_<version>_<arch>.deb
set -eu
src=$1
export DEBIAN_FRONTEND=noninteractive
echo "deb-src http://deb.debian.org/debian bookworm main" > /etc/apt/sources.list.d/deb-src.list
apt-get update -qq
apt-get install -y -q --no-install-recommends \
  build-essential cmake ninja-build pkg-config git ca-certificates dpkg-dev file \
  libbz2-dev liblz4-dev libzstd-dev libsqlitecpp-dev libsqlite3-dev libyaml-cpp-dev nlohmann-json3-dev libprotobuf-dev libmuparser-dev \
  libjpeg-dev libpng-dev zlib1g-dev libdeflate-dev

work=$(mktemp -d)
cd "$work"
apt-get source -q opencv
opencv_src=$(find "$work" -maxdepth 1 -type d -name 'opencv-*' | head -1)
cmake -S "$opencv_src" -B "$work/opencv-build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_INSTALL_PREFIX=/opt/opencv -DBUILD_SHARED_LIBS=OFF -DBUILD_LIST=core,imgproc,imgcodecs,videoio \
  -DWITH_JPEG=ON -DWITH_PNG=ON -DBUILD_JPEG=OFF -DBUILD_PNG=OFF -DBUILD_ZLIB=OFF \
  -DWITH_FFMPEG=OFF -DWITH_GSTREAMER=OFF -DWITH_V4L=OFF -DWITH_1394=OFF -DWITH_GTK=OFF -DWITH_QT=OFF \
  -DWITH_TIFF=OFF -DWITH_WEBP=OFF -DWITH_OPENJPEG=OFF -DWITH_JASPER=OFF -DWITH_OPENEXR=OFF -DWITH_GDAL=OFF \
  -DWITH_GDCM=OFF -DWITH_IMGCODEC_HDR=OFF -DWITH_IMGCODEC_SUNRASTER=OFF -DWITH_IMGCODEC_PXM=OFF \
  -DWITH_IMGCODEC_PFM=OFF -DWITH_IPP=OFF -DWITH_ITT=OFF -DWITH_OPENCL=OFF -DWITH_LAPACK=OFF -DWITH_EIGEN=OFF \
  -DWITH_PROTOBUF=OFF -DWITH_ADE=OFF -DWITH_TBB=OFF -DWITH_OPENMP=OFF -DWITH_VA=OFF -DWITH_VA_INTEL=OFF \
  -DWITH_OBSENSOR=OFF -DWITH_QUIRC=OFF -DBUILD_TESTS=OFF -DBUILD_PERF_TESTS=OFF -DBUILD_EXAMPLES=OFF \
  -DBUILD_opencv_apps=OFF -DBUILD_JAVA=OFF -DBUILD_opencv_python3=OFF -DOPENCV_GENERATE_PKGCONFIG=OFF
cmake --build "$work/opencv-build"
cmake --install "$work/opencv-build"

cd "$src"
cmake --preset cli -DOpenCV_DIR=/opt/opencv/lib/cmake/opencv4
cmake --build --preset cli
cpack --preset cli
rm -rf "$work"
