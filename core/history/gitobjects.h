#pragma once

#include <git2.h>

#include <QByteArray>
#include <QString>

#include <memory>

// libgit2's objects with their owners made visible: each handle frees its
// object when it goes out of scope. Only core/history's sources include this;
// nothing outside the folder sees a libgit2 type.
namespace soul::git {

template<typename T, void (*Free)(T *)>
struct Freer
{
    void operator()(T *object) const { Free(object); }
};

template<typename T, void (*Free)(T *)>
using Handle = std::unique_ptr<T, Freer<T, Free>>;

using Repository = Handle<git_repository, git_repository_free>;
using Object = Handle<git_object, git_object_free>;
using Commit = Handle<git_commit, git_commit_free>;
using Tree = Handle<git_tree, git_tree_free>;
using Blob = Handle<git_blob, git_blob_free>;
using Revwalk = Handle<git_revwalk, git_revwalk_free>;
using Index = Handle<git_index, git_index_free>;
using Reference = Handle<git_reference, git_reference_free>;
using Signature = Handle<git_signature, git_signature_free>;
using Config = Handle<git_config, git_config_free>;
using FilterList = Handle<git_filter_list, git_filter_list_free>;

// A git_buf that is disposed of with the scope.
struct Buffer
{
    Buffer() = default;
    ~Buffer() { git_buf_dispose(&buf); }
    Buffer(const Buffer &) = delete;
    Buffer &operator=(const Buffer &) = delete;

    QByteArray bytes() const { return QByteArray(buf.ptr, qsizetype(buf.size)); }

    git_buf buf = GIT_BUF_INIT;
};

// Keeps libgit2 initialised while any holder lives: it counts its users, so
// every PersonaHistory holds one.
class Library
{
public:
    Library() { git_libgit2_init(); }
    ~Library() { git_libgit2_shutdown(); }
    Library(const Library &) = delete;
    Library &operator=(const Library &) = delete;
};

// libgit2's words for its last error on this thread ("object not found -
// no match for id (...)"), without a final full stop; `fallback` when it
// left none.
inline QString lastErrorText(const char *fallback = "unknown error")
{
    const git_error *error = git_error_last();
    QString text = QString::fromUtf8(error && error->message ? error->message : fallback).trimmed();
    while (text.endsWith(QLatin1Char('.')))
        text.chop(1);
    return text;
}

inline QByteArray hex(const git_oid &id)
{
    char text[GIT_OID_HEXSZ + 1] = {};
    git_oid_tostr(text, sizeof text, &id);
    return QByteArray(text);
}

inline QByteArray raw(const git_oid &id)
{
    return QByteArray(reinterpret_cast<const char *>(id.id), GIT_OID_RAWSZ);
}

} // namespace soul::git
