#pragma once

#include <QString>
#include <QWidget>

class QSettings;
class QSpinBox;

namespace soul {

// The two waits of a request to a model server, as the Chat dock and the
// Tests panel let the author set them: the deadline in all and the longest
// wait for the next byte, in seconds, remembered in the settings.
class DeadlineFields : public QWidget
{
    Q_OBJECT

public:
    // `name` begins the spin boxes' object names ("chat": chatTimeout,
    // chatIdleTimeout) and the settings' keys (chat/timeoutSeconds);
    // `waiting` names what is waited for in the tooltip ("reply").
    DeadlineFields(const QString &name,
                   const QString &waiting,
                   QSettings *settings,
                   QWidget *parent = nullptr);

    int timeoutMs() const;
    int idleTimeoutMs() const;

Q_SIGNALS:
    void changed();

private:
    QSpinBox *m_timeout;
    QSpinBox *m_idleTimeout;
};

} // namespace soul
