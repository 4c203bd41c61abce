#pragma once

#include "disk/slotlayout.h"
#include "hermesrule.h"
#include "runtime/runtime.h"

namespace soul {

// Hermes Agent 0.21.3 (docs/hermes-0.21.3.md): its identity, project-context,
// memory and user-profile blocks, from a flat persona folder or from a Hermes
// home and the project it runs in.
class HermesRuntime final : public Runtime
{
public:
    QString id() const override;
    QString displayName() const override;
    QString shortName() const override;
    QStringList files() const override;
    QStringList neverRead() const override;
    BudgetUnit budgetUnit() const override { return BudgetUnit::CodePoints; }
    QList<RuntimeSetting> settings() const override;
    qint64 fileBudget(QStringView fileName, const RuntimeSettings &settings) const override;
    Result<RuntimeComposition> compose(const RuntimeInput &input,
                                       const RuntimeSettings &settings) const override;
    Result<QByteArray> statReport(const RuntimeInput &input,
                                  const RuntimeSettings &settings,
                                  const Tokenizer &tokenizer,
                                  bool json) const override;
    QString lintLocation(const RuntimeInput &input, const Lint &lint) const override;
    bool readsHome() const override { return true; }
    bool listsSkills() const override { return true; }
    Result<SkillsList> skills(const SkillsRequest &request) const override;
    QString description() const override;
    QString optionsHelp() const override;
    QString homeDirectory() const override;
    QString homeOption() const override;
    Result<SlotLayout> homeLayout(const QString &home,
                                  const QString &project,
                                  const QString &preferred = QString()) const override;
    Result<QStringList> homeProjectFiles(const QString &home, const QString &project) const override;
    QStringList homeProjectFolders(const QString &project) const override;
    QStringList readPaths(const RuntimeInput &input, const QStringList &slotNames) const override;
    QString readRulesFolder(const RuntimeInput &input) const override;
    QString paneNote(const SlotLayout &layout,
                     const RuntimeComposition &composition,
                     int slot) const override;
};

// Hermes's settings from a runtime's settings by key, and back.
HermesSettings hermesSettings(const RuntimeSettings &values);
RuntimeSettings hermesSettingValues(const HermesSettings &settings);

// The AGENTS.md pane of a Hermes home (hermesHomeLayout) holds the project
// file that won when the home was opened. When `composition` (Hermes's, of
// that home and project with the panes' texts) reads another project file
// instead, the sentence that says so (DocumentController moves the pane
// once nothing is unsaved); empty while it reads the pane's file, or no
// project file at all.
QString hermesProjectPaneMoved(const SlotLayout &layout, const RuntimeComposition &composition);

// When the project-context block of `composition` joins other files to the
// one in the AGENTS.md pane of a Hermes home (the AGENTS chain, the cursor
// rules), the sentence naming them; empty when the pane's file is alone in
// the block or not in it.
QString hermesProjectPaneJoined(const SlotLayout &layout, const RuntimeComposition &composition);

} // namespace soul
