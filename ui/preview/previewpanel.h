#pragma once

#include <QTimer>
#include <QWidget>

class QCheckBox;
class QLabel;
class QToolButton;

namespace soul {

class PersonaModel;
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

    SoulPreview *preview() const { return m_preview; }
    QCheckBox *unsavedToggle() const { return m_unsaved; }
    QCheckBox *invisiblesToggle() const { return m_invisibles; }
    QLabel *totalsLabel() const { return m_totals; }
    QLabel *unsavedNote() const { return m_unsavedNote; }
    TokenBar *tokenBar() const { return m_tokenBar; }
    // The counter whose soul total the token bar shows; not owned.
    void setTokenCounter(SoulTokenCounter *counter);
    // The full SHA-256 (hex) of the soul shown, once computed.
    QString soulSha256() const { return m_sha; }
    // The totals wait for a pause in typing and are not shown yet.
    bool settling() const { return m_totalsTimer.isActive(); }

    // Builds the preview again from the model: the window calls it when a
    // folder opens or closes, once the preview has its size.
    void rebuild();

Q_SIGNALS:
    void totalsUpdated();

private:
    void sectionChanged(int slot);
    void refreshNote();
    void refreshTotals();

    const PersonaModel *m_model = nullptr;
    QCheckBox *m_unsaved = nullptr;
    QCheckBox *m_invisibles = nullptr;
    QLabel *m_unsavedNote = nullptr;
    SoulPreview *m_preview = nullptr;
    QLabel *m_totals = nullptr;
    QToolButton *m_copySha = nullptr;
    TokenBar *m_tokenBar = nullptr;
    QString m_sha;
    // The digest reads the whole soul; it waits for a pause in typing.
    QTimer m_totalsTimer;
};

} // namespace soul
