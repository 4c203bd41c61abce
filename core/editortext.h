#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <QStringList>
#include <QStringView>

// The exact path between a file's bytes and the text of an editor pane.
//
// Qt's text widgets keep text as blocks: every line break (LF, CR LF, lone CR,
// U+2028, U+2029) comes back as a block separator, and toPlainText() also
// turns U+00A0 into a space. So a pane holds text with '\n' line breaks and no
// BOM, the file's own line break and BOM are kept aside in TextFormat, and
// fromEditorText() puts them back: open, change one word, save, and every
// other byte is as it was.
//
// Bytes that cannot make that round trip (invalid UTF-8, NUL, mixed line
// endings, U+2028/U+2029, characters QTextDocument reserves) are reported as
// obstacles: the pane opens them read-only and names what editing would change.
namespace soul {

struct TextFormat
{
    bool bom = false;             // write EF BB BF first
    QByteArray lineBreak = "\n"; // "\n", "\r\n" or "\r"
};

struct EditorText
{
    QString text; // '\n' line breaks, no leading BOM
    TextFormat format;
    // Sentences, one per kind of obstacle, each saying what editing and
    // saving would change ("3 invalid UTF-8 sequences would become U+FFFD").
    // Empty when the bytes pass through a pane unchanged.
    QStringList obstacles;

    bool roundTrips() const { return obstacles.isEmpty(); }
};

EditorText toEditorText(QByteArrayView bytes);

// `text` as the editor holds it ('\n' line breaks; a U+2029 paragraph
// separator, as QTextDocument::toRawText() gives, also counts as '\n').
QByteArray fromEditorText(QStringView text, const TextFormat &format);

} // namespace soul
