#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>

// Server-sent events as an OpenAI-compatible server streams them: lines of
// "field: value" ending in LF or CRLF, an empty line ending an event, lines
// starting with ':' being comments. Bytes arrive in pieces cut anywhere (in
// the middle of a line, between CR and LF, inside a UTF-8 sequence); the
// parser keeps what it has not seen the end of until the next piece.
namespace soul {

class SseParser
{
public:
    // An event (or a line) longer than this ends the parse: tooLong() is set
    // and nothing more is taken.
    static constexpr qsizetype MaxEventBytes = qsizetype(1) << 20;

    // The data of each event that `bytes` completes, in order: the event's
    // "data:" lines joined by LF. The "[DONE]" event is not returned; it
    // sets done(), and anything after it is ignored.
    QList<QByteArray> feed(QByteArrayView bytes);
    // The event a stream left unterminated at its end (no blank line after
    // its last data line), as feed() would have returned it; empty if none.
    QList<QByteArray> finish();

    bool done() const { return m_done; }
    // One line or one event's data passed MaxEventBytes.
    bool tooLong() const { return m_tooLong; }

private:
    void takeLine(QByteArrayView line, QList<QByteArray> &events);
    void dispatch(QList<QByteArray> &events);

    QByteArray m_pending; // the start of a line whose end has not come yet
    QByteArray m_data;    // the current event's data so far
    bool m_hasData = false;
    bool m_done = false;
    bool m_tooLong = false;
};

} // namespace soul
