#include "snapshotfile.h"

#include "disk/composedirectory.h"
#include "inspection.h"
#include "snapshot.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <limits>
#include <vector>

namespace soul {

namespace {

// Bytes read at a time between sections.
constexpr qint64 ReadBytes = qint64(64) * 1024;
// No soul is this large: an offset or length beyond it is as good as none,
// and sums of a few of them cannot overflow.
constexpr qint64 MaxRecorded = qint64(1) << 52;

QString readError(const QString &path, const QString &what, const QFile &file)
{
    return QStringLiteral("%1: cannot read %2 (%3).").arg(path, what, file.errorString());
}

Result<QByteArray> readWhole(const QString &path, const QString &what)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Result<QByteArray>::failure(readError(path, what, file));
    QByteArray bytes = file.readAll();
    if (file.error() != QFileDevice::NoError)
        return Result<QByteArray>::failure(readError(path, what, file));
    return bytes;
}

// A section where the manifest records it.
struct RecordedSection
{
    QString name;
    int slot = -1;
    qint64 offset = -1;
    qint64 length = -1;
    qint64 bodyLine = 1;
};

// What a manifest says of its soul, read and checked as far as it can be
// without the soul.
struct Manifest
{
    QString path;
    int schema = 1;
    QStringList found;
    QString sha256;
    qint64 bytes = -1;
    std::array<bool, SlotCount> truncated{};
    // Each section's place, in the manifest's order; when it records them
    // all (schema 2).
    bool haveSections = false;
    std::vector<RecordedSection> sections;
    // A snapshot of what a runtime other than toolnexus injects: its part of
    // the manifest (Runtime::compose()); empty for a toolnexus soul.
    QJsonObject runtime;
    // Its skills list (schema 3); empty when it records none.
    QJsonObject skills;
};

// A snapshot of another runtime's text has no toolnexus sections to read.
QString runtimeRefusal(const Manifest &m)
{
    return QStringLiteral("%1: a snapshot of what %2 injects, not of the toolnexus soul, which "
                          "is what is read here. Compare it with a persona folder, which is "
                          "then composed for %2 too.")
        .arg(m.path, m.runtime.value(QStringLiteral("runtimeName")).toString());
}

// An offset or a length as the manifest records it; -1 when it is none.
qint64 recordedSize(const QJsonValue &value)
{
    const qint64 size = value.toInteger(-1);
    return size >= 0 && size <= MaxRecorded ? size : -1;
}

Result<Manifest> readManifest(const QString &soulPath)
{
    using R = Result<Manifest>;
    Manifest m;
    m.path = manifestPathFor(soulPath);
    // The soul itself first: a snapshot deleted or moved since it was listed
    // (the File menu's recent ones) is not a missing manifest.
    const QFileInfo soul(soulPath);
    if (!soul.exists()) {
        return R::failure(QStringLiteral("%1: no such snapshot. It was moved or deleted; choose "
                                         "another one, or freeze again.")
                              .arg(soulPath));
    }
    if (soul.isDir()) {
        return R::failure(
            QStringLiteral("%1: a folder, not a snapshot. Choose its .soul.md file.").arg(soulPath));
    }
    if (!QFileInfo(m.path).isFile()) {
        return R::failure(QStringLiteral("%1: no manifest beside it (%2). Give a persona folder, "
                                         "or a soul written by 'soulc export' with its manifest.")
                              .arg(soulPath, m.path));
    }
    Result<QByteArray> manifestBytes = readWhole(m.path, QStringLiteral("the manifest"));
    if (!manifestBytes)
        return R::failure(manifestBytes.error());
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(*manifestBytes, &parseError);
    const QJsonObject manifest = doc.object();
    const QJsonObject soulFacts = manifest.value(QStringLiteral("soul")).toObject();
    m.sha256 = soulFacts.value(QStringLiteral("sha256")).toString();
    if (doc.isNull()
        || manifest.value(QStringLiteral("format")).toString() != QLatin1String(ManifestFormat)
        || m.sha256.isEmpty()) {
        return R::failure(
            QStringLiteral("%1: not a soul manifest (%2). Export the persona again.")
                .arg(m.path,
                     doc.isNull() ? parseError.errorString()
                                  : QStringLiteral("no \"format\": \"soul-snapshot\" with a soul "
                                                   "sha256")));
    }
    m.schema = manifest.value(QStringLiteral("schema")).toInt(1);
    if (m.schema > ManifestSchema) {
        return R::failure(QStringLiteral("%1: written by a newer Soul Studio (manifest schema %2; "
                                         "this one reads up to %3). Update Soul Studio.")
                              .arg(m.path)
                              .arg(m.schema)
                              .arg(ManifestSchema));
    }
    m.runtime = manifest.value(QStringLiteral("runtime")).toObject();
    if (m.schema >= 3)
        m.skills = manifest.value(QStringLiteral("skills")).toObject();
    m.bytes = soulFacts.value(QStringLiteral("bytes")).toInteger(-1);
    for (const QJsonValue &name : manifest.value(QStringLiteral("found")).toArray())
        m.found.append(name.toString());

    const QJsonArray files = manifest.value(QStringLiteral("files")).toArray();
    m.haveSections = m.schema >= 2 && files.size() == m.found.size();
    for (const QJsonValue &value : files) {
        const QJsonObject file = value.toObject();
        RecordedSection r;
        r.name = file.value(QStringLiteral("name")).toString();
        r.slot = slotIndex(r.name);
        if (r.slot >= 0)
            m.truncated[size_t(r.slot)] = file.value(QStringLiteral("truncated")).toBool();
        m.haveSections = m.haveSections && file.contains(QStringLiteral("section"));
        const QJsonObject section = file.value(QStringLiteral("section")).toObject();
        r.offset = recordedSize(section.value(QStringLiteral("offset")));
        r.length = recordedSize(section.value(QStringLiteral("bytes")));
        r.bodyLine = section.value(QStringLiteral("bodyLine")).toInteger(1);
        m.sections.push_back(r);
    }
    if (!m.haveSections)
        m.sections.clear();
    return m;
}

QString soulMismatch(const QString &soulPath,
                     const Manifest &m,
                     qint64 actualBytes,
                     const QByteArray &actualSha)
{
    return QStringLiteral("%1 does not match its manifest %2: the manifest records %3 bytes "
                          "with SHA-256 %4, the file has %5 bytes with SHA-256 %6. The soul was "
                          "changed after it was exported; compare the persona folder, or export "
                          "it again.")
        .arg(soulPath, m.path)
        .arg(m.bytes)
        .arg(m.sha256)
        .arg(actualBytes)
        .arg(QString::fromLatin1(actualSha));
}

// A snapshot is a toolnexus soul, as Freeze and Export write it.
QByteArray sectionHead(int slot)
{
    return slot < 0 ? QByteArray() : ComposeRule::toolnexus().sectionHead(slot);
}

QByteArray sectionJoin()
{
    return ComposeRule::toolnexus().sectionJoin;
}

// Where section i must start for the sections to lie end to end in slot
// order, as compose() joins them: at 0 for the first, else right after the
// section of the nearest earlier slot and the join.
qint64 laidOutOffset(const std::vector<RecordedSection> &sections, size_t i)
{
    const RecordedSection *before = nullptr;
    for (const RecordedSection &o : sections) {
        if (o.slot >= 0 && o.slot < sections[i].slot && (!before || o.slot > before->slot))
            before = &o;
    }
    if (!before)
        return 0;
    if (before->offset < 0 || before->length < 0)
        return -1;
    return before->offset + before->length + sectionJoin().size();
}

bool isLastSlot(const std::vector<RecordedSection> &sections, size_t i)
{
    return std::none_of(sections.begin(), sections.end(), [&](const RecordedSection &o) {
        return o.slot > sections[i].slot;
    });
}

// Whether the recorded section lies within a soul of `soulBytes`, shares no
// byte with another section, is not a second one of its slot, and stands
// where compose() puts it: right after the section before it and the join,
// the first at the start, the last at the end. Anything else would be a soul
// whose sections, joined again, are not the file.
bool fits(const std::vector<RecordedSection> &sections, size_t i, qint64 soulBytes)
{
    const RecordedSection &r = sections[i];
    if (r.slot < 0 || r.offset < 0 || r.length < sectionHead(r.slot).size()
        || r.offset + r.length > soulBytes || r.bodyLine < 1
        || r.offset != laidOutOffset(sections, i)
        || (isLastSlot(sections, i) && r.offset + r.length != soulBytes)) {
        return false;
    }
    for (size_t j = 0; j < sections.size(); ++j) {
        const RecordedSection &o = sections[j];
        if (j == i || o.slot < 0 || o.offset < 0 || o.length < 0)
            continue;
        if (o.slot == r.slot || (r.offset < o.offset + o.length && o.offset < r.offset + r.length))
            return false;
    }
    return true;
}

// What must stand at the start of a section that fits(): its head, after
// the join unless it is the first. From leadStart() on.
QByteArray leadOf(const RecordedSection &r)
{
    return r.offset > 0 ? sectionJoin() + sectionHead(r.slot) : sectionHead(r.slot);
}

qint64 leadStart(const RecordedSection &r)
{
    return r.offset > 0 ? r.offset - sectionJoin().size() : 0;
}

// The sentence for the first section in the manifest's order that is not
// where a soul of `soulBytes` can hold it or whose bytes do not start with
// its lead (`leadAt(i)` says whether section i's do), or for a soul that is
// not empty while the manifest records no section; empty when none.
template<typename LeadAt>
QString misplacedSection(const Manifest &m, qint64 soulBytes, LeadAt leadAt)
{
    if (m.sections.empty() && soulBytes > 0) {
        return QStringLiteral("%1: it records no sections, but the soul is not empty. Export "
                              "the persona again.")
            .arg(m.path);
    }
    for (size_t i = 0; i < m.sections.size(); ++i) {
        if (!fits(m.sections, i, soulBytes) || !leadAt(i)) {
            return QStringLiteral("%1: the section it records for '%2' is not where the soul "
                                  "holds it. Export the persona again.")
                .arg(m.path, m.sections[i].name);
        }
    }
    return {};
}

// Sections as a schema 2 manifest records them, checked against the soul.
Result<SectionedSoul> manifestSections(const QByteArray &soul,
                                       const Manifest &m,
                                       const QString &soulPath)
{
    const QString misplaced = misplacedSection(m, soul.size(), [&](size_t i) {
        const RecordedSection &r = m.sections[i];
        return QByteArrayView(soul).sliced(leadStart(r)).startsWith(leadOf(r));
    });
    if (!misplaced.isEmpty())
        return Result<SectionedSoul>::failure(misplaced);
    SectionedSoul s;
    s.label = soulPath;
    s.soul = soul;
    for (const RecordedSection &r : m.sections) {
        s.sectionOffset[size_t(r.slot)] = r.offset;
        s.sectionLength[size_t(r.slot)] = r.length;
        s.bodyFirstLine[size_t(r.slot)] = r.bodyLine;
    }
    return s;
}

void setFacts(SnapshotFacts &facts, const QString &soulPath, const Manifest &m)
{
    facts.soulPath = soulPath;
    facts.manifestPath = m.path;
    facts.schema = m.schema;
    facts.sectionsFromManifest = m.haveSections;
    facts.found = m.found;
    facts.soulSha256 = m.sha256.toLatin1();
}

// The soul's bytes, checked against the manifest's digest.
Result<QByteArray> readCheckedSoul(const QString &soulPath, const Manifest &m)
{
    Result<QByteArray> soul = readWhole(soulPath, QStringLiteral("the soul"));
    if (!soul)
        return soul;
    const QByteArray actualSha = QCryptographicHash::hash(*soul, QCryptographicHash::Sha256).toHex();
    if (actualSha != m.sha256.toLatin1())
        return Result<QByteArray>::failure(soulMismatch(soulPath, m, soul->size(), actualSha));
    return soul;
}

Result<LoadedSnapshot> loadWhole(const QString &soulPath, const Manifest &m)
{
    using R = Result<LoadedSnapshot>;
    Result<QByteArray> soul = readCheckedSoul(soulPath, m);
    if (!soul)
        return R::failure(soul.error());
    Result<SectionedSoul> sections = m.haveSections ? manifestSections(*soul, m, soulPath)
                                                    : recoverSections(*soul, m.found, soulPath);
    if (!sections)
        return R::failure(sections.error());
    LoadedSnapshot loaded;
    setFacts(loaded, soulPath, m);
    loaded.soul = std::move(sections).value();
    for (int slot = 0; slot < SlotCount; ++slot)
        loaded.soul.truncated[size_t(slot)] = m.truncated[size_t(slot)];
    return loaded;
}

// The array of `known` with the bytes `section`, if there is one.
const QByteArray *knownEqual(QByteArrayView section, const QList<QByteArray> &known)
{
    for (const QByteArray &k : known) {
        if (k.size() == section.size() && (k.constData() == section.data() || k == section))
            return &k;
    }
    return nullptr;
}

// Schema 2: the soul in one pass, each section into an array of its own.
Result<SnapshotSections> streamSections(const QString &soulPath,
                                        const Manifest &m,
                                        const KnownSections &known)
{
    using R = Result<SnapshotSections>;
    QFile file(soulPath);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Unbuffered))
        return R::failure(readError(soulPath, QStringLiteral("the soul"), file));

    // Sections that overlap or lie past the end cannot be read one after
    // another: the file is then only hashed, for the sentence that says why.
    const bool keep = misplacedSection(m, file.size(), [](size_t) { return true; }).isEmpty();
    std::vector<size_t> order(m.sections.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&m](size_t a, size_t b) {
        return m.sections[a].offset < m.sections[b].offset;
    });

    QCryptographicHash hash(QCryptographicHash::Sha256);
    qint64 pos = 0;
    // The bytes where each section's lead should be (leadOf()).
    std::vector<QByteArray> leads(m.sections.size());
    auto take = [&](const QByteArray &bytes) {
        hash.addData(bytes);
        for (size_t i = 0; i < m.sections.size(); ++i) {
            const RecordedSection &r = m.sections[i];
            if (r.slot < 0 || r.offset < 0)
                continue;
            const qint64 from = qMax(pos, leadStart(r));
            const qint64 to = qMin(pos + bytes.size(), r.offset + sectionHead(r.slot).size());
            if (from < to)
                leads[i].append(QByteArrayView(bytes).sliced(from - pos, to - from));
        }
        pos += bytes.size();
    };
    auto readUpTo = [&](qint64 end) {
        while (pos < end) {
            const QByteArray chunk = file.read(qMin(ReadBytes, end - pos));
            if (chunk.isEmpty())
                return;
            take(chunk);
        }
    };

    if (!keep)
        order.clear();
    LiveSections sections;
    for (size_t i : order) {
        const RecordedSection &r = m.sections[i];
        readUpTo(r.offset);
        if (pos != r.offset)
            break;
        QByteArray bytes = file.read(r.length);
        take(bytes);
        if (bytes.size() != r.length)
            break;
        // Dropped for the model's equal array at once: while loading, only
        // this one and the sections that differ are held.
        if (const QByteArray *same = knownEqual(bytes, known[size_t(r.slot)]))
            bytes = *same;
        sections.section[size_t(r.slot)] = std::move(bytes);
        sections.bodyFirstLine[size_t(r.slot)] = r.bodyLine;
    }
    readUpTo(std::numeric_limits<qint64>::max());
    if (file.error() != QFileDevice::NoError)
        return R::failure(readError(soulPath, QStringLiteral("the soul"), file));

    const QByteArray actualSha = hash.result().toHex();
    if (actualSha != m.sha256.toLatin1())
        return R::failure(soulMismatch(soulPath, m, pos, actualSha));
    const QString misplaced = misplacedSection(m, pos, [&](size_t i) {
        return leads[i] == leadOf(m.sections[i]);
    });
    if (!misplaced.isEmpty())
        return R::failure(misplaced);
    SnapshotSections out;
    setFacts(out, soulPath, m);
    out.sections = std::move(sections);
    out.sections.truncated = m.truncated;
    return out;
}

} // namespace

