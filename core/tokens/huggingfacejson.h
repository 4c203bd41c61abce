#pragma once

#include "bytepairmodel.h"
#include "pretokenizer.h"
#include "result.h"

#include <QByteArray>
#include <QString>

// Reads a Hugging Face tokenizer.json of a byte-level BPE model (GPT-2 style
// byte alphabet, merges in rank order): Llama 3, Qwen 2/3, DeepSeek and the
// like. Accepted: no normalizer or NFC; a ByteLevel pre-tokenizer, alone or
// after Split pre-tokenizers with the Isolated behaviour; a BPE model without
// dropout, word prefixes/suffixes or byte fallback. Everything else, notably
// SentencePiece-style models (Llama 2, Gemma: Metaspace, byte fallback) and
// WordPiece or Unigram models, is refused with a sentence naming the file.
namespace soul::tokens {

struct HuggingFaceModel
{
    BytePairModel model;
    Pretokenizer pretokenizer;
    bool nfc = false;
};

// `path` names the file in errors.
Result<HuggingFaceModel> parseHuggingFaceJson(const QByteArray &json, const QString &path);

// The GPT-2 byte-level alphabet: the character that stands for byte `b`.
char16_t byteLevelChar(uchar b);

} // namespace soul::tokens
