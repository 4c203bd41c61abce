#include "tokenbar.h"

#include "counttext.h"
#include "persona/soultokencounter.h"
#include "text/whenshown.h"
#include "tokens/tokenizer.h"

#include <QComboBox>
#include <QFileInfo>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QSettings>

#include <algorithm>
#include <cmath>

namespace soul {

namespace {

const QString EncodingKey = QStringLiteral("tokens/encoding");
const QString TokenizerFileKey = QStringLiteral("tokens/tokenizerFile");
const QString BudgetKey = QStringLiteral("tokens/budget");
// The chooser's last entry, which asks for a file instead of naming one.
const QString LoadFileItem = QStringLiteral("load");

constexpr int MeterSteps = 1000;

} // namespace

QList<TokenBar::Preset> TokenBar::budgetPresets()
{
    return {{QStringLiteral("8k"), 8192},
            {QStringLiteral("32k"), 32768},
            {QStringLiteral("128k"), 128000},
            {QStringLiteral("200k"), 200000},
            {QStringLiteral("1M"), 1000000}};
}

qint64 TokenBar::parseBudget(const QString &text)
{
    QString t = text.trimmed().toLower();
    t.remove(QLatin1Char(',')).remove(QLatin1Char(' ')).remove(QLatin1Char('_'));
    for (const Preset &p : budgetPresets()) {
        if (t == p.label.toLower())
            return p.tokens;
    }
    qint64 scale = 1;
    if (t.endsWith(QLatin1Char('k')))
        scale = 1000;
    else if (t.endsWith(QLatin1Char('m')))
        scale = 1000000;
    if (scale != 1)
        t.chop(1);
    bool ok = false;
    const double value = t.toDouble(&ok);
    if (!ok || value < 1 || value * double(scale) > 1e12)
        return 0;
    return qint64(std::llround(value * double(scale)));
}

TokenBar::TokenBar(QWidget *parent)
    : QWidget(parent)
    , m_tokens(new QLabel(this))
    , m_encoding(new QComboBox(this))
    , m_budgetBox(new QComboBox(this))
    , m_meter(new QProgressBar(this))
    , m_share(new QLabel(this))
{
    m_tokens->setAccessibleName(tr("Soul tokens"));
    m_tokens->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A width that does not follow the count: a new size hint on every count
    // would lay the panel out again, and a preview whose width moves by a
    // pixel lays out every line of the soul again (tens of MiB on a large
    // one).
    const QFontMetrics metrics(m_tokens->font());
    m_tokens->setFixedWidth(
        std::max(metrics.horizontalAdvance(tr("%1 tokens").arg(formatCount(99999999))),
                 metrics.horizontalAdvance(tr("counting tokens…")))
        + 4);
    m_encoding->setAccessibleName(tr("Encoding"));
    m_encoding->setToolTip(tr("The tokenizer that counts: OpenAI's o200k_base (GPT-4o, GPT-4.1, "
                              "o-series, GPT-5) or cl100k_base (GPT-4, GPT-3.5), or a byte-level "
                              "BPE tokenizer.json (Llama 3, Qwen, DeepSeek)"));
    // As wide as the longest encoding name, not as "Load tokenizer.json…":
    // the bar must not widen the preview in a narrow window.
    m_encoding->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_encoding->setMinimumContentsLength(11);
    m_budgetBox->setEditable(true);
    m_budgetBox->setInsertPolicy(QComboBox::NoInsert);
    m_budgetBox->setAccessibleName(tr("Context window"));
    m_budgetBox->setToolTip(tr("The model's context window in tokens: pick one or type a number "
                               "(64k, 100000)"));
    for (const Preset &p : budgetPresets())
        m_budgetBox->addItem(p.label, p.tokens);
    m_budgetBox->setMinimumContentsLength(6);
    m_meter->setRange(0, MeterSteps);
    m_meter->setTextVisible(false);
    m_meter->setFixedWidth(60);
    m_meter->setMaximumHeight(10);
    m_meter->setAccessibleName(tr("Soul's share of the context window"));
    m_share->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The meter says the same; in a narrow window the words give way.
    m_share->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_share->setMinimumWidth(40);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);
    layout->addWidget(m_tokens);
    layout->addWidget(m_encoding);
    // "2,045 tokens [o200k_base] of [128k] ▮▯ 1.60% of 128,000"
    auto *window = new QLabel(tr("&of"), this);
    window->setToolTip(m_budgetBox->toolTip());
    window->setBuddy(m_budgetBox);
    layout->addWidget(window);
    layout->addWidget(m_budgetBox);
    layout->addWidget(m_meter);
    layout->addWidget(m_share, 1);

    fillEncodings();
    setBudget(m_budget);
    connect(m_encoding, &QComboBox::activated, this, &TokenBar::encodingChosen);
    connect(m_budgetBox, &QComboBox::activated, this, [this](int index) {
        setBudget(m_budgetBox->itemData(index).toLongLong());
    });
    connect(m_budgetBox->lineEdit(), &QLineEdit::editingFinished, this, &TokenBar::budgetEdited);
    m_refreshShown = new WhenShown(this, [this] { refresh(); });
}

void TokenBar::setCounter(SoulTokenCounter *counter)
{
    m_counter = counter;
    connect(counter, &SoulTokenCounter::countsChanged, m_refreshShown, &WhenShown::request);
    connect(counter, &SoulTokenCounter::encodingChanged, this, [this] {
        fillEncodings();
        if (!m_settings)
            return;
        m_settings->setValue(EncodingKey,
                             m_counter->tokenizerFile().isEmpty() ? m_counter->encodingName()
                                                                  : QString());
        if (!m_counter->tokenizerFile().isEmpty())
            m_settings->setValue(TokenizerFileKey, m_counter->tokenizerFile());
    });
    connect(counter, &SoulTokenCounter::tokenizerFailed, this, [this] { fillEncodings(); });
    fillEncodings();
    refresh();
}

