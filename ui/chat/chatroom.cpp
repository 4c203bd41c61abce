#include "chatroom.h"

#include "conversation.h"
#include "deadlinefields.h"
#include "keystore.h"
#include "personasession.h"
#include "window/roomhost.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMainWindow>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QShortcut>
#include <QSignalBlocker>
#include <QTextBlockFormat>
#include <QTextBrowser>
#include <QTextCharFormat>
#include <QTextCursor>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <array>
#include <utility>

namespace soul {

namespace {

struct Preset
{
    const char *name;
    const char *url;
};

// The servers authors run most, at their default ports.
constexpr std::array<Preset, 5> Presets{{
    {"llama.cpp server", "http://127.0.0.1:8080/v1"},
    {"Ollama", "http://127.0.0.1:11434/v1"},
    {"LM Studio", "http://127.0.0.1:1234/v1"},
    {"vLLM", "http://127.0.0.1:8000/v1"},
    {"OpenAI", "https://api.openai.com/v1"},
}};

const QString EndpointKey = QStringLiteral("chat/endpoint");
const QString ModelKey = QStringLiteral("chat/model");

void appendBlock(QTextBrowser *view, const QString &text, const QTextCharFormat &format)
{
    QTextCursor cursor(view->document());
    cursor.movePosition(QTextCursor::End);
    if (!view->document()->isEmpty())
        cursor.insertBlock(QTextBlockFormat(), format);
    else
        cursor.setBlockCharFormat(format);
    cursor.insertText(text, format);
}

} // namespace

ChatRoom::ChatRoom(RoomHost *host)
    : QDockWidget(tr("Chat"), host->window())
    , m_host(host)
    , m_conversation(new Conversation(this))
    , m_keys(new KeyStore(this))
{
    setObjectName(QStringLiteral("chatDock"));
    buildUi();

    connect(m_conversation, &Conversation::turnStarted, this, &ChatRoom::turnStarted);
    connect(m_conversation, &Conversation::textArrived, this, [this](int, const QString &piece) {
        QScrollBar *bar = m_transcript->verticalScrollBar();
        const bool atEnd = bar->value() == bar->maximum();
        QTextCursor cursor(m_transcript->document());
        cursor.movePosition(QTextCursor::End);
        cursor.insertText(piece, QTextCharFormat());
        if (atEnd)
            bar->setValue(bar->maximum());
    });
    connect(m_conversation, &Conversation::turnFinished, this, &ChatRoom::turnFinished);
    connect(m_conversation, &Conversation::replayFinished, this, [this] {
        say(tr("Replay finished."));
    });
    connect(m_host, &RoomHost::liveSoulChanged, this, &ChatRoom::checkSoul);
    connect(m_host, &RoomHost::sessionChanged, this, &ChatRoom::checkSoul);
    connect(m_keys, &KeyStore::keyRead, this, [this](const QString &forHost, const QString &key) {
        if (forHost == credentialsKey() && m_userInfo.isEmpty()) {
            m_userInfo = key;
            return;
        }
        if (forHost != hostKey() || !m_key->text().isEmpty() || key.isEmpty())
            return;
        m_key->setText(key);
        if (isVisible() && m_model->count() == 0) // asked without the key before
            refreshModels();
    });
    connect(m_keys, &KeyStore::noteChanged, this, [this] {
        m_keyNote->setText(m_keys->note());
        m_keyNote->setToolTip(m_keys->keyringError());
    });
    // The model list is asked for when the dock is first shown, not at start:
    // a closed dock sends nothing.
    connect(this, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible && m_model->count() == 0 && !m_modelsCall)
            refreshModels();
    });

    const QString remembered = m_host->settings()
                                   ? m_host->settings()->value(EndpointKey).toString()
                                   : QString();
    m_url->setText(remembered.isEmpty() ? QLatin1String(Presets[0].url) : remembered);
    if (m_host->settings())
        m_model->setEditText(m_host->settings()->value(ModelKey).toString());
    endpointEdited();
    showSoul();
    host->addDock(this, tr("&Chat"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_C));
}

ChatRoom::~ChatRoom() = default;

