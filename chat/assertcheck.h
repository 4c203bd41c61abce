#pragma once

#include "chatclient.h"
#include "result.h"

#include <QList>
#include <QString>

#include <optional>

// Checking a reply against a test's asserts, with promptfoo's meaning for
// each type: pass or fail, a score (1 or 0) and a sentence saying why.
namespace soul {

struct AssertSpec;
struct PersonaTestFile;

struct AssertOutcome
{
    bool pass = false;
    double score = 0.0;
    QString reason;
};

// `spec` on `output`, the reply that took `latencyMs` in all.
AssertOutcome checkAssert(const AssertSpec &spec, const QString &output, qint64 latencyMs);
// `spec` on `reply`: its text, latency and usage, a cost priced by the
// file's provider (a price or a usage that is missing fails the assert,
// saying so). A model-graded assert is not checked here: it fails as "not
// graded yet" until rubricOutcome() replaces it.
AssertOutcome checkAssert(const AssertSpec &spec,
                          const ChatReply &reply,
                          const PersonaTestFile &file);

// Whether a model grades `spec` (llm-rubric) rather than this code.
bool isModelGraded(const AssertSpec &spec);

// The request that asks a model to grade `output` by `spec`'s rubric, for
// JSON {reason, score, pass}: to the assert's provider, else the file's
// defaultTest provider, else the tested one (`tested`, the case's request:
// its endpoint, model, key and deadline).
ChatRequest rubricRequest(const AssertSpec &spec,
                          const PersonaTestFile &file,
                          const QString &output,
                          const ChatRequest &tested);

// The grader's `answer` to `request` as the assert's outcome, its reason
// marked as a model's judgement ("judged by MODEL: ..."). A grader that did
// not answer, or not with JSON holding pass or score, fails the assert
// with a sentence saying so.
AssertOutcome rubricOutcome(const AssertSpec &spec,
                            const ChatRequest &request,
                            const Result<ChatReply> &answer);

struct CaseVerdict
{
    bool pass = false;
    double score
        = 0.0;      // the weighted mean of the asserts' scores: 1 with no asserts, 0 with no weight
    QString reason; // empty when it passed
};

// A case's verdict from its asserts' outcomes (in the same order): with a
// threshold, whether the weighted score reaches it; without, whether every
// assert passed.
CaseVerdict judgeCase(const QList<AssertSpec> &specs,
                      const QList<AssertOutcome> &outcomes,
                      std::optional<double> threshold);

} // namespace soul
