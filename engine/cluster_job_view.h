#pragma once

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace couplet {

class RedisRowGenerator;
struct ClusterStatus;

// One worker as the bulk job bar shows it: its heartbeat (live) and what it
// did for this job (rows collected from it, per second of this run).
struct ClusterWorkerView {
    QString name;
    bool live = false;          // its heartbeat is there
    QString state;              // reading, generating, ...
    int batch = 0;
    quint64 rows = 0;           // rows of this job it wrote
    double rowsPerSecond = 0;   // of this job, over this run
};

// What `couplet cluster status` says about a job running on workers, about
// once a second; `problem` says when Redis cannot be reached.
struct ClusterJobView {
    quint64 jobId = 0;
    QString url;
    QString jobKey;
    int liveWorkers = 0;
    qint64 queued = 0;          // rows in the rows stream, delivered or not
    qint64 pending = 0;         // delivered to a worker, not yet acknowledged
    qint64 deadLetters = 0;     // rows of this job in the dead-letter stream
    quint64 duplicates = 0;     // results delivered twice, written once
    QList<ClusterWorkerView> workers;
    QStringList refusals;       // workers that refused the job, and why
    QString problem;
};

// The job of `generator` in `status`: the live workers with what each did
// for the job, its queue and dead letters (jobId, url and refusals are the caller's).
ClusterJobView clusterJobView(const ClusterStatus& status, const RedisRowGenerator& generator);

} // namespace couplet

Q_DECLARE_METATYPE(couplet::ClusterJobView)
