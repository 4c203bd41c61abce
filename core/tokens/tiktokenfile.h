#pragma once

#include "ranktable.h"
#include "result.h"

#include <QByteArrayView>
#include <QString>

// The .tiktoken rank file format: one token a line, "BASE64 RANK\n".
namespace soul::tokens {

// `origin` names the file in the error.
Result<RankTable> parseTiktokenRanks(QByteArrayView file, const QString &origin);

} // namespace soul::tokens
