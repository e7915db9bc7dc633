#pragma once

#include "couplet_text.h"

#include <QDateTime>
#include <QString>

namespace couplet {

// One generated couplet as the history stores it.
struct HistoryEntry {
    CoupletText couplet;
    QString prompt;      // what was asked, e.g. "关键词: 五福"
    int mode = 0;        // PromptMode as int
    double score = 0;    // mean log-probability per token
    quint64 seed = 0;
    QDateTime created = QDateTime::currentDateTime();
};

} // namespace couplet
