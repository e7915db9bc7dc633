#pragma once

#include <string>

namespace couplet {

// The BLAS that this process's sgemm_ resolves to: the library libtorch
// multiplies matrices with on the CPU. Debian's libtorch links libblas.so.3,
// an alternative that is OpenBLAS when libopenblas0-openmp (or -pthread) is
// installed and the netlib reference BLAS (libblas3) otherwise: about 18x
// slower for this model.
struct BlasInfo {
    enum class Kind { None, OpenBlas, Reference, Other };
    Kind kind = Kind::None;
    std::string path;      // the library's real path, symlinks resolved
    std::string details;   // OpenBLAS's build config ("OpenBLAS 0.3.21 ... USE_OPENMP Haswell")

    // "OpenBLAS 0.3.21 (openmp)", "reference BLAS, slow: install libopenblas0-openmp",
    // "libmkl_rt.so.2", "none".
    std::string name() const;
    // A one-line warning naming the package to install; "" unless Reference.
    std::string warning() const;
};

// Looks up sgemm_ among the loaded libraries (dlsym + dladdr).
BlasInfo detectBlas();
// What a library path is: OpenBLAS, the reference BLAS or another one.
BlasInfo::Kind classifyBlasPath(const std::string& realPath);
// Prints warning() to stderr, the first time only in this process.
void warnOnceAboutBlas();

} // namespace couplet
