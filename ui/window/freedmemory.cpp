#include "freedmemory.h"

#include "exportcontroller.h"
#include "freezecontroller.h"
#include "heap.h"
#include "persona/personamodel.h"
#include "personasession.h"

namespace soul {

FreedMemory::FreedMemory(QObject *parent)
    : QObject(parent)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(QuietMs);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        releaseNow();
        ++m_releases;
        Q_EMIT released();
    });
}

void FreedMemory::releaseSoon()
{
    m_timer.start();
}

void FreedMemory::follow(const PersonaSession *session)
{
    connect(session->model(), &PersonaModel::opened, this, &FreedMemory::releaseSoon);
    connect(session->model(), &PersonaModel::bufferReplaced, this, &FreedMemory::releaseSoon);
    connect(session->freezer(), &FreezeController::frozen, this, &FreedMemory::releaseSoon);
    connect(session->freezer(), &FreezeController::failed, this, &FreedMemory::releaseSoon);
    connect(session->exporter(), &ExportController::exported, this, &FreedMemory::releaseSoon);
    connect(session->exporter(), &ExportController::failed, this, &FreedMemory::releaseSoon);
}

bool FreedMemory::releaseNow()
{
    return releaseFreeMemory();
}

} // namespace soul
