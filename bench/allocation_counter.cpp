#include "allocation_counter.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <new>

namespace couplet::bench {
namespace {

std::atomic<std::uint64_t> g_allocations{0};

void* allocate(std::size_t size)
{
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    if (size == 0) size = 1;
    while (true) {
        if (void* p = std::malloc(size)) return p;
        std::new_handler handler = std::get_new_handler();
        if (!handler) throw std::bad_alloc();
        handler();
    }
}

void* allocateAligned(std::size_t size, std::align_val_t alignment)
{
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    const auto a = static_cast<std::size_t>(alignment);
    const std::size_t rounded = (std::max<std::size_t>(size, 1) + a - 1) / a * a; // aligned_alloc wants a multiple
    while (true) {
        if (void* p = std::aligned_alloc(a, rounded)) return p;
        std::new_handler handler = std::get_new_handler();
        if (!handler) throw std::bad_alloc();
        handler();
    }
}

} // namespace

std::uint64_t allocationsSoFar()
{
    return g_allocations.load(std::memory_order_relaxed);
}

} // namespace couplet::bench

// The replaceable global allocation functions ([new.delete]); the nothrow
// and array forms route through these, and every delete frees with free().
void* operator new(std::size_t size) { return couplet::bench::allocate(size); }
void* operator new[](std::size_t size) { return couplet::bench::allocate(size); }
void* operator new(std::size_t size, std::align_val_t a) { return couplet::bench::allocateAligned(size, a); }
void* operator new[](std::size_t size, std::align_val_t a) { return couplet::bench::allocateAligned(size, a); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept
{
    try {
        return couplet::bench::allocate(size);
    } catch (...) {
        return nullptr;
    }
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept
{
    try {
        return couplet::bench::allocate(size);
    } catch (...) {
        return nullptr;
    }
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
