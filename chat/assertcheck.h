#pragma once

#include <QList>
#include <QString>

#include <optional>

// Checking a reply against a test's asserts, with promptfoo's meaning for
// each type: pass or fail, a score (1 or 0) and a sentence saying why.
namespace soul {

struct AssertSpec;

struct AssertOutcome
{
    bool pass = false;
    double score = 0.0;
    QString reason;
};

// `spec` on `output`, the reply that took `latencyMs` in all.
AssertOutcome checkAssert(const AssertSpec &spec, const QString &output, qint64 latencyMs);

struct CaseVerdict
{
    bool pass = false;
    double score = 0.0; // the weighted mean of the asserts' scores; 1 with no weight at all
    QString reason;     // empty when it passed
};

// A case's verdict from its asserts' outcomes (in the same order): with a
// threshold, whether the weighted score reaches it; without, whether every
// assert passed.
CaseVerdict judgeCase(const QList<AssertSpec> &specs,
                      const QList<AssertOutcome> &outcomes,
                      std::optional<double> threshold);

} // namespace soul
