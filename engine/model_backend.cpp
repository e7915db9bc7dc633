#include "model_backend.h"

#include "couplet_model.h"
#include "generate.h"

#include <torch/torch.h>

namespace couplet {
namespace {

class ModelBackend : public EngineBackend {
public:
    explicit ModelBackend(std::shared_ptr<const CoupletModel> model) : m_model(std::move(model)) {}

    std::unique_ptr<Decoder> makeDecoder() const override { return m_model->makeDecoder(); }
    std::string validate(const GenerationSpec& spec) const override { return m_model->validate(spec); }
    std::unique_ptr<TokenPolicy> makePolicy(const GenerationSpec& spec, int index) const override
    {
        return m_model->makePolicy(spec, index);
    }
    Couplet coupletOf(const TokenPolicy& policy) const override { return CoupletModel::coupletOf(policy); }
    int sampledCandidates(const GenerationSpec& spec) const override { return couplet::sampledCandidates(spec); }
    void rerank(const GenerationSpec& spec, std::vector<Couplet>& candidates) const override
    {
        m_model->rerank(spec, candidates);
    }
    std::string deviceName() const override { return m_model->deviceName(); }
    std::string summary() const override { return m_model->summary(); }
    void setThreads(int threads) override
    {
        if (threads > 0)
            torch::set_num_threads(threads);
    }

private:
    std::shared_ptr<const CoupletModel> m_model;
};

} // namespace

std::shared_ptr<EngineBackend> loadModelBackend(const std::filesystem::path& dir,
                                                const DeviceOptions& options)
{
    return std::make_shared<ModelBackend>(CoupletModel::load(dir, options));
}

} // namespace couplet
