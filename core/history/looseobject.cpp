#include "history/looseobject.h"

#include <zlib.h>

#include <array>
#include <cstring>
#include <memory>

namespace soul::git {

namespace {

constexpr int MaxHeader = 64;        // as git and libgit2 allow
constexpr qint64 InputChunk = 65536; // read from the file at a time

LooseResult refused(const QString &problem)
{
    LooseResult result;
    result.problem = problem;
    return result;
}

// Parses "TYPE SIZE" (without its NUL), or says why it is no header.
QString parseHeader(QByteArrayView header, LooseObject &out)
{
    const qsizetype space = header.indexOf(' ');
    if (space <= 0)
        return QStringLiteral("its header names no object type");
    const QByteArrayView type = header.first(space);
    if (type == "commit")
        out.type = LooseType::CommitObject;
    else if (type == "tree")
        out.type = LooseType::TreeObject;
    else if (type == "blob")
        out.type = LooseType::BlobObject;
    else if (type == "tag")
        out.type = LooseType::TagObject;
    else
        return QStringLiteral("its header names the type '%1', which is none of commit, tree, "
                              "blob or tag")
            .arg(QString::fromLatin1(type.toByteArray().toPercentEncoding(" ")));
    const QByteArrayView digits = header.sliced(space + 1);
    if (digits.isEmpty())
        return QStringLiteral("its header gives no size");
    // Saturated: a size past any bound is refused by the caller all the same.
    constexpr qint64 Saturated = qint64(1) << 62;
    qint64 size = 0;
    for (const char c : digits) {
        if (c < '0' || c > '9')
            return QStringLiteral("its header's size is not a number");
        size = size > Saturated / 10 ? Saturated : qMin(Saturated, size * 10 + (c - '0'));
    }
    out.size = size;
    return {};
}

// One zlib inflate stream over the chunks `read` gives.
class Inflater
{
public:
    explicit Inflater(const ChunkReader &read)
        : m_read(read)
    {
        m_ok = inflateInit(&m_stream) == Z_OK;
    }
    ~Inflater()
    {
        if (m_ok)
            inflateEnd(&m_stream);
    }
    Inflater(const Inflater &) = delete;
    Inflater &operator=(const Inflater &) = delete;

    bool started() const { return m_ok; }
    bool ended() const { return m_ended; }
    // How much of the file may be read at most: deflate adds a few bytes per
    // 64 KiB block, so a file much larger than its content is not a loose
    // object (and is not read to its end).
    void setInputLimit(qint64 limit) { m_inputLimit = limit; }

