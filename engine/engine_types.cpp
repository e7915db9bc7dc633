#include "engine_types.h"

namespace couplet {

void registerEngineMetaTypes()
{
    qRegisterMetaType<TextChunk>();
    qRegisterMetaType<QList<TextChunk>>();
    qRegisterMetaType<CandidateResult>();
    qRegisterMetaType<RequestSummary>();
    qRegisterMetaType<EngineSettings>();
    qRegisterMetaType<EngineStats>();
    qRegisterMetaType<AutoTuneResult>();
    qRegisterMetaType<GenerationSpec>();
    qRegisterMetaType<DeviceOptions>();
    qRegisterMetaType<BulkRequest>();
    qRegisterMetaType<BulkStatus>();
    qRegisterMetaType<ApiRequestInfo>();
}

} // namespace couplet
