// RoutedDecoder: two decoders behind one, a sequence's prompt choosing which.
// Fake inner decoders hold each row's tokens and demand, as NativeDecoder does,
// that decode() gets rows 0..n-1 in order; their logits say which decoder ran
// and what the row held. A simulated scheduler admits, finishes and compacts
// rows at random, and every row must come back from its own decoder with its
// own tokens. The real model's routing is tested in test_shipped_model.
#include "routed_decoder.h"

#include <check.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>

using namespace couplet;

namespace {

constexpr int kVocab = 8;
constexpr int kRoute = 5;

// Logits: [0] the decoder's id, [1] the row's length, [2] a hash of its tokens.
class FakeDecoder : public Decoder {
public:
    explicit FakeDecoder(int id) : m_id(id) {}
    int vocabSize() const override { return kVocab; }
    int maxSequenceLength() const override { return 1000; }
    int rowCapacity() const override { return static_cast<int>(m_rows.size()); }
    void reserveRows(int rows) override { m_rows.resize(static_cast<std::size_t>(rows)); }
    void prefill(std::span<const PrefillItem> items, std::vector<float>& logits) override
    {
        logits.assign(items.size() * kVocab, 0);
        for (std::size_t i = 0; i < items.size(); ++i) {
            auto& row = at(items[i].row);
            row = items[i].tokens;
            write(row, logits.data() + i * kVocab);
        }
    }
    void decode(std::span<const DecodeItem> items, std::vector<float>& logits) override
    {
        logits.assign(items.size() * kVocab, 0);
        for (std::size_t i = 0; i < items.size(); ++i) {
            if (items[i].row != static_cast<int>(i)) throw std::logic_error("decode rows must be 0..n-1 in order");
            auto& row = at(items[i].row);
            if (items[i].position != static_cast<int>(row.size())) throw std::logic_error("position is not the row's end");
            row.push_back(items[i].token);
            write(row, logits.data() + i * kVocab);
        }
        ++decodes;
        rowsDecoded += static_cast<int>(items.size());
    }
    void copyRow(int from, int to, int length) override
    {
        auto& source = at(from);
        if (length > static_cast<int>(source.size())) throw std::logic_error("copy past the row's end");
        at(to).assign(source.begin(), source.begin() + length);
    }
    static float hash(const std::vector<int>& tokens)
    {
        std::uint32_t h = 17;
        for (int t : tokens) h = h * 31 + static_cast<std::uint32_t>(t);
        return static_cast<float>(h % 100000);
    }
    int decodes = 0, rowsDecoded = 0;

private:
    std::vector<int>& at(int row)
    {
        if (row < 0 || row >= static_cast<int>(m_rows.size())) throw std::out_of_range("row outside the cache");
        return m_rows[static_cast<std::size_t>(row)];
    }
    void write(const std::vector<int>& row, float* out) const
    {
        out[0] = static_cast<float>(m_id);
        out[1] = static_cast<float>(row.size());
        out[2] = hash(row);
    }
    int m_id;
    std::vector<std::vector<int>> m_rows;
};

struct Expected {
    std::vector<int> tokens;
    int decoder = 0;
};

void checkLogits(const std::vector<float>& logits, std::size_t index, const Expected& e)
{
    const float* l = logits.data() + index * kVocab;
    CHECK_EQ(l[0], static_cast<float>(e.decoder));
    CHECK_EQ(l[1], static_cast<float>(e.tokens.size()));
    CHECK_EQ(l[2], FakeDecoder::hash(e.tokens));
}

} // namespace

