#include "openclawconfig.h"

#include "disk/guardedread.h"
#include "disk/slotreader.h"
#include "openclawpaths.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>

#include <memory>

namespace soul {

namespace {

// OpenClaw's limits for included files.
constexpr int MaxIncludeDepth = 10;
constexpr qint64 MaxIncludeBytes = 2097152;
constexpr char IncludeKey[] = "$include";
// OpenClaw caps only the depth, so a few small files that each include the
// next several times make millions of reads (8 per level, 10 levels). These
// bound the whole config instead, far above any config OpenClaw users write:
// files read (each time it is included), and bytes read, the top file's too.
constexpr int MaxIncludesResolved = 1000;
constexpr qint64 MaxConfigBytes = qint64(64) * 1024 * 1024;

// A config value with its objects' keys in written order, for the steps
// that reorder (merging) before the value becomes a QJsonValue.
struct Node
{
    enum class Kind { Scalar, Object, Array };
    Kind kind = Kind::Scalar;
    QJsonValue scalar;
    QList<std::pair<QString, Node>> members;
    QList<Node> elements;
    Json5Place place; // where this member's key was written

    bool isObject() const { return kind == Kind::Object; }
    bool isArray() const { return kind == Kind::Array; }
    const Node *member(const QString &key) const
    {
        for (const auto &m : members) {
            if (m.first == key)
                return &m.second;
        }
        return nullptr;
    }
    Node *member(const QString &key)
    {
        for (auto &m : members) {
            if (m.first == key)
                return &m.second;
        }
        return nullptr;
    }
};

Node toNode(const QJsonValue &value, const Json5Document &document, const QString &pointer)
{
    Node node;
    if (value.isObject()) {
        node.kind = Node::Kind::Object;
        const QJsonObject object = value.toObject();
        for (const QString &key : document.keyOrder.value(pointer)) {
            const QString member = pointer + QLatin1Char('/') + jsonPointerSegment(key);
            Node child = toNode(object.value(key), document, member);
            child.place = document.places.value(member);
            node.members.append({key, std::move(child)});
        }
    } else if (value.isArray()) {
        node.kind = Node::Kind::Array;
        const QJsonArray array = value.toArray();
        for (qsizetype i = 0; i < array.size(); ++i)
            node.elements.append(
                toNode(array.at(i), document, pointer + QLatin1Char('/') + QString::number(i)));
    } else {
        node.scalar = value;
    }
    return node;
}

QJsonValue toJson(const Node &node, OpenClawConfig &config, const QString &pointer)
{
    switch (node.kind) {
    case Node::Kind::Object: {
        QList<std::pair<QString, QJsonValue>> members;
        members.reserve(node.members.size());
        QStringList order;
        for (const auto &[key, child] : node.members) {
            const QString member = pointer + QLatin1Char('/') + jsonPointerSegment(key);
            members.append({key, toJson(child, config, member)});
            order.append(key);
            if (child.place.line > 0)
                config.places.insert(member, child.place);
        }
        config.keyOrder.insert(pointer, order);
        return jsonObjectOf(std::move(members));
    }
    case Node::Kind::Array: {
        QJsonArray array;
        for (qsizetype i = 0; i < node.elements.size(); ++i)
            array.append(toJson(node.elements.at(i),
                                config,
                                pointer + QLatin1Char('/') + QString::number(i)));
        return array;
    }
    case Node::Kind::Scalar:
        break;
    }
    return node.scalar;
}

bool isBlockedKey(const QString &key)
{
    return key == QLatin1String("__proto__") || key == QLatin1String("constructor")
           || key == QLatin1String("prototype");
}

// OpenClaw's merge of an include's siblings over it: objects merge member by
// member, arrays are joined, anything else is replaced. Keys of `base` keep
// their places; new keys follow.
Node mergeDeep(const Node &base, const Node &over)
{
    if (base.isArray() && over.isArray()) {
        Node joined = base;
        joined.elements += over.elements;
        joined.place = over.place;
        return joined;
    }
    if (!base.isObject() || !over.isObject())
        return over;
    Node merged = base;
    // By key, so merging two large objects stays linear.
    QHash<QString, qsizetype> index;
    index.reserve(merged.members.size());
    for (qsizetype i = 0; i < merged.members.size(); ++i)
        index.insert(merged.members.at(i).first, i);
    for (const auto &[key, value] : over.members) {
        if (isBlockedKey(key))
            continue;
        const auto at = index.constFind(key);
        if (at == index.cend()) {
            index.insert(key, merged.members.size());
            merged.members.append({key, value});
            continue;
        }
        Node *current = &merged.members[*at].second;
        const Json5Place place = current->place;
        if (value.isObject() && current->isObject())
            *current = mergeDeep(*current, value);
        else if (value.isArray() && current->isArray())
            current->elements += value.elements;
        else
            *current = value;
        current->place = place;
    }
    return merged;
}

QString placeText(const Json5Place &place)
{
    return QStringLiteral("%1 line %2, column %3").arg(place.file).arg(place.line).arg(place.column);
}

// The one read of a config file, the top one or an included one, with the
// checks OpenClaw applies to included files (readGuardedFile()). A missing
// file is a failure too: callers that accept one check first.
Result<QByteArray> readConfigBytes(const QString &path,
                                   qint64 maxBytes,
                                   const QString &what,
                                   const QString &whoseLimit)
{
    return readGuardedFile(path,
                           GuardedFile{what, QStringLiteral("a JSON5 file"), whoseLimit, maxBytes});
}

Result<Node> parseFile(const QString &path, const QString &text)
{
    Json5Error error;
    const std::optional<Json5Document> document = parseJson5(text, path, &error);
    if (!document) {
        return Result<Node>::failure(
            QStringLiteral("%1: %2: not valid JSON5: %3. Fix the file, then try again.")
                .arg(path, placeText(error.place).mid(path.size() + 1), error.message));
    }
    return toNode(document->value, *document, QString());
}

bool isInside(const QString &root, const QString &path)
{
    return path == root
           || path.startsWith(root.endsWith(QLatin1Char('/')) ? root : root + QLatin1Char('/'));
}

class Includes
{
public:
    // `topBytes`: the size of the config file itself, which counts toward
    // MaxConfigBytes.
    Includes(const QString &configPath, const OpenClawPaths &paths, qint64 topBytes)
        : m_topFile(configPath)
        , m_bytes(topBytes)
    {
        const QString dir = QFileInfo(configPath).absolutePath();
        addRoot(dir);
        for (const QString &root : paths.includeRoots())
            addRoot(root);
    }

