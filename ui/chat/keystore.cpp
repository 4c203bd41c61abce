#include "keystore.h"

#include <qt6keychain/keychain.h>

namespace soul {

namespace {

const QString Service = QStringLiteral("Soul Studio chat");

// A job owns itself (auto-delete) rather than having this store as parent:
// the keyring's backend calls back into its job once it answers, even after
// the window closed, and a job deleted with its parent would be called dead.
template<typename Job>
Job *newJob()
{
    auto *job = new Job(Service); // NOLINT(cppcoreguidelines-owning-memory): deletes itself
    job->setAutoDelete(true);
    return job;
}

} // namespace

KeyStore::KeyStore(QObject *parent)
    : QObject(parent)
{}

QString KeyStore::note() const
{
    if (m_keyring)
        return tr("The key is kept in the system keyring, never in a file.");
    return tr("No keyring service is available: the key is kept in memory for this session "
              "only.");
}

void KeyStore::keyringFailed(const QString &why)
{
    if (!m_keyring)
        return;
    m_keyring = false;
    m_why = why;
    Q_EMIT noteChanged();
}

void KeyStore::read(const QString &host)
{
    if (m_session.contains(host) || !m_keyring) {
        const QString key = m_session.value(host);
        QMetaObject::invokeMethod(
            this, [this, host, key] { Q_EMIT keyRead(host, key); }, Qt::QueuedConnection);
        return;
    }
    auto *job = newJob<QKeychain::ReadPasswordJob>();
    job->setKey(host);
    connect(job, &QKeychain::Job::finished, this, [this, job, host] {
        QString key;
        if (job->error() == QKeychain::NoError)
            key = job->textData();
        else if (job->error() != QKeychain::EntryNotFound)
            keyringFailed(job->errorString());
        if (m_session.contains(host)) // typed while the keyring was asked
            key = m_session.value(host);
        Q_EMIT keyRead(host, key);
    });
    job->start();
}

void KeyStore::write(const QString &host, const QString &key)
{
    if (key.isEmpty())
        m_session.remove(host);
    else
        m_session.insert(host, key);
    if (!m_keyring)
        return;
    QKeychain::Job *job = nullptr;
    if (key.isEmpty()) {
        job = newJob<QKeychain::DeletePasswordJob>();
    } else {
        auto *store = newJob<QKeychain::WritePasswordJob>();
        store->setTextData(key);
        job = store;
    }
    job->setKey(host);
    connect(job, &QKeychain::Job::finished, this, [this, job] {
        if (job->error() != QKeychain::NoError && job->error() != QKeychain::EntryNotFound)
            keyringFailed(job->errorString());
    });
    job->start();
}

} // namespace soul
