#pragma once

// What the poster tests (the CLI's and the app's) look at in a posters
// folder. Header only, for Qt tests: the support library itself has no Qt.

#include <QDir>
#include <QSet>
#include <QString>

#include <sys/stat.h>

#include <cstdint>
#include <utility>

namespace couplet::testing {

// Every name in `dir`, hidden ones (.partial) included.
inline QSet<QString> filesIn(const QString& dir)
{
    const QStringList names = QDir(dir).entryList(QDir::Files | QDir::Dirs | QDir::Hidden | QDir::NoDotAndDotDot);
    return QSet<QString>(names.begin(), names.end());
}

// inode and modification time: a file drawn again is a new inode (rename).
inline std::pair<ino_t, std::int64_t> fileIdentity(const QString& path)
{
    struct stat st {};
    ::stat(path.toLocal8Bit().constData(), &st);
    return {st.st_ino, std::int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
}

} // namespace couplet::testing