    // `node` with every $include below it replaced by what it names.
    Result<Node> process(const Node &node, const QString &file, QStringList chain)
    {
        if (node.isArray()) {
            Node out = node;
            for (Node &element : out.elements) {
                Result<Node> done = process(element, file, chain);
                if (!done)
                    return done;
                element = std::move(done).value();
            }
            return out;
        }
        if (!node.isObject())
            return node;
        const Node *include = node.member(QLatin1String(IncludeKey));
        Node rest;
        rest.kind = Node::Kind::Object;
        rest.place = node.place;
        for (const auto &[key, value] : node.members) {
            if (key == QLatin1String(IncludeKey))
                continue;
            Result<Node> done = process(value, file, chain);
            if (!done)
                return done;
            rest.members.append({key, std::move(done).value()});
        }
        if (!include)
            return rest;
        const QString where = include->place.line > 0 ? placeText(include->place) : file;
        QString lastFile;
        Result<Node> included = resolve(*include, file, chain, where, lastFile);
        if (!included)
            return included;
        if (rest.members.isEmpty())
            return included;
        if (!included->isObject()) {
            return Result<Node>::failure(
                QStringLiteral("%1: $include names %2, which holds no object ({ ... }), so the "
                               "keys beside $include cannot be merged into it. Make %2 hold an "
                               "object, or move the keys into it.")
                    .arg(where, lastFile));
        }
        Node merged = mergeDeep(*included, rest);
        merged.place = node.place;
        return merged;
    }

private:
    void addRoot(const QString &root)
    {
        const QString clean = QDir::cleanPath(root);
        QString real = QFileInfo(clean).canonicalFilePath();
        if (real.isEmpty())
            real = clean;
        m_roots.append({clean, real});
    }

