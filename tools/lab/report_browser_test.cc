// The HTML report in a real headless browser (Debian's chromium): the page of a real run loads
// without console errors and its DOM, as the browser parsed it, has a lane per client and node,
// the hold bars and the violation.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "tools/lab/report.h"
#include "tools/lab/runner.h"

namespace redlab::lab {
namespace {

constexpr char kChromium[] = "/usr/bin/chromium";

// Runs `command`, returning its stdout; stderr goes to `err_file`.
std::string Capture(const std::string& command) {
  std::string out;
  FILE* p = popen(command.c_str(), "r");
  if (p == nullptr) return out;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  pclose(p);
  return out;
}

size_t Count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t p = text.find(needle); p != std::string::npos; p = text.find(needle, p + 1)) ++n;
  return n;
}

TEST(ReportBrowserTest, ThePageLoadsAndShowsTheLanes) {
  if (!std::filesystem::exists(kChromium)) {
    GTEST_SKIP() << "chromium is not installed (tools/install-deps.sh installs it)";
  }
  RunResult r = RunScenario(*SelectScenarios({"failover-race"}).at(0), Target::kEmbedded, 1);
  ASSERT_EQ(r.error, "");
  ASSERT_EQ(r.check.violations.size(), 1u);
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("redlab-lab-html-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::filesystem::path page = dir / "report.html";
  std::ofstream(page) << RenderHtml({r});
  std::filesystem::path err = dir / "chromium.err";
  // --enable-logging=stderr reports the page's console messages (and errors) as CONSOLE lines.
  std::string dom = Capture(std::string(kChromium) +
                            " --headless --no-sandbox --disable-gpu --enable-logging=stderr "
                            "--v=0 --user-data-dir=" +
                            (dir / "profile").string() + " --dump-dom file://" + page.string() +
                            " 2>" + err.string());
  std::ifstream err_in(err);
  std::string errors((std::istreambuf_iterator<char>(err_in)), std::istreambuf_iterator<char>());
  std::filesystem::remove_all(dir);
  ASSERT_NE(dom.find("<h1>redlab lab</h1>"), std::string::npos) << errors;
  EXPECT_EQ(Count(errors, "CONSOLE"), 0u) << errors;
  EXPECT_EQ(Count(errors, "Uncaught"), 0u) << errors;
  for (const char* lane :
       {"data-lane=\"A\"", "data-lane=\"B\"", "data-lane=\"m0\"", "data-lane=\"r0\""}) {
    EXPECT_EQ(Count(dom, lane), 1u) << lane;
  }
  EXPECT_EQ(Count(dom, "<rect class=\"hold\""), r.check.holds.size());
  EXPECT_EQ(Count(dom, "<rect class=\"violation\""), 1u);
  EXPECT_EQ(Count(dom, "class=\"fault-mark\""), 2u);        // the crash and the promotion
  EXPECT_EQ(Count(dom, "<rect class=\"fault-band\""), 1u);  // the held link
}

}  // namespace
}  // namespace redlab::lab
