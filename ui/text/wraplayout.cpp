#include "wraplayout.h"

#include <QFontDatabase>
#include <QFontMetrics>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>

#include <climits>

namespace soul {

WrapLayout::WrapLayout(QTextDocument *document)
    : QPlainTextDocumentLayout(document)
{}

QRectF WrapLayout::blockBoundingRect(const QTextBlock &block) const
{
    // A block with lines is laid out; the base class only measures it then.
    if (block.isValid() && block.layout()->lineCount() == 0)
        layOut(block);
    return QPlainTextDocumentLayout::blockBoundingRect(block);
}

void WrapLayout::layOut(const QTextBlock &block) const
{
    QTextDocument *doc = document();
    const qreal margin = doc->documentMargin();
    QTextLayout *layout = block.layout();
    const QTextOption option = doc->defaultTextOption();
    layout->setTextOption(option);
    qreal extraMargin = 0;
    if (option.flags() & QTextOption::AddSpaceForLineAndParagraphSeparators)
        extraMargin = QFontMetrics(block.charFormat().font()).horizontalAdvance(QChar(0x21B5));
    const int viewportWidth = m_viewport ? m_viewport->width() : 0;
    const qreal width = viewportWidth > 0 ? qreal(viewportWidth) : qreal(INT_MAX);
    const qreal lineWidth = width - 2 * margin - extraMargin;

    qreal height = 0;
    layout->beginLayout();
    for (QTextLine line = layout->createLine(); line.isValid(); line = layout->createLine()) {
        line.setLeadingIncluded(true);
        line.setLineWidth(lineWidth);
        line.setPosition(QPointF(margin, height));
        height += line.height();
        if (line.leading() < 0)
            height += qCeil(line.leading());
    }
    layout->endLayout();
    ++m_laidOut;

    const int linesBefore = doc->lineCount();
    QTextBlock(block).setLineCount(block.isVisible() ? layout->lineCount() : 0);
    // The scroll bars follow the line count. Told from the event loop: the
    // editor asks for rectangles while it adjusts them, and must not be told
    // of a change from inside.
    if (doc->lineCount() != linesBefore && !m_sizeChangePending) {
        m_sizeChangePending = true;
        auto *self = const_cast<WrapLayout *>(this);
        QMetaObject::invokeMethod(
            self,
            [self] {
                self->m_sizeChangePending = false;
                Q_EMIT self->documentSizeChanged(self->documentSize());
            },
            Qt::QueuedConnection);
    }
}

WrapLayout *makeLargeTextView(QPlainTextEdit *view)
{
    auto *doc = new QTextDocument(view);
    auto *layout = new WrapLayout(doc);
    doc->setDocumentLayout(layout);
    view->setDocument(doc);
    layout->setViewport(view->viewport());
    view->setReadOnly(true);
    view->setUndoRedoEnabled(false);
    doc->setUndoRedoEnabled(false);
    view->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    view->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    view->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    return layout;
}

} // namespace soul