    // `lastFile`: the path of the last file loaded, for a sentence about what it held.
    Result<Node> resolve(const Node &value,
                         const QString &file,
                         const QStringList &chain,
                         const QString &where,
                         QString &lastFile)
    {
        if (value.kind == Node::Kind::Scalar && value.scalar.isString())
            return load(value.scalar.toString(), file, chain, where, lastFile);
        if (value.isArray()) {
            Node merged;
            merged.kind = Node::Kind::Object;
            for (const Node &item : value.elements) {
                if (item.kind != Node::Kind::Scalar || !item.scalar.isString()) {
                    return Result<Node>::failure(
                        QStringLiteral("%1: a $include list may hold only paths (strings).")
                            .arg(where));
                }
                Result<Node> loaded = load(item.scalar.toString(), file, chain, where, lastFile);
                if (!loaded)
                    return loaded;
                merged = mergeDeep(merged, *loaded);
            }
            return merged;
        }
        return Result<Node>::failure(
            QStringLiteral("%1: $include takes a path or a list of paths.").arg(where));
    }

    Result<Node> load(const QString &includePath,
                      const QString &file,
                      QStringList chain,
                      const QString &where,
                      QString &lastFile)
    {
        const auto failure = [&](const QString &why) {
            return Result<Node>::failure(
                QStringLiteral("%1: $include \"%2\": %3").arg(where, includePath, why));
        };
        if (includePath.contains(QChar(0)))
            return failure(QStringLiteral("a path cannot hold a NUL character."));
        const QString resolved = QDir::cleanPath(
            QDir(QFileInfo(file).absolutePath()).absoluteFilePath(includePath));
        bool inside = false;
        for (const auto &root : std::as_const(m_roots))
            inside = inside || isInside(root.first, resolved);
        if (!inside) {
            return failure(QStringLiteral("the file is outside the config's folder %1 (OpenClaw "
                                          "reads includes from there and from "
                                          "OPENCLAW_INCLUDE_ROOTS only).")
                               .arg(m_roots.first().first));
        }
        const QString real = QFileInfo(resolved).canonicalFilePath();
        if (!real.isEmpty()) {
            bool realInside = false;
            for (const auto &root : std::as_const(m_roots))
                realInside = realInside || isInside(root.second, real);
            if (!realInside)
                return failure(
                    QStringLiteral("a symbolic link leads outside the config's folder."));
        }
        if (chain.contains(resolved))
            return failure(QStringLiteral("the files include each other in a circle: %1.")
                               .arg((chain + QStringList{resolved}).join(QStringLiteral(" -> "))));
        if (chain.size() > MaxIncludeDepth)
            return failure(
                QStringLiteral("includes are nested more than %1 deep.").arg(MaxIncludeDepth));
        // Fan-out: each include counts, however often the same file comes back.
        if (++m_resolved > MaxIncludesResolved) {
            return failure(QStringLiteral("%1 includes more than %2 files in all (a file counts "
                                          "each time it is included), more than Soul Studio "
                                          "reads. Include each file fewer times.")
                               .arg(m_topFile)
                               .arg(MaxIncludesResolved));
        }
        const Result<QByteArray> bytes = readConfigBytes(resolved,
                                                         MaxIncludeBytes,
                                                         QStringLiteral("The included file"),
                                                         QStringLiteral("OpenClaw"));
        if (!bytes)
            return failure(bytes.error());
        m_bytes += bytes->size();
        if (m_bytes > MaxConfigBytes) {
            return failure(QStringLiteral("%1 and the files it includes hold more than %2 bytes "
                                          "in all (a file counts each time it is included), "
                                          "more than Soul Studio reads. Include fewer or "
                                          "smaller files.")
                               .arg(m_topFile)
                               .arg(MaxConfigBytes));
        }
        Result<Node> parsed = parseFile(resolved, QString::fromUtf8(*bytes));
        if (!parsed)
            return parsed;
        lastFile = resolved;
        chain.append(resolved);
        return process(*parsed, resolved, chain);
    }

