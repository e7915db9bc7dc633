#include "studio_app.h"
#include "model_backend.h"

#include "model_config.h"
#include "safetensors.h"
#include "transformer.h"
#include "utf8.h"
#include "vocab.h"

#include "editor/editor_view.h"
#include "history/history_model.h"
#include "history/history_panel.h"
#include "mainwindow/main_window.h"
#include "prompt/prompt_panel.h"
#include "queue/queue_model.h"

#include <QPushButton>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace couplet;

namespace {

// Common characters for the vocabulary, the prompt's keywords among them.
constexpr const char* kCharacters =
    "春福喜吉祥瑞安康泰和顺兴旺盛昌荣华富贵财丰乐庆寿新年岁平满门家国民人天地山水风月花鸟"
    "日云雨雪江河海千万百一二三四五六七八九十红绿金玉龙凤马虎来去开上下中东西南北长高远近"
    "大小多少心意情诗书酒茶琴棋画业成功名利光明星辰时节竹梅兰菊松柏古今文武德善美好临迎";

// A model folder with random weights: the real loader, Transformer and
// constraints, only small. The constraints mask every step, so even random
// weights write well-formed couplets.
void writeTinyModel(const std::filesystem::path& dir)
{
    std::filesystem::create_directories(dir);
    std::vector<char32_t> characters;
    for (char32_t c : utf8::decode(kCharacters))
        characters.push_back(c);
    const Vocab vocab(characters);
    vocab.save(dir / "vocab.txt");
    ModelConfig config;
    config.vocabSize = vocab.size();
    config.dim = 32;
    config.layers = 1;
    config.heads = 2;
    config.mlpHidden = 64;
    config.maxLen = 96;
    config.dropout = 0;
    config.save(dir / "config.json");
    torch::manual_seed(7);
    Lm lm(config);
    safetensors::TensorMap weights;
    for (const auto& p : lm->named_parameters())
        weights[p.key()] = p.value();
    safetensors::save(dir / "model.safetensors", weights);
}

} // namespace

// The whole app over the real model code (loader, Transformer, constraints,
// scheduler, engine thread) with a tiny random-weight model written here.
class TestStudioModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_modelDir = m_dir.filePath(QStringLiteral("model"));
        writeTinyModel(m_modelDir.toStdString());
    }

    void generatesWithTheTinyModel()
    {
        StudioApp studio(&loadModelBackend);
        studio.setQuiet(true);
        MainWindow* window = studio.window();
        window->show();
        DeviceOptions cpu;
        cpu.device = "cpu";
        studio.loadModel(m_modelDir, cpu);
        auto* generate = window->promptPanel()->findChild<QPushButton*>();
        QTRY_VERIFY_WITH_TIMEOUT(generate->isEnabled(), 30000);

        QAbstractItemModel* history = window->history()->table()->model();
        const int historyBefore = history->rowCount();
        GenerationSpec spec;
        spec.mode = PromptMode::Keywords;
        spec.keywords = "春福";
        spec.length = 5;
        spec.candidates = 1;
        window->promptPanel()->setSpec(spec);
        window->promptPanel()->generate();

        QueueModel* queue = window->queueModel();
        QCOMPARE(queue->rowCount(), 1);
        const quint64 id = queue->idAt(0);
        QTRY_VERIFY_WITH_TIMEOUT(queue->entry(id)->isFinished(), 60000);
        QCOMPARE(queue->entry(id)->state, QueueState::Done);
        QCOMPARE(queue->entry(id)->error, QString());

        EditorView* editor = window->editor();
        QCOMPARE(editor->currentRequestId(), id);
        const CoupletText couplet = editor->candidate(0);
        // The constraints hold even with random weights: two lines of the
        // asked length, and a 横批.
        QCOMPARE(int(couplet.upper.size()), 5);
        QCOMPARE(int(couplet.lower.size()), 5);
        QVERIFY(!couplet.hengpi.isEmpty());

        QTRY_COMPARE_WITH_TIMEOUT(history->rowCount(), historyBefore + 1, 10000);
        QCOMPARE(history->index(0, HistoryModel::UpperColumn).data().toString(), couplet.upper);
        QCOMPARE(history->index(0, HistoryModel::LowerColumn).data().toString(), couplet.lower);
    }

private:
    QTemporaryDir m_dir;
    QString m_modelDir;
};

QTEST_MAIN(TestStudioModel)
#include "test_studio_model.moc"
