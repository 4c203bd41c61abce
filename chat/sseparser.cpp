#include "sseparser.h"

namespace soul {

namespace {

constexpr QByteArrayView DoneMarker("[DONE]");

} // namespace

QList<QByteArray> SseParser::feed(QByteArrayView bytes)
{
    QList<QByteArray> events;
    if (m_done || m_tooLong)
        return events;
    m_pending.append(bytes.data(), bytes.size());
    qsizetype start = 0;
    for (;;) {
        const qsizetype end = m_pending.indexOf('\n', start);
        if (end < 0)
            break;
        QByteArrayView line(m_pending.constData() + start, end - start);
        if (line.endsWith('\r'))
            line.chop(1);
        // A line over the bound is refused whatever it holds, as one that
        // has not ended yet is below.
        if (line.size() > MaxEventBytes) {
            m_tooLong = true;
            m_pending.clear();
            return events;
        }
        takeLine(line, events);
        start = end + 1;
        if (m_done || m_tooLong) {
            m_pending.clear();
            return events;
        }
    }
    m_pending.remove(0, start);
    // A line that has not ended yet may not grow past the bound either (its
    // CR, if the LF is still to come, not counted).
    if (m_pending.size() > MaxEventBytes + 1) {
        m_tooLong = true;
        m_pending.clear();
    }
    return events;
}

QList<QByteArray> SseParser::finish()
{
    QList<QByteArray> events;
    if (m_done || m_tooLong)
        return events;
    if (!m_pending.isEmpty()) {
        QByteArrayView line(m_pending);
        if (line.endsWith('\r'))
            line.chop(1);
        takeLine(line, events);
        m_pending.clear();
    }
    if (!m_done)
        dispatch(events);
    return events;
}

void SseParser::takeLine(QByteArrayView line, QList<QByteArray> &events)
{
    if (line.isEmpty()) {
        dispatch(events);
        return;
    }
    if (line.startsWith(':'))
        return; // a comment: servers send them to keep the connection open
    const qsizetype colon = line.indexOf(':');
    const QByteArrayView field = colon < 0 ? line : line.first(colon);
    QByteArrayView value = colon < 0 ? QByteArrayView() : line.sliced(colon + 1);
    if (value.startsWith(' '))
        value = value.sliced(1);
    if (field != QByteArrayView("data"))
        return; // event, id and retry mean nothing to a chat stream
    if (m_data.size() + value.size() + 1 > MaxEventBytes) {
        m_tooLong = true;
        m_data.clear();
        m_hasData = false;
        return;
    }
    if (m_hasData)
        m_data += '\n';
    m_data.append(value.data(), value.size());
    m_hasData = true;
}

void SseParser::dispatch(QList<QByteArray> &events)
{
    if (!m_hasData)
        return;
    if (m_data == DoneMarker)
        m_done = true;
    else
        events.append(m_data);
    m_data.clear();
    m_hasData = false;
}

} // namespace soul
