#include "runtimeregistry.h"

#include "runtime/hermes/hermesruntime.h"
#include "runtime/openclaw/openclawruntime.h"
#include "runtime/toolnexus/toolnexusruntime.h"

#include <QStringList>

#include <algorithm>

namespace soul {

RuntimeRegistry &RuntimeRegistry::instance()
{
    static RuntimeRegistry registry;
    return registry;
}

RuntimeRegistry::RuntimeRegistry()
{
    add(std::make_unique<ToolnexusRuntime>());
    add(std::make_unique<OpenClawRuntime>());
    add(std::make_unique<HermesRuntime>());
}

const Runtime *RuntimeRegistry::find(QStringView id) const
{
    for (const Runtime *runtime : m_list) {
        if (runtime->id() == id)
            return runtime;
    }
    return nullptr;
}

QString RuntimeRegistry::ids() const
{
    QStringList out;
    for (const Runtime *runtime : m_list)
        out.append(runtime->id());
    return out.join(QStringLiteral(", "));
}

QString RuntimeRegistry::idsInWords() const
{
    QString out;
    for (qsizetype i = 0; i < m_list.size(); ++i) {
        if (i > 0)
            out += i + 1 == m_list.size() ? QStringLiteral(" or ") : QStringLiteral(", ");
        out += m_list.at(i)->id();
        if (i == 0)
            out += QStringLiteral(" (the default)");
    }
    return out;
}

const Runtime *RuntimeRegistry::homeRuntime() const
{
    const auto it = std::find_if(m_list.cbegin(), m_list.cend(), [](const Runtime *runtime) {
        return runtime->readsHome();
    });
    return it == m_list.cend() ? nullptr : *it;
}

const Runtime *RuntimeRegistry::summaryRuntime() const
{
    const auto it = std::find_if(m_list.cbegin(), m_list.cend(), [](const Runtime *runtime) {
        return runtime->summarizesBudget();
    });
    return it == m_list.cend() ? nullptr : *it;
}

const Runtime *RuntimeRegistry::hintRuntime() const
{
    const auto it = std::find_if(m_list.cbegin(), m_list.cend(), [](const Runtime *runtime) {
        return runtime->hintsPanes();
    });
    return it == m_list.cend() ? nullptr : *it;
}

const Runtime *paneHintRuntime()
{
    return RuntimeRegistry::instance().hintRuntime();
}

bool RuntimeRegistry::add(std::unique_ptr<Runtime> runtime)
{
    if (!runtime || find(runtime->id()))
        return false;
    m_list.append(runtime.get());
    m_owned.push_back(std::move(runtime));
    return true;
}

bool RuntimeRegistry::remove(QStringView id)
{
    const Runtime *runtime = find(id);
    if (!runtime || runtime == m_list.first())
        return false;
    m_list.removeOne(runtime);
    m_owned.erase(std::find_if(m_owned.begin(), m_owned.end(), [runtime](const auto &owned) {
        return owned.get() == runtime;
    }));
    return true;
}

} // namespace soul
