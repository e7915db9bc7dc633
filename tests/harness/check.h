#pragma once

// A small test harness for core/ tests, which must build where Qt is absent
// (the headless GPU server). Qt Test is used for engine/ and ui/ tests.
//
//   COUPLET_TEST(parsesQuotedField) { CHECK_EQ(parse("\"a\""), "a"); }
//
// Each test runs in turn; a failed CHECK ends that test and the run goes on.
// The program prints "N passed, N failed" and exits non-zero on any failure.

#include <exception>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace couplet::test {

struct Failure {
    std::string message;
};

struct Case {
    const char* name;
    std::function<void()> body;
};

std::vector<Case>& registry();

struct Registrar {
    Registrar(const char* name, std::function<void()> body) { registry().push_back({name, std::move(body)}); }
};

template <typename T>
std::string show(const T& v)
{
    std::ostringstream os;
    if constexpr (requires { os << v; })
        os << v;
    else
        os << "<value>";
    return os.str();
}

[[noreturn]] inline void fail(const char* file, int line, const std::string& what)
{
    throw Failure{std::string(file) + ":" + std::to_string(line) + ": " + what};
}

} // namespace couplet::test

#define COUPLET_TEST(name)                                                                \
    static void name();                                                                   \
    static ::couplet::test::Registrar registrar_##name(#name, name);                      \
    static void name()

// glog, which libtorch's headers bring in, defines CHECK, CHECK_EQ and
// CHECK_NEAR as aborting assertions; in a test they are the harness's.
#undef CHECK
#undef CHECK_EQ
#undef CHECK_NEAR

#define CHECK(cond)                                                                       \
    do {                                                                                  \
        if (!(cond)) ::couplet::test::fail(__FILE__, __LINE__, "CHECK(" #cond ") failed"); \
    } while (0)

#define CHECK_EQ(a, b)                                                                    \
    do {                                                                                  \
        const auto& va_ = (a);                                                            \
        const auto& vb_ = (b);                                                            \
        if (!(va_ == vb_))                                                                \
            ::couplet::test::fail(__FILE__, __LINE__,                                     \
                                  "CHECK_EQ(" #a ", " #b "): " + ::couplet::test::show(va_) \
                                      + " != " + ::couplet::test::show(vb_));             \
    } while (0)

#define CHECK_NEAR(a, b, tol)                                                             \
    do {                                                                                  \
        const double va_ = (a), vb_ = (b);                                                \
        if (!(va_ - vb_ <= (tol) && vb_ - va_ <= (tol)))                                  \
            ::couplet::test::fail(__FILE__, __LINE__,                                     \
                                  "CHECK_NEAR(" #a ", " #b "): " + std::to_string(va_)    \
                                      + " vs " + std::to_string(vb_));                    \
    } while (0)

// Checks that expr throws a std::exception whose what() contains `needle`.
#define CHECK_THROWS(expr, needle)                                                        \
    do {                                                                                  \
        bool threw_ = false;                                                              \
        try {                                                                             \
            (void)(expr);                                                                 \
        } catch (const std::exception& e_) {                                              \
            threw_ = true;                                                                \
            if (std::string(e_.what()).find(needle) == std::string::npos)                 \
                ::couplet::test::fail(__FILE__, __LINE__,                                 \
                                      std::string("exception \"") + e_.what()             \
                                          + "\" lacks \"" + (needle) + "\"");             \
        }                                                                                 \
        if (!threw_) ::couplet::test::fail(__FILE__, __LINE__, "no exception from " #expr); \
    } while (0)
