#include "personasession.h"

#include "comparecontroller.h"
#include "documentcontroller.h"
#include "exportcontroller.h"
#include "freezecontroller.h"
#include "history/historysession.h"
#include "persona/personamodel.h"
#include "persona/soultokencounter.h"
#include "runtimepreview.h"

#include "compose/contract.h"
#include "persona/inspection.h"
#include "persona/lint.h"
#include "registry/runtimeregistry.h"

#include <QFileInfo>
#include <QRegularExpression>

namespace soul {

PersonaSession::PersonaSession(Prompter *prompter, QSettings *settings, QObject *parent)
    : QObject(parent)
    , m_prompter(prompter)
    , m_model(new PersonaModel(this))
    , m_tokens(new SoulTokenCounter(m_model, this))
    , m_documents(new DocumentController(m_model, prompter, settings, this))
    , m_export(new ExportController(m_model, m_documents, prompter, this))
    , m_freeze(new FreezeController(m_model, m_documents, prompter, settings, this))
    , m_compare(new CompareController(m_model, m_tokens, this))
    , m_history(new HistorySession(m_model, m_documents, m_tokens, prompter, settings, this))
    , m_runtime(new RuntimePreview(m_model, settings, this))
{
    // The controllers follow the runtime before anything shows it: the
    // runtime's own file has its name before the panes look for it.
    const auto follow = [this](const RuntimeProfile &profile) {
        // The runtime's own file: its pane appears with the first runtime
        // that names one, and stays (its text too) while others are chosen.
        m_documents->setSetupFile(profile.runtime->setupFile());
        m_export->setRuntimeProfile(profile);
        m_freeze->setRuntimeProfile(profile);
        m_history->setRuntimeProfile(profile);
    };
    follow(m_runtime->profile());
    connect(m_runtime, &RuntimePreview::profileChanged, this, follow);
    m_runtime->setTokenCounter(m_tokens);
    // Another project file may win now: the runtime reads again.
    connect(m_documents,
            &DocumentController::projectFilesChanged,
            m_runtime,
            &RuntimePreview::schedule);
    connect(m_model, &PersonaModel::opened, this, &PersonaSession::summaryChanged);
    connect(m_model, &PersonaModel::closed, this, &PersonaSession::summaryChanged);
    // Said once when the persona gains or loses its last unsaved text (a
    // slot's, or the runtime's own file's), not at every change of a state.
    const auto unsavedMayHaveChanged = [this] {
        const bool unsaved = hasUnsaved();
        if (unsaved != m_lastUnsaved) {
            m_lastUnsaved = unsaved;
            Q_EMIT summaryChanged();
        }
    };
    connect(m_model, &PersonaModel::slotStateChanged, this, unsavedMayHaveChanged);
    connect(m_documents, &DocumentController::statusMessage, this, &PersonaSession::statusMessage);
    connect(m_export, &ExportController::statusMessage, this, &PersonaSession::statusMessage);
    connect(m_freeze, &FreezeController::statusMessage, this, &PersonaSession::statusMessage);
}

PersonaSession::~PersonaSession() = default;

void PersonaSession::setPrompter(Prompter *prompter)
{
    m_prompter = prompter;
    m_documents->setPrompter(prompter);
    m_export->setPrompter(prompter);
    m_freeze->setPrompter(prompter);
    m_history->setPrompter(prompter);
}

void PersonaSession::setRuntimeProfile(const RuntimeProfile &profile)
{
    m_runtime->choose(profile);
}

const RuntimeProfile &PersonaSession::runtimeProfile() const
{
    return m_runtime->profile();
}

QString PersonaSession::directory() const
{
    return m_model->isOpen() ? m_model->directory() : QString();
}

QString PersonaSession::displayName() const
{
    return m_model->isOpen() ? QFileInfo(m_model->directory()).fileName() : QString();
}

bool PersonaSession::hasUnsaved() const
{
    return m_model->isOpen() && m_model->hasUnsaved();
}

bool PersonaSession::busy() const
{
    return m_export->busy() || m_freeze->busy();
}

void PersonaSession::setAgent(const Agent &agent)
{
    m_agent = agent;
    m_runtime->setAgentProfile(agent.openClaw);
    Q_EMIT summaryChanged();
}

QString PersonaSession::identityName(const QByteArray &identity)
{
    // "- **Name:** Ava", "Name: Ava", "**Name**: Ava": the convention of
    // OpenClaw's IDENTITY.md template and of hand-written ones.
    static const QRegularExpression nameLine(
        QStringLiteral(
            R"(^\s*(?:[-*+]\s+)?(?:\*\*|__)?name(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*(.*?)\s*$)"),
        QRegularExpression::CaseInsensitiveOption | QRegularExpression::MultilineOption);
    const QRegularExpressionMatch match = nameLine.match(QString::fromUtf8(identity));
    if (!match.hasMatch())
        return {};
    QString name = match.captured(1);
    name.remove(QLatin1Char('*'));
    name.remove(QLatin1Char('_'));
    return name.trimmed().left(80);
}

PersonaSession::Summary PersonaSession::summary() const
{
    Summary summary;
    if (!m_model->isOpen())
        return summary;
    summary.unsaved = hasUnsaved();
    const ComposeRule &rule = m_model->rule();
    RuntimeInput input;
    input.dir = m_model->directory();
    for (int k = 0; k < SlotCount; ++k) {
        const SlotState &s = m_model->slot(k);
        if (!s.bufferPresent)
            continue;
        input.buffers.insert(slotName(k), s.bufferBytes);
        for (const Lint &lint : lintSlot(factsOfBytes(k, s.bufferBytes, rule), rule))
            summary.lints += lint.level == LintLevel::Info ? 0 : 1;
        if (k == slotIndex(u"IDENTITY.md"))
            summary.identityName = identityName(s.bufferBytes);
    }
    const SoulTokenCounter::Count tokens = m_tokens->soulTokens(SoulView::Unsaved);
    summary.tokens = tokens.exact ? tokens.tokens : -1;
    // The agent's own budgets when its runtime is the one the sidebar sums up by.
    const Runtime *summaryRuntime = RuntimeRegistry::instance().summaryRuntime();
    if (summaryRuntime) {
        const RuntimeProfile summing = m_agent.openClaw.runtime == summaryRuntime
                                           ? m_agent.openClaw
                                           : RuntimeProfile::of(summaryRuntime);
        const Result<RuntimeComposition> composed = summing.runtime->compose(input,
                                                                             summing.settings);
        if (composed) {
            summary.injected = composed.value().totalUsed;
            summary.budget = composed.value().totalBudget;
        }
    }
    return summary;
}

} // namespace soul
