#pragma once

#include "chatclient.h"

#include <QDockWidget>
#include <QHash>
#include <QPointer>
#include <QSet>
#include <QString>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTextBrowser;
class QWidget;

namespace soul {

struct TranscriptLine;

class Conversation;
class DeadlineFields;
struct ChatEndpoint;
class RoomHost;
class KeyStore;

// The Chat dock: a conversation on the frozen soul (Conversation decides;
// this shows it and passes on what the author asks). The endpoint and the
// model are remembered in the settings; the API key only in the keyring, or
// for the session when there is none.
class ChatRoom : public QDockWidget
{
    Q_OBJECT

public:
    explicit ChatRoom(RoomHost *host);
    ~ChatRoom() override;

    Conversation *conversation() const { return m_conversation; }

private:
    void buildUi();
    void choosePreset(int index);
    void endpointEdited();
    void refreshModels();
    void sendTyped();
    void send(const QString &text);
    void restart();
    void showSoul();
    void checkSoul();
    void turnStarted(int index);
    void turnFinished(int index);
    void saveTranscript();
    void replayTranscript();
    void say(const QString &sentence);
    void keyEdited();
    void loadKey();
    void replayLines(const Result<QList<TranscriptLine>> &lines);
    QString hostKey() const;
    // Where the URL's credentials are kept beside the host's key.
    QString credentialsKey() const { return QStringLiteral("url-credentials:") + hostKey(); }
    QUrl baseUrl() const;
    // What the fields say now: where a request goes, the model and the key.
    ChatEndpoint endpoint() const;
    static QString transcriptFilter();
    // Asks before a key goes over plain http to another machine; true when
    // it may go now.
    bool keyMayGo(const QString &pending);

    RoomHost *m_host;
    Conversation *m_conversation;
    KeyStore *m_keys;
    ChatClient m_client;
    QPointer<ModelsCall> m_modelsCall;
    QSet<QString> m_plainHostsAllowed;
    QString m_pendingSend;
    QString m_shownUrl; // the endpoint the model list is for // waits for the answer about plain http
    // A user name and password given in the endpoint's URL: kept with the
    // keys (the keyring), added back to each request, never in settings or
    // a transcript.
    QString m_userInfo;

    QComboBox *m_preset = nullptr;
    QLineEdit *m_url = nullptr;
    QComboBox *m_model = nullptr;
    QPushButton *m_refresh = nullptr;
    QLineEdit *m_key = nullptr;
    DeadlineFields *m_deadlines = nullptr;
    QLabel *m_keyNote = nullptr;
    QWidget *m_keyQuestion = nullptr;
    QLabel *m_keyQuestionText = nullptr;
    QLabel *m_soul = nullptr;
    QWidget *m_staleBar = nullptr;
    QPushButton *m_restart = nullptr;
    QTextBrowser *m_transcript = nullptr;
    QLabel *m_status = nullptr;
    QLineEdit *m_input = nullptr;
    QPushButton *m_send = nullptr;
    QPushButton *m_stop = nullptr;
};

} // namespace soul
