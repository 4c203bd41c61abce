// A conversation on a frozen soul against a server in this process that
// records each request: the system message is the soul's bytes exactly,
// edits after the start do not reach it, a restart takes the new soul, a
// stopped reply keeps its text, a transcript round-trips without the key,
// and a replay sends the same user turns in order.

#include "conversation.h"
#include "modelserver.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace soul;
using namespace soul::chattest;

namespace {

FrozenSoul frozen(const QByteArray &bytes)
{
    return {bytes,
            QStringLiteral("rt"),
            QStringLiteral("Runtime"),
            QString::fromLatin1(
                QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex())};
}

// Non-ASCII text, CR LF, a tab, quotes, a backslash and template braces.
const QByteArray OddSoul = "# Ava\r\nShe says \"h\xc3\xa9llo\" \xe2\x80\x94 and {{name}} {%raw%}\\n"
                           "\tthen \xf0\x9f\x99\x82 waits.\r\n";

QList<QByteArray> replyEvents()
{
    return {deltaEvent(QStringLiteral("Hello ")),
            deltaEvent(QStringLiteral("there.")),
            "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":40,\"completion_tokens\":2,"
            "\"prompt_tokens_details\":{\"cached_tokens\":32}}}\n\n",
            "data: [DONE]\n\n"};
}

// The bytes of the JSON string the body holds for messages[0].content,
// unescaped: what the server's JSON parser hands the model.
QByteArray systemBytes(const QJsonObject &body)
{
    const QJsonObject first = body.value(QStringLiteral("messages")).toArray().first().toObject();
    if (first.value(QStringLiteral("role")).toString() != QLatin1String("system"))
        return "(no system message first)";
    return first.value(QStringLiteral("content")).toString().toUtf8();
}

} // namespace

class TstConversation : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init();
    void cleanup();
    void systemMessageIsTheSoulsBytes();
    void soulStaysFrozenAcrossEdits();
    void restartTakesTheNewSoul();
    void laterTurnsCarryTheEarlierOnes();
    void stopKeepsPartialText();
    void usageAndPrediction();
    void transcriptRoundTripWithoutKey();
    void transcriptErrorsNameFileAndLine();
    void replaySendsTheSameUserTurns();
    void urlCredentialsNeverWritten();
    void hostileTranscriptIsRefusedAtOnce();

private:
    bool talk(Conversation &conversation, const QString &user);

    std::unique_ptr<ModelServer> m_server;
    std::unique_ptr<QTemporaryDir> m_dir;
};

