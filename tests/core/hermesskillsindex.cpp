// hermes-skills-index: our Hermes skills index for each job of a job list,
// for .ci/hermes-skills-oracle (which runs Hermes's own code on the same list).
//
//   hermes-skills-index JOBS_JSON
//
// JOBS_JSON is a JSON array of {"home", "tools", "toolsets", "platform",
// "environments"} (tools and toolsets null: no tool lists); the output is a
// JSON array of the index texts, one per job, in order.
#include "runtime/hermes/hermesskills.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QVariant>

#include <cstdio>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    if (args.size() != 2) {
        std::fputs("usage: hermes-skills-index JOBS_JSON\n", stderr);
        return 2;
    }
    QFile file(args.at(1));
    if (!file.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "hermes-skills-index: cannot read %s\n", qPrintable(args.at(1)));
        return 2;
    }
    const QJsonArray jobs = QJsonDocument::fromJson(file.readAll()).array();
    QJsonArray out;
    for (const QJsonValue &value : jobs) {
        const QJsonObject job = value.toObject();
        soul::HermesSkillsSession session;
        session.toolInfo = !job.value(QStringLiteral("tools")).isNull()
                           || !job.value(QStringLiteral("toolsets")).isNull();
        session.tools = job.value(QStringLiteral("tools")).toVariant().toStringList();
        session.toolsets = job.value(QStringLiteral("toolsets")).toVariant().toStringList();
        session.platform = job.value(QStringLiteral("platform")).toString();
        session.environments = job.value(QStringLiteral("environments")).toVariant().toStringList();
        out.append(
            soul::hermesSkillsIndex(job.value(QStringLiteral("home")).toString(), session).text);
    }
    std::fputs(QJsonDocument(out).toJson(QJsonDocument::Compact).constData(), stdout);
    return 0;
}
