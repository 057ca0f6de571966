#pragma once
// Colour maps for values without colour of their own (depth images, mono16, cloud fields):
// a value in [low, high] picks a colour along the map; values outside are clamped, and
// NaN / infinite values get `invalid`.

#include <QColor>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <span>

namespace bagscope::widgets {

enum class ColourMap { Turbo, Viridis, Grey, Rainbow };

QStringList colourMapNames();  ///< in enum order, for menus
ColourMap colourMapFromName(const QString& name);
QString colourMapName(ColourMap map);

/// The map's colour at t in [0, 1] (clamped).
QColor colourAt(ColourMap map, double t);

/// RGB triplets for `values` mapped over [low, high]; NaN / ±inf become `invalid`.
void colourize(std::span<const double> values, double low, double high, ColourMap map, std::span<std::uint8_t> rgbOut,
               QColor invalid = QColor(0, 0, 0));

}  // namespace bagscope::widgets
