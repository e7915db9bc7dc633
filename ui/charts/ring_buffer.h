#pragma once

#include <cstddef>
#include <vector>

namespace couplet {

// Fixed-capacity FIFO: pushing into a full buffer drops the oldest value.
template <typename T>
class RingBuffer {
public:
    explicit RingBuffer(std::size_t capacity) : m_data(capacity) {}

    void push(const T& value)
    {
        m_data[(m_first + m_size) % m_data.size()] = value;
        if (m_size < m_data.size())
            ++m_size;
        else
            m_first = (m_first + 1) % m_data.size();
    }
    std::size_t size() const { return m_size; }
    std::size_t capacity() const { return m_data.size(); }
    bool empty() const { return m_size == 0; }
    // i = 0 is the oldest value.
    const T& at(std::size_t i) const { return m_data[(m_first + i) % m_data.size()]; }
    const T& back() const { return at(m_size - 1); }
    void clear() { m_first = m_size = 0; }

private:
    std::vector<T> m_data;
    std::size_t m_first = 0;
    std::size_t m_size = 0;
};

} // namespace couplet
