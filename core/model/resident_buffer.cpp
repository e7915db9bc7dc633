#include "resident_buffer.h"

#include <fstream>
#include <new>
#include <string>
#include <utility>

#ifdef __linux__
#include <cerrno>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace couplet {
namespace {

#ifdef __linux__
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 // Linux 5.14; older kernels answer EINVAL
#endif
constexpr std::size_t kHugePage = std::size_t(2) << 20;

// MemAvailable from /proc/meminfo in bytes; 0 when it cannot be read.
std::size_t availableBytes()
{
    std::ifstream in("/proc/meminfo");
    std::string key;
    std::size_t kib = 0;
    std::string unit;
    while (in >> key >> kib >> unit)
        if (key == "MemAvailable:") return kib * 1024;
    return 0;
}
#endif

} // namespace

ResidentBuffer::ResidentBuffer(std::size_t floats)
    : m_floats(floats)
{
    if (floats == 0) return;
    const std::size_t bytes = floats * sizeof(float);
#ifdef __linux__
    // Whole huge pages, so that the last one can be huge too.
    m_bytes = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    // Populating more than the machine has would wake the OOM killer instead
    // of failing: refuse what is beyond nine tenths of the available memory.
    const std::size_t available = availableBytes();
    if (available > 0 && m_bytes > available / 10 * 9) throw std::bad_alloc();
    void* p = mmap(nullptr, m_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    madvise(p, m_bytes, MADV_HUGEPAGE); // a hint: without THP it is 4 KB pages, still populated below
    if (madvise(p, m_bytes, MADV_POPULATE_WRITE) != 0) {
        if (errno != EINVAL) { // ENOMEM and the like: the memory is not there
            munmap(p, m_bytes);
            throw std::bad_alloc();
        }
        const long page = sysconf(_SC_PAGESIZE);
        auto* bytesPtr = static_cast<volatile char*>(p);
        for (std::size_t i = 0; i < m_bytes; i += static_cast<std::size_t>(page)) bytesPtr[i] = 0;
    }
    m_data = static_cast<float*>(p);
#else
    m_bytes = bytes;
    m_data = new float[floats](); // zeroed, so touched
#endif
}

ResidentBuffer::~ResidentBuffer()
{
    release();
}

ResidentBuffer::ResidentBuffer(ResidentBuffer&& other) noexcept
    : m_data(std::exchange(other.m_data, nullptr)), m_floats(std::exchange(other.m_floats, 0)),
      m_bytes(std::exchange(other.m_bytes, 0))
{
}

ResidentBuffer& ResidentBuffer::operator=(ResidentBuffer&& other) noexcept
{
    if (this != &other) {
        release();
        m_data = std::exchange(other.m_data, nullptr);
        m_floats = std::exchange(other.m_floats, 0);
        m_bytes = std::exchange(other.m_bytes, 0);
    }
    return *this;
}

void ResidentBuffer::release() noexcept
{
    if (!m_data) return;
#ifdef __linux__
    munmap(m_data, m_bytes);
#else
    delete[] m_data;
#endif
    m_data = nullptr;
}

} // namespace couplet
