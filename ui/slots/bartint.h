#pragma once

#include <QColor>
#include <QPalette>

namespace soul {

// `palette` with its window colour a quarter of the way to `tint`: the
// pane bars' backgrounds, told apart by their tints and readable in light
// and dark palettes alike.
inline QPalette tintedWindow(QPalette palette, const QColor &tint)
{
    const QColor base = palette.color(QPalette::Window);
    palette.setColor(QPalette::Window,
                     QColor((base.red() * 3 + tint.red()) / 4,
                            (base.green() * 3 + tint.green()) / 4,
                            (base.blue() * 3 + tint.blue()) / 4));
    return palette;
}

} // namespace soul
