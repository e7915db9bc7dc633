#pragma once

// What the studio tests share: loading a model into a shown window, an editor
// request that must finish, and screenshots for a person to look at.

#include "studio_app.h"

#include "mainwindow/main_window.h"
#include "prompt/prompt_panel.h"
#include "queue/queue_model.h"

#include <QPushButton>
#include <QTest>

namespace couplet::test {

// Shows the window and waits until the model in `dir` has loaded (on the CPU).
inline bool showLoaded(StudioApp& studio, const QString& dir, int timeoutMs)
{
    studio.setQuiet(true);
    studio.window()->show();
    DeviceOptions cpu;
    cpu.device = "cpu";
    studio.loadModel(dir, cpu);
    auto* generate = studio.window()->promptPanel()->findChild<QPushButton*>();
    return QTest::qWaitFor([generate] { return generate->isEnabled(); }, timeoutMs);
}

// An editor request (keywords 春, 5 characters) that must finish Done.
inline bool editorRequestFinishes(StudioApp& studio, int timeoutMs)
{
    GenerationSpec spec;
    spec.mode = PromptMode::Keywords;
    spec.keywords = "春";
    spec.length = 5;
    spec.candidates = 1;
    const quint64 id = studio.submit(spec);
    QueueModel* queue = studio.window()->queueModel();
    return QTest::qWaitFor([&] { return queue->entry(id)->isFinished(); }, timeoutMs)
           && queue->entry(id)->state == QueueState::Done;
}

// With COUPLET_TEST_SCREENSHOTS=DIR (run under xvfb-run), what a user would
// see is saved there as NAME.png, to look at.
inline void saveShot(QWidget* widget, const QString& name)
{
    const QString dir = qEnvironmentVariable("COUPLET_TEST_SCREENSHOTS");
    if (dir.isEmpty())
        return;
    QTest::qWait(200);   // laid out and painted
    widget->grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
}

} // namespace couplet::test
