#pragma once

#include <cstddef>

namespace couplet {

// A large float buffer whose memory is really there when the constructor
// returns: on Linux an anonymous mapping, asked for transparent huge pages
// and populated at once (MADV_POPULATE_WRITE, else by touching each page).
// A KV cache left to fault in 4 KB at a time pays about 50,000 page faults
// for 256 rows, inside the first decode steps; here they are paid, far fewer
// with huge pages, when the rows are reserved. Throws std::bad_alloc when the
// memory is not there (more than nine tenths of what the machine has
// available, or populating fails), so that the caller can try fewer rows
// instead of being killed later. Contents start zeroed.
class ResidentBuffer {
public:
    ResidentBuffer() = default;
    explicit ResidentBuffer(std::size_t floats);
    ~ResidentBuffer();
    ResidentBuffer(ResidentBuffer&& other) noexcept;
    ResidentBuffer& operator=(ResidentBuffer&& other) noexcept;
    ResidentBuffer(const ResidentBuffer&) = delete;
    ResidentBuffer& operator=(const ResidentBuffer&) = delete;

    float* get() const { return m_data; }
    std::size_t size() const { return m_floats; }

private:
    void release() noexcept;

    float* m_data = nullptr;
    std::size_t m_floats = 0;
    std::size_t m_bytes = 0; // mapped length
};

} // namespace couplet
