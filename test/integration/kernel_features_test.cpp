// The kernel-feature check that explains a failed probe load, against this
// machine's real kernel BTF.
#include "kernel_features.h"

#include <gtest/gtest.h>

namespace kestrel::pman {
namespace {

TEST(KernelFeaturesTest, FindsTheKfuncsTheProbeCalls) {
  absl::StatusOr<bool> has = KernelBtfHasFunction("bpf_rdonly_cast");
  ASSERT_TRUE(has.ok()) << has.status();
  EXPECT_TRUE(*has);
  EXPECT_TRUE(CheckProbeKernelFeatures().ok());
}

TEST(KernelFeaturesTest, AnUnknownFunctionIsMissing) {
  absl::StatusOr<bool> has = KernelBtfHasFunction("kestrel_no_such_kfunc");
  ASSERT_TRUE(has.ok()) << has.status();
  EXPECT_FALSE(*has);
}

}  // namespace
}  // namespace kestrel::pman
