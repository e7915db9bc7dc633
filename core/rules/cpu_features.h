#pragma once

// The one place that asks the CPU which vector instructions it has. The
// AVX-512 and AVX2 kernels (the sampler, the native decoder's vector loops
// and products) are compiled for their target only and chosen at run time
// from these flags, so that the build itself targets any x86-64.

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define COUPLET_X86_KERNELS 1
#endif

#include <cstdlib>
#include <string>

namespace couplet {

struct CpuFeatures {
    bool avx2 = false;       // AVX2 and FMA: the 8-lane float loops and products (Zen 2, Haswell and later)
    bool avx512 = false;     // F and DQ: the 16-lane float loops (exp, GELU, softmax, sampling)
    bool avx512bwvl = false; // F, DQ, BW and VL: the fp32 product kernels
    bool avx512bf16 = false; // all of the above and BF16 (vdpbf16ps): the bf16 product kernels
    bool avx512vnni = false; // F, DQ, BW, VL and VNNI (vpdpbusd): the int8 product kernels

    // This CPU's flags, probed once.
    static const CpuFeatures& host()
    {
        static const CpuFeatures features = probe();
        return features;
    }

private:
    static CpuFeatures probe()
    {
        CpuFeatures f;
#ifdef COUPLET_X86_KERNELS
        __builtin_cpu_init();
        f.avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
        f.avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
        f.avx512bwvl = f.avx512 && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
        f.avx512bf16 = f.avx512bwvl && __builtin_cpu_supports("avx512bf16");
        f.avx512vnni = f.avx512bwvl && __builtin_cpu_supports("avx512vnni");
#endif
        // COUPLET_CPU_ISA=avx2 or =portable caps what is used below what the
        // CPU has: the tests and benchmarks run the AVX2 or portable forms on
        // an AVX-512 machine with it.
        if (const char* cap = std::getenv("COUPLET_CPU_ISA"); cap != nullptr) {
            const std::string level = cap;
            if (level == "avx2" || level == "portable") f.avx512 = f.avx512bwvl = f.avx512bf16 = f.avx512vnni = false;
            if (level == "portable") f.avx2 = false;
        }
        return f;
    }
};

// The CPU runs the AVX-512F/DQ forms.
inline bool cpuHasAvx512() { return CpuFeatures::host().avx512; }

// The CPU runs the AVX2/FMA forms (every AVX-512 CPU does too).
inline bool cpuHasAvx2() { return CpuFeatures::host().avx2; }

} // namespace couplet
