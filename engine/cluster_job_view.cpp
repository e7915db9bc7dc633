#include "cluster_job_view.h"

#include "cluster_status.h"
#include "redis_row_generator.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace couplet {
namespace {

QString qs(const std::string& text) { return QString::fromStdString(text); }

ClusterWorkerView& workerNamed(QList<ClusterWorkerView>& workers, const QString& name)
{
    for (ClusterWorkerView& w : workers)
        if (w.name == name)
            return w;
    workers.append({name, false, {}, 0, 0, 0});
    return workers.last();
}

} // namespace

ClusterJobView clusterJobView(const ClusterStatus& status, const RedisRowGenerator& generator)
{
    ClusterJobView view;
    view.jobKey = qs(generator.jobKey());
    view.duplicates = generator.duplicates();
    for (const ClusterStatus::Worker& w : status.workers) {
        const nlohmann::json beat = nlohmann::json::parse(w.json, nullptr, false);
        ClusterWorkerView& v = workerNamed(view.workers, qs(w.name));
        v.live = true;
        if (beat.is_object()) {
            v.state = qs(beat.value("state", std::string()));
            v.batch = beat.value("batch", 0);
        }
    }
    view.liveWorkers = int(status.workers.size());
    for (const RedisRowGenerator::WorkerRate& rate : generator.workerRates()) {
        ClusterWorkerView& v = workerNamed(view.workers, qs(rate.worker));
        v.rows = rate.rows;
        v.rowsPerSecond = rate.rowsPerSecond;
    }
    std::sort(view.workers.begin(), view.workers.end(),
              [](const ClusterWorkerView& a, const ClusterWorkerView& b) { return a.name < b.name; });
    const auto job = std::find_if(status.jobs.begin(), status.jobs.end(),
                                  [&](const ClusterStatus::Job& j) { return j.key == generator.jobKey(); });
    if (job != status.jobs.end()) {
        view.queued = job->queued;
        view.pending = job->pending;
        const auto dead = job->fields.find("dead");
        view.deadLetters = dead == job->fields.end() ? 0 : std::stoll(dead->second);
    }
    return view;
}

} // namespace couplet
