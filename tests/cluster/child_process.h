#pragma once

#include <filesystem>
#include <string>
#include <sys/types.h>
#include <vector>

namespace couplet::test {

// A program run by a test, its stdout and stderr appended to a log file;
// killed (SIGKILL) and reaped when the object goes if it still runs.
class ChildProcess {
public:
    ChildProcess(const std::vector<std::string>& args, std::filesystem::path log);
    ~ChildProcess();
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    void signal(int sig);
    bool running();
    // Stops the process (SIGSTOP) and returns once the kernel shows it stopped.
    void freeze();
    // Waits for the end; the exit status, or -signal when killed.
    int wait();
    std::string logText() const;
    const std::filesystem::path& log() const { return m_log; }

private:
    pid_t m_pid = -1;
    int m_status = 0;
    bool m_reaped = false;
    std::filesystem::path m_log;
};

// Occurrences of `needle` in `text`.
int countOf(const std::string& text, const std::string& needle);

} // namespace couplet::test
