#pragma once

#include <QList>
#include <QString>

class QSettings;

namespace soul {

// What File > Open Recent and the start view list, and what a start without
// arguments opens again: a persona folder, or a runtime's home run in a
// project folder (opened again with Runtime::homeLayout(), so the project
// file that wins then is the one shown, or the one the project pane showed
// when it is still one of the files the runtime offers).
struct RecentPlace
{
    QString directory; // the persona folder, or the runtime's home
    QString project;   // the project the home runs in; empty for a folder
    // The project pane's file, by its label (".cursor/rules/b.mdc"); not part
    // of what tells places apart.
    QString projectFile;
    // The id of the runtime whose home this is; empty for a folder, and for
    // a home remembered before the id was kept (then the registry's
    // homeRuntime()).
    QString runtime;

    static RecentPlace folder(const QString &dir) { return {dir, QString(), QString(), QString()}; }
    static RecentPlace home(const QString &home,
                            const QString &project,
                            const QString &projectFile = QString(),
                            const QString &runtime = QString())
    {
        return {home, project, projectFile, runtime};
    }
    bool isHome() const { return !project.isEmpty(); }
    bool isEmpty() const { return directory.isEmpty(); }
    // "ava  (/home/me/personas/ava)", "Hermes home ~/.hermes with project
    // shop  (/home/me/src/shop)": the part that tells entries apart first.
    QString label() const;

    // The same home and project: one entry, whichever file the pane showed.
    bool operator==(const RecentPlace &other) const
    {
        return directory == other.directory && project == other.project;
    }
    bool operator!=(const RecentPlace &other) const { return !(*this == other); }
};

// The recent places kept in `settings`, newest first. Settings written before
// homes were listed (a plain list of folders) are read as folders, and homes
// written before the runtime's id was kept (under their old keys) as homes of
// the registry's homeRuntime().
QList<RecentPlace> readRecentPlaces(const QSettings &settings);
void writeRecentPlaces(QSettings &settings, const QList<RecentPlace> &places);

} // namespace soul
