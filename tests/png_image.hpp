#pragma once
// Reads the PNG files headless Chromium writes (8 bits a channel, RGB or RGBA, not interlaced)
// into pixels, with zlib, so that a test can tell a real rendering from a blank page.
#include <zlib.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

namespace gpudoctor::test {

struct PngImage {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::vector<std::uint8_t> rgb;  ///< 3 bytes a pixel, row by row

  std::uint32_t at(std::size_t x, std::size_t y) const {
    const std::size_t i = (y * width + x) * 3;
    return (std::uint32_t{rgb[i]} << 16) | (std::uint32_t{rgb[i + 1]} << 8) | rgb[i + 2];
  }
};

inline std::uint32_t png_be32(const std::string& s, std::size_t at) {
  return (std::uint32_t(std::uint8_t(s[at])) << 24) | (std::uint32_t(std::uint8_t(s[at + 1])) << 16) |
         (std::uint32_t(std::uint8_t(s[at + 2])) << 8) | std::uint8_t(s[at + 3]);
}

/// The image, or nullopt with `why` set when the file is no PNG of that kind.
inline std::optional<PngImage> read_png(const std::string& path, std::string& why) {
  std::ifstream in(path, std::ios::binary);
  const std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (s.size() < 8 || s.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0) {
    why = "not a PNG";
    return std::nullopt;
  }
  PngImage img;
  int channels = 0;
  std::string idat;
  for (std::size_t at = 8; at + 12 <= s.size();) {
    const std::uint32_t len = png_be32(s, at);
    const std::string type = s.substr(at + 4, 4);
    if (at + 12 + len > s.size()) break;
    const std::string data = s.substr(at + 8, len);
    if (type == "IHDR" && len >= 13) {
      img.width = png_be32(data, 0);
      img.height = png_be32(data, 4);
      const int depth = std::uint8_t(data[8]), color = std::uint8_t(data[9]);
      if (depth != 8 || (color != 2 && color != 6) || data[12] != 0) {
        why = "not 8-bit RGB(A) without interlace";
        return std::nullopt;
      }
      channels = color == 6 ? 4 : 3;
    } else if (type == "IDAT") {
      idat += data;
    }
    at += 12 + len;
  }
  if (channels == 0 || img.width == 0 || img.height == 0 || img.width > 20000 ||
      img.height > 20000) {
    why = "no usable IHDR";
    return std::nullopt;
  }
  const std::size_t stride = std::size_t(img.width) * channels;
  std::vector<std::uint8_t> raw((stride + 1) * img.height);
  uLongf raw_size = raw.size();
  if (::uncompress(raw.data(), &raw_size, reinterpret_cast<const Bytef*>(idat.data()),
                   idat.size()) != Z_OK ||
      raw_size != raw.size()) {
    why = "image data does not inflate to its size";
    return std::nullopt;
  }
  // Undo the per-row filters (PNG specification, section 9).
  std::vector<std::uint8_t> prev(stride, 0), row(stride);
  img.rgb.reserve(std::size_t(img.width) * img.height * 3);
  for (std::uint32_t y = 0; y < img.height; ++y) {
    const std::uint8_t* line = &raw[y * (stride + 1)];
    const int filter = line[0];
    for (std::size_t i = 0; i < stride; ++i) {
      const int a = i >= std::size_t(channels) ? row[i - channels] : 0;
      const int b = prev[i];
      const int c = i >= std::size_t(channels) ? prev[i - channels] : 0;
      int pred = 0;
      switch (filter) {
        case 1: pred = a; break;
        case 2: pred = b; break;
        case 3: pred = (a + b) / 2; break;
        case 4: {
          const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
          pred = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
          break;
        }
        default: break;
      }
      row[i] = std::uint8_t(line[1 + i] + pred);
    }
    for (std::size_t x = 0; x < img.width; ++x) {
      for (int k = 0; k < 3; ++k) img.rgb.push_back(row[x * channels + k]);
    }
    prev.swap(row);
  }
  return img;
}

}  // namespace gpudoctor::test
