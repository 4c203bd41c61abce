#include "deadlinefields.h"

#include "chatclient.h"

#include <QHBoxLayout>
#include <QSettings>
#include <QSpinBox>

namespace soul {

DeadlineFields::DeadlineFields(const QString &name,
                               const QString &waiting,
                               QSettings *settings,
                               QWidget *parent)
    : QWidget(parent)
    , m_timeout(new QSpinBox(this))
    , m_idleTimeout(new QSpinBox(this))
{
    const QString timeoutKey = name + QStringLiteral("/timeoutSeconds");
    const QString idleKey = name + QStringLiteral("/idleTimeoutSeconds");
    m_timeout->setObjectName(name + QStringLiteral("Timeout"));
    m_timeout->setRange(1, 86400);
    m_timeout->setSuffix(tr(" s in all"));
    m_timeout->setToolTip(tr("Each %1's deadline, first byte to last.").arg(waiting));
    m_idleTimeout->setObjectName(name + QStringLiteral("IdleTimeout"));
    m_idleTimeout->setRange(1, 86400);
    m_idleTimeout->setSuffix(tr(" s for a byte"));
    m_idleTimeout->setToolTip(tr("The longest wait for the server's next byte: a stalled "
                                 "server is named when it passes."));
    m_timeout->setValue(
        settings ? settings->value(timeoutKey, ChatRequest::DefaultTimeoutMs / 1000).toInt()
                 : ChatRequest::DefaultTimeoutMs / 1000);
    m_idleTimeout->setValue(
        settings ? settings->value(idleKey, ChatRequest::DefaultIdleTimeoutMs / 1000).toInt()
                 : ChatRequest::DefaultIdleTimeoutMs / 1000);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_timeout);
    layout->addWidget(m_idleTimeout);
    layout->addStretch(1);
    for (QSpinBox *spin : {m_timeout, m_idleTimeout}) {
        connect(spin, qOverload<int>(&QSpinBox::valueChanged), this, [=] {
            if (settings) {
                settings->setValue(timeoutKey, m_timeout->value());
                settings->setValue(idleKey, m_idleTimeout->value());
            }
            Q_EMIT changed();
        });
    }
}

int DeadlineFields::timeoutMs() const
{
    return m_timeout->value() * 1000;
}

int DeadlineFields::idleTimeoutMs() const
{
    return m_idleTimeout->value() * 1000;
}

} // namespace soul