void TstConversation::init()
{
    m_server = std::make_unique<ModelServer>();
    QVERIFY(m_server->listen());
    m_server->setEvents(replyEvents());
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TstConversation::cleanup()
{
    m_server.reset();
    m_dir.reset();
}

bool TstConversation::talk(Conversation &conversation, const QString &user)
{
    QSignalSpy finished(&conversation, &Conversation::turnFinished);
    if (!conversation.send(user))
        return false;
    return finished.wait(5000);
}

void TstConversation::systemMessageIsTheSoulsBytes()
{
    Conversation conversation;
    conversation.setEndpoint({m_server->baseUrl(), QStringLiteral("tiny"), {}, false});
    conversation.start(frozen(OddSoul));
    QVERIFY(talk(conversation, QStringLiteral("Who are you?")));
    QCOMPARE(m_server->chatRequests(), 1);
    QCOMPARE(systemBytes(m_server->chatBody(0)), OddSoul);
    // The body is UTF-8 JSON: the soul's non-ASCII bytes travel as they are,
    // CR LF as \r\n escapes.
    const QByteArray raw = m_server->chatRawBody(0);
    QVERIFY(raw.contains("h\xc3\xa9llo"));
    QVERIFY(raw.contains("# Ava\\r\\nShe"));
    const QJsonArray messages = m_server->chatBody(0).value(QStringLiteral("messages")).toArray();
    QCOMPARE(messages.size(), 2);
    QCOMPARE(messages.at(1).toObject().value(QStringLiteral("content")).toString(),
             QStringLiteral("Who are you?"));
    QCOMPARE(m_server->chatBody(0).value(QStringLiteral("model")).toString(),
             QStringLiteral("tiny"));
}

void TstConversation::soulStaysFrozenAcrossEdits()
{
    Conversation conversation;
    conversation.setEndpoint({m_server->baseUrl(), QStringLiteral("tiny"), {}, false});
    QByteArray live = OddSoul;
    conversation.start(frozen(live));
    QVERIFY(talk(conversation, QStringLiteral("one")));
    live += "An edit made after the start.\n"; // the author types on
    QVERIFY(talk(conversation, QStringLiteral("two")));
    QCOMPARE(systemBytes(m_server->chatBody(1)), OddSoul);
    QCOMPARE(conversation.soul().bytes, OddSoul);
}

void TstConversation::restartTakesTheNewSoul()
{
    Conversation conversation;
    conversation.setEndpoint({m_server->baseUrl(), QStringLiteral("tiny"), {}, false});
    conversation.start(frozen(OddSoul));
    QVERIFY(talk(conversation, QStringLiteral("one")));
    const QByteArray edited = OddSoul + "Edited.\r\n";
    conversation.start(frozen(edited));
    QVERIFY(conversation.turns().isEmpty());
    QVERIFY(talk(conversation, QStringLiteral("two")));
    QCOMPARE(systemBytes(m_server->chatBody(1)), edited);
    // A new conversation: the earlier turn is not sent again.
    QCOMPARE(m_server->chatBody(1).value(QStringLiteral("messages")).toArray().size(), 2);
}

void TstConversation::laterTurnsCarryTheEarlierOnes()
{
    Conversation conversation;
    conversation.setEndpoint({m_server->baseUrl(), QStringLiteral("tiny"), {}, false});
    conversation.start(frozen(OddSoul));
    QVERIFY(talk(conversation, QStringLiteral("one")));
    QVERIFY(talk(conversation, QStringLiteral("two")));
    const QJsonArray messages = m_server->chatBody(1).value(QStringLiteral("messages")).toArray();
    QCOMPARE(messages.size(), 4);
    QCOMPARE(messages.at(1).toObject().value(QStringLiteral("content")).toString(),
             QStringLiteral("one"));
    QCOMPARE(messages.at(2).toObject().value(QStringLiteral("role")).toString(),
             QStringLiteral("assistant"));
    QCOMPARE(messages.at(2).toObject().value(QStringLiteral("content")).toString(),
             QStringLiteral("Hello there."));
    QCOMPARE(messages.at(3).toObject().value(QStringLiteral("content")).toString(),
             QStringLiteral("two"));
}

void TstConversation::stopKeepsPartialText()
{
    m_server->hold(1);
    Conversation conversation;
    conversation.setEndpoint({m_server->baseUrl(), QStringLiteral("tiny"), {}, false});
    conversation.start(frozen(OddSoul));
    QSignalSpy text(&conversation, &Conversation::textArrived);
    QSignalSpy finished(&conversation, &Conversation::turnFinished);
    QVERIFY(conversation.send(QStringLiteral("Go on")));
    QVERIFY(text.wait(5000));
    QVERIFY(conversation.isBusy());
    conversation.stop();
    QTRY_COMPARE(finished.size(), 1);
    const ChatTurn &turn = conversation.turns().first();
    QVERIFY(turn.stopped);
    QCOMPARE(turn.reply.content, QStringLiteral("Hello "));
    QCOMPARE(turn.error, QStringLiteral("Stopped."));
    QVERIFY(!conversation.isBusy());
}

void TstConversation::usageAndPrediction()
{
    Conversation conversation;
    conversation.setEndpoint({m_server->baseUrl(), QStringLiteral("tiny"), {}, false});
    conversation.start(frozen(OddSoul));
    QVERIFY(talk(conversation, QStringLiteral("one")));
    QVERIFY(talk(conversation, QStringLiteral("two")));
    const ChatTurn &first = conversation.turns().at(0);
    QVERIFY(!first.predicted.has_value());
    QCOMPARE(first.reply.usage.cachedTokens, std::optional<qint64>(32));
    const QString firstLine = chatUsageText(first);
    QVERIFY2(firstLine.contains(QLatin1String("prompt 40")), qPrintable(firstLine));
    QVERIFY2(firstLine.contains(QLatin1String("cached 32 (80%)")), qPrintable(firstLine));
    QVERIFY2(firstLine.contains(QLatin1String("completion 2")), qPrintable(firstLine));
    QVERIFY2(firstLine.contains(QLatin1String("none cached")), qPrintable(firstLine));
    // The same soul again: all of it is a stable prefix.
    const ChatTurn &second = conversation.turns().at(1);
    QVERIFY(second.predicted.has_value());
    QVERIFY(second.predicted->identical);
    QCOMPARE(second.predicted->percent(), 100);

    // A server that leaves the cache out.
    m_server->setEvents({deltaEvent(QStringLiteral("x")),
                         "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":4,"
                         "\"completion_tokens\":1}}\n\n"});
    conversation.start(frozen(OddSoul + "more"));
    QVERIFY(talk(conversation, QStringLiteral("three")));
    const ChatTurn &third = conversation.turns().at(0);
    QVERIFY(chatUsageText(third).contains(QLatin1String("cached not reported")));
    // Against the soul of the request before, from the earlier conversation.
    QVERIFY(third.predicted.has_value());
    QVERIFY(!third.predicted->identical);
    QVERIFY(third.predicted->tokens > 0);
}

void TstConversation::transcriptRoundTripWithoutKey()
{
    const QString key = QStringLiteral("sk-secret-never-written");
    Conversation conversation;
    conversation.setEndpoint({m_server->baseUrl(), QStringLiteral("tiny"), key, false});
    conversation.start(frozen(OddSoul));
    QVERIFY(talk(conversation, QStringLiteral("one")));
    QVERIFY(talk(conversation, QStringLiteral("two")));
    QVERIFY(m_server->requests().last().head.contains("Bearer " + key.toUtf8()));

    const QString path = m_dir->filePath(QStringLiteral("t.jsonl"));
    const Status saved = conversation.saveTranscript(path);
    QVERIFY2(saved.ok(), qPrintable(saved.error()));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    QVERIFY(!bytes.contains(key.toUtf8()));
    const QList<QByteArray> lines = bytes.trimmed().split('\n');
    QCOMPARE(lines.size(), 2);
    const QJsonObject record = QJsonDocument::fromJson(lines.first()).object();
    QCOMPARE(record.value(QStringLiteral("soul_sha256")).toString(), frozen(OddSoul).sha256);
    QCOMPARE(record.value(QStringLiteral("runtime")).toString(), QStringLiteral("Runtime"));
    QCOMPARE(record.value(QStringLiteral("endpoint")).toString(), m_server->baseUrl().toString());
    QCOMPARE(record.value(QStringLiteral("model")).toString(), QStringLiteral("tiny"));
    const QJsonObject response = record.value(QStringLiteral("response")).toObject();
    QCOMPARE(response.value(QStringLiteral("content")).toString(), QStringLiteral("Hello there."));
    QCOMPARE(response.value(QStringLiteral("usage"))
                 .toObject()
                 .value(QStringLiteral("cached_tokens"))
                 .toInt(),
             32);
    QVERIFY(response.contains(QStringLiteral("latency_ms")));
    QVERIFY(response.contains(QStringLiteral("first_token_ms")));
    QCOMPARE(systemBytes(record.value(QStringLiteral("request")).toObject()), OddSoul);

    const Result<QList<TranscriptLine>> read = Conversation::readTranscript(path);
    QVERIFY2(read.ok(), qPrintable(read.error()));
    QCOMPARE(read->size(), 2);
    QCOMPARE(read->at(0).user, QStringLiteral("one"));
    QCOMPARE(read->at(1).user, QStringLiteral("two"));
    QCOMPARE(read->at(1).line, 2);
    QCOMPARE(read->at(0).soulSha256, frozen(OddSoul).sha256);
}

void TstConversation::transcriptErrorsNameFileAndLine()
{
    const QString path = QStringLiteral("/x/t.jsonl");
    Result<QList<TranscriptLine>> bad = Conversation::parseTranscript(
        "{\"request\":{\"messages\":[{\"role\":\"user\",\"content\":\"a\"}]}}\n\n{oops\n", path);
    QVERIFY(!bad.ok());
    QVERIFY2(bad.error().startsWith(QLatin1String("/x/t.jsonl, line 3: not a JSON object")),
             qPrintable(bad.error()));
    bad = Conversation::parseTranscript("{\"request\":{\"messages\":[]}}\n", path);
    QVERIFY2(bad.error().contains(QLatin1String("line 1: the request has no user message")),
             qPrintable(bad.error()));
    bad = Conversation::parseTranscript("\n", path);
    QVERIFY2(bad.error().contains(QLatin1String("holds no requests")), qPrintable(bad.error()));
    const QString missing = m_dir->filePath(QStringLiteral("none.jsonl"));
    bad = Conversation::readTranscript(missing);
    QVERIFY2(bad.error().contains(missing), qPrintable(bad.error()));
}

void TstConversation::replaySendsTheSameUserTurns()
{
    Conversation recorded;
    recorded.setEndpoint({m_server->baseUrl(), QStringLiteral("tiny"), {}, false});
    recorded.start(frozen(OddSoul));
    const QStringList users{QStringLiteral("first"),
                            QStringLiteral("second"),
                            QStringLiteral("third")};
    for (const QString &user : users)
        QVERIFY(talk(recorded, user));
    const QString path = m_dir->filePath(QStringLiteral("t.jsonl"));
    QVERIFY(recorded.saveTranscript(path).ok());

    const Result<QList<TranscriptLine>> lines = Conversation::readTranscript(path);
    QVERIFY(lines.ok());
    QStringList again;
    for (const TranscriptLine &line : *lines)
        again.append(line.user);
    QCOMPARE(again, users);

    const QByteArray other = "Another soul.\n";
    Conversation replayed;
    replayed.setEndpoint({m_server->baseUrl(), QStringLiteral("tiny"), {}, false});
    replayed.start(frozen(other));
    QSignalSpy done(&replayed, &Conversation::replayFinished);
    QVERIFY(replayed.replay(again));
    QVERIFY(replayed.isReplaying());
    QVERIFY(done.wait(10000));
    QCOMPARE(m_server->chatRequests(), 6);
    for (int i = 0; i < 3; ++i) {
        const QJsonObject body = m_server->chatBody(3 + i);
        QCOMPARE(systemBytes(body), other);
        const QJsonArray messages = body.value(QStringLiteral("messages")).toArray();
        QCOMPARE(messages.last().toObject().value(QStringLiteral("content")).toString(),
                 users.at(i));
    }
    QCOMPARE(replayed.turns().size(), 3);
    QVERIFY(!replayed.isReplaying());
}

void TstConversation::urlCredentialsNeverWritten()
{
    // A user name and password given in the endpoint's URL go with the
    // request, never into the transcript.
    QUrl url = m_server->baseUrl();
    url.setUserInfo(QStringLiteral("ava:pa55word"));
    Conversation conversation;
    conversation.setEndpoint({url, QStringLiteral("tiny"), QString(), false});
    conversation.start(frozen(OddSoul));
    QVERIFY(talk(conversation, QStringLiteral("one")));
    const QByteArray transcript = conversation.transcript();
    QVERIFY(!transcript.isEmpty());
    QVERIFY2(!transcript.contains("pa55word"), transcript.constData());
    QVERIFY2(!transcript.contains("ava:"), transcript.constData());
    const QJsonObject record = QJsonDocument::fromJson(transcript.trimmed()).object();
    QCOMPARE(record.value(QStringLiteral("endpoint")).toString(), m_server->baseUrl().toString());
}

void TstConversation::hostileTranscriptIsRefusedAtOnce()
{
    const QString fifo = m_dir->filePath(QStringLiteral("t.jsonl"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    const auto lines = Conversation::readTranscript(fifo);
    QVERIFY(!lines.ok());
    QVERIFY2(lines.error().contains(QLatin1String("is a FIFO, not a regular file")),
             qPrintable(lines.error()));
    const QString sparse = m_dir->filePath(QStringLiteral("big.jsonl"));
    QFile file(sparse);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QVERIFY(file.resize(qint64(4) << 30));
    file.close();
    const auto big = Conversation::readTranscript(sparse);
    QVERIFY(!big.ok());
    QVERIFY2(big.error().contains(QLatin1String("is larger than Soul Studio reads")),
             qPrintable(big.error()));
}

QTEST_GUILESS_MAIN(TstConversation)
#include "tst_conversation.moc"
