#pragma once

#include "runtime/keptrange.h"

#include <QList>
#include <QPlainTextEdit>
#include <QString>

class QLabel;

namespace soul {

class WrapLayout;

// What a runtime that does not compose by sections injects, read-only, as the
// preview shows it: the text exactly, wrapped at the widget's width by a
// WrapLayout, so that a text of megabytes (Hermes injects its memory files
// whole) gets a layout only for the lines that are shown. For a runtime whose
// text is blocks of a larger prompt (Hermes's four persona blocks), each
// block's name and exact tokens stand in a header over the text, for the
// block at the top, and in the blank line before each block, which also marks
// where the runtime puts other blocks of its prompt. The marks are painted,
// not text: the text stays what the runtime injects, byte for byte.
class RuntimeTextView : public QPlainTextEdit
{
    Q_OBJECT

public:
    struct Block
    {
        KeptRange range;  // in the text, UTF-16 units
        QString label;    // "memory (MEMORY.md) · 1,234 tokens"
        QString gapAfter; // what the runtime puts after it; empty: nothing
    };

    explicit RuntimeTextView(QWidget *parent = nullptr);

    // Shows `text` as displayText() shows it, in place of the
    // text shown now: only what lies between their common start and end is
    // replaced (one range edit, scroll kept) and made display text, so a
    // keystroke in a text of megabytes costs what it changed. When the two
    // texts also share a long stretch inside that range (a memory block's
    // header changes with each keystroke in its entries), the parts before
    // and after the stretch are replaced apart.
    void showText(const QString &text, bool invisibles);
    // Shows nothing and hands the text's memory back (megabytes for Hermes's
    // memory files), as when another runtime's preview takes the view.
    void clearText();
    // The text shown, as given (not its display text).
    const QString &text() const { return m_text; }
    // The blocks of the text shown, in its order; none for a runtime whose
    // text is not blocks of a prompt.
    void setBlocks(const QList<Block> &blocks);
    const QList<Block> &blocks() const { return m_blocks; }

    // The header over the text: the block at the top of the view, and what
    // the runtime puts after it.
    QLabel *header() const { return m_header; }
    // The line painted in the blank line before block `index` (1 and up):
    // what the runtime puts there, if anything, and the block's label.
    QString joinText(qsizetype index) const;

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void refreshHeader();
    void placeHeader();
    // The block a text position belongs to; a join belongs to the block
    // after it.
    qsizetype blockAt(qsizetype position) const;

    WrapLayout *m_layout = nullptr;
    QLabel *m_header = nullptr;
    QString m_text;
    bool m_invisibles = false;
    QList<Block> m_blocks;
};

} // namespace soul
