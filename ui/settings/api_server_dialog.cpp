#include "settings/api_server_dialog.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRandomGenerator>
#include <QSpinBox>
#include <QVBoxLayout>

namespace couplet {

ApiServerDialog::ApiServerDialog(QWidget* parent)
    : QDialog(parent), m_enabled(new QCheckBox), m_port(new QSpinBox), m_interfaces(new QComboBox),
      m_apiKey(new QLineEdit), m_generate(new QPushButton), m_url(new QLineEdit), m_copy(new QPushButton),
      m_status(new QLabel), m_help(new QLabel), m_portLabel(new QLabel), m_listenLabel(new QLabel),
      m_keyLabel(new QLabel), m_urlLabel(new QLabel), m_close(new QPushButton)
{
    buildUi();
    retranslateUi();
    updateFields();
}

void ApiServerDialog::buildUi()
{
    m_port->setRange(1, 65535);
    m_port->setValue(ApiServerSettings::kDefaultPort);
    m_interfaces->addItems({QString(), QString()});
    m_url->setReadOnly(true);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_help->setWordWrap(true);
    auto* keyRow = new QHBoxLayout;
    keyRow->addWidget(m_apiKey, 1);
    keyRow->addWidget(m_generate);
    auto* urlRow = new QHBoxLayout;
    urlRow->addWidget(m_url, 1);
    urlRow->addWidget(m_copy);
    auto* form = new QFormLayout;
    form->addRow(m_portLabel, m_port);
    form->addRow(m_listenLabel, m_interfaces);
    form->addRow(m_keyLabel, keyRow);
    form->addRow(m_urlLabel, urlRow);
    auto* buttons = new QDialogButtonBox;
    buttons->addButton(m_close, QDialogButtonBox::RejectRole);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_enabled);
    layout->addLayout(form);
    layout->addWidget(m_status);
    layout->addWidget(m_help);
    layout->addStretch(1);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_enabled, &QCheckBox::toggled, this, [this](bool on) {
        m_error.clear();
        ApiServerSettings s = settings();
        s.enabled = on;
        Q_EMIT settingsChanged(s);
    });
    connect(m_port, &QSpinBox::valueChanged, this, &ApiServerDialog::updateFields);
    connect(m_generate, &QPushButton::clicked, this, &ApiServerDialog::generateKey);
    connect(m_copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(m_url->text()); });
    setMinimumWidth(560);
}

void ApiServerDialog::retranslateUi()
{
    setWindowTitle(tr("Local API server"));
    m_enabled->setText(tr("Serve the OpenAI-compatible API from this app"));
    m_portLabel->setText(tr("Port:"));
    m_listenLabel->setText(tr("Listen on:"));
    m_interfaces->setItemText(0, tr("This computer only (127.0.0.1)"));
    m_interfaces->setItemText(1, tr("All network interfaces (other computers can connect)"));
    m_keyLabel->setText(tr("API key:"));
    m_apiKey->setPlaceholderText(tr("none: any client may call"));
    m_generate->setText(tr("Generate"));
    m_urlLabel->setText(tr("URL:"));
    m_copy->setText(tr("Copy"));
    m_close->setText(tr("Close"));
    m_help->setText(tr("Web pages and scripts call POST /v1/completions or /v1/chat/completions, as with OpenAI's "
                       "API; their requests appear in the queue with priority \"api\" and batch with the app's "
                       "own work. A key is sent as the header Authorization: Bearer KEY."));
    updateFields();
}

ApiServerSettings ApiServerDialog::settings() const
{
    ApiServerSettings s;
    s.enabled = m_enabled->isChecked();
    s.port = m_port->value();
    s.allInterfaces = m_interfaces->currentIndex() == 1;
    s.apiKey = m_apiKey->text().trimmed();
    return s;
}

void ApiServerDialog::setSettings(const ApiServerSettings& s)
{
    const QSignalBlocker block(m_enabled);
    m_enabled->setChecked(s.enabled);
    m_port->setValue(s.port);
    m_interfaces->setCurrentIndex(s.allInterfaces ? 1 : 0);
    m_apiKey->setText(s.apiKey);
    updateFields();
}

void ApiServerDialog::setServerState(bool running, const QString& error)
{
    m_running = running;
    m_error = error;
    const QSignalBlocker block(m_enabled);
    m_enabled->setChecked(running);
    updateFields();
}

void ApiServerDialog::updateFields()
{
    for (QWidget* w : {static_cast<QWidget*>(m_port), static_cast<QWidget*>(m_interfaces),
                       static_cast<QWidget*>(m_apiKey), static_cast<QWidget*>(m_generate)})
        w->setEnabled(!m_running);
    const ApiServerSettings s = settings();
    m_url->setText(s.url());
    if (!m_error.isEmpty()) {
        m_status->setStyleSheet(QStringLiteral("color: #a00000;"));
        m_status->setText(m_error);
    } else if (m_running) {
        m_status->setStyleSheet(QStringLiteral("color: #1e6b2a;"));
        QString text = tr("Running on %1:%2. Stop the server to change its port, address or key.")
                           .arg(s.host()).arg(s.port);
        if (s.allInterfaces && s.apiKey.isEmpty())
            text += QLatin1Char(' ') + tr("Other computers can call it without a key.");
        m_status->setText(text);
    } else {
        m_status->setStyleSheet(QString());
        m_status->setText(tr("Stopped."));
    }
}

void ApiServerDialog::generateKey()
{
    QString key = QStringLiteral("sk-couplet-");
    for (int i = 0; i < 4; ++i)
        key += QString::number(QRandomGenerator::system()->generate64(), 36);
    m_apiKey->setText(key);
}

void ApiServerDialog::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDialog::changeEvent(event);
}

} // namespace couplet
