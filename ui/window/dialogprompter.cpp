#include "dialogprompter.h"

#include "compose/contract.h"
#include "history/checkpointdialog.h"
#include "links/threewaydialog.h"

#include <QCheckBox>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace soul {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("soul::DialogPrompter", text);
}

} // namespace

DialogPrompter::DialogPrompter(QWidget *parent)
    : m_parent(parent)
{}

Prompter::UnsavedAnswer DialogPrompter::askUnsaved(const QStringList &files)
{
    QMessageBox box(QMessageBox::Warning,
                    tr("Unsaved changes"),
                    tr("%1 has unsaved changes.").arg(files.join(QStringLiteral(", "))),
                    QMessageBox::NoButton,
                    m_parent);
    box.setInformativeText(tr("Save them before closing the folder?"));
    QPushButton *save = box.addButton(tr("Save all"), QMessageBox::AcceptRole);
    QPushButton *discard = box.addButton(tr("Discard"), QMessageBox::DestructiveRole);
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(save);
    box.exec();
    if (box.clickedButton() == save)
        return UnsavedAnswer::SaveAll;
    if (box.clickedButton() == discard)
        return UnsavedAnswer::Discard;
    return UnsavedAnswer::Cancel;
}

Prompter::ExportAnswer DialogPrompter::askExportWithUnsaved(const QStringList &files)
{
    QMessageBox box(QMessageBox::Question,
                    tr("Export snapshot"),
                    tr("%1 has unsaved changes.").arg(files.join(QStringLiteral(", "))),
                    QMessageBox::NoButton,
                    m_parent);
    box.setInformativeText(tr("A snapshot holds what is on disk. Save all first, or export "
                              "the files as they are on disk now?"));
    QPushButton *save = box.addButton(tr("Save all and export"), QMessageBox::AcceptRole);
    QPushButton *disk = box.addButton(tr("Export what is on disk"), QMessageBox::ActionRole);
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(save);
    box.exec();
    if (box.clickedButton() == save)
        return ExportAnswer::SaveAllAndExport;
    if (box.clickedButton() == disk)
        return ExportAnswer::ExportOnDisk;
    return ExportAnswer::Cancel;
}

QString DialogPrompter::askExportPath(const QString &suggested)
{
    // The export asks about replacing the soul and its manifest together.
    return QFileDialog::getSaveFileName(m_parent,
                                        tr("Export snapshot"),
                                        suggested,
                                        tr("Markdown (*.md);;All files (*)"),
                                        nullptr,
                                        QFileDialog::DontConfirmOverwrite);
}

QString DialogPrompter::askOpenDirectory(const QString &start)
{
    return QFileDialog::getExistingDirectory(m_parent, tr("Open persona folder"), start);
}

QString DialogPrompter::askHermesProject(const QString &home, const QString &start)
{
    return QFileDialog::getExistingDirectory(m_parent,
                                             tr("Open Hermes home %1: choose the project folder")
                                                 .arg(QDir::toNativeSeparators(home)),
                                             start);
}

QString DialogPrompter::askTokenizerFile(const QString &start)
{
    return QFileDialog::getOpenFileName(m_parent,
                                        tr("Load tokenizer.json"),
                                        start,
                                        tr("Hugging Face tokenizer (*.json);;All files (*)"));
}

QString DialogPrompter::askSnapshotsFolder(const QString &start)
{
    return QFileDialog::getExistingDirectory(m_parent, tr("Choose the snapshots folder"), start);
}

QString DialogPrompter::askSnapshotFile(const QString &start)
{
    return QFileDialog::getOpenFileName(m_parent,
                                        tr("Compare with snapshot"),
                                        start,
                                        tr("Souls (*.soul.md);;Markdown (*.md);;All files (*)"));
}

QString DialogPrompter::askSaveAllDirectory(const QString &start)
{
    return QFileDialog::getExistingDirectory(m_parent, tr("Save all elsewhere"), start);
}

Prompter::NewPersona DialogPrompter::askNewPersona(const QString &start)
{
    NewPersona answer;
    const QString dir
        = QFileDialog::getExistingDirectory(m_parent,
                                            tr("New persona: pick or make an empty folder"),
                                            start);
    if (dir.isEmpty())
        return answer;

    QDialog dialog(m_parent);
    dialog.setWindowTitle(tr("New persona"));
    auto *layout = new QVBoxLayout(&dialog);
    auto *intro = new QLabel(tr("Create these files in %1, each from a short template:")
                                 .arg(QDir::toNativeSeparators(dir)),
                             &dialog);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    QList<QCheckBox *> boxes;
    for (int k = 0; k < SlotCount; ++k) {
        auto *box = new QCheckBox(QStringLiteral("%1 — %2").arg(slotName(k), slotRole(k)), &dialog);
        box->setChecked(true);
        boxes.append(box);
        layout->addWidget(box);
    }
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    layout->addWidget(buttons);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    if (dialog.exec() != QDialog::Accepted)
        return answer;
    answer.directory = dir;
    for (int k = 0; k < SlotCount; ++k) {
        if (boxes.at(k)->isChecked())
            answer.slots.append(k);
    }
    return answer;
}

