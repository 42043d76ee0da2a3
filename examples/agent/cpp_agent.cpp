// A security agent in C++ on Kestrel's installed library, through
// kestrel.hpp: the same as c_agent.c, with RAII and exceptions.
//
// Usage: cpp_agent RULES_FILE      (as root: the probe loads)
// Build: c++ -std=c++17 cpp_agent.cpp $(pkg-config --cflags --libs kestrel)
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <iostream>
#include <kestrel.hpp>
#include <string>
#include <thread>
#include <vector>

namespace {

std::atomic<int> alerts_seen{0};

bool WaitForAlerts(int n) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (alerts_seen < n && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return alerts_seen >= n;
}

// The probe leaves the agent's own process out: the calls to catch are
// made by commands it runs, whose execve tells the agent who they are.
void RunCommand(std::vector<std::string> argv) {
  const pid_t pid = fork();
  if (pid == 0) {
    std::vector<char*> args;
    for (std::string& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  if (pid > 0) waitpid(pid, nullptr, 0);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " RULES_FILE\n";
    return 2;
  }
  try {
    kestrel::Options options;
    options.rules_files = {argv[1]};
    options.flags = KESTREL_OPT_NO_CONTAINER_RUNTIMES;
    // On the agent's reader thread: print and count, nothing more.
    options.on_alert = [](const kestrel::Alert& a) {
      std::cout << "alert: " << a.priority_name << ": " << a.rule << ": " << a.output << "\n";
      for (const kestrel::OutputField& f : a.fields) {
        std::cout << "  " << f.name << "=" << f.value.value_or("<NA>") << "\n";
      }
      std::cout.flush();
      ++alerts_seen;
    };
    options.on_log = [](kestrel_log_level level, const std::string& line) {
      if (level >= KESTREL_LOG_WARNING) std::cerr << "kestrel: " << line << "\n";
    };
    kestrel::Agent agent(options);
    agent.start();
    std::cout << "started: " << agent.stats().syscalls << " syscalls\n";

    const std::string path = "/tmp/kestrel-agent-example-" + std::to_string(getpid());
    RunCommand({"touch", path});
    bool ok = WaitForAlerts(1);
    if (ok) {
      // Live: the disabled rule is enabled, its syscalls join the probe's set.
      agent.set_rule_enabled("Example file chmod", true);
      std::cout << "rule enabled: " << agent.stats().syscalls << " syscalls\n";
      RunCommand({"chmod", "640", path});
      ok = WaitForAlerts(2);
    }
    unlink(path.c_str());
    agent.stop();
    const kestrel_stats stats = agent.stats();
    std::cout << "stopped: " << stats.events << " events, " << stats.alerts << " alerts\n";
    if (!ok) std::cerr << "the expected alerts did not come\n";
    return ok ? 0 : 1;
  } catch (const kestrel::Error& e) {
    std::cerr << "kestrel: " << e.what() << " (" << e.code() << ")\n";
    return 1;
  }
}
