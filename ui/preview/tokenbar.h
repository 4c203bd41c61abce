#pragma once

#include "persona/personamodel.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QProgressBar;
class QSettings;

namespace soul {

class SoulTokenCounter;
class WhenShown;

// The soul's exact token count under the preview, with the encoding chooser
// and the context-window budget: the soul's share of the budget as a number
// and a meter. A count still being made is shown greyed (or "counting…"),
// never as exact. The choices are remembered in the settings given.
class TokenBar : public QWidget
{
    Q_OBJECT

public:
    explicit TokenBar(QWidget *parent = nullptr);

    // The counter whose soul total is shown; not owned.
    void setCounter(SoulTokenCounter *counter);
    // Restores the remembered encoding (or tokenizer.json) and budget, and
    // remembers later choices there; not owned.
    void setSettings(QSettings *settings);
    void setView(SoulView view);

    // The budget in tokens (8k is 8,192; 128k is 128,000; see budgetPresets()).
    qint64 budget() const { return m_budget; }
    void setBudget(qint64 tokens);
    // "64k", "64000", "1M", "1,000,000": tokens; 0 for text that is not a count.
    static qint64 parseBudget(const QString &text);
    struct Preset
    {
        QString label;
        qint64 tokens;
    };
    static QList<Preset> budgetPresets();

    QLabel *tokensLabel() const { return m_tokens; }
    QComboBox *encodingChooser() const { return m_encoding; }
    QComboBox *budgetChooser() const { return m_budgetBox; }
    QProgressBar *meter() const { return m_meter; }
    QLabel *shareLabel() const { return m_share; }

Q_SIGNALS:
    // "Load tokenizer.json…" was chosen: the window asks for the file.
    void tokenizerFileRequested();

private:
    void refresh();
    void fillEncodings();
    void encodingChosen(int index);
    void budgetEdited();

    SoulTokenCounter *m_counter = nullptr;
    WhenShown *m_refreshShown = nullptr; // a bar not shown counts when shown
    QSettings *m_settings = nullptr;
    SoulView m_view = SoulView::Unsaved;
    qint64 m_budget = 128000;
    bool m_filling = false;
    QLabel *m_tokens = nullptr;
    QComboBox *m_encoding = nullptr;
    QComboBox *m_budgetBox = nullptr;
    QProgressBar *m_meter = nullptr;
    QLabel *m_share = nullptr;
};

} // namespace soul
