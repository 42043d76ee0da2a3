// Loading `kestrel run`'s rules again on a thread of its own. The thread
// that reads the rings only asks for a load and, between two batches of
// records, takes the compiled result: a reload of any size, or of a hostile
// file, never stalls capture, and the new rules replace the old in one step.
#ifndef KESTREL_AGENT_RULES_RULES_WORKER_H_
#define KESTREL_AGENT_RULES_RULES_WORKER_H_

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "agent/rules/run_rules.h"
#include "engine/filter/field_binding.h"
#include "engine/rules/diagnostic.h"

namespace kestrel::agent {

class RulesLoadWorker {
 public:
  struct Result {
    absl::StatusOr<std::shared_ptr<const RunRules>> rules;
    std::vector<engine::rules::Diagnostic> diags;
  };

  // `fields` must be safe to resolve against from another thread (the
  // FieldRegistry is) and outlive the worker.
  RulesLoadWorker(RunRulesOptions options, const engine::filter::FieldResolver& fields);
  ~RulesLoadWorker();  // cancels a load under way and waits for it to stop
  RulesLoadWorker(const RulesLoadWorker&) = delete;
  RulesLoadWorker& operator=(const RulesLoadWorker&) = delete;

  // Asks for a load of the rules files as they are now. Asked while a load
  // runs, one more load follows it: the files may have changed after it
  // read them. Never blocks on a load.
  void Request();
  // The same with other options (an embedder's rules, rules enabled by
  // name), kept for the loads after it.
  void Request(RunRulesOptions options);

  // The result of the latest finished load, once. Never blocks on a load.
  std::optional<Result> Take();

  // Whether a load is asked for or under way.
  bool Busy();

  // Frees `rules` on the worker's thread, not the caller's.
  void Retire(std::shared_ptr<const RunRules> rules);

 private:
  // The thread's nice value: its CPU share is a tenth of the reader's.
  static constexpr int kNice = 10;

  void Loop();

  RunRulesOptions options_;
  const engine::filter::FieldResolver& fields_;
  std::atomic<bool> cancelled_{false};
  std::mutex mu_;
  std::condition_variable wake_;
  bool requested_ = false;
  bool loading_ = false;
  bool stopping_ = false;
  std::optional<Result> done_;
  std::vector<std::shared_ptr<const RunRules>> retired_;
  std::thread thread_;  // started by the constructor, once the rest is set
};

}  // namespace kestrel::agent

#endif  // KESTREL_AGENT_RULES_RULES_WORKER_H_