void ChatRoom::buildUi()
{
    auto *inside = new QWidget(this);
    auto *layout = new QVBoxLayout(inside);

    auto *endpointRow = new QHBoxLayout;
    m_preset = new QComboBox(inside);
    m_preset->setObjectName(QStringLiteral("chatPreset"));
    for (const Preset &preset : Presets)
        m_preset->addItem(QLatin1String(preset.name), QLatin1String(preset.url));
    m_preset->addItem(tr("Custom"));
    m_url = new QLineEdit(inside);
    m_url->setObjectName(QStringLiteral("chatEndpoint"));
    m_url->setPlaceholderText(tr("API base, such as http://127.0.0.1:8080/v1"));
    m_url->setToolTip(tr("Any OpenAI-compatible API: its base, before /chat/completions."));
    endpointRow->addWidget(m_preset);
    endpointRow->addWidget(m_url, 1);
    layout->addLayout(endpointRow);

    auto *modelRow = new QHBoxLayout;
    m_model = new QComboBox(inside);
    m_model->setObjectName(QStringLiteral("chatModel"));
    m_model->setEditable(true);
    m_model->setInsertPolicy(QComboBox::NoInsert);
    m_model->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    m_model->lineEdit()->setPlaceholderText(tr("model"));
    m_refresh = new QPushButton(tr("Models"), inside);
    m_refresh->setObjectName(QStringLiteral("chatModels"));
    m_refresh->setToolTip(tr("Ask the endpoint for its models (GET /models)."));
    m_key = new QLineEdit(inside);
    m_key->setObjectName(QStringLiteral("chatKey"));
    m_key->setEchoMode(QLineEdit::Password);
    m_key->setPlaceholderText(tr("API key (none for a local server)"));
    modelRow->addWidget(new QLabel(tr("Model:"), inside));
    modelRow->addWidget(m_model, 1);
    modelRow->addWidget(m_refresh);
    layout->addLayout(modelRow);
    layout->addWidget(m_key);
    auto *waitRow = new QHBoxLayout;
    m_deadlines
        = new DeadlineFields(QStringLiteral("chat"), tr("reply"), m_host->settings(), inside);
    waitRow->addWidget(new QLabel(tr("Deadlines:"), inside));
    waitRow->addWidget(m_deadlines, 1);
    layout->addLayout(waitRow);
    m_keyNote = new QLabel(m_keys->note(), inside);
    m_keyNote->setWordWrap(true);
    m_keyNote->setEnabled(false);
    layout->addWidget(m_keyNote);

    m_keyQuestion = new QWidget(inside);
    m_keyQuestion->setObjectName(QStringLiteral("chatKeyQuestion"));
    auto *questionLayout = new QVBoxLayout(m_keyQuestion);
    questionLayout->setContentsMargins(0, 0, 0, 0);
    m_keyQuestionText = new QLabel(m_keyQuestion);
    m_keyQuestionText->setWordWrap(true);
    auto *questionButtons = new QHBoxLayout;
    auto *sendKey = new QPushButton(tr("Send the Key Anyway"), m_keyQuestion);
    sendKey->setObjectName(QStringLiteral("chatSendKeyAnyway"));
    auto *keepKey = new QPushButton(tr("Don't Send"), m_keyQuestion);
    questionButtons->addStretch();
    questionButtons->addWidget(sendKey);
    questionButtons->addWidget(keepKey);
    questionLayout->addWidget(m_keyQuestionText);
    questionLayout->addLayout(questionButtons);
    m_keyQuestion->hide();
    layout->addWidget(m_keyQuestion);

    auto *soulRow = new QHBoxLayout;
    m_soul = new QLabel(inside);
    m_soul->setObjectName(QStringLiteral("chatSoul"));
    m_soul->setWordWrap(true);
    m_soul->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *restartAlways = new QPushButton(tr("New"), inside);
    restartAlways->setToolTip(tr("Start a new conversation on the current soul."));
    soulRow->addWidget(m_soul, 1);
    soulRow->addWidget(restartAlways);
    layout->addLayout(soulRow);

    m_staleBar = new QWidget(inside);
    m_staleBar->setObjectName(QStringLiteral("chatStaleBar"));
    auto *staleLayout = new QHBoxLayout(m_staleBar);
    staleLayout->setContentsMargins(0, 0, 0, 0);
    auto *staleText = new QLabel(tr("The live soul has moved on since this conversation "
                                    "started."),
                                 m_staleBar);
    staleText->setWordWrap(true);
    m_restart = new QPushButton(tr("Restart on the Current Soul"), m_staleBar);
    m_restart->setObjectName(QStringLiteral("chatRestart"));
    staleLayout->addWidget(staleText, 1);
    staleLayout->addWidget(m_restart);
    m_staleBar->hide();
    layout->addWidget(m_staleBar);

    m_transcript = new QTextBrowser(inside);
    m_transcript->setObjectName(QStringLiteral("chatTranscript"));
    m_transcript->setOpenLinks(false);
    m_transcript->setMinimumHeight(m_transcript->fontMetrics().lineSpacing() * 6);
    layout->addWidget(m_transcript, 1);

    m_status = new QLabel(inside);
    m_status->setObjectName(QStringLiteral("chatStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->hide();
    layout->addWidget(m_status);

    auto *inputRow = new QHBoxLayout;
    m_input = new QLineEdit(inside);
    m_input->setObjectName(QStringLiteral("chatInput"));
    m_input->setPlaceholderText(tr("Message the persona"));
    m_send = new QPushButton(tr("Send"), inside);
    m_send->setObjectName(QStringLiteral("chatSend"));
    m_stop = new QPushButton(tr("Stop"), inside);
    m_stop->setObjectName(QStringLiteral("chatStop"));
    m_stop->setToolTip(tr("Stop the reply (Esc)"));
    m_stop->setEnabled(false);
    inputRow->addWidget(m_input, 1);
    inputRow->addWidget(m_send);
    inputRow->addWidget(m_stop);
    layout->addLayout(inputRow);

    auto *fileRow = new QHBoxLayout;
    auto *save = new QPushButton(tr("Save Transcript..."), inside);
    save->setObjectName(QStringLiteral("chatSaveTranscript"));
    auto *replay = new QPushButton(tr("Replay Transcript..."), inside);
    replay->setObjectName(QStringLiteral("chatReplayTranscript"));
    replay->setToolTip(tr("Send a saved transcript's user turns, in order, in a new "
                          "conversation on the current soul."));
    fileRow->addWidget(save);
    fileRow->addWidget(replay);
    fileRow->addStretch();
    layout->addLayout(fileRow);

    // Room for the usage line and the buttons beside the composed soul.
    inside->setMinimumWidth(360);
    setWidget(inside);
    setFocusProxy(m_input);
    inside->setFocusProxy(m_input);

    connect(m_preset, &QComboBox::activated, this, &ChatRoom::choosePreset);
    connect(m_url, &QLineEdit::editingFinished, this, &ChatRoom::endpointEdited);
    connect(m_refresh, &QPushButton::clicked, this, &ChatRoom::refreshModels);
    connect(m_model, &QComboBox::currentTextChanged, this, [this](const QString &model) {
        if (m_host->settings())
            m_host->settings()->setValue(ModelKey, model);
    });
    connect(m_key, &QLineEdit::editingFinished, this, &ChatRoom::keyEdited);
    connect(sendKey, &QPushButton::clicked, this, [this] {
        m_plainHostsAllowed.insert(hostKey());
        m_keyQuestion->hide();
        if (!m_pendingSend.isEmpty())
            send(std::exchange(m_pendingSend, QString()));
        else
            refreshModels();
    });
    connect(keepKey, &QPushButton::clicked, this, [this] {
        m_keyQuestion->hide();
        m_input->setText(std::exchange(m_pendingSend, QString()));
    });
    connect(restartAlways, &QPushButton::clicked, this, &ChatRoom::restart);
    connect(m_restart, &QPushButton::clicked, this, &ChatRoom::restart);
    connect(m_input, &QLineEdit::returnPressed, this, &ChatRoom::sendTyped);
    connect(m_send, &QPushButton::clicked, this, &ChatRoom::sendTyped);
    connect(m_stop, &QPushButton::clicked, m_conversation, &Conversation::stop);
    auto *escape = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    escape->setContext(Qt::WidgetWithChildrenShortcut);
    connect(escape, &QShortcut::activated, m_conversation, &Conversation::stop);
    connect(save, &QPushButton::clicked, this, &ChatRoom::saveTranscript);
    connect(replay, &QPushButton::clicked, this, &ChatRoom::replayTranscript);
}

QUrl ChatRoom::baseUrl() const
{
    QUrl url = QUrl::fromUserInput(m_url->text().trimmed());
    if (!m_userInfo.isEmpty() && url.userInfo().isEmpty())
        url.setUserInfo(m_userInfo);
    return url;
}

ChatEndpoint ChatRoom::endpoint() const
{
    ChatEndpoint endpoint{baseUrl(),
                          m_model->currentText().trimmed(),
                          m_key->text(),
                          m_plainHostsAllowed.contains(hostKey())};
    endpoint.timeoutMs = m_deadlines->timeoutMs();
    endpoint.idleTimeoutMs = m_deadlines->idleTimeoutMs();
    return endpoint;
}

QString ChatRoom::hostKey() const
{
    const QUrl url = baseUrl();
    return url.port() > 0 ? QStringLiteral("%1:%2").arg(url.host()).arg(url.port()) : url.host();
}

void ChatRoom::choosePreset(int index)
{
    const QString url = m_preset->itemData(index).toString();
    if (url.isEmpty()) { // Custom
        m_url->setFocus();
        return;
    }
    m_url->setText(url);
    endpointEdited();
}

void ChatRoom::endpointEdited()
{
    // Credentials in the URL go with the keys, not into the field that
    // settings remember.
    const QUrl typed = QUrl::fromUserInput(m_url->text().trimmed());
    const QString typedInfo = typed.userInfo();
    if (!typedInfo.isEmpty()) {
        const QSignalBlocker quiet(m_url);
        m_url->setText(typed.adjusted(QUrl::RemoveUserInfo).toString());
        m_keys->write(credentialsKey(), typedInfo);
        m_userInfo = typedInfo;
    }
    const QString url = m_url->text().trimmed();
    const int preset = m_preset->findData(url);
    m_preset->setCurrentIndex(preset >= 0 ? preset : m_preset->count() - 1);
    if (m_host->settings())
        m_host->settings()->setValue(EndpointKey, url);
    if (url == m_shownUrl)
        return;
    m_shownUrl = url;
    const QString model = m_model->currentText();
    m_model->clear(); // another server, other models
    m_model->setEditText(model);
    loadKey();
    if (!typedInfo.isEmpty())
        m_userInfo = typedInfo;
    if (isVisible())
        refreshModels();
}

void ChatRoom::loadKey()
{
    m_key->clear();
    m_keys->read(hostKey());
    m_userInfo.clear();
    m_keys->read(credentialsKey());
}

void ChatRoom::keyEdited()
{
    m_keys->write(hostKey(), m_key->text());
}

bool ChatRoom::keyMayGo(const QString &pending)
{
    const QUrl url = baseUrl();
    const QString problem = keyTransportProblem(url, tr("the key field"));
    if ((m_key->text().isEmpty() && m_userInfo.isEmpty()) || problem.isEmpty()
        || m_plainHostsAllowed.contains(hostKey()))
        return true;
    m_pendingSend = pending;
    m_keyQuestionText->setText(
        problem + QLatin1Char(' ')
        + tr("Send the key to %1 over plain %2 all the same?").arg(url.host(), url.scheme()));
    m_keyQuestion->show();
    return false;
}

void ChatRoom::refreshModels()
{
    if (!keyMayGo({}))
        return;
    if (m_modelsCall) { // an answer for the endpoint before is not wanted any more
        m_modelsCall->disconnect(this);
        m_modelsCall->deleteLater();
    }
    m_modelsCall = m_client.listModels(baseUrl(),
                                       m_key->text(),
                                       m_plainHostsAllowed.contains(hostKey()));
    m_refresh->setEnabled(false);
    connect(m_modelsCall, &ModelsCall::finished, this, [this, call = m_modelsCall.data()] {
        m_refresh->setEnabled(true);
        const Result<QStringList> &models = call->result();
        if (!models) {
            say(models.error());
        } else if (models->isEmpty()) {
            say(tr("The server at %1 lists no models.").arg(baseUrl().toDisplayString()));
        } else {
            const QString chosen = m_model->currentText();
            m_model->clear();
            m_model->addItems(*models);
            m_model->setCurrentText(models->contains(chosen) ? chosen : models->first());
            say({});
        }
        call->deleteLater();
    });
}

void ChatRoom::sendTyped()
{
    const QString text = m_input->text().trimmed();
    if (text.isEmpty() || m_conversation->isBusy())
        return;
    m_input->clear();
    send(text);
}

void ChatRoom::send(const QString &text)
{
    if (!keyMayGo(text))
        return;
    if (!m_conversation->isStarted())
        restart();
    if (!m_conversation->isStarted())
        return;
    m_conversation->setEndpoint(endpoint());
    say({});
    m_conversation->send(text);
}

void ChatRoom::restart()
{
    const LiveSoul live = m_host->liveSoul();
    if (live.directory.isEmpty()) {
        say(tr("Open a persona first: a conversation runs on its soul."));
        return;
    }
    m_conversation->start({live.bytes, live.runtimeId, live.runtimeName, live.sha256()});
    m_transcript->clear();
    m_staleBar->hide();
    say({});
    showSoul();
}

void ChatRoom::showSoul()
{
    if (!m_conversation->isStarted()) {
        m_soul->setText(tr("A conversation starts on the live soul when you send."));
        return;
    }
    const FrozenSoul &soul = m_conversation->soul();
    m_soul->setText(tr("On the %1 soul %2 (%3 bytes), frozen when this conversation started.")
                        .arg(soul.runtimeName,
                             soul.sha256.left(12),
                             QLocale().toString(qint64(soul.bytes.size()))));
    m_soul->setToolTip(tr("SHA-256 %1").arg(soul.sha256));
}

void ChatRoom::checkSoul()
{
    if (!m_conversation->isStarted())
        return;
    const LiveSoul live = m_host->liveSoul();
    const bool moved = live.sha256() != m_conversation->soul().sha256
                       || live.runtimeId != m_conversation->soul().runtimeId;
    m_staleBar->setVisible(moved);
}

void ChatRoom::turnStarted(int index)
{
    const ChatTurn &turn = m_conversation->turns().at(index);
    QTextCharFormat you;
    you.setFontWeight(QFont::Bold);
    appendBlock(m_transcript, tr("You: %1").arg(turn.user), you);
    QTextCharFormat model;
    model.setFontItalic(true);
    appendBlock(m_transcript,
                QStringLiteral("%1: ").arg(turn.model.isEmpty() ? tr("Model") : turn.model),
                model);
    m_send->setEnabled(false);
    m_stop->setEnabled(true);
    m_transcript->verticalScrollBar()->setValue(m_transcript->verticalScrollBar()->maximum());
}

void ChatRoom::turnFinished(int index)
{
    const ChatTurn &turn = m_conversation->turns().at(index);
    QTextCharFormat note;
    note.setForeground(palette().placeholderText());
    note.setFontPointSize(qMax(6.0, font().pointSizeF() - 1));
    if (!turn.error.isEmpty())
        appendBlock(m_transcript, turn.error, note);
    appendBlock(m_transcript, chatUsageText(turn), note);
    m_send->setEnabled(!m_conversation->isBusy());
    m_stop->setEnabled(m_conversation->isBusy());
    if (!turn.error.isEmpty() && !turn.stopped)
        say(turn.error);
    m_transcript->verticalScrollBar()->setValue(m_transcript->verticalScrollBar()->maximum());
}

QString ChatRoom::transcriptFilter()
{
    return tr("Transcripts (*.jsonl);;All files (*)");
}

void ChatRoom::saveTranscript()
{
    if (m_conversation->transcript().isEmpty()) {
        say(tr("Nothing to save yet: send a message first."));
        return;
    }
    const QString path = QFileDialog::getSaveFileName(this,
                                                      tr("Save Transcript"),
                                                      m_host->liveSoul().directory,
                                                      transcriptFilter());
    if (path.isEmpty())
        return;
    const Status saved = m_conversation->saveTranscript(path);
    say(saved ? tr("Saved the transcript to %1.").arg(path) : saved.error());
}

void ChatRoom::replayTranscript()
{
    if (m_conversation->isBusy()) {
        say(tr("Wait for the reply to end, or stop it, before a replay."));
        return;
    }
    const QString path = QFileDialog::getOpenFileName(this,
                                                      tr("Replay Transcript"),
                                                      m_host->liveSoul().directory,
                                                      transcriptFilter());
    if (path.isEmpty())
        return;
    // Read and parsed on a worker: the file is someone's, and may be large.
    say(tr("Reading %1…").arg(QDir::toNativeSeparators(path)));
    auto *reading = new QFutureWatcher<Result<QList<TranscriptLine>>>(this);
    connect(reading, &QFutureWatcherBase::finished, this, [this, reading] {
        reading->deleteLater();
        replayLines(reading->result());
    });
    reading->setFuture(QtConcurrent::run(&Conversation::readTranscript, path));
}

void ChatRoom::replayLines(const Result<QList<TranscriptLine>> &lines)
{
    if (!lines) {
        say(lines.error());
        return;
    }
    say(QString());
    if (m_conversation->isBusy()) {
        say(tr("Wait for the reply to end, or stop it, before a replay."));
        return;
    }
    QStringList users;
    for (const TranscriptLine &line : *lines)
        users.append(line.user);
    restart();
    if (!m_conversation->isStarted() || !keyMayGo({}))
        return;
    m_conversation->setEndpoint(endpoint());
    m_conversation->replay(users);
}

void ChatRoom::say(const QString &sentence)
{
    m_status->setText(sentence);
    m_status->setVisible(!sentence.isEmpty());
}

} // namespace soul
