// The persona tests loader (chat/personatestfile.h) on arbitrary YAML, for
// libFuzzer.
//
// Input: the file's bytes.
//
// What must hold: it ends (yaml-cpp's exceptions are all caught) with a
// file or a sentence naming the file; a file it reads keeps its bounds:
// at least one case, at most MaxPersonaTestRuns runs in all, every case with
// its turns and asserts of supported types.
#include "fuzzsupport.h"

#include "personatestfile.h"

#include <cstdint>

using namespace soul;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const QString path = QStringLiteral("fuzz/persona-tests.yaml");
    const Result<PersonaTestFile> file = parsePersonaTests(bytes, path);
    if (!file) {
        fuzz::require(file.error().startsWith(path), "a failure names the file first");
        return 0;
    }
    fuzz::require(!file->tests.isEmpty(), "a file read has cases");
    qint64 runs = 0;
    const QStringList supported = supportedAssertTypes();
    for (const PersonaTestCase &test : file->tests) {
        runs += test.repeat;
        fuzz::require(test.repeat >= 1, "a case runs at least once");
        fuzz::require(!test.messages.isEmpty(), "a case has a turn");
        for (const AssertSpec &spec : test.asserts)
            fuzz::require(supported.contains(spec.baseType), "every assert is of a known type");
    }
    fuzz::require(runs <= MaxPersonaTestRuns, "the runs keep their bound");
    return 0;
}
