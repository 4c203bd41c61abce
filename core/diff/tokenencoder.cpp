#include "tokenencoder.h"

#include <QStringList>

namespace soul {

TokenEncoding byteEncoding()
{
    return {QStringLiteral("bytes"),
            QStringLiteral("bytes"),
            [](QByteArrayView utf8) {
                // One pass, no zero-fill first: souls run to megabytes.
                const auto *bytes = reinterpret_cast<const uchar *>(utf8.data());
                return std::vector<quint32>(bytes, bytes + utf8.size());
            },
            true};
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
