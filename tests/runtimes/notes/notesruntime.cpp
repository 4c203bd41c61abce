#include "notesruntime.h"

#include "tokens/tokenizer.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace soul::test {

namespace {

// The first `maxLines` lines of `text` (without the line break after the last).
QString firstLines(const QString &text, int maxLines)
{
    qsizetype end = 0;
    for (int line = 0; line < maxLines; ++line) {
        const qsizetype next = text.indexOf(QLatin1Char('\n'), end);
        if (next < 0)
            return text;
        end = next + 1;
    }
    return text.left(end - 1);
}

} // namespace

QString NotesRuntime::id() const
{
    return QLatin1String(Id);
}

QString NotesRuntime::displayName() const
{
    return QStringLiteral("Notes 1.0");
}

QStringList NotesRuntime::files() const
{
    return {QStringLiteral("NOTES.md"), QStringLiteral("SOUL.md")};
}

QStringList NotesRuntime::neverRead() const
{
    return {QStringLiteral("IDENTITY.md")};
}

QList<RuntimeSetting> NotesRuntime::settings() const
{
    RuntimeSetting lines;
    lines.key = QLatin1String(MaxLinesKey);
    lines.label = QStringLiteral("Lines");
    lines.toolTip = QStringLiteral("the lines kept of each file");
    lines.defaultValue = 3;
    lines.minimum = 1;
    lines.maximum = 1000;
    lines.option = QStringLiteral("--max-lines");
    return {lines};
}

QString NotesRuntime::description() const
{
    return QStringLiteral("what %1 keeps of NOTES.md and SOUL.md").arg(displayName());
}

qint64 NotesRuntime::fileBudget(QStringView, const RuntimeSettings &values) const
{
    return setting(values, QLatin1String(MaxLinesKey));
}

Result<RuntimeComposition> NotesRuntime::compose(const RuntimeInput &input,
                                                 const RuntimeSettings &values) const
{
    if (!QFileInfo(input.dir).isDir())
        return Result<RuntimeComposition>::failure(
            QStringLiteral("%1: no such folder.").arg(input.dir));
    const int maxLines = int(setting(values, QLatin1String(MaxLinesKey)));
    RuntimeComposition out;
    QStringList parts;
    for (const QString &name : files()) {
        RuntimeFileView view;
        view.name = name;
        view.loaded = true;
        view.budget = maxLines;
        QByteArray bytes;
        const auto buffer = input.buffers.constFind(name);
        if (buffer != input.buffers.cend()) {
            bytes = *buffer;
        } else {
            QFile file(QDir(input.dir).filePath(name));
            if (!file.open(QIODevice::ReadOnly)) {
                out.files.append(view);
                continue;
            }
            bytes = file.readAll();
        }
        const QString text = QString::fromUtf8(bytes);
        const QString kept = firstLines(text, maxLines);
        view.present = true;
        view.used = text.count(QLatin1Char('\n')) + 1;
        view.injected = true;
        view.whole = kept.size() == text.size();
        view.truncated = !view.whole;
        view.dropped = KeptRange{kept.size(), text.size() - kept.size()};
        view.injectedText = QStringLiteral("# ") + name + QLatin1Char('\n') + kept;
        parts.append(view.injectedText);
        out.found.append(name);
        out.problems = out.problems || view.truncated;
        if (view.truncated) {
            out.lints.append(Lint{name,
                                  -1,
                                  LintLevel::Warning,
                                  QStringLiteral("notes-cut"),
                                  QStringLiteral("%1 is cut to %2 lines.").arg(name).arg(maxLines)});
        }
        out.files.append(view);
    }
    out.text = parts.join(QStringLiteral("\n---\n"));
    out.manifest = QJsonObject{{QStringLiteral("runtime"), id()},
                               {QStringLiteral("runtimeName"), displayName()},
                               {QStringLiteral("settings"),
                                QJsonObject{{QLatin1String(MaxLinesKey), maxLines}}}};
    return out;
}

Result<QByteArray> NotesRuntime::statReport(const RuntimeInput &input,
                                            const RuntimeSettings &values,
                                            const Tokenizer &tokenizer,
                                            bool json) const
{
    const Result<RuntimeComposition> c = compose(input, values);
    if (!c)
        return Result<QByteArray>::failure(c.error());
    const qint64 tokens = tokenizer.count(c->text.toUtf8());
    if (json) {
        return QJsonDocument(QJsonObject{{QStringLiteral("runtime"), id()},
                                         {QStringLiteral("tokens"), tokens}})
            .toJson(QJsonDocument::Compact);
    }
    return QStringLiteral("notes %1 files, %2 tokens\n").arg(c->found.size()).arg(tokens).toUtf8();
}

} // namespace soul::test
