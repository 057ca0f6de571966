#include "widgets/panels/colour_map.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace bagscope::widgets {
namespace {

// Each map as evenly spaced stops, interpolated linearly (sRGB). Turbo and Viridis stops
// sample the published maps (Google's Turbo, matplotlib's Viridis) at 9 points.
using Stops = std::array<std::array<std::uint8_t, 3>, 9>;
constexpr Stops kTurbo{{{48, 18, 59},
                        {70, 107, 227},
                        {40, 188, 235},
                        {50, 242, 152},
                        {164, 252, 60},
                        {237, 208, 58},
                        {251, 128, 34},
                        {208, 47, 5},
                        {122, 4, 3}}};
constexpr Stops kViridis{{{68, 1, 84},
                          {71, 45, 123},
                          {59, 82, 139},
                          {44, 114, 142},
                          {33, 145, 140},
                          {40, 174, 128},
                          {94, 201, 98},
                          {173, 220, 48},
                          {253, 231, 37}}};
constexpr Stops kGrey{{{0, 0, 0},
                       {32, 32, 32},
                       {64, 64, 64},
                       {96, 96, 96},
                       {128, 128, 128},
                       {159, 159, 159},
                       {191, 191, 191},
                       {223, 223, 223},
                       {255, 255, 255}}};
constexpr Stops kRainbow{{{0, 0, 255},
                          {0, 128, 255},
                          {0, 255, 255},
                          {0, 255, 128},
                          {0, 255, 0},
                          {128, 255, 0},
                          {255, 255, 0},
                          {255, 128, 0},
                          {255, 0, 0}}};

const Stops& stopsOf(ColourMap map) {
  switch (map) {
    case ColourMap::Turbo: return kTurbo;
    case ColourMap::Viridis: return kViridis;
    case ColourMap::Grey: return kGrey;
    case ColourMap::Rainbow: return kRainbow;
  }
  return kTurbo;
}

void colourAt(const Stops& stops, double t, std::uint8_t* rgb) {
  t = std::clamp(t, 0.0, 1.0) * static_cast<double>(stops.size() - 1);
  auto i = std::min(static_cast<std::size_t>(t), stops.size() - 2);
  double f = t - static_cast<double>(i);
  for (int c = 0; c < 3; ++c)
    rgb[c] = static_cast<std::uint8_t>(std::lround(stops[i][c] + f * (stops[i + 1][c] - stops[i][c])));
}

}  // namespace

QStringList colourMapNames() {
  return {QStringLiteral("Turbo"), QStringLiteral("Viridis"), QStringLiteral("Grey"), QStringLiteral("Rainbow")};
}

ColourMap colourMapFromName(const QString& name) {
  auto i = colourMapNames().indexOf(name);
  return i < 0 ? ColourMap::Turbo : static_cast<ColourMap>(i);
}

QString colourMapName(ColourMap map) { return colourMapNames().value(static_cast<int>(map)); }

QColor colourAt(ColourMap map, double t) {
  std::uint8_t rgb[3];
  colourAt(stopsOf(map), t, rgb);
  return QColor(rgb[0], rgb[1], rgb[2]);
}

void colourize(std::span<const double> values, double low, double high, ColourMap map, std::span<std::uint8_t> rgbOut,
               QColor invalid) {
  const Stops& stops = stopsOf(map);
  double span = high > low ? high - low : 1.0;
  for (std::size_t i = 0; i < values.size() && 3 * i + 2 < rgbOut.size(); ++i) {
    std::uint8_t* rgb = &rgbOut[3 * i];
    if (!std::isfinite(values[i])) {
      rgb[0] = static_cast<std::uint8_t>(invalid.red());
      rgb[1] = static_cast<std::uint8_t>(invalid.green());
      rgb[2] = static_cast<std::uint8_t>(invalid.blue());
      continue;
    }
    colourAt(stops, (values[i] - low) / span, rgb);
  }
}

}  // namespace bagscope::widgets
