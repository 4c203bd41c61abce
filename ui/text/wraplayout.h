#pragma once

#include <QPlainTextDocumentLayout>
#include <QWidget>

class QPlainTextEdit;

namespace soul {

// The layout of a QPlainTextEdit that wraps at the widget's width (the preview
// and the slot panes): QPlainTextDocumentLayout, except that it does not keep
// track of the document's widest line. QPlainTextDocumentLayout does, and
// when the block it holds for the widest gets narrower (a line typed into
// wraps, the cut at the cap moves) it measures every block of the document to
// find the next widest, giving each its QTextLayout for good: some 70 MiB and
// a stalled keystroke for the 300,000 lines of a 14 MiB soul, 12 MiB for a
// 2 MiB pane. Text that wraps at the widget's width has no horizontal scroll
// bar, so the widest line is never used.
//
// Blocks are laid out here, as QPlainTextDocumentLayout lays them out, when
// their rectangle is first asked for, which is how the editor, its painting
// and its scroll bars reach them.
class WrapLayout : public QPlainTextDocumentLayout
{
    Q_OBJECT

public:
    // Owned by `document`; install it with QTextDocument::setDocumentLayout(),
    // then hand the document to the editor with QPlainTextEdit::setDocument().
    explicit WrapLayout(QTextDocument *document);

    // The editor's viewport, whose width QPlainTextEdit gives its layout as
    // the text width when it wraps at the widget's width.
    void setViewport(const QWidget *viewport) { m_viewport = viewport; }

    QRectF blockBoundingRect(const QTextBlock &block) const override;

    // Blocks laid out so far (for tests).
    qint64 laidOutBlocks() const { return m_laidOut; }

private:
    void layOut(const QTextBlock &block) const;

    const QWidget *m_viewport = nullptr;
    mutable qint64 m_laidOut = 0;
    mutable bool m_sizeChangePending = false;
};

// Makes `view` a read-only view of a large text (the preview of the soul or
// of what a runtime injects): a new document laid out by a WrapLayout, no
// undo, wrapped at the widget's width, in the system's fixed font, its
// vertical scroll bar always on, since a width change (a scroll bar that
// appears with the text) gives every block of the document a QTextLayout
// (QPlainTextDocumentLayout::setTextWidth): tens of MiB for megabytes of
// text. Returns the layout, owned by the document.
WrapLayout *makeLargeTextView(QPlainTextEdit *view);

} // namespace soul
