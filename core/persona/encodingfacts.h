#pragma once

#include <QByteArrayView>
#include <QString>

namespace soul {

enum class LineEndings { None, Lf, CrLf, Cr, Mixed };

// What a persona author may not see in a file's bytes.
struct EncodingFacts
{
    bool bom = false;              // starts with EF BB BF
    qsizetype invalidSubparts = 0; // each becomes one U+FFFD
    qsizetype nulBytes = 0;
    qsizetype lfCount = 0; // LF not preceded by CR
    qsizetype crlfCount = 0;
    qsizetype crCount = 0;     // CR not followed by LF
    bool finalNewline = false; // ends with LF or CR

    LineEndings lineEndings() const;
};

EncodingFacts scanEncoding(QByteArrayView bytes);

// "LF", "CR LF", "CR", "mixed", "none".
QString lineEndingsName(LineEndings endings);

} // namespace soul
