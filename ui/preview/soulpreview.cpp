#include "soulpreview.h"

#include "compose/displaytext.h"
#include "compose/utf8.h"
#include "diff/rangeplan.h"
#include "heap.h"
#include "previewmarks.h"
#include "text/wraplayout.h"

#include <QContextMenuEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QResizeEvent>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextCursor>

#include <climits>
#include <cstring>

namespace soul {

namespace {

bool isContinuation(char c)
{
    return (uchar(c) & 0xC0) == 0x80;
}

// UTF-16 code units of valid UTF-8: one per lead byte, two for a 4-byte lead.
int utf16Length(QByteArrayView bytes)
{
    const auto *p = reinterpret_cast<const uchar *>(bytes.data());
    const auto *end = p + bytes.size();
    qsizetype units = 0;
    for (; p != end; ++p)
        units += ((*p & 0xC0) != 0x80) + (*p >= 0xF0);
    return int(units);
}

// Keeps the scroll position across an edit of the document.
class ScrollKeeper
{
public:
    explicit ScrollKeeper(QPlainTextEdit *edit)
        : m_edit(edit)
        , m_vertical(edit->verticalScrollBar()->value())
        , m_horizontal(edit->horizontalScrollBar()->value())
    {}
    ~ScrollKeeper()
    {
        m_edit->verticalScrollBar()->setValue(m_vertical);
        m_edit->horizontalScrollBar()->setValue(m_horizontal);
    }
    ScrollKeeper(const ScrollKeeper &) = delete;
    ScrollKeeper &operator=(const ScrollKeeper &) = delete;

private:
    QPlainTextEdit *m_edit = nullptr;
    int m_vertical = 0;
    int m_horizontal = 0;
};

// How far from an edit updateSection() looks for a line break to include.
constexpr qsizetype LineBreakReach = 4096;

// Qt lays out a paragraph whole, in time that grows with the square of its
// length when it has nowhere to wrap: a line of 1,000,000 characters takes
// over a minute. The preview shows the first ShownLineBytes of a line longer
// than LongLineBytes and says how much it leaves out; the pane has it all.
constexpr qsizetype LongLineBytes = 8192;

// Above this many characters a width change empties the preview and builds it
// again after a pause instead of laying it out again (see resizeEvent()).
constexpr int RebuildOnResizeCharacters = 1 << 20;
constexpr int ResizeRebuildDelayMs = 150;
constexpr qsizetype ShownLineBytes = 2048;

} // namespace

std::optional<QByteArray> SoulPreview::shown(std::optional<QByteArray> section)
{
    if (!section)
        return section;
    const QByteArray &bytes = *section;
    const qsizetype n = bytes.size();
    qsizetype start = 0;
    qsizetype end = 0;
    for (; start < n; start = end + 1) {
        end = bytes.indexOf('\n', start);
        if (end < 0)
            end = n;
        if (end - start > LongLineBytes)
            break;
    }
    if (start >= n)
        return section; // no long line: shown as it is, not copied

    QByteArray out;
    out.reserve(n < 16 * LongLineBytes ? n : 16 * LongLineBytes);
    qsizetype copied = 0;
    for (; start < n; start = end + 1) {
        end = bytes.indexOf('\n', start);
        if (end < 0)
            end = n;
        if (end - start <= LongLineBytes)
            continue;
        qsizetype cut = start + ShownLineBytes;
        while (isContinuation(bytes[cut]))
            --cut;
        qsizetype left = 0; // characters after the cut: one per lead byte
        for (qsizetype i = cut; i < end; ++i)
            left += !isContinuation(bytes[i]);
        out.append(bytes.constData() + copied, cut - copied);
        out.append(tr(" … [%n more character(s) on this line, not shown here; the pane shows "
                      "them all]",
                      nullptr,
                      int(qMin<qint64>(left, INT_MAX)))
                       .toUtf8());
        copied = end;
    }
    out.append(bytes.constData() + copied, n - copied);
    return out;
}

SoulPreview::SoulPreview(const PersonaModel *model, QWidget *parent)
    : QPlainTextEdit(parent)
    , m_model(model)
    , m_join(QString::fromUtf8(model->rule().sectionJoin))
    , m_joinLength(int(m_join.size()))
{
    m_layout = makeLargeTextView(this);
    setAccessibleName(tr("Composed soul preview"));
    setAccessibleDescription(tr("Read-only. Press Enter or double-click in a section to go to "
                                "its pane."));
    connect(verticalScrollBar(), &QScrollBar::valueChanged, this, &SoulPreview::refreshMarks);
    m_resizeRebuild.setSingleShot(true);
    m_resizeRebuild.setInterval(ResizeRebuildDelayMs);
    connect(&m_resizeRebuild, &QTimer::timeout, this, &SoulPreview::rebuild);
}

void SoulPreview::setView(SoulView view)
{
    if (view == m_view)
        return;
    m_view = view;
    rebuild();
}

void SoulPreview::setShowInvisibles(bool show)
{
    if (show == m_showInvisibles)
        return;
    m_showInvisibles = show;
    rebuild();
}

void SoulPreview::setSuspended(bool suspended)
{
    if (suspended == m_suspended)
        return;
    m_suspended = suspended;
    if (suspended) {
        m_resizeRebuild.stop();
        m_sections = {};
        m_length16 = {};
        document()->clear();
        releaseFreeMemory();
        m_stale = true;
    } else if (m_stale) {
        rebuild();
    }
}

void SoulPreview::rebuild()
{
    m_resizeRebuild.stop();
    if (m_suspended) {
        m_stale = true;
        return;
    }
    m_stale = false;
    ScrollKeeper keeper(this);
    const ComposeRule &rule = m_model->rule();
    for (int k = 0; k < SlotCount; ++k) {
        m_sections[size_t(k)] = m_model->isOpen() && rule.composes(k)
                                    ? shown(m_model->section(k, m_view))
                                    : std::nullopt;
        const std::optional<QByteArray> &section = m_sections[size_t(k)];
        m_length16[size_t(k)] = section ? utf16Length(*section) : 0;
    }
    // Section by section into one edit block, so at most one section (not
    // the whole soul, 28 MiB as UTF-16 when large) is held outside the
    // document while it fills. Undo is off: nothing is recorded.
    document()->clear();
    QTextCursor cursor(document());
    cursor.beginEditBlock();
    bool first = true;
    for (const int k : rule.order) {
        const std::optional<QByteArray> &section = m_sections[size_t(k)];
        if (!section)
            continue;
        if (!first)
            cursor.insertText(m_join);
        first = false;
        cursor.insertText(displayText(utf8::decode(*section), m_showInvisibles));
    }
    cursor.endEditBlock();
    refreshMarks();
    ++m_rebuilds;
    Q_EMIT updated();
}

int SoulPreview::lengthOf(int slot) const
{
    return m_length16.at(size_t(slot));
}

int SoulPreview::sectionOffset(int slot) const
{
    if (!m_sections.at(size_t(slot)))
        return -1;
    int offset = 0;
    for (const int k : m_model->rule().order) {
        if (k == slot)
            break;
        if (m_sections[size_t(k)])
            offset += lengthOf(k) + m_joinLength;
    }
    return offset;
}

int SoulPreview::sectionAt(int position) const
{
    const QList<int> &order = m_model->rule().order;
    int offset = 0;
    for (const int k : order) {
        if (!m_sections[size_t(k)])
            continue;
        if (position < offset + lengthOf(k) + m_joinLength)
            return k;
        offset += lengthOf(k) + m_joinLength;
    }
    for (auto it = order.crbegin(); it != order.crend(); ++it) {
        if (m_sections[size_t(*it)])
            return *it;
    }
    return -1;
}

void SoulPreview::updateSection(int slot)
{
    if (m_suspended)
        return; // rebuilt whole when shown again
    if (m_resizeRebuild.isActive())
        return; // the rebuild takes every section as it is then
    std::optional<QByteArray> next = m_model->rule().composes(slot)
                                         ? shown(m_model->section(slot, m_view))
                                         : std::nullopt;
    std::optional<QByteArray> &current = m_sections[size_t(slot)];
    if (!current && !next)
        return;
    if (current && next && *current == *next) {
        current = std::move(next);
        return;
    }

    bool before = false;
    bool after = false;
    int start = 0; // where section `slot` starts, or would start
    bool passed = false;
    for (const int k : m_model->rule().order) {
        if (k == slot)
            passed = true;
        if (!m_sections[size_t(k)] || k == slot)
            continue;
        if (!passed) {
            before = true;
            start += lengthOf(k) + m_joinLength;
        } else {
            after = true;
        }
    }

    ScrollKeeper keeper(this);
    QTextCursor cursor(document());
    cursor.beginEditBlock();
    if (current && next) {
        const QByteArrayView a(*current);
        const QByteArrayView b(*next);
        // Replaced through the line break after each edit (see
        // planRangeEdits()), so a change spans two blocks and
        // QPlainTextDocumentLayout only marks the line for layout instead of
        // laying it out now. Laid out off screen, an edited line can become
        // the document's widest, and when the widest line narrows the layout
        // measures every block, giving each a QTextLayout: 60 MiB and a
        // stalled keystroke on a 14 MiB soul. A line break farther than
        // LineBreakReach is not looked for: a huge line costs more to insert
        // again than it saves.
        const QList<RangeEdit> edits = planRangeEdits(a, b, LineBreakReach);
        const int total = lengthOf(slot);
        // Back to front, so each edit's place in the old text still holds.
        for (auto edit = edits.crbegin(); edit != edits.crend(); ++edit) {
            const int removedLength = utf16Length(a.sliced(edit->from, edit->removed));
            // Count the shorter of the two untouched ends.
            const qsizetype end = edit->from + edit->removed;
            const int ahead = edit->from <= a.size() - end
                                  ? utf16Length(a.first(edit->from))
                                  : total - removedLength - utf16Length(a.sliced(end));
            const int from = start + ahead;
            const QString text = displayText(utf8::decode(b.sliced(edit->to, edit->inserted)),
                                             m_showInvisibles);
            cursor.setPosition(from);
            cursor.setPosition(from + removedLength, QTextCursor::KeepAnchor);
            cursor.insertText(text);
            m_length16[size_t(slot)] += int(text.size()) - removedLength;
        }
    } else if (next) {
        const QString body = displayText(utf8::decode(*next), m_showInvisibles);
        if (before) {
            cursor.setPosition(start - m_joinLength);
            cursor.insertText(m_join + body);
        } else {
            cursor.setPosition(0);
            cursor.insertText(after ? body + m_join : body);
        }
        m_length16[size_t(slot)] = int(body.size());
    } else {
        const int length = lengthOf(slot);
        if (before) {
            cursor.setPosition(start - m_joinLength);
            cursor.setPosition(start + length, QTextCursor::KeepAnchor);
        } else {
            cursor.setPosition(0);
            cursor.setPosition(length + (after ? m_joinLength : 0), QTextCursor::KeepAnchor);
        }
        cursor.removeSelectedText();
        m_length16[size_t(slot)] = 0;
    }
    cursor.endEditBlock();
    current = std::move(next);
    refreshMarks();
    ++m_rangeEdits;
    Q_EMIT updated();
}

void SoulPreview::refreshMarks()
{
    PreviewMarks marks;
    for (int k = 0; k < SlotCount; ++k) {
        const int offset = sectionOffset(k);
        if (offset >= 0)
            marks.addHeader(document(), offset);
    }
    if (m_showInvisibles)
        marks.addInvisibles(this);
    setExtraSelections(marks.selections());
}

void SoulPreview::resizeEvent(QResizeEvent *event)
{
    // A new width makes QPlainTextDocumentLayout give every block a
    // QTextLayout, kept until the text is replaced, and measure them all: for
    // a 14 MiB soul some 90 MiB and two seconds at every resize. A large
    // document is emptied instead (the width then changes on nothing) and
    // built again once the resizing pauses; its new blocks are laid out only
    // when shown.
    // Shown again after being hidden, the widget gets the resizes it missed
    // as one with no old size; the width it had is then the one to compare.
    const int oldWidth = event->oldSize().isValid() ? event->oldSize().width() : m_width;
    m_width = event->size().width();
    if (oldWidth >= 0 && event->size().width() != oldWidth
        && (m_resizeRebuild.isActive()
            || document()->characterCount() > RebuildOnResizeCharacters)) {
        if (!m_resizeRebuild.isActive()) {
            for (std::optional<QByteArray> &section : m_sections)
                section.reset();
            m_length16.fill(0);
            document()->clear();
        }
        m_resizeRebuild.start();
    }
    // QPlainTextEdit takes a resize with no old size for a new width and
    // lays out every block again; at the width it had, there is nothing to do.
    if (!event->oldSize().isValid() && oldWidth == event->size().width()) {
        QResizeEvent same(event->size(), QSize(oldWidth, -1));
        QPlainTextEdit::resizeEvent(&same);
    } else {
        QPlainTextEdit::resizeEvent(event);
    }
    refreshMarks();
}

void SoulPreview::mouseDoubleClickEvent(QMouseEvent *event)
{
    QPlainTextEdit::mouseDoubleClickEvent(event);
    const int slot = sectionAt(cursorForPosition(event->position().toPoint()).position());
    if (slot >= 0)
        Q_EMIT paneRequested(slot);
}

void SoulPreview::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) {
        const int slot = sectionAt(textCursor().position());
        if (slot >= 0) {
            Q_EMIT paneRequested(slot);
            return;
        }
    }
    QPlainTextEdit::keyPressEvent(event);
}

void SoulPreview::contextMenuEvent(QContextMenuEvent *event)
{
    std::unique_ptr<QMenu> menu(createStandardContextMenu(event->pos()));
    const int slot = sectionAt(cursorForPosition(event->pos()).position());
    if (slot >= 0) {
        menu->addSeparator();
        QAction *go = menu->addAction(tr("Go to %1 pane").arg(slotName(slot)));
        connect(go, &QAction::triggered, this, [this, slot] { Q_EMIT paneRequested(slot); });
    }
    menu->exec(event->globalPos());
}

} // namespace soul
