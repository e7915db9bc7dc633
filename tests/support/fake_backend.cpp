#include "fake_backend.h"

#include "fake_decoder.h"
#include "fake_policy.h"

#include <algorithm>
#include <stdexcept>
#include <thread>

namespace couplet::test {
namespace {

constexpr int kFreeLength = 20;

class SlowDecoder : public FakeDecoder {
public:
    explicit SlowDecoder(int delayMs) : FakeDecoder(97, 128), m_delayMs(delayMs) {}
    void decode(std::span<const DecodeItem> items, std::vector<float>& logits) override
    {
        if (m_delayMs > 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(m_delayMs));
        FakeDecoder::decode(items, logits);
    }

private:
    int m_delayMs;
};

} // namespace

std::unique_ptr<Decoder> FakeBackend::makeDecoder() const
{
    return std::make_unique<SlowDecoder>(m_stepDelayMs);
}

std::string FakeBackend::validate(const GenerationSpec& spec) const
{
    return spec.keywords == "bad" ? "keywords \"bad\" are not allowed" : "";
}

std::unique_ptr<TokenPolicy> FakeBackend::makePolicy(const GenerationSpec& spec, int index) const
{
    const int length = spec.length > 0 ? spec.length : kFreeLength;
    const int throwAt = spec.keywords == "fail" ? 2 : -1;
    return std::make_unique<FakePolicy>(std::vector<int>{1, 2 + index}, length, -1, throwAt);
}

Couplet FakeBackend::coupletOf(const TokenPolicy& policy) const
{
    Couplet c;
    for (int token : policy.generated())
        c.upper += std::to_string(token) + " ";
    c.lower = std::to_string(policy.generated().size());
    c.hengpi = "四字横批";
    c.score = policy.generated().empty() ? 0 : policy.logProb() / double(policy.generated().size());
    return c;
}

void FakeBackend::rerank(const GenerationSpec&, std::vector<Couplet>& candidates) const
{
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const Couplet& a, const Couplet& b) { return a.score > b.score; });
}

BackendLoader fakeLoader(std::shared_ptr<FakeBackend> backend)
{
    return [backend](const std::filesystem::path& dir, const DeviceOptions&) -> std::shared_ptr<CoupletGenerator> {
        if (dir == "missing")
            throw std::runtime_error("missing: no config.json in the model folder");
        return backend;
    };
}

} // namespace couplet::test
