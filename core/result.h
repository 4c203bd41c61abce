#pragma once

#include <QString>

#include <optional>
#include <utility>

namespace soul {

// Joins two warnings into one text, a space between.
inline QString joinedWarnings(const QString &first, const QString &second)
{
    if (first.isEmpty())
        return second;
    return second.isEmpty() ? first : first + QLatin1Char(' ') + second;
}

// A value or a sentence saying why there is none. The sentence is meant for a
// person: it names the file and, where there is one, what to do about it.
// A value can come with a warning, a sentence of the same kind: the work is
// done, but something about it the user must hear (a file written whose
// folder the disk did not confirm).
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
    // Empty unless ok() with something to tell; a failure has none.
    const QString &warning() const { return m_warning; }
    void addWarning(const QString &warning)
    {
        if (ok())
            m_warning = joinedWarnings(m_warning, warning);
    }

private:
    Result() = default;

    std::optional<T> m_value;
    QString m_error;
    QString m_warning;
};

// For operations that return nothing on success (and maybe a warning, as
// Result's).
class Status
{
public:
    Status() = default;
    // A success with `warning` to tell (none when it is empty).
    static Status withWarning(QString warning)
    {
        Status s;
        s.m_warning = std::move(warning);
        return s;
    }
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
    // Empty unless ok() with something to tell; a failure has none.
    const QString &warning() const { return m_warning; }
    void addWarning(const QString &warning)
    {
        if (m_ok)
            m_warning = joinedWarnings(m_warning, warning);
    }

private:
    bool m_ok = true;
    QString m_error;
    QString m_warning;
};

} // namespace soul
