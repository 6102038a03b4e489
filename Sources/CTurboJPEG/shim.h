// libjpeg-turbo's TurboJPEG API (Debian libturbojpeg0-dev, Homebrew jpeg-turbo): the JPEG decoder
// OpenCV, Pillow and MediaPipe users get, so our pixels equal theirs byte for byte.
#pragma once
#include <stddef.h>
#include <turbojpeg.h>