Result<LoadedSnapshot> loadSnapshot(const QString &soulPath)
{
    Result<Manifest> manifest = readManifest(soulPath);
    if (!manifest)
        return Result<LoadedSnapshot>::failure(manifest.error());
    if (!manifest->runtime.isEmpty())
        return Result<LoadedSnapshot>::failure(runtimeRefusal(*manifest));
    return loadWhole(soulPath, *manifest);
}

Result<QString> snapshotRuntimeId(const QString &soulPath)
{
    Result<Manifest> manifest = readManifest(soulPath);
    if (!manifest)
        return Result<QString>::failure(manifest.error());
    return manifest->runtime.value(QStringLiteral("runtime")).toString();
}

Result<RuntimeSnapshot> loadRuntimeSnapshot(const QString &soulPath)
{
    using R = Result<RuntimeSnapshot>;
    Result<Manifest> manifest = readManifest(soulPath);
    if (!manifest)
        return R::failure(manifest.error());
    const Manifest &m = *manifest;
    const QString id = m.runtime.value(QStringLiteral("runtime")).toString();
    if (id.isEmpty()) {
        return R::failure(QStringLiteral("%1: a snapshot of the toolnexus soul, not of another "
                                         "runtime's text. Compare it as a soul.")
                              .arg(m.path));
    }
    Result<QByteArray> soul = readCheckedSoul(soulPath, m);
    if (!soul)
        return R::failure(soul.error());
    RuntimeSnapshot out;
    setFacts(out, soulPath, m);
    out.runtimeId = id;
    out.runtimeName = m.runtime.value(QStringLiteral("runtimeName")).toString();
    const QJsonObject settings = m.runtime.value(QStringLiteral("settings")).toObject();
    for (auto it = settings.constBegin(); it != settings.constEnd(); ++it) {
        // A flag may be recorded as true or false.
        out.settings.insert(it.key(),
                            it.value().isBool() ? qint64(it.value().toBool())
                                                : it.value().toInteger());
    }
    out.text = QString::fromUtf8(*soul);
    for (const QJsonValue &value : m.runtime.value(QStringLiteral("files")).toArray()) {
        const QJsonObject file = value.toObject();
        RuntimeSnapshotFile f;
        f.name = file.value(QStringLiteral("name")).toString();
        f.truncated = file.value(QStringLiteral("truncated")).toBool();
        for (const QJsonValue &range : file.value(QStringLiteral("kept")).toArray()) {
            // [start, length], or {"start": s, "length": n}.
            const QJsonArray pair = range.toArray();
            const QJsonObject span = range.toObject();
            f.kept.append(pair.size() == 2
                              ? KeptRange{pair.at(0).toInteger(), pair.at(1).toInteger()}
                              : KeptRange{span.value(QStringLiteral("start")).toInteger(),
                                          span.value(QStringLiteral("length")).toInteger()});
        }
        const QJsonObject place = file.value(QStringLiteral("text")).toObject();
        const qint64 offset = place.value(QStringLiteral("offset")).toInteger(-1);
        const qint64 length = place.value(QStringLiteral("length")).toInteger(-1);
        // A place outside the text is as good as none.
        f.placed = offset >= 0 && length >= 0 && offset + length <= out.text.size();
        if (f.placed)
            f.inText = KeptRange{offset, length};
        f.injected = f.placed || !f.kept.isEmpty();
        out.files.append(f);
    }
    if (!m.skills.isEmpty()) {
        SnapshotSkills skills;
        skills.text = m.skills.value(QStringLiteral("text")).toString();
        skills.tokens = m.skills.value(QStringLiteral("tokens")).toInteger();
        for (const QJsonValue &name : m.skills.value(QStringLiteral("names")).toArray())
            skills.names.append(name.toString());
        const QString recorded = m.skills.value(QStringLiteral("sha256")).toString();
        const QString actual = skillsSha256(skills.text);
        if (recorded != actual) {
            return R::failure(QStringLiteral("%1: the skills list it holds does not match its "
                                             "SHA-256 (recorded %2, the text has %3). The "
                                             "manifest was changed after it was exported; "
                                             "export the persona again.")
                                  .arg(m.path, recorded, actual));
        }
        out.skills = std::move(skills);
    }
    return out;
}

