#pragma once

#include "settings/api_server_settings.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace couplet {

// Settings > Local API server: turns the app's OpenAI-compatible server on
// and off, with its port, where it listens (this computer only by default)
// and an optional API key, and shows the URL to copy. The port, address and
// key can be changed while the server is off. The app starts and stops the
// server and tells the dialog how that went (setServerState()).
class ApiServerDialog : public QDialog {
    Q_OBJECT
public:
    explicit ApiServerDialog(QWidget* parent = nullptr);

    ApiServerSettings settings() const;
    void setSettings(const ApiServerSettings& settings);
    // After a start or stop: whether it runs, and why not when it failed.
    void setServerState(bool running, const QString& error = {});
    bool isRunning() const { return m_running; }

    QCheckBox* enableBox() const { return m_enabled; }
    QSpinBox* portBox() const { return m_port; }
    QLineEdit* urlField() const { return m_url; }
    QLabel* statusLabel() const { return m_status; }

Q_SIGNALS:
    // The user turned the server on (settings.enabled) or off.
    void settingsChanged(const couplet::ApiServerSettings& settings);

protected:
    void changeEvent(QEvent* event) override;

private:
    void buildUi();
    void retranslateUi();
    void updateFields();
    void generateKey();

    bool m_running = false;
    QString m_error;
    QCheckBox* m_enabled;
    QSpinBox* m_port;
    QComboBox* m_interfaces;
    QLineEdit* m_apiKey;
    QPushButton* m_generate;
    QLineEdit* m_url;
    QPushButton* m_copy;
    QLabel* m_status;
    QLabel* m_help;
    QLabel* m_portLabel;
    QLabel* m_listenLabel;
    QLabel* m_keyLabel;
    QLabel* m_urlLabel;
    QPushButton* m_close;
};

} // namespace couplet
