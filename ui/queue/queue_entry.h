#pragma once

#include <QString>
#include <QtGlobal>

namespace couplet {

// Paused: a bulk job stopped by the user or by a lost Redis, to be resumed.
// The states from Done on are final.
enum class QueueState { Waiting, Running, Paused, Done, Failed, Cancelled };

// One generation request as the queue shows it.
struct QueueEntry {
    quint64 id = 0;
    QString prompt;              // e.g. "关键词: 五福"
    bool bulk = false;           // priority class: bulk jobs yield to interactive ones
    bool api = false;            // from the local API server (runs at bulk priority)
    int candidates = 1;
    QueueState state = QueueState::Waiting;
    double progress = 0;         // 0..1
    double latencyMs = 0;        // submit -> finished
    double tokensPerSecond = 0;
    QString error;

    bool isFinished() const { return state >= QueueState::Done; }
};

} // namespace couplet
