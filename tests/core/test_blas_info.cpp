// Which BLAS libtorch multiplies with: Debian's libblas.so.3 is OpenBLAS or
// the reference BLAS, about 18x slower for this model, depending on what is
// installed. The reference case end to end is the ctest couplet_version_reference_blas.

#include "tiny_model.h"

#include "blas_info.h"
#include "couplet_model.h"

#include <check.h>

#include <filesystem>

using namespace couplet;

COUPLET_TEST(classifiesDebianBlasAlternatives)
{
    using Kind = BlasInfo::Kind;
    CHECK(classifyBlasPath("/usr/lib/x86_64-linux-gnu/openblas-openmp/libblas.so.3") == Kind::OpenBlas);
    CHECK(classifyBlasPath("/usr/lib/aarch64-linux-gnu/openblas-pthread/libopenblas.so.0") == Kind::OpenBlas);
    CHECK(classifyBlasPath("/usr/lib/x86_64-linux-gnu/blas/libblas.so.3.11.0") == Kind::Reference);
    CHECK(classifyBlasPath("/usr/lib/x86_64-linux-gnu/blis-openmp/libblas.so.3") == Kind::Other);
    CHECK(classifyBlasPath("/opt/intel/mkl/lib/libmkl_rt.so.2") == Kind::Other);
}

COUPLET_TEST(namesAndWarnings)
{
    BlasInfo reference{BlasInfo::Kind::Reference, "/usr/lib/x86_64-linux-gnu/blas/libblas.so.3", ""};
    CHECK(reference.warning().find("install libopenblas0-openmp") != std::string::npos);
    CHECK(reference.warning().find(reference.path) != std::string::npos);
    CHECK(reference.name().find("libopenblas0-openmp") != std::string::npos);
    BlasInfo openBlas{BlasInfo::Kind::OpenBlas, "/usr/lib/x86_64-linux-gnu/openblas-openmp/libblas.so.3",
                      "OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH NO_AFFINITY USE_OPENMP Haswell MAX_THREADS=64"};
    CHECK_EQ(openBlas.name(), std::string("OpenBLAS 0.3.21 (openmp)"));
    CHECK(openBlas.warning().empty());
}

COUPLET_TEST(findsTheBlasLoadedWithLibtorchAndTheDeviceNamesIt)
{
    const auto dir = testing::writeTinyModel(testing::freshTempDir("blas") / "model");
    DeviceOptions options;
    options.device = "cpu";
    options.precision = "libtorch";   // the native kernels call no BLAS
    const auto model = CoupletModel::load(dir, options);
    const BlasInfo blas = detectBlas();
    // Debian's libtorch links libblas.so.3: its sgemm_ is found and is a file.
    CHECK(blas.kind != BlasInfo::Kind::None);
    CHECK(std::filesystem::is_regular_file(blas.path));
    CHECK(model->deviceName().find(blas.name()) != std::string::npos);
}
