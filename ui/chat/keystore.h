#pragma once

#include <QHash>
#include <QObject>
#include <QString>

namespace soul {

// API keys per endpoint host, kept in the system keyring (QtKeychain) and
// never in a settings file. Where no keyring service answers (a CI machine,
// a desktop without one), a key is kept in memory for this session only and
// note() says so. Reads and writes go through the keyring's own jobs, so
// nothing here blocks.
class KeyStore : public QObject
{
    Q_OBJECT

public:
    explicit KeyStore(QObject *parent = nullptr);

    // Asks for the key of `host`; keyRead() answers, with an empty key when
    // there is none.
    void read(const QString &host);
    // Keeps `key` for `host` (an empty key forgets it).
    void write(const QString &host, const QString &key);
    // Where keys are kept, as a sentence for the panel.
    QString note() const;
    // What the keyring said when it failed; empty while it works.
    const QString &keyringError() const { return m_why; }

Q_SIGNALS:
    void keyRead(const QString &host, const QString &key);
    void noteChanged();

private:
    void keyringFailed(const QString &why);

    QHash<QString, QString> m_session; // every key given in this session
    bool m_keyring = true;
    QString m_why;
};

} // namespace soul
