#include "client/countdown_latch.h"

#include "client/acquisition.h"
#include "client/countdown_latch_core.h"

namespace redlab {

using client::Acquisition;
using client::EvalAsync;
using client::kPublishCommand;

namespace {

// RedissonCountDownLatch's messages (CountDownLatchPubSub).
constexpr char kZeroCountMessage[] = "0";
constexpr char kNewCountMessage[] = "1";

}  // namespace

bool CountDownLatch::TrySetCount(int64_t count) {
  if (count < 0) throw Error("count must not be negative");
  const auto& scripts = core_->client->scripts;
  return core_->client->Await(
      EvalAsync<bool>(core_, scripts.latch_try_set_count, {core_->name, core_->channel},
                      {kNewCountMessage, std::to_string(count), kPublishCommand},
                      /*idempotent=*/true, [](const Reply& r) { return r.integer == 1; }));
}

void CountDownLatch::CountDown() { core_->client->Await(CountDownAsync()); }

std::future<void> CountDownLatch::CountDownAsync() {
  const auto& scripts = core_->client->scripts;
  // Not repeated after a timeout (Redisson's evalWriteNoRetryAsync): it would count twice.
  return EvalAsync<void>(core_, scripts.latch_count_down, {core_->name, core_->channel},
                         {kZeroCountMessage, kPublishCommand}, /*idempotent=*/false,
                         [](const Reply&) {});
}

int64_t CountDownLatch::GetCount() {
  auto count = [](const Reply& r) { return r.is_nil() ? 0 : std::stoll(r.str); };
  return core_->client->Await(client::CallAsync<int64_t>(core_, {"GET", core_->name}, count));
}

void CountDownLatch::Await() { core_->client->Await(AwaitAsync()); }
bool CountDownLatch::Await(Millis wait) { return core_->client->Await(AwaitAsync(wait)); }

std::future<void> CountDownLatch::AwaitAsync() {
  return client::StartAcquisition<void>(core_, ThreadId::Current(), Acquisition::Params{},
                                        [](bool, int64_t) { return 0; });
}

std::future<bool> CountDownLatch::AwaitAsync(Millis wait) {
  Acquisition::Params params;
  params.wait = wait;
  return client::StartAcquisition<bool>(core_, ThreadId::Current(), std::move(params),
                                        [](bool open, int64_t) { return open; });
}

bool CountDownLatch::Delete() {
  const auto& scripts = core_->client->scripts;
  return core_->client->Await(
      EvalAsync<bool>(core_, scripts.latch_delete, {core_->name, core_->channel},
                      {kNewCountMessage, kPublishCommand}, /*idempotent=*/true,
                      [](const Reply& r) { return r.integer == 1; }));
}

const std::string& CountDownLatch::name() const { return core_->name; }
const std::string& CountDownLatch::channel() const { return core_->channel; }

}  // namespace redlab
