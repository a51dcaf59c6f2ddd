// `redlab lab` from the shell: list, run (the verdict table, the exit status, --json and --html
// files), check (a report's histories checked again), and the usage errors.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

namespace redlab::lab {
namespace {

struct Result {
  int status = -1;
  std::string out;
};

// Runs `redlab ARGS` (stderr discarded); its stdout and exit status.
Result Redlab(const std::string& args) {
  Result r;
  FILE* p = popen((std::string(REDLAB_PATH) + " " + args + " 2>/dev/null").c_str(), "r");
  if (p == nullptr) return r;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  int status = pclose(p);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

class LabCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("redlab-lab-cli-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(LabCliTest, ListShowsTheCatalogueWithDocumentedVerdicts) {
  Result r = Redlab("lab list");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("failover-race "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("unsafe  the master acknowledges a lock"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("client-pause/fenced"), std::string::npos) << r.out;
}

TEST_F(LabCliTest, RunPrintsTheTableWritesTheReportsAndChecksAgain) {
  std::string json = (dir_ / "r.json").string(), html = (dir_ / "r.html").string();
  Result r =
      Redlab("lab run failover-race client-pause --seed 3 --json " + json + " --html " + html);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("failover-race        embedded  unsafe   unsafe"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("client-pause/fenced  embedded  safe     safe"), std::string::npos) << r.out;
  nlohmann::json doc = nlohmann::json::parse(std::ifstream(json));
  ASSERT_EQ(doc["runs"].size(), 3u);
  EXPECT_EQ(doc["runs"][0]["seed"], 3);
  EXPECT_EQ(doc["runs"][2]["variant"], "fenced");
  EXPECT_TRUE(std::filesystem::file_size(html) > 1000);
  Result check = Redlab("lab check " + json);
  EXPECT_EQ(check.status, 0) << check.out;
  EXPECT_NE(check.out.find("failover-race embedded unsafe"), std::string::npos) << check.out;
  EXPECT_NE(check.out.find("client-pause/fenced embedded safe (0 violations)"), std::string::npos)
      << check.out;
}

TEST_F(LabCliTest, CheckFailsWhenAReportClaimsAnotherVerdict) {
  std::string json = (dir_ / "r.json").string();
  ASSERT_EQ(Redlab("lab run clock-jump --json " + json).status, 0);
  nlohmann::json doc = nlohmann::json::parse(std::ifstream(json));
  doc["runs"][0]["verdict"] = "safe";  // the history says otherwise
  std::ofstream(json) << doc.dump();
  EXPECT_EQ(Redlab("lab check " + json).status, 1);
}

TEST_F(LabCliTest, UsageErrors) {
  EXPECT_EQ(Redlab("lab run no-such-scenario").status, 64);
  EXPECT_EQ(Redlab("lab run --target mars").status, 64);
  EXPECT_EQ(Redlab("lab soak --faults meteor --duration 1s").status, 64);
  EXPECT_EQ(Redlab("lab soak --duration soon").status, 64);
}

}  // namespace
}  // namespace redlab::lab
