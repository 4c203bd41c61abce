#pragma once

#include <QString>

#include <optional>
#include <utility>

namespace soul {

// A value or a sentence saying why there is none. The sentence is meant for a
// person: it names the file and, where there is one, what to do about it.
template<typename T>
class Result
{
public:
    Result(T value) // NOLINT(google-explicit-constructor): a value converts implicitly
        : m_value(std::move(value))
    {}

    static Result failure(QString error)
    {
        Result r;
        r.m_error = std::move(error);
        return r;
    }

    bool ok() const { return m_value.has_value(); }
    explicit operator bool() const { return ok(); }

    const T &value() const & { return *m_value; }
    T &value() & { return *m_value; }
    T &&value() && { return std::move(*m_value); }
    const T *operator->() const { return &*m_value; }
    T *operator->() { return &*m_value; }
    const T &operator*() const { return *m_value; }

    const QString &error() const { return m_error; }

private:
    Result() = default;

    std::optional<T> m_value;
    QString m_error;
};

// For operations that return nothing on success.
class Status
{
public:
    Status() = default;
    static Status failure(QString error)
    {
        Status s;
        s.m_error = std::move(error);
        s.m_ok = false;
        return s;
    }
    bool ok() const { return m_ok; }
    explicit operator bool() const { return m_ok; }
    const QString &error() const { return m_error; }

private:
    bool m_ok = true;
    QString m_error;
};

} // namespace soul
