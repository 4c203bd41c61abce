#pragma once

#include <QList>
#include <QString>
#include <QStringView>

#include <memory>
#include <vector>

// The runtimes Soul Studio knows, in the order the window and soulc list
// them: toolnexus first (the default), then OpenClaw 2026.9 and Hermes Agent
// 0.21.3. A runtime is added by registering it; nothing else names it.
namespace soul {

class Runtime;

class RuntimeRegistry
{
public:
    // The program's registry, with the built-in runtimes.
    static RuntimeRegistry &instance();

    const QList<const Runtime *> &runtimes() const { return m_list; }
    // nullptr for an unknown id.
    const Runtime *find(QStringView id) const;
    const Runtime *defaultRuntime() const { return m_list.first(); }
    // "toolnexus, openclaw, hermes"
    QString ids() const;
    // "toolnexus (the default), openclaw or hermes", as soulc's help says it.
    QString idsInWords() const;
    // The first runtime that reads a home of its own (Runtime::readsHome()),
    // that the sidebar sums personas up by (summarizesBudget()), and that
    // hints at what it keeps in other runtimes' panes (hintsPanes());
    // nullptr when none does.
    const Runtime *homeRuntime() const;
    const Runtime *summaryRuntime() const;
    const Runtime *hintRuntime() const;

    // Adds `runtime` after the others; one with the id of a registered runtime
    // is refused (returns false).
    bool add(std::unique_ptr<Runtime> runtime);
    // Takes a runtime out again (the tests that add one); false if unknown.
    bool remove(QStringView id);

private:
    RuntimeRegistry();
    std::vector<std::unique_ptr<Runtime>> m_owned;
    QList<const Runtime *> m_list;
};

} // namespace soul