Prompter::StaleAnswer DialogPrompter::askStaleSave(const QString &file,
                                                   const QString &why,
                                                   StaleReason reason)
{
    // A deleted file has nothing to overwrite or compare with: the question
    // is whether to write it again.
    const bool deleted = reason == StaleReason::DeletedOnDisk;
    QMessageBox box(QMessageBox::Warning,
                    deleted ? tr("%1 was deleted on disk").arg(file)
                            : tr("%1 changed on disk").arg(file),
                    why,
                    QMessageBox::NoButton,
                    m_parent);
    box.setInformativeText(
        deleted ? tr("Save your text as %1 again, or cancel and leave it deleted? Your text "
                     "stays in the pane either way.")
                      .arg(file)
                : tr("Overwrite it with your text, compare the file on disk with your text, or "
                     "cancel and keep both as they are?"));
    QPushButton *overwrite = box.addButton(deleted ? tr("Save Again") : tr("Overwrite"),
                                           QMessageBox::DestructiveRole);
    QPushButton *compare = deleted ? nullptr
                                   : box.addButton(tr("Compare"), QMessageBox::ActionRole);
    QPushButton *cancel = box.addButton(QMessageBox::Cancel);
    // Enter must not replace another program's text.
    box.setDefaultButton(cancel);
    box.exec();
    if (box.clickedButton() == overwrite)
        return StaleAnswer::Overwrite;
    if (compare && box.clickedButton() == compare)
        return StaleAnswer::Compare;
    return StaleAnswer::Cancel;
}

void DialogPrompter::showError(const QString &title, const QString &text)
{
    QMessageBox::warning(m_parent, title, text);
}

void DialogPrompter::showCompare(const QString &title, const QString &diff)
{
    QDialog dialog(m_parent);
    dialog.setWindowTitle(title);
    dialog.resize(800, 600);
    auto *layout = new QVBoxLayout(&dialog);
    auto *view = new QPlainTextEdit(&dialog);
    view->setReadOnly(true);
    view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    view->setPlainText(diff);
    view->setAccessibleName(title);
    layout->addWidget(view);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    layout->addWidget(buttons);
    dialog.exec();
}

bool DialogPrompter::askSaveChangedBytes(const QString &file, const QStringList &changes)
{
    QMessageBox box(QMessageBox::Warning,
                    tr("Save %1").arg(file),
                    tr("Saving %1 also changes bytes you did not edit.").arg(file),
                    QMessageBox::NoButton,
                    m_parent);
    box.setInformativeText(changes.join(QLatin1Char('\n')));
    QPushButton *save = box.addButton(tr("Save with these changes"), QMessageBox::AcceptRole);
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    return box.clickedButton() == save;
}

bool DialogPrompter::askReplaceExport(const QStringList &paths)
{
    QStringList shown;
    for (const QString &path : paths)
        shown.append(QDir::toNativeSeparators(path));
    QMessageBox box(QMessageBox::Warning,
                    tr("Export snapshot"),
                    paths.size() == 1
                        ? tr("%1 already exists.").arg(shown.first())
                        : tr("%1 and %2 already exist.").arg(shown.first(), shown.last()),
                    QMessageBox::NoButton,
                    m_parent);
    box.setInformativeText(paths.size() == 1 ? tr("Replace it with the new snapshot?")
                                             : tr("Replace both with the new snapshot?"));
    QPushButton *replace = box.addButton(tr("Replace"), QMessageBox::DestructiveRole);
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    return box.clickedButton() == replace;
}

bool DialogPrompter::askDropUnsaved(const QString &file)
{
    QMessageBox box(QMessageBox::Warning,
                    tr("Discard %1").arg(file),
                    tr("Discard your text of %1?").arg(file),
                    QMessageBox::NoButton,
                    m_parent);
    box.setInformativeText(tr("This cannot be undone: Ctrl+Z will not bring the text back."));
    QPushButton *discard = box.addButton(tr("Discard"), QMessageBox::DestructiveRole);
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    return box.clickedButton() == discard;
}

bool DialogPrompter::askFinishSetup(const QString &file)
{
    const QString name = QFileInfo(file).fileName();
    QMessageBox box(QMessageBox::Question,
                    tr("Finish setup"),
                    tr("Delete %1?").arg(QDir::toNativeSeparators(file)),
                    QMessageBox::NoButton,
                    m_parent);
    box.setInformativeText(tr("While %1 exists, OpenClaw treats the workspace as pending its "
                              "first run. \"Restore %1\" or Undo writes it back as it was.")
                               .arg(name));
    QPushButton *finish = box.addButton(tr("Delete %1").arg(name), QMessageBox::DestructiveRole);
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    return box.clickedButton() == finish;
}