void TokenBar::setSettings(QSettings *settings)
{
    m_settings = settings;
    const qint64 budget = settings->value(BudgetKey).toLongLong();
    if (budget > 0)
        setBudget(budget);
    if (!m_counter)
        return;
    const QString encoding = settings->value(EncodingKey).toString();
    const QString file = settings->value(TokenizerFileKey).toString();
    if (encoding.isEmpty() && !file.isEmpty())
        m_counter->setTokenizerFile(file);
    else if (builtinEncodings().contains(encoding))
        m_counter->setEncoding(encoding);
    fillEncodings();
}

void TokenBar::setView(SoulView view)
{
    m_view = view;
    refresh();
}

void TokenBar::setBudget(qint64 tokens)
{
    if (tokens <= 0)
        return;
    m_budget = tokens;
    const int preset = m_budgetBox->findData(tokens);
    if (preset >= 0)
        m_budgetBox->setCurrentIndex(preset);
    else
        m_budgetBox->setEditText(formatCount(tokens));
    if (m_settings)
        m_settings->setValue(BudgetKey, tokens);
    refresh();
}

void TokenBar::budgetEdited()
{
    const QString text = m_budgetBox->currentText();
    const int preset = m_budgetBox->findText(text);
    const qint64 tokens = preset >= 0 ? m_budgetBox->itemData(preset).toLongLong()
                                      : parseBudget(text);
    if (tokens > 0)
        setBudget(tokens);
    else
        setBudget(m_budget); // shows the budget in force again
}

void TokenBar::fillEncodings()
{
    m_filling = true;
    m_encoding->clear();
    for (const QString &name : builtinEncodings())
        m_encoding->addItem(name, name);
    const QString file = m_counter ? m_counter->tokenizerFile() : QString();
    const QString remembered = m_settings ? m_settings->value(TokenizerFileKey).toString()
                                          : QString();
    const QString shownFile = file.isEmpty() ? remembered : file;
    if (!shownFile.isEmpty()) {
        m_encoding->addItem(QFileInfo(shownFile).fileName(), shownFile);
        m_encoding->setItemData(m_encoding->count() - 1, shownFile, Qt::ToolTipRole);
    }
    m_encoding->addItem(tr("Load tokenizer.json…"), LoadFileItem);
    const QString current = !file.isEmpty() ? file
                            : m_counter     ? m_counter->encodingName()
                                            : builtinEncodings().constFirst();
    m_encoding->setCurrentIndex(std::max(0, m_encoding->findData(current)));
    m_filling = false;
}

void TokenBar::encodingChosen(int index)
{
    if (m_filling || !m_counter)
        return;
    const QString chosen = m_encoding->itemData(index).toString();
    if (chosen == LoadFileItem) {
        fillEncodings(); // the current one stays selected until a file loads
        Q_EMIT tokenizerFileRequested();
    } else if (builtinEncodings().contains(chosen)) {
        m_counter->setEncoding(chosen);
    } else {
        m_counter->setTokenizerFile(chosen);
    }
}

void TokenBar::refresh()
{
    if (!m_counter)
        return;
    const SoulTokenCounter::Count count = m_counter->soulTokens(m_view);
    const QString name = m_counter->encodingName();
    // A count not yet made for the current text is greyed, never shown as
    // the soul's exact count.
    const QPalette::ColorRole role = count.exact ? QPalette::WindowText : QPalette::PlaceholderText;
    m_tokens->setForegroundRole(role);
    m_share->setForegroundRole(role);
    if (count.tokens < 0) {
        m_tokens->setText(tr("counting tokens…"));
        m_tokens->setToolTip(tr("Counting with %1…").arg(name));
        m_share->clear();
        m_meter->setValue(0);
        return;
    }
    m_tokens->setText(tr("%1 tokens").arg(formatCount(count.tokens)));
    m_tokens->setToolTip(count.exact ? tr("Exactly %1 tokens in %2, the soul as the agent "
                                          "receives it")
                                           .arg(formatCount(count.tokens), name)
                                     : tr("Counting with %1…; %2 was the count before the "
                                          "last change")
                                           .arg(name, formatCount(count.tokens)));
    const double share = double(count.tokens) / double(m_budget);
    m_meter->setValue(int(std::lround(std::min(1.0, share) * MeterSteps)));
    const QString percent = QString::number(share * 100.0, 'f', share < 0.1 ? 2 : 1);
    // Short, so that it fits beside the chooser; the tooltip says it whole.
    m_share->setText(
        share > 1.0 ? tr("%1% of %2, %3 over")
                          .arg(percent, formatCount(m_budget), formatCount(count.tokens - m_budget))
                    : tr("%1% of %2").arg(percent, formatCount(m_budget)));
    m_share->setToolTip(share > 1.0
                            ? tr("The soul is %1 tokens over the context window of %2 "
                                 "tokens.")
                                  .arg(formatCount(count.tokens - m_budget), formatCount(m_budget))
                            : tr("The soul takes %1% of the context window of %2 tokens.")
                                  .arg(percent, formatCount(m_budget)));
    // Bold when over: a style sheet is set only when that changes (setting
    // one restyles the widget).
    const bool over = share > 1.0 && count.exact;
    if (m_share->font().bold() != over) {
        QFont font = m_share->font();
        font.setBold(over);
        m_share->setFont(font);
    }
}

} // namespace soul
