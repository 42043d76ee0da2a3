// The ia32 -> x86_64 twin table the probe maps compat syscalls through.
// Expected ids are the i386 ABI's (arch/x86/entry/syscalls/syscall_32.tbl).
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <optional>

#include "shared/syscall_ids.h"
#include "shared/syscall_table_ia32.h"

namespace {

std::map<uint32_t, uint32_t> Twins() {
  std::map<uint32_t, uint32_t> twins;
#define KESTREL_TEST_TWIN(ia32_id, name) twins.emplace(ia32_id, KESTREL_NR_##name);
  KESTREL_SYSCALLS_IA32(KESTREL_TEST_TWIN)
#undef KESTREL_TEST_TWIN
  return twins;
}

std::optional<uint32_t> TwinOf(uint32_t ia32_id) {
  static const std::map<uint32_t, uint32_t> twins = Twins();
  const auto it = twins.find(ia32_id);
  if (it == twins.end()) return std::nullopt;
  return it->second;
}

TEST(SyscallTableIa32Test, SameNamedCallsMapToTheirTwin) {
  EXPECT_EQ(TwinOf(3), KESTREL_NR_read);
  EXPECT_EQ(TwinOf(5), KESTREL_NR_open);
  EXPECT_EQ(TwinOf(6), KESTREL_NR_close);
  EXPECT_EQ(TwinOf(11), KESTREL_NR_execve);
  EXPECT_EQ(TwinOf(64), KESTREL_NR_getppid);
  EXPECT_EQ(TwinOf(120), KESTREL_NR_clone);
  EXPECT_EQ(TwinOf(295), KESTREL_NR_openat);
  EXPECT_EQ(TwinOf(362), KESTREL_NR_connect);
}

TEST(SyscallTableIa32Test, ThirtyTwoBitVariantsMapToTheCallTheyStandFor) {
  EXPECT_EQ(TwinOf(140), KESTREL_NR_lseek);          // _llseek
  EXPECT_EQ(TwinOf(192), KESTREL_NR_mmap);           // mmap2
  EXPECT_EQ(TwinOf(195), KESTREL_NR_stat);           // stat64
  EXPECT_EQ(TwinOf(197), KESTREL_NR_fstat);          // fstat64
  EXPECT_EQ(TwinOf(212), KESTREL_NR_chown);          // chown32
  EXPECT_EQ(TwinOf(199), KESTREL_NR_getuid);         // getuid32
  EXPECT_EQ(TwinOf(24), KESTREL_NR_getuid);          // and the 16-bit getuid
  EXPECT_EQ(TwinOf(300), KESTREL_NR_newfstatat);     // fstatat64
  EXPECT_EQ(TwinOf(403), KESTREL_NR_clock_gettime);  // clock_gettime64
  EXPECT_EQ(TwinOf(422), KESTREL_NR_futex);          // futex_time64
}

TEST(SyscallTableIa32Test, CallsWithoutATwinAreNotMapped) {
  EXPECT_EQ(TwinOf(90), std::nullopt);   // old mmap: arguments in a struct
  EXPECT_EQ(TwinOf(82), std::nullopt);   // old select: arguments in a struct
  EXPECT_EQ(TwinOf(102), std::nullopt);  // socketcall multiplexer
  EXPECT_EQ(TwinOf(117), std::nullopt);  // ipc multiplexer
  EXPECT_EQ(TwinOf(67), std::nullopt);   // sigaction
  EXPECT_EQ(TwinOf(113), std::nullopt);  // vm86old
}

TEST(SyscallTableIa32Test, UnifiedNumbersAreSharedPastTheHeaders) {
  EXPECT_EQ(TwinOf(435), KESTREL_NR_clone3);
  EXPECT_EQ(TwinOf(451), KESTREL_NR_cachestat);
  EXPECT_EQ(TwinOf(462), KESTREL_NR_mseal);
  EXPECT_EQ(TwinOf(469), KESTREL_NR_file_setattr);
}

TEST(SyscallTableIa32Test, FitsTheProbesTables) {
  const std::map<uint32_t, uint32_t> twins = Twins();
  ASSERT_GT(twins.size(), 380u);
  EXPECT_EQ(twins.rbegin()->first + 1, static_cast<uint32_t>(KESTREL_IA32_SYSCALL_TABLE_SIZE));
  for (const auto& [ia32_id, x86_64_id] : twins) {
    EXPECT_LT(x86_64_id, static_cast<uint32_t>(KESTREL_SYSCALL_TABLE_SIZE)) << ia32_id;
  }
}

}  // namespace
