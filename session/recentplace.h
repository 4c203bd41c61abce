#pragma once

#include <QList>
#include <QString>

class QSettings;

namespace soul {

// What File > Open Recent and the start view list, and what a start without
// arguments opens again: a persona folder, or Hermes's home run in a project
// folder (opened again with hermesHomeLayout, so the project file that wins
// then is the one shown).
struct RecentPlace
{
    QString directory; // the persona folder, or Hermes's home
    QString project;   // the project Hermes's home runs in; empty for a folder

    static RecentPlace folder(const QString &dir) { return {dir, QString()}; }
    static RecentPlace hermesHome(const QString &home, const QString &project)
    {
        return {home, project};
    }
    bool isHermesHome() const { return !project.isEmpty(); }
    bool isEmpty() const { return directory.isEmpty(); }
    // "ava  (/home/me/personas/ava)", "Hermes home ~/.hermes with project
    // shop  (/home/me/src/shop)": the part that tells entries apart first.
    QString label() const;

    bool operator==(const RecentPlace &other) const
    {
        return directory == other.directory && project == other.project;
    }
    bool operator!=(const RecentPlace &other) const { return !(*this == other); }
};

// The recent places kept in `settings`, newest first. Settings written before
// homes were listed (a plain list of folders) are read as folders.
QList<RecentPlace> readRecentPlaces(const QSettings &settings);
void writeRecentPlaces(QSettings &settings, const QList<RecentPlace> &places);

} // namespace soul
