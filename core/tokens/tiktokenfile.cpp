#include "tiktokenfile.h"

#include <array>

namespace soul::tokens {

namespace {

constexpr quint8 NotBase64 = 0xFF;

constexpr std::array<quint8, 256> base64Values()
{
    std::array<quint8, 256> v{};
    for (auto &x : v)
        x = NotBase64;
    const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int i = 0; i < 64; ++i)
        v[size_t(uchar(alphabet[i]))] = quint8(i);
    return v;
}

constexpr std::array<quint8, 256> Base64 = base64Values();

// Standard base64 with '=' padding into `out`; false when malformed.
bool decodeBase64(QByteArrayView text, QByteArray &out)
{
    out.clear();
    if (text.size() % 4 != 0 || text.isEmpty())
        return false;
    quint32 bits = 0;
    int count = 0;
    qsizetype padding = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '=') {
            if (i < text.size() - 2)
                return false;
            ++padding;
            continue;
        }
        if (padding > 0)
            return false;
        const quint8 value = Base64[uchar(c)];
        if (value == NotBase64)
            return false;
        bits = (bits << 6) | quint32(value);
        if (++count == 4) {
            out.append(char(bits >> 16));
            out.append(char(bits >> 8));
            out.append(char(bits));
            bits = 0;
            count = 0;
        }
    }
    if (count == 3) {
        out.append(char(bits >> 10));
        out.append(char(bits >> 2));
    } else if (count == 2) {
        out.append(char(bits >> 4));
    } else if (count != 0) {
        return false;
    }
    return true;
}

} // namespace

Result<RankTable> parseTiktokenRanks(QByteArrayView file, const QString &origin)
{
    RankTable table;
    const qsizetype lines = file.count('\n');
    table.reserve(lines, file.size() / 2);
    QByteArray bytes;
    qsizetype lineNumber = 0;
    qsizetype pos = 0;
    while (pos < file.size()) {
        ++lineNumber;
        qsizetype end = file.indexOf('\n', pos);
        if (end < 0)
            end = file.size();
        const QByteArrayView line = file.sliced(pos, end - pos);
        pos = end + 1;
        if (line.isEmpty())
            continue;
        const qsizetype space = line.indexOf(' ');
        bool rankOk = false;
        const qulonglong rank = space > 0 ? line.sliced(space + 1).toULongLong(&rankOk) : 0;
        if (!rankOk || rank >= RankTable::NoId || !decodeBase64(line.first(space), bytes))
            return Result<RankTable>::failure(
                QStringLiteral("%1: line %2 is not \"BASE64 RANK\"; the rank file is damaged.")
                    .arg(origin)
                    .arg(lineNumber));
        if (!table.insert(bytes, quint32(rank)))
            return Result<RankTable>::failure(
                QStringLiteral("%1: line %2 repeats a token; the rank file is damaged.")
                    .arg(origin)
                    .arg(lineNumber));
    }
    return table;
}

} // namespace soul::tokens
