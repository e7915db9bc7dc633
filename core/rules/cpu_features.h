#pragma once

// The one place that asks the CPU which vector instructions it has. The
// AVX-512 kernels (the sampler, the native decoder's vector loops and
// products) are compiled for that target only and chosen at run time from
// these flags, so that the build itself targets any x86-64.

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define COUPLET_X86_KERNELS 1
#endif

namespace couplet {

struct CpuFeatures {
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
        f.avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
        f.avx512bwvl = f.avx512 && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
        f.avx512bf16 = f.avx512bwvl && __builtin_cpu_supports("avx512bf16");
        f.avx512vnni = f.avx512bwvl && __builtin_cpu_supports("avx512vnni");
#endif
        return f;
    }
};

// The CPU runs the AVX-512F/DQ forms.
inline bool cpuHasAvx512() { return CpuFeatures::host().avx512; }

} // namespace couplet