    QList<std::pair<QString, QString>> m_roots; // as written, and with links resolved
    QString m_topFile;
    int m_resolved = 0; // files loaded, each time one is
    qint64 m_bytes = 0; // bytes read, the top file's included
};

// An environment variable reference's name: capital letters, digits, _.
bool isVariableName(QStringView name)
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Z_][A-Z0-9_]*\\z"));
    return pattern.match(name.toString()).hasMatch();
}

struct Substitution
{
    const QProcessEnvironment &environment;
    QStringList missing; // variables referenced but unset or empty
    QStringList used;    // variables referenced

    QString apply(const QString &value)
    {
        if (!value.contains(QLatin1Char('$')))
            return value;
        QString out;
        for (qsizetype i = 0; i < value.size(); ++i) {
            const QChar c = value.at(i);
            if (c != QLatin1Char('$')) {
                out += c;
                continue;
            }
            // $${NAME}: the text ${NAME}.
            if (value.mid(i + 1, 2) == QLatin1String("${")) {
                const qsizetype end = value.indexOf(QLatin1Char('}'), i + 3);
                if (end >= 0 && isVariableName(QStringView(value).mid(i + 3, end - i - 3))) {
                    out += QStringView(value).mid(i + 1, end - i);
                    i = end;
                    continue;
                }
            }
            if (value.mid(i + 1, 1) == QLatin1String("{")) {
                const qsizetype end = value.indexOf(QLatin1Char('}'), i + 2);
                if (end >= 0) {
                    const QString name = value.mid(i + 2, end - i - 2);
                    if (isVariableName(name)) {
                        used.append(name);
                        const QString set = environment.value(name);
                        if (set.isEmpty()) {
                            missing.append(name);
                            out += QStringView(value).mid(i, end - i + 1);
                        } else {
                            out += set;
                        }
                        i = end;
                        continue;
                    }
                }
            }
            out += c;
        }
        return out;
    }

    void visit(Node &node)
    {
        switch (node.kind) {
        case Node::Kind::Object:
            for (auto &member : node.members)
                visit(member.second);
            break;
        case Node::Kind::Array:
            for (Node &element : node.elements)
                visit(element);
            break;
        case Node::Kind::Scalar:
            if (node.scalar.isString())
                node.scalar = apply(node.scalar.toString());
            break;
        }
    }
};

// Every key anywhere below `node`.
void collectKeys(const Node &node, QStringList &keys)
{
    for (const auto &[key, child] : node.members) {
        keys.append(key);
        collectKeys(child, keys);
    }
    for (const Node &element : node.elements)
        collectKeys(element, keys);
}

} // namespace

QStringList OpenClawConfig::keys(const QString &pointer) const
{
    return javaScriptKeyOrder(keyOrder.value(pointer));
}

QString OpenClawConfig::where(const QString &pointer) const
{
    const auto it = places.constFind(pointer);
    if (it == places.constEnd() || it->line <= 0)
        return path;
    return QStringLiteral("%1 line %2").arg(it->file.isEmpty() ? path : it->file).arg(it->line);
}

