#pragma once

#include "runtimeprofile.h"
#include "slots/runtimepaneview.h"

#include <QFutureWatcher>
#include <QHash>
#include <QTimer>
#include <QWidget>

#include <atomic>
#include <memory>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLayout;
class QPlainTextEdit;
class QSpinBox;
class QToolButton;

namespace soul {

class PersonaModel;
class RuntimeComposer;
class RuntimeTextView;
class SoulPreview;
class SoulTokenCounter;
class TokenBar;

// The preview with its switches (unsaved edits or what is on disk, show
// invisibles), the list of unsaved slots it includes, and the totals: soul
// bytes, the found list and the soul's SHA-256, and under them the exact
// tokens with the encoding and the context-window budget (TokenBar).
class PreviewPanel : public QWidget
{
    Q_OBJECT

public:
    explicit PreviewPanel(const PersonaModel *model, QWidget *parent = nullptr);
    ~PreviewPanel() override;

    SoulPreview *preview() const { return m_preview; }
    QCheckBox *unsavedToggle() const { return m_unsaved; }
    QCheckBox *invisiblesToggle() const { return m_invisibles; }
    QLabel *totalsLabel() const { return m_totals; }
    QLabel *unsavedNote() const { return m_unsavedNote; }
    TokenBar *tokenBar() const { return m_tokenBar; }
    // The counter whose soul total the token bar shows; not owned.
    void setTokenCounter(SoulTokenCounter *counter);
    // The full SHA-256 (hex) of the soul shown, once computed; empty while
    // it is being computed for the latest text.
    QString soulSha256() const { return m_sha; }
    // The SHA-256 that Copy SHA-256 copies: of the soul, or of what the
    // chosen runtime injects; empty while unknown.
    QString shownSha256() const;
    // What the chosen runtime injects, as shown (not for a runtime that
    // composes by sections: that is the model's soul).
    QByteArray runtimeBytes() const;
    // The totals wait for a pause in typing, or the digest is not there yet.
    bool settling() const { return m_totalsTimer.isActive() || m_digestPending; }

    // Builds the preview again from the model: the window calls it when a
    // folder opens or closes, once the preview has its size.
    void rebuild();

    // The runtime the preview composes for: toolnexus shows the soul above;
    // another shows, read-only, exactly what that runtime injects.
    void setRuntimeProfile(const RuntimeProfile &profile);
    RuntimeProfile runtimeProfile() const;
    RuntimeComposer *runtimeComposer() const { return m_runtime; }
    // What pane `slot` keeps under the runtime, from the last result.
    const RuntimePaneView &runtimePaneView(int slot) const;
    QComboBox *runtimeChooser() const { return m_runtimeChooser; }
    QPlainTextEdit *runtimeText() const;
    RuntimeTextView *runtimeTextView() const { return m_runtimeText; }
    // The chosen runtime's setting `key` as shown: a spin box, or a check box
    // for a flag; nullptr when it has no such setting.
    QSpinBox *settingBox(const QString &key) const;
    QCheckBox *settingCheck(const QString &key) const;
    // The settings last chosen for each runtime, by its id (empty: defaults).
    RuntimeSettings settingsFor(const QString &runtimeId) const;
    // Those of the runtime whose hint the panes show (RuntimeRegistry::
    // hintRuntime()), with its defaults; empty when no runtime hints.
    RuntimeSettings hintSettings() const;
    void setRuntimeSettings(const QString &runtimeId, const RuntimeSettings &settings);
    QLabel *runtimeTotalsLabel() const { return m_runtimeTotals; }

Q_SIGNALS:
    // The user chose another runtime or changed its settings.
    void runtimeProfileChosen(const RuntimeProfile &profile);
    // The preview follows `profile` now, chosen by the user or set.
    void runtimeProfileApplied(const RuntimeProfile &profile);
    // A new runtime result is shown; the panes take theirs from it.
    void runtimeUpdated();

private:
    void sectionChanged(int slot);
    void refreshNote();
    void refreshTotals();
    QLayout *buildRuntimeRow();
    void buildSettings(const Runtime &runtime);
    void chooseRuntime();
    void showRuntime();
    void digestOutdated();
    void digestArrived();
    void showTotals();

    const PersonaModel *m_model = nullptr;
    QCheckBox *m_unsaved = nullptr;
    QCheckBox *m_invisibles = nullptr;
    QLabel *m_unsavedNote = nullptr;
    SoulPreview *m_preview = nullptr;
    QLabel *m_totals = nullptr;
    QToolButton *m_copySha = nullptr;
    TokenBar *m_tokenBar = nullptr;
    QString m_sha;
    QString m_runtimeSha;
    RuntimeComposer *m_runtime = nullptr;
    QComboBox *m_runtimeChooser = nullptr;
    QFormLayout *m_settingsForm = nullptr;
    QHash<QString, QSpinBox *> m_settingBoxes;
    QHash<QString, QCheckBox *> m_settingChecks;
    QHash<QString, RuntimeSettings> m_settings;
    const Runtime *m_settingsRuntime = nullptr; // whose settings the form shows
    QWidget *m_runtimeSettings = nullptr;
    RuntimeTextView *m_runtimeText = nullptr;
    QLabel *m_runtimeTotals = nullptr;
    QString m_totalsText; // the totals line without the digest
    // The digest reads the whole soul (14 MiB on a large persona): it waits
    // for a pause in typing and is computed off the GUI thread. A result is
    // taken only if no edit came after the text it was computed from.
    QTimer m_totalsTimer;
    QFutureWatcher<QByteArray> m_digest;
    quint64 m_generation = 0;
    std::shared_ptr<std::atomic<quint64>> m_latest = std::make_shared<std::atomic<quint64>>(0);
    quint64 m_digestGeneration = 0;
    bool m_digestPending = false;
};

} // namespace soul
