#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <QStringList>
#include <QStringView>

// The exact path between a file's bytes and the text of an editor pane.
//
// Qt's text widgets keep text as blocks: every line break (LF, CR LF, lone CR,
// U+2029) becomes a block separator, and toPlainText() also turns U+2028 into
// '\n' and U+00A0 into a space. So a pane holds text with '\n' line breaks and
// no BOM, the file's own line break and BOM are kept aside in TextFormat, and
// fromEditorText() puts them back: open, change one word, save, and every
// other byte is as it was.
//
// Bytes that cannot make that round trip (invalid UTF-8, NUL, mixed line
// endings, U+2028/U+2029, characters QTextDocument reserves) are reported as
// obstacles: the pane opens them read-only and names what editing would change.
//
// A pane (QPlainTextEdit) must load with setPlainText(editorText.text) and
// read back with document()->toRawText(), never toPlainText(): toRawText()
// keeps U+00A0 and gives U+2029 for block breaks, which fromEditorText() reads
// as line breaks.
// QTextDocument keeps U+FEFF anywhere in the text (so a BOM-like character
// after the first is not an obstacle) and turns U+FDD0/U+FDD1 into block
// breaks. tests/live/tst_editortext.cpp holds these facts against Qt.
namespace soul {

// Lines longer than this many UTF-16 units are shown cut into pieces in a
// pane: Qt lays out a paragraph whole, in time that grows with the square of
// its length when it has no place to wrap (a line of 1,000,000 characters
// takes over a minute), and again at every keystroke. Reverting such a pane
// loads its text again, which starts its undo history anew.
inline constexpr int LongLineLength = 4096;

struct TextFormat
{
    bool bom = false;            // write EF BB BF first
    QByteArray lineBreak = "\n"; // "\n", "\r\n" or "\r"
};

struct EditorText
{
    QString text; // '\n' line breaks, no leading BOM
    TextFormat format;
    // Sentences, one per kind of obstacle, each saying what editing and
    // saving would change and where ("3 invalid UTF-8 sequences would become
    // U+FFFD ... On lines 2 and 9.", lines numbered by the file's breaks).
    // Empty when the bytes pass through a pane unchanged.
    QStringList obstacles;

    bool roundTrips() const { return obstacles.isEmpty(); }
};

// Invalid UTF-8 is decoded as the compose contract does (one U+FFFD per
// maximal invalid subpart). The line break is the file's own when it uses one
// kind, the most common one when it mixes them (an obstacle), "\n" when it has
// none.
EditorText toEditorText(QByteArrayView bytes);

// The bytes of `text` with `format`'s BOM and line break. Each line break of
// the editor ('\n', a U+2029 as toRawText() gives for block breaks, a U+2028
// as Shift+Enter inserts, and CR LF or a lone CR should one be pasted in)
// becomes format.lineBreak. For every `bytes` whose toEditorText() has no
// obstacles, fromEditorText(e.text, e.format) == bytes.
QByteArray fromEditorText(QStringView text, const TextFormat &format);

// The one range that turns `before` into `after`: replace `removed` UTF-16
// units at `position` of `before` with `inserted` units at `position` of
// `after`. Everything outside it is the common prefix and suffix, so a pane
// that takes a small change from disk edits a few lines instead of loading the
// whole text again (and keeps its undo history, cursor and scroll). The range
// never splits a surrogate pair. Equal texts give an empty range at their end.
struct TextChange
{
    qsizetype position = 0;
    qsizetype removed = 0;
    qsizetype inserted = 0;

    bool isEmpty() const { return removed == 0 && inserted == 0; }
};
TextChange textChange(QStringView before, QStringView after);

// Where byte `offset` of a file holding `bytes` is in a pane that holds the
// file `shown` (the same bytes, or the unsaved buffer when the file is
// compared as it is on disk): the 1-based line and the column in UTF-16
// units of toEditorText(shown).text. Counted as the pane counts them: a BOM
// is not there, every line break (LF, CR LF, lone CR) is one, an invalid
// sequence is one U+FFFD. An offset inside a character or between the CR and
// LF of a break stands for its start. When `shown` differs from `bytes`, a
// place before their differing range keeps its text, one after it moves
// with it, one inside it goes to its start.
struct TextPlace
{
    qint64 line = 1;
    qint64 column = 0;
};
TextPlace placeInEditor(QByteArrayView bytes, qsizetype offset, QByteArrayView shown);

// Whether `bytes` hold a line longer than `limit` bytes. A pane cuts such a
// line for display, so it cannot follow a change of it by a range edit.
bool hasLineLongerThan(QByteArrayView bytes, qsizetype limit);

} // namespace soul
