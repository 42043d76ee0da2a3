#include "agent/rules/rules_worker.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <utility>

namespace kestrel::agent {

RulesLoadWorker::RulesLoadWorker(RunRulesOptions options,
                                 const engine::filter::FieldResolver& fields)
    : options_(std::move(options)), fields_(fields) {
  options_.cancelled = &cancelled_;
  thread_ = std::thread([this] { Loop(); });
}

RulesLoadWorker::~RulesLoadWorker() {
  cancelled_ = true;
  {
    const std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void RulesLoadWorker::Request() {
  {
    const std::lock_guard<std::mutex> lock(mu_);
    requested_ = true;
  }
  wake_.notify_one();
}

void RulesLoadWorker::Request(RunRulesOptions options) {
  options.cancelled = &cancelled_;
  {
    const std::lock_guard<std::mutex> lock(mu_);
    options_ = std::move(options);
    requested_ = true;
  }
  wake_.notify_one();
}

std::optional<RulesLoadWorker::Result> RulesLoadWorker::Take() {
  const std::lock_guard<std::mutex> lock(mu_);
  std::optional<Result> result = std::move(done_);
  done_.reset();
  return result;
}

void RulesLoadWorker::Retire(std::shared_ptr<const RunRules> rules) {
  if (!rules) return;
  {
    const std::lock_guard<std::mutex> lock(mu_);
    retired_.push_back(std::move(rules));
  }
  wake_.notify_one();
}

bool RulesLoadWorker::Busy() {
  const std::lock_guard<std::mutex> lock(mu_);
  return requested_ || loading_;
}

void RulesLoadWorker::Loop() {
  // Below the reader: on a machine the capture keeps busy, a large compile
  // takes longer rather than taking the reader's CPU (Linux nices a thread
  // by its id). Failing to is harmless.
  (void)setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), kNice);
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    wake_.wait(lock, [this] { return requested_ || stopping_ || !retired_.empty(); });
    if (!retired_.empty()) {
      std::vector<std::shared_ptr<const RunRules>> retired = std::move(retired_);
      retired_.clear();
      lock.unlock();
      retired.clear();  // here, off the reader
      lock.lock();
      continue;
    }
    if (stopping_) return;
    requested_ = false;
    loading_ = true;
    const RunRulesOptions options = options_;
    lock.unlock();
    Result result;
    absl::StatusOr<std::unique_ptr<RunRules>> rules = LoadRunRules(options, fields_, result.diags);
    if (rules.ok()) {
      result.rules = std::shared_ptr<const RunRules>(*std::move(rules));
    } else {
      result.rules = rules.status();
    }
    lock.lock();
    loading_ = false;
    // A newer result replaces one not taken yet: only the files' latest
    // state matters.
    done_ = std::move(result);
  }
}

}  // namespace kestrel::agent