bool DialogPrompter::askCreateRepository(const QString &dir, const QString &why)
{
    QMessageBox box(QMessageBox::Question,
                    tr("Create a repository"),
                    tr("%1 is not in a git repository.").arg(QDir::toNativeSeparators(dir)),
                    QMessageBox::NoButton,
                    m_parent);
    box.setInformativeText(
        tr("%1 Create one in this folder (as OpenClaw does for a new workspace)? Nothing is "
           "committed until you make a checkpoint.")
            .arg(why));
    QPushButton *create = box.addButton(tr("Create Repository"), QMessageBox::AcceptRole);
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(create);
    box.exec();
    return box.clickedButton() == create;
}

Prompter::LinkedChangeAnswer DialogPrompter::askLinkedCopyChanged(const QString &file,
                                                                  const QString &agent,
                                                                  const QString &why)
{
    QMessageBox box(QMessageBox::Warning,
                    tr("%1 of %2 changed").arg(file, agent),
                    why,
                    QMessageBox::NoButton,
                    m_parent);
    box.setInformativeText(
        tr("%1 is linked: saving writes the group's text to every copy, and nothing is written "
           "until each changed copy is answered. Overwrite %2's copy with the group's text, take "
           "%2's copy into the group (every member's pane takes it), or compare?")
            .arg(file, agent));
    QPushButton *overwrite = box.addButton(tr("Overwrite"), QMessageBox::DestructiveRole);
    QPushButton *theirs = box.addButton(tr("Take %1's").arg(agent), QMessageBox::ActionRole);
    QPushButton *compare = box.addButton(tr("Compare"), QMessageBox::ActionRole);
    QPushButton *cancel = box.addButton(QMessageBox::Cancel);
    // Enter must not replace another program's text.
    box.setDefaultButton(cancel);
    box.exec();
    if (box.clickedButton() == overwrite)
        return LinkedChangeAnswer::Overwrite;
    if (box.clickedButton() == theirs)
        return LinkedChangeAnswer::TakeTheirs;
    if (box.clickedButton() == compare)
        return LinkedChangeAnswer::Compare;
    return LinkedChangeAnswer::Cancel;
}

QString DialogPrompter::askLinkName(const QString &file,
                                    const QStringList &agents,
                                    const QString &suggested)
{
    bool ok = false;
    const QString name = QInputDialog::getText(
        m_parent,
        tr("Link %1").arg(file),
        tr("%1 is the same in %2. Link it as one group, edited once and written to every copy; "
           "its name (1 to 64 letters, digits, '.', '_' or '-'):")
            .arg(file, agents.join(QStringLiteral(", "))),
        QLineEdit::Normal,
        suggested,
        &ok);
    return ok ? name.trimmed() : QString();
}

QString DialogPrompter::askCheckpointMessage(const QString &suggested, const QString &note)
{
    CheckpointDialog dialog(suggested, note, m_parent);
    if (dialog.exec() != QDialog::Accepted)
        return {};
    return dialog.message();
}

namespace {

// A list of the agents but `current`, one choice or several, in a dialog.
QList<int> chooseAgents(
    QWidget *parent, const QString &question, const QStringList &names, int current, bool several)
{
    QDialog dialog(parent);
    dialog.setWindowTitle(question);
    auto *layout = new QVBoxLayout(&dialog);
    auto *label = new QLabel(question + QLatin1Char(':'), &dialog);
    auto *list = new QListWidget(&dialog);
    list->setSelectionMode(several ? QAbstractItemView::MultiSelection
                                   : QAbstractItemView::SingleSelection);
    for (qsizetype i = 0; i < names.size(); ++i) {
        if (i == current)
            continue;
        auto *item = new QListWidgetItem(names.at(i), list);
        item->setData(Qt::UserRole, int(i));
    }
    label->setBuddy(list);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    QObject::connect(list, &QListWidget::itemDoubleClicked, &dialog, &QDialog::accept);
    layout->addWidget(label);
    layout->addWidget(list, 1);
    layout->addWidget(buttons);
    if (list->count() > 0 && !several)
        list->setCurrentRow(0);
    if (dialog.exec() != QDialog::Accepted)
        return {};
    QList<int> chosen;
    for (const QListWidgetItem *item : list->selectedItems())
        chosen.append(item->data(Qt::UserRole).toInt());
    std::sort(chosen.begin(), chosen.end());
    return chosen;
}

} // namespace

int DialogPrompter::askAgent(const QString &question, const QStringList &names, int current)
{
    const QList<int> chosen = chooseAgents(m_parent, question, names, current, false);
    return chosen.isEmpty() ? -1 : chosen.first();
}

QList<int> DialogPrompter::askAgents(const QString &question, const QStringList &names, int current)
{
    return chooseAgents(m_parent, question, names, current, true);
}

Prompter::DivergedAnswer DialogPrompter::askDivergedCopy(const ThreeWayTexts &texts)
{
    ThreeWayDialog dialog(m_parent);
    dialog.setTexts(texts);
    dialog.exec();
    switch (dialog.choice()) {
    case ThreeWayDialog::Choice::Adopt:
        return DivergedAnswer::Adopt;
    case ThreeWayDialog::Choice::Leave:
        return DivergedAnswer::Leave;
    case ThreeWayDialog::Choice::Close:
        break;
    }
    return DivergedAnswer::Close;
}

} // namespace soul
