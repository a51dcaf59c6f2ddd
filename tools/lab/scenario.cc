// The catalogue and the context scenarios run in.
#include "tools/lab/scenario.h"

namespace redlab::lab {

RunContext::~RunContext() = default;

Cluster& RunContext::StartCluster(const ClusterSpec& spec) {
  cluster_ = Cluster::Start(target_, spec);
  nemesis_ = std::make_unique<Nemesis>(*cluster_, history_, seed_);
  history_.Mark("start", "lab", std::string(TargetName(target_)) + " nodes up");
  return *cluster_;
}

std::unique_ptr<Actor> RunContext::ReentrantActor(const std::string& name, const Config& config,
                                                  const ReentrantOptions& options) {
  return std::make_unique<Actor>(name, MakeReentrantDriver(config, options), history_);
}

std::unique_ptr<Actor> RunContext::RedLockActor(const std::string& name,
                                                const std::vector<size_t>& nodes) {
  std::vector<std::string> urls;
  for (size_t n : nodes) urls.push_back(cluster_->Url(n));
  if (!options_.driver.empty()) {
    return std::make_unique<Actor>(name, MakeExternalDriver(options_.driver, urls), history_);
  }
  Config config = LabConfig(Config::IndependentMasters(urls));
  config.red_lock_node_timeout = Millis(300);  // room for a loaded machine running the tests
  return std::make_unique<Actor>(name, MakeRedLockDriver(config), history_);
}

std::unique_ptr<Actor> RunContext::DriverActor(const std::string& name,
                                               const std::vector<size_t>& nodes) {
  if (options_.driver.empty()) return nullptr;
  std::vector<std::string> urls;
  for (size_t n : nodes) urls.push_back(cluster_->Url(n));
  return std::make_unique<Actor>(name, MakeExternalDriver(options_.driver, urls), history_);
}

std::unique_ptr<Actor> RunContext::FencedActor(const std::string& name, const Config& config) {
  return std::make_unique<Actor>(name, MakeFencedDriver(config), history_);
}

const std::vector<Scenario>& Catalogue() {
  static const std::vector<Scenario> catalogue = [] {
    std::vector<Scenario> out;
    AddFailoverScenarios(out);
    AddClientScenarios(out);
    AddRedLockScenarios(out);
    return out;
  }();
  return catalogue;
}

}  // namespace redlab::lab
