#include "child_process.h"

#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace couplet::test {

ChildProcess::ChildProcess(const std::vector<std::string>& args, std::filesystem::path log)
    : m_log(std::move(log))
{
    m_pid = ::fork();
    if (m_pid != 0) return;
    const int fd = ::open(m_log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    std::_Exit(127);
}

ChildProcess::~ChildProcess()
{
    if (!m_reaped && m_pid > 0) {
        ::kill(m_pid, SIGKILL);
        ::waitpid(m_pid, nullptr, 0);
    }
}

void ChildProcess::signal(int sig)
{
    if (!m_reaped) ::kill(m_pid, sig);
}

bool ChildProcess::running()
{
    if (m_reaped) return false;
    if (::waitpid(m_pid, &m_status, WNOHANG) == m_pid) m_reaped = true;
    return !m_reaped;
}

int ChildProcess::wait()
{
    if (!m_reaped) {
        ::waitpid(m_pid, &m_status, 0);
        m_reaped = true;
    }
    return WIFEXITED(m_status) ? WEXITSTATUS(m_status) : -WTERMSIG(m_status);
}

std::string ChildProcess::logText() const
{
    std::ifstream in(m_log, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

int countOf(const std::string& text, const std::string& needle)
{
    int n = 0;
    for (auto p = text.find(needle); p != std::string::npos; p = text.find(needle, p + needle.size())) ++n;
    return n;
}

void ChildProcess::freeze()
{
    signal(SIGSTOP);
    // waitpid(WUNTRACED) would consume the stop report that running() does not
    // expect; /proc shows the state without touching it.
    const auto statFile = "/proc/" + std::to_string(m_pid) + "/stat";
    while (true) {
        std::ifstream in(statFile);
        std::string stat;
        std::getline(in, stat);
        const auto close = stat.rfind(')');
        if (!in || close == std::string::npos || close + 2 >= stat.size()) return;   // gone
        const char state = stat[close + 2];
        if (state == 'T' || state == 't' || state == 'Z' || state == 'X') return;
        std::this_thread::yield();
    }
}

} // namespace couplet::test
