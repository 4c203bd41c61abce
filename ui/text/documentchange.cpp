#include "documentchange.h"

#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>

#include <algorithm>

namespace soul {

TextChange documentChange(const QTextDocument *document, QStringView text)
{
    const qsizetype length = qsizetype(document->characterCount()) - 1;
    const qsizetype shorter = qMin(length, text.size());
    const char16_t *chars = text.utf16();

    qsizetype prefix = 0;
    for (QTextBlock block = document->begin(); block.isValid() && prefix < shorter;
         block = block.next()) {
        const QString line = block.text();
        const qsizetype n = qMin(line.size(), shorter - prefix);
        const auto *own = reinterpret_cast<const char16_t *>(line.utf16());
        const qsizetype same = std::mismatch(own, own + n, chars + prefix).first - own;
        prefix += same;
        if (same < line.size() || prefix >= shorter || chars[prefix] != u'\n')
            break;
        ++prefix; // the break after the block
    }
    // A pair cut after its high half would insert or remove a lone half.
    if (prefix > 0 && QChar::isHighSurrogate(chars[prefix - 1]))
        --prefix;

    const qsizetype limit = shorter - prefix;
    qsizetype suffix = 0;
    for (QTextBlock block = document->lastBlock(); block.isValid() && suffix < limit;
         block = block.previous()) {
        const QString line = block.text();
        const qsizetype n = qMin(line.size(), limit - suffix);
        const auto *ownEnd = reinterpret_cast<const char16_t *>(line.utf16()) + line.size();
        const char16_t *end = chars + text.size() - suffix;
        qsizetype same = 0;
        while (same < n && ownEnd[-1 - same] == end[-1 - same])
            ++same;
        suffix += same;
        if (same < line.size() || suffix >= limit || !block.previous().isValid()
            || chars[text.size() - suffix - 1] != u'\n')
            break;
        ++suffix; // the break before the block
    }
    if (suffix > 0 && QChar::isLowSurrogate(chars[text.size() - suffix]))
        --suffix;

    TextChange change;
    change.position = prefix;
    change.removed = length - prefix - suffix;
    change.inserted = text.size() - prefix - suffix;
    return change;
}

bool replaceAsOneEdit(QPlainTextEdit *editor, QStringView text)
{
    QTextDocument *document = editor->document();
    const TextChange change = documentChange(document, text);
    if (change.isEmpty())
        return false;
    const int vertical = editor->verticalScrollBar()->value();
    const int horizontal = editor->horizontalScrollBar()->value();
    QTextCursor cursor(document);
    cursor.beginEditBlock();
    cursor.setPosition(int(change.position));
    cursor.setPosition(int(change.position + change.removed), QTextCursor::KeepAnchor);
    cursor.insertText(text.mid(change.position, change.inserted).toString());
    cursor.endEditBlock();
    editor->verticalScrollBar()->setValue(vertical);
    editor->horizontalScrollBar()->setValue(horizontal);
    return true;
}

} // namespace soul
