#include "tokenencoder.h"

#include "tokens/tokenizer.h"

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
    QStringList names = builtinEncodings();
    names.append(QStringLiteral("bytes"));
    return names;
}

Result<TokenEncoding> tokenEncoding(const QString &name)
{
    if (name == QLatin1String("bytes"))
        return byteEncoding();
    // builtin() takes an empty name for the default encoding.
    if (std::shared_ptr<const Tokenizer> tokenizer = Tokenizer::builtin(name)) {
        return TokenEncoding{tokenizer->name(),
                             QStringLiteral("tokens"),
                             [tokenizer](QByteArrayView utf8) { return tokenizer->encode(utf8); },
                             false};
    }
    return Result<TokenEncoding>::failure(
        QStringLiteral("unknown encoding '%1'. Known: %2.")
            .arg(name, tokenEncodingNames().join(QStringLiteral(", "))));
}

} // namespace soul
