#pragma once

#include "args.h"

namespace couplet::cli {

int runTrain(Args& args);
int runTrainJudge(Args& args);
int runGenerate(Args& args);
int runEval(Args& args);
int runBatch(Args& args);
int runBench(Args& args);
int runWorker(Args& args);
int runCluster(Args& args);
int runServe(Args& args);

} // namespace couplet::cli
