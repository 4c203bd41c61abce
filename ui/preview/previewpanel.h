#pragma once

#include "registry/runtimeprofile.h"

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
class RuntimePreview;
class RuntimeTextView;
class SoulPreview;
class SoulTokenCounter;
class TokenBar;
class WhenShown;

// The preview with its switches (unsaved edits or what is on disk, show
// invisibles), the list of unsaved slots it includes, and the totals: soul
// bytes, the found list and the soul's SHA-256, and under them the exact
// tokens with the encoding and the context-window budget (TokenBar).
class PreviewPanel : public QWidget
{
    Q_OBJECT

public:
    // `model` and `runtime` (the session's) must outlive the panel.
    PreviewPanel(const PersonaModel *model, RuntimePreview *runtime, QWidget *parent = nullptr);
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

    // The runtime the preview shows, the session's (`runtime`): toolnexus
    // shows the soul above; another shows, read-only, exactly what that
    // runtime injects. The chooser and the settings ask it for another.
    RuntimeProfile runtimeProfile() const;
    QComboBox *runtimeChooser() const { return m_runtimeChooser; }
    QPlainTextEdit *runtimeText() const;
    RuntimeTextView *runtimeTextView() const { return m_runtimeText; }
    // The chosen runtime's setting `key` as shown: a spin box, or a check box
    // for a flag; nullptr when it has no such setting.
    QSpinBox *settingBox(const QString &key) const;
    QCheckBox *settingCheck(const QString &key) const;
    QLabel *runtimeTotalsLabel() const { return m_runtimeTotals; }

private:
    void sectionChanged(int slot);
    void refreshNote();
    void refreshTotals();
    QLayout *buildRuntimeRow();
    void buildSettings(const Runtime &runtime);
    void chooseRuntime();
    void showProfile(const RuntimeProfile &profile);
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
    RuntimePreview *m_runtime = nullptr;
    QComboBox *m_runtimeChooser = nullptr;
    QFormLayout *m_settingsForm = nullptr;
    QHash<QString, QSpinBox *> m_settingBoxes;
    QHash<QString, QCheckBox *> m_settingChecks;
    const Runtime *m_settingsRuntime = nullptr; // whose settings the form shows
    QWidget *m_runtimeSettings = nullptr;
    RuntimeTextView *m_runtimeText = nullptr;
    QLabel *m_runtimeTotals = nullptr;
    QString m_totalsText; // the totals line without the digest
    // The digest reads the whole soul (14 MiB on a large persona): it waits
    // for a pause in typing and is computed off the GUI thread. A result is
    // taken only if no edit came after the text it was computed from.
    QTimer m_totalsTimer;
    // A panel not shown takes its sections and totals when it is next shown.
    QList<int> m_sectionsDue;
    WhenShown *m_sectionsShown = nullptr;
    WhenShown *m_totalsShown = nullptr;
    QFutureWatcher<QByteArray> m_digest;
    quint64 m_generation = 0;
    std::shared_ptr<std::atomic<quint64>> m_latest = std::make_shared<std::atomic<quint64>>(0);
    quint64 m_digestGeneration = 0;
    bool m_digestPending = false;
};

} // namespace soul
