#include <gtest/gtest.h>
#include <unistd.h>

#include "sys/host.h"
#include "sys_test_util.h"

namespace iobench::sys {
namespace {

using iobench::testing::RunCmd;

TEST(SysHostTest, KernelReleaseMatchesUname) {
  int st = 0;
  const std::string expected = RunCmd("uname -r", &st);
  ASSERT_EQ(st, 0);
  auto k = KernelRelease();
  ASSERT_TRUE(k.ok()) << k.status().ToString();
  EXPECT_EQ(*k, expected);
}

TEST(SysHostTest, CpuCountMatchesOnlineCpus) {
  auto n = CpuCount();
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, static_cast<uint32_t>(sysconf(_SC_NPROCESSORS_ONLN)));
}

TEST(SysHostTest, CpuModelIsTheCpuinfoModelName) {
  int st = 0;
  const std::string line =
      RunCmd("grep -m1 '^model name' /proc/cpuinfo | sed 's/^[^:]*: *//'", &st);
  auto m = CpuModel();
  ASSERT_TRUE(m.ok());
  if (!line.empty()) {
    EXPECT_EQ(*m, line);
  }
  EXPECT_FALSE(m->empty());
}

TEST(SysHostTest, MemTotalMatchesMeminfo) {
  int st = 0;
  const std::string kb = RunCmd("awk '/^MemTotal:/ {print $2}' /proc/meminfo", &st);
  auto m = MemTotalBytes();
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(*m, std::stoull(kb) * 1024);
  auto avail = MemAvailableBytes();
  ASSERT_TRUE(avail.ok());
  EXPECT_GT(*avail, 0u);
  EXPECT_LE(*avail, *m);
}

}  // namespace
}  // namespace iobench::sys
