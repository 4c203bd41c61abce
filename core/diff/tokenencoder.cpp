#include "tokenencoder.h"

#include <QStringList>

namespace soul {

TokenEncoding byteEncoding()
{
    return {QStringLiteral("bytes"), QStringLiteral("bytes"), [](QByteArrayView utf8) {
                std::vector<quint32> ids(size_t(utf8.size()));
                for (qsizetype i = 0; i < utf8.size(); ++i)
                    ids[size_t(i)] = quint8(utf8.at(i));
                return ids;
            }};
}

QStringList tokenEncodingNames()
{
    return {QStringLiteral("bytes")};
}

Result<TokenEncoding> tokenEncoding(const QString &name)
{
    if (name.isEmpty() || name == QLatin1String("bytes"))
        return byteEncoding();
    return Result<TokenEncoding>::failure(
        QStringLiteral("unknown encoding '%1'. Known: %2.")
            .arg(name, tokenEncodingNames().join(QStringLiteral(", "))));
}

} // namespace soul