COUPLET_TEST(eachRowRunsOnItsDecoderWithItsOwnTokensThroughCompaction)
{
    auto mainOwned = std::make_unique<FakeDecoder>(0);
    auto routedOwned = std::make_unique<FakeDecoder>(1);
    FakeDecoder* main = mainOwned.get();
    FakeDecoder* routed = routedOwned.get();
    RoutedDecoder d(std::move(mainOwned), std::move(routedOwned), kRoute);
    constexpr int kRows = 12;
    d.reserveRows(kRows);
    CHECK_EQ(d.rowCapacity(), kRows);
    std::mt19937 rng(7);
    std::vector<Expected> rows; // what the scheduler holds in rows 0..n-1
    std::vector<float> logits;
    int routedAdmitted = 0, mainAdmitted = 0;
    for (int step = 0; step < 400; ++step) {
        // Now and then the rows are dropped unannounced, as when one scheduler
        // stops and the next starts over the same decoder from row 0.
        if (step % 57 == 56) rows.clear();
        // Admit a few into the rows after the running ones, as the scheduler does.
        const int admit = std::min<int>(kRows - static_cast<int>(rows.size()), static_cast<int>(rng() % 4));
        std::vector<PrefillItem> items;
        for (int i = 0; i < admit; ++i) {
            Expected e;
            const int length = 1 + static_cast<int>(rng() % 6);
            for (int k = 0; k < length; ++k) e.tokens.push_back(static_cast<int>(rng() % 5));
            if (rng() % 3 == 0) e.tokens[rng() % e.tokens.size()] = kRoute;
            e.decoder = std::find(e.tokens.begin(), e.tokens.end(), kRoute) != e.tokens.end() ? 1 : 0;
            (e.decoder ? routedAdmitted : mainAdmitted) += 1;
            items.push_back({static_cast<int>(rows.size()), e.tokens});
            rows.push_back(e);
        }
        if (!items.empty()) {
            d.prefill(items, logits);
            for (std::size_t i = 0; i < items.size(); ++i) checkLogits(logits, i, rows[static_cast<std::size_t>(items[i].row)]);
        }
        // Finish some: the last row moves into the freed one (Scheduler::takeRow),
        // or the last row simply ends.
        for (int n = static_cast<int>(rng() % 3); n > 0 && !rows.empty(); --n) {
            const int row = static_cast<int>(rng() % rows.size());
            const int last = static_cast<int>(rows.size()) - 1;
            if (row != last) {
                d.copyRow(last, row, static_cast<int>(rows[static_cast<std::size_t>(last)].tokens.size()));
                rows[static_cast<std::size_t>(row)] = rows[static_cast<std::size_t>(last)];
            }
            rows.pop_back();
        }
        if (rows.empty()) continue;
        std::vector<DecodeItem> decode;
        for (std::size_t r = 0; r < rows.size(); ++r) {
            const int token = static_cast<int>(rng() % 5);
            decode.push_back({static_cast<int>(r), token, static_cast<int>(rows[r].tokens.size())});
            rows[r].tokens.push_back(token);
        }
        d.decode(decode, logits);
        for (std::size_t r = 0; r < rows.size(); ++r) {
            checkLogits(logits, r, rows[r]);
            CHECK_EQ(d.innerOf(static_cast<int>(r)), rows[r].decoder);
        }
    }
    std::printf("%d sequences on the main decoder, %d routed; %d and %d rows decoded\n", mainAdmitted, routedAdmitted,
                main->rowsDecoded, routed->rowsDecoded);
    CHECK(mainAdmitted > 50);
    CHECK(routedAdmitted > 20);
    CHECK(routed->rowsDecoded > 0);
}

COUPLET_TEST(decodersOfDifferentVocabulariesAreRefused)
{
    class Wider : public FakeDecoder {
    public:
        Wider() : FakeDecoder(1) {}
        int vocabSize() const override { return kVocab + 1; }
    };
    bool refused = false;
    try {
        RoutedDecoder d(std::make_unique<FakeDecoder>(0), std::make_unique<Wider>(), kRoute);
    } catch (const std::invalid_argument& e) {
        refused = std::string(e.what()).find("vocabularies differ") != std::string::npos;
    }
    CHECK(refused);
}
