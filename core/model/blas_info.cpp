#include "blas_info.h"

#include <dlfcn.h>

#include <filesystem>
#include <iostream>
#include <mutex>

namespace couplet {
namespace {

std::string realPath(const char* path)
{
    std::error_code error;
    const auto resolved = std::filesystem::canonical(path, error);
    return error ? std::string(path) : resolved.string();
}

// OpenBLAS's own description; only when sgemm_ is OpenBLAS's (a process can
// load libopenblas.so.0 and still call the reference sgemm_).
std::string openBlasConfig()
{
    using ConfigFn = char* (*)();
    const auto config = reinterpret_cast<ConfigFn>(::dlsym(RTLD_DEFAULT, "openblas_get_config"));
    return config != nullptr ? std::string(config()) : std::string();
}

std::string threading(const std::string& path)
{
    for (const char* variant : {"openmp", "pthread", "serial"}) {
        if (path.find(std::string("openblas-") + variant) != std::string::npos)
            return variant;
    }
    return {};
}

} // namespace

BlasInfo::Kind classifyBlasPath(const std::string& path)
{
    const std::string file = std::filesystem::path(path).filename().string();
    if (path.find("openblas") != std::string::npos) return BlasInfo::Kind::OpenBlas;
    // Debian's libblas3 installs /usr/lib/<triplet>/blas/libblas.so.3.
    if (path.find("/blas/libblas.so") != std::string::npos || file.rfind("librefblas", 0) == 0)
        return BlasInfo::Kind::Reference;
    return BlasInfo::Kind::Other;
}

BlasInfo detectBlas()
{
    BlasInfo info;
    void* sgemm = ::dlsym(RTLD_DEFAULT, "sgemm_");
    Dl_info where{};
    if (sgemm == nullptr || ::dladdr(sgemm, &where) == 0 || where.dli_fname == nullptr)
        return info;
    info.path = realPath(where.dli_fname);
    info.kind = classifyBlasPath(info.path);
    if (info.kind == BlasInfo::Kind::OpenBlas)
        info.details = openBlasConfig();
    return info;
}

std::string BlasInfo::name() const
{
    switch (kind) {
    case Kind::None: return "none";
    case Kind::Reference: return "reference BLAS, slow: install libopenblas0-openmp";
    case Kind::Other: return std::filesystem::path(path).filename().string();
    case Kind::OpenBlas: break;
    }
    // "OpenBLAS 0.3.21 NO_LAPACKE ..." -> "OpenBLAS 0.3.21"
    const std::size_t version = details.find(' ', details.find(' ') + 1);
    std::string out = details.empty() ? "OpenBLAS" : details.substr(0, version);
    const std::string variant = threading(path);
    return variant.empty() ? out : out + " (" + variant + ")";
}

std::string BlasInfo::warning() const
{
    if (kind != Kind::Reference) return {};
    return "warning: libtorch runs on the reference BLAS (" + path
        + "), about 18x slower than OpenBLAS: install libopenblas0-openmp (apt-get install libopenblas0-openmp)";
}

void warnOnceAboutBlas()
{
    static std::once_flag once;
    std::call_once(once, [] {
        const std::string message = detectBlas().warning();
        if (!message.empty()) std::cerr << message << '\n';
    });
}

} // namespace couplet