    // Fills `out` with up to `capacity` bytes; returns how many, or -1 with
    // `problem` set. Stops early at the stream's end. Every call either makes
    // progress or fails: a stream that ends with the file is cut short.
    qint64 fill(char *out, qint64 capacity, QString &problem)
    {
        qint64 produced = 0;
        while (produced < capacity && !m_ended) {
            if (m_stream.avail_in == 0 && !m_fileEnded) {
                if (m_consumed >= m_inputLimit) {
                    problem = QStringLiteral("its file is far larger than its content could "
                                             "compress to");
                    return -1;
                }
                const qint64 n = m_read(m_input.data(), qint64(m_input.size()));
                if (n < 0) {
                    problem = QStringLiteral("its file cannot be read");
                    return -1;
                }
                m_consumed += n;
                if (n == 0)
                    m_fileEnded = true;
                m_stream.next_in = reinterpret_cast<Bytef *>(m_input.data());
                m_stream.avail_in = uInt(n);
            }
            const qint64 room = qMin<qint64>(capacity - produced, qint64(1) << 30);
            m_stream.next_out = reinterpret_cast<Bytef *>(out + produced);
            m_stream.avail_out = uInt(room);
            const uInt inBefore = m_stream.avail_in;
            const int status = inflate(&m_stream, Z_NO_FLUSH);
            const qint64 made = room - qint64(m_stream.avail_out);
            produced += made;
            if (status == Z_STREAM_END) {
                m_ended = true;
                break;
            }
            if (status == Z_NEED_DICT || status == Z_DATA_ERROR || status == Z_STREAM_ERROR) {
                problem = QStringLiteral("its compressed data is damaged");
                return -1;
            }
            if (status == Z_MEM_ERROR) {
                problem = QStringLiteral("there is not enough memory to inflate it");
                return -1;
            }
            const bool progress = made > 0 || m_stream.avail_in != inBefore;
            if (!progress && (m_fileEnded || ++m_stalls > 2)) {
                problem = m_fileEnded ? QStringLiteral("its compressed data is cut short")
                                      : QStringLiteral("its compressed data is damaged");
                return -1;
            }
            if (progress)
                m_stalls = 0;
        }
        return produced;
    }

private:
    const ChunkReader &m_read;
    z_stream m_stream{};
    std::array<char, InputChunk> m_input{};
    qint64 m_consumed = 0;
    qint64 m_inputLimit = qint64(1) << 20;
    int m_stalls = 0;
    bool m_ok = false;
    bool m_fileEnded = false;
    bool m_ended = false;
};

} // namespace

const char *looseTypeName(LooseType type)
{
    switch (type) {
    case LooseType::CommitObject:
        return "commit";
    case LooseType::TreeObject:
        return "tree";
    case LooseType::BlobObject:
        return "blob";
    case LooseType::TagObject:
        return "tag";
    }
    return "object";
}

qint64 inflatedBound(qint64 fileSize)
{
    return qMin(qint64(1) << 62, fileSize * 1032 + 64);
}

QString tooLargeText(qint64 size)
{
    return QStringLiteral("it is %1 bytes, more than the %2 bytes of the largest object Soul "
                          "Studio reads")
        .arg(size)
        .arg(MaxObjectSize);
}

LooseResult inflateLooseObject(const ChunkReader &read, bool headerOnly, qint64 fileBound)
{
    auto inflater = std::make_unique<Inflater>(read);
    if (!inflater->started())
        return refused(QStringLiteral("zlib cannot be started"));
    QString problem;

    // The header, and whatever of the body came with it.
    std::array<char, MaxHeader> head{};
    qint64 got = 0;
    qsizetype nul = -1;
    while (nul < 0) {
        if (got == MaxHeader)
            return refused(QStringLiteral("its header is not ended within %1 bytes").arg(MaxHeader));
        if (inflater->ended())
            return refused(QStringLiteral("it ends inside its header"));
        const qint64 n = inflater->fill(head.data() + got, 1, problem);
        if (n < 0)
            return refused(problem);
        if (n == 0)
            continue; // the stream ended: said above
        if (head[size_t(got)] == '\0')
            nul = qsizetype(got);
        got += n;
    }
    LooseResult result;
    const QString bad = parseHeader(QByteArrayView(head.data(), nul), result.object);
    if (!bad.isEmpty())
        return refused(bad);
    if (result.object.size > fileBound) {
        return refused(QStringLiteral("its header declares %1 bytes, more than its file could "
                                      "hold compressed")
                           .arg(result.object.size));
    }
    if (result.object.size > MaxObjectSize) {
        LooseResult large = refused(tooLargeText(result.object.size));
        large.tooLarge = true;
        large.object.type = result.object.type;
        large.object.size = result.object.size;
        return large;
    }
    if (headerOnly) {
        result.ok = true;
        return result;
    }

    const qint64 size = result.object.size;
    inflater->setInputLimit(size + size / 8 + (qint64(1) << 20));
    QByteArray body(qsizetype(size), Qt::Uninitialized);
    const qint64 inflated = inflater->fill(body.data(), size, problem);
    if (inflated < 0)
        return refused(problem);
    if (inflated < size) {
        return refused(QStringLiteral("its content is %1 bytes, fewer than the %2 its header "
                                      "declares")
                           .arg(inflated)
                           .arg(size));
    }
    // Nothing may follow the declared size inside the stream.
    char extra = 0;
    while (!inflater->ended()) {
        const qint64 n = inflater->fill(&extra, 1, problem);
        if (n < 0)
            return refused(problem);
        if (n > 0) {
            return refused(QStringLiteral("its content is longer than the %1 bytes its header "
                                          "declares")
                               .arg(size));
        }
    }
    result.object.bytes = std::move(body);
    result.ok = true;
    return result;
}

LooseResult inflateLooseObject(QByteArrayView file, bool headerOnly)
{
    qsizetype offset = 0;
    const ChunkReader read = [&](char *buffer, qint64 capacity) -> qint64 {
        const qint64 n = qMin<qint64>(capacity, file.size() - offset);
        if (n > 0)
            std::memcpy(buffer, file.data() + offset, size_t(n));
        offset += qsizetype(n);
        return n;
    };
    return inflateLooseObject(read, headerOnly, inflatedBound(file.size()));
}

} // namespace soul::git
