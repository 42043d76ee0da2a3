// The soak's load: one process per CPU doing, at a bounded pace, what a
// busy host does (spawning short-lived programs, opening and closing files,
// connecting sockets, a cheap generic syscall), so that a long run shows
// whether the engine's memory and state stay bounded. Bounded on purpose:
// the soak measures plateaus, not the drop point (`throughput` does that).
#ifndef KESTREL_TOOLS_BENCH_SOAK_LOAD_H_
#define KESTREL_TOOLS_BENCH_SOAK_LOAD_H_

#include <sys/types.h>

#include <string>
#include <vector>

namespace kestrel::bench {

struct SoakLoadOptions {
  int rounds_per_second = 200;  // per CPU; each round spawns one program
  std::string scratch_dir;      // where the rounds open and unlink files
};

class SoakLoad {
 public:
  explicit SoakLoad(const SoakLoadOptions& options);
  ~SoakLoad();  // stops the workers (SIGKILL) and reaps them

  SoakLoad(const SoakLoad&) = delete;
  SoakLoad& operator=(const SoakLoad&) = delete;

  // Workers that could not be started; 0 when all run.
  int failed() const { return failed_; }

 private:
  std::vector<pid_t> workers_;
  int failed_ = 0;
};

}  // namespace kestrel::bench

#endif  // KESTREL_TOOLS_BENCH_SOAK_LOAD_H_