Result<SnapshotSections> loadSnapshotSections(const QString &soulPath, const KnownSections &known)
{
    using R = Result<SnapshotSections>;
    Result<Manifest> manifest = readManifest(soulPath);
    if (!manifest)
        return R::failure(manifest.error());
    if (!manifest->runtime.isEmpty())
        return R::failure(runtimeRefusal(*manifest));
    if (manifest->haveSections)
        return streamSections(soulPath, *manifest, known);

    // A manifest from before the sections were recorded (rare: Freeze and
    // Export have written them since schema 2): the soul is read whole, its
    // sections found from their heads, then each copied out, so the whole
    // soul is not kept.
    Result<LoadedSnapshot> whole = loadWhole(soulPath, *manifest);
    if (!whole)
        return R::failure(whole.error());
    const SectionedSoul &soul = whole->soul;
    SnapshotSections out;
    static_cast<SnapshotFacts &>(out) = *whole;
    for (int slot = 0; slot < SlotCount; ++slot) {
        if (!soul.present(slot))
            continue;
        const QByteArrayView section = soul.section(slot);
        const QByteArray *same = knownEqual(section, known[size_t(slot)]);
        out.sections.section[size_t(slot)] = same ? *same : section.toByteArray();
        out.sections.truncated[size_t(slot)] = soul.truncated[size_t(slot)];
        out.sections.bodyFirstLine[size_t(slot)] = soul.bodyFirstLine[size_t(slot)];
    }
    return out;
}

Result<SectionedSoul> loadComparableSoul(const QString &path)
{
    const QFileInfo info(path);
    if (info.isDir()) {
        if (const QString problem = checkDirectory(path); !problem.isEmpty())
            return Result<SectionedSoul>::failure(problem);
        return sectionedSoul(composeDirectory(path), path);
    }
    if (!info.exists()) {
        return Result<SectionedSoul>::failure(
            QStringLiteral("%1: no such persona folder or soul file. Check the path.").arg(path));
    }
    Result<LoadedSnapshot> loaded = loadSnapshot(path);
    if (!loaded)
        return Result<SectionedSoul>::failure(loaded.error());
    return std::move(loaded).value().soul;
}

} // namespace soul
