#pragma once

#include "result.h"

#include <QByteArrayView>
#include <QString>

#include <functional>
#include <vector>

// The seam between comparing souls and counting them: a comparison needs the
// soul as a sequence of ids, and it does not care whose ids they are.
namespace soul {

using TokenEncoder = std::function<std::vector<quint32>(QByteArrayView utf8)>;

struct TokenEncoding
{
    QString name; // as --encoding takes it
    QString unit; // "bytes", "tokens": what a count of its ids is called
    TokenEncoder encode;
    // Each byte is one id: a prefix in ids is the prefix in bytes, and
    // comparisons need not build the ids.
    bool bytesAreIds = false;
};

// One id per byte: the stable prefix in bytes.
TokenEncoding byteEncoding();

// The encoding named `name`: a bundled tokenizer (o200k_base, the default
// when `name` is empty, or cl100k_base) or "bytes". Fails with a
// sentence listing what is known.
Result<TokenEncoding> tokenEncoding(const QString &name);

QStringList tokenEncodingNames();

} // namespace soul