Result<OpenClawConfig> readOpenClawConfig(const QString &path,
                                          const OpenClawPaths &paths,
                                          bool mustExist)
{
    OpenClawConfig config;
    config.path = path;
    const QFileInfo info(path);
    // As fs.existsSync: a link that leads nowhere is no file.
    if (!info.exists()) {
        if (!mustExist)
            return config;
        // A loop of links, or a folder on the way that cannot be entered, is
        // not "no such file".
        const SlotRead probe = readPath(path, ReadOptions(0));
        if (probe.presence != SlotPresence::Missing) {
            return Result<OpenClawConfig>::failure(
                QStringLiteral("The OpenClaw config %1 %2. Name an OpenClaw config (openclaw.json) "
                               "that you may read.")
                    .arg(path, absenceReason(probe)));
        }
        return Result<OpenClawConfig>::failure(
            QStringLiteral("%1: there is no such config file. Name an existing OpenClaw "
                           "config (openclaw.json).")
                .arg(path));
    }
    config.exists = true;
    // The same read as an included file's, so a FIFO, a device or a huge
    // sparse file is refused at once instead of read forever.
    const Result<QByteArray> bytes = readConfigBytes(path,
                                                     MaxConfigBytes,
                                                     QStringLiteral("The OpenClaw config"),
                                                     QStringLiteral("Soul Studio"));
    if (!bytes)
        return Result<OpenClawConfig>::failure(bytes.error());
    Result<Node> parsed = parseFile(path, QString::fromUtf8(*bytes));
    if (!parsed)
        return Result<OpenClawConfig>::failure(parsed.error());
    Includes includes(path, paths, bytes->size());
    Result<Node> resolved = includes.process(*parsed, path, {path});
    if (!resolved)
        return Result<OpenClawConfig>::failure(resolved.error());
    Node root = std::move(resolved).value();
    if (!root.isObject()) {
        return Result<OpenClawConfig>::failure(
            QStringLiteral("%1: the config must be an object ({ ... }) at its top level.").arg(path));
    }

    Substitution substitution{paths.environment, {}, {}};
    substitution.visit(root);
    // What would set a variable that this reader does not apply: the config's
    // own env block, and .env files. Refused only where they could matter.
    if (const Node *env = root.member(QStringLiteral("env"))) {
        QStringList defined;
        collectKeys(*env, defined);
        // The config's env block sets variables before OpenClaw finds the
        // default workspace; this reader does not apply it.
        for (const char *name : {"OPENCLAW_WORKSPACE_DIR",
                                 "OPENCLAW_STATE_DIR",
                                 "OPENCLAW_PROFILE",
                                 "OPENCLAW_HOME",
                                 "HOME"}) {
            if (defined.contains(QLatin1String(name))) {
                return Result<OpenClawConfig>::failure(
                    QStringLiteral("%1: the config's env block sets %2, which Soul Studio does "
                                   "not apply (unsupported). Set %2 in the environment instead.")
                        .arg(path, QLatin1String(name)));
            }
        }
        for (const QString &name : std::as_const(substitution.used)) {
            if (defined.contains(name)) {
                return Result<OpenClawConfig>::failure(
                    QStringLiteral("%1: ${%2} is set by the config's own env block, which Soul "
                                   "Studio does not apply (unsupported). Write the value into "
                                   "the config, or set %2 in the environment.")
                        .arg(path, name));
            }
        }
    }
    if (!substitution.missing.isEmpty()) {
        const QStringList dotEnvs{QDir(paths.workingDirectory).filePath(QStringLiteral(".env")),
                                  QDir(paths.stateDir()).filePath(QStringLiteral(".env"))};
        for (const QString &dotEnv : dotEnvs) {
            if (QFileInfo::exists(dotEnv)) {
                return Result<OpenClawConfig>::failure(
                    QStringLiteral("%1: ${%2} is not set, and OpenClaw would also read %3, "
                                   "which Soul Studio does not (unsupported). Set %2 in the "
                                   "environment.")
                        .arg(path, substitution.missing.first(), dotEnv));
            }
        }
    }
    config.root = toJson(root, config, QString()).toObject();
    return config;
}

} // namespace soul
