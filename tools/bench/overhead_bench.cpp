#include "bench/bench_modes.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "agent/agent.h"
#include "bench/bench_stats.h"
#include "bench/floor_probe.h"
#include "bench/foreign_hooks.h"
#include "bench/peer_process.h"
#include "bench/probe_under_test.h"
#include "bench/syscall_loop.h"
#include "bench/tracefs_mount.h"
#include "engine/decode/syscall_names.h"

namespace kestrel::bench {
namespace {

constexpr int kLoadCpu = 0;
constexpr int kConsumerCpu = 1;
constexpr char kEmptyHook[] = "floor: one empty tp_btf/sys_exit hook";
constexpr char kRecordHook[] = "floor: hook + ts/pid + 64 B ringbuf record";
constexpr char kNotInteresting[] = "kestrel: attached, syscall not interesting";
// getppid has no specific event: it is captured as a generic record. openat
// and close always have theirs: openat with the path of the opened file.
constexpr char kCaptured[] = "kestrel: captured";
// The attachment of issue 40: the rules' syscall set in the probe's table
// (getppid not in it), against an empty program on the per-syscall exit
// tracepoints of the same set: what a per-syscall attachment could cost at
// least, for the syscalls it captures and for every other one.
constexpr char kRulesSet[] = "kestrel: attached with the rules' syscall set";
constexpr char kTracepointSet[] = "floor: empty per-syscall exit tracepoints on the rules' set";
// A syscall outside the set may cost at most this much more than no probe.
constexpr double kUncapturedTarget = 1.02;
std::string CapturedLabel(Workload w) {
  return w == Workload::kGetppid
             ? "kestrel: captured as a generic record"
             : "kestrel: captured as its specific events (openat with path, close)";
}

// Falco's modern probe on the same VM class (issue 6), ns added per
// syscall: per filtered syscall, per captured getppid, and per captured
// openat or close (each of the two, not per openat+close iteration).
constexpr double kFalcoFilteredNs = 109;
constexpr double kFalcoCapturedGetppidNs = 262;
constexpr double kFalcoOpenCloseNs = 363;
// The empty sys_exit hook on the VM where Falco was measured: Falco's figures
// scale to this run by this run's empty hook over it.
constexpr double kFalcoVmEmptyHookNs = 51;

// Long enough that a measurement spans many scheduler ticks, short enough
// that a repetition of every state stays within a few seconds.
uint64_t IterationsFor(Workload w) { return w == Workload::kGetppid ? 300000 : 30000; }

// A toggled chunk lasts a couple of milliseconds: shorter than a scheduler
// slice, so most pairs run undisturbed.
uint64_t ChunkFor(Workload w) { return w == Workload::kGetppid ? 1000 : 250; }
constexpr int kPairsPerRepetition = 100;

const Workload kWorkloads[] = {Workload::kGetppid, Workload::kOpenClose};

struct State {
  std::string name;
  std::function<absl::Status()> enter;  // after it returns, the state is in force
  std::function<void()> leave;
  // Cheap to enter and leave (a BPF attach): measured by toggling it
  // between adjacent chunks. Peers take seconds to start: measured as one
  // no-probe run followed by one run under the peer.
  bool toggles = true;
  int sandwiches = 1;  // a state that does not toggle: runs per repetition
  bool skipped = false;
  std::string skip_reason;
};

// Added ns per iteration of each workload, one entry per repetition.
using Samples = std::map<Workload, std::vector<double>>;

std::string RowName(Workload w, const std::string& state) {
  return absl::StrFormat("%s: %s", WorkloadName(w), state);
}

// How far apart the repetitions' own ratios are: how much one repetition
// alone could be trusted.
std::string RatioSpread(const std::vector<double>& ratios) {
  if (ratios.size() < 2) return std::string();
  const auto [lo, hi] = std::minmax_element(ratios.begin(), ratios.end());
  return absl::StrFormat("repetitions alone %.2f-%.2fx", *lo, *hi);
}

// openat+close captured with paths against Falco's +363 ns per syscall (per
// openat, per close), scaled to this run: Falco-equivalent = 363 ns x (this
// run's empty hook / 51 ns). The empty hook is taken from the getppid loop,
// where one hook is a larger share of an iteration than in the openat+close
// loop and so stands out of the noise better. `captured` is ns added per
// openat+close iteration (two syscalls), `empty_hook` ns added per getppid;
// pooled pairs, then per repetition.
BenchRow OpenCloseAgainstFalco(const std::string& name, const std::vector<double>& captured,
                               const std::vector<double>& empty_hook,
                               const std::vector<double>& captured_per_rep,
                               const std::vector<double>& empty_hook_per_rep) {
  constexpr double kTarget = 0.6;
  const double scale = kFalcoOpenCloseNs / kFalcoVmEmptyHookNs;
  const double falco_per_syscall = scale * Median(empty_hook);
  const double syscalls = SyscallsPerIteration(Workload::kOpenClose);
  BenchRow row{.name = name,
               .value = Median(captured),
               .unit = "ns added/iter",
               .ratio = Median(captured) / syscalls / falco_per_syscall,
               .ratio_of = "Falco-equivalent per syscall (363 ns x getppid's empty hook / 51 ns)"};
  std::vector<double> rep_ratios;
  for (double r : PairedRatios(captured_per_rep, empty_hook_per_rep)) {
    rep_ratios.push_back(r / syscalls / scale);
  }
  std::vector<std::string> notes = {Judge(row, *row.ratio, kTarget)};
  if (std::string spread = RatioSpread(rep_ratios); !spread.empty()) notes.push_back(spread);
  notes.push_back(absl::StrFormat(
      "Falco-equivalent here %.0f ns per syscall, target <= %.0f ns per syscall, Kestrel %.0f ns "
      "per syscall",
      falco_per_syscall, kTarget * falco_per_syscall, row.value / syscalls));
  row.note = absl::StrJoin(notes, "; ");
  return row;
}

// Kestrel's probe and the floors it is compared with, loaded once for the
// run; the consumers drain them on their own CPU.
struct Probes {
  std::unique_ptr<ProbeUnderTest> kestrel;
  std::unique_ptr<FloorProbe> floor;
};

// The syscall set `kestrel run -r rules_file` captures (Kestrel's own rules
// when empty), and the names of those with an exit tracepoint.
struct RulesSet {
  std::string rules;  // for the notes
  std::vector<uint32_t> ids;
  std::vector<std::string> tracepoint_names;
  bool has_getppid = false;
  std::string tracepoint_skip;  // why the tracepoint floor cannot run, if it cannot
};

absl::StatusOr<RulesSet> LoadRulesSet(const std::string& rules_file, const TracefsMount* tracefs) {
  agent::AgentOptions options;
  if (!rules_file.empty()) options.rules_files = {rules_file};
  options.container_runtimes = false;
  options.config_outputs = false;
  options.watch_rules_files = false;
  absl::StatusOr<std::unique_ptr<agent::Agent>> agent = agent::Agent::Open(std::move(options));
  if (!agent.ok()) return agent.status();
  RulesSet set{.rules = rules_file.empty() ? "Kestrel's default rules" : rules_file,
               .ids = (*agent)->SyscallIds()};
  for (uint32_t id : set.ids) {
    const std::string name(engine::SyscallName(id));
    set.has_getppid = set.has_getppid || id == kGetppidId;
    if (tracefs != nullptr && !name.empty() && tracefs->HasSyscallExit(name)) {
      set.tracepoint_names.push_back(name);
    }
  }
  return set;
}

absl::StatusOr<Probes> LoadProbes() {
  Probes probes;
  absl::StatusOr<std::unique_ptr<ProbeUnderTest>> kestrel =
      ProbeUnderTest::Load(0, kBenchRingBytes);
  if (!kestrel.ok()) return kestrel.status();
  probes.kestrel = *std::move(kestrel);
  absl::StatusOr<std::unique_ptr<FloorProbe>> floor = FloorProbe::Load();
  if (!floor.ok()) return floor.status();
  probes.floor = *std::move(floor);
  return probes;
}

// The floors and Kestrel's two states, each toggled by an attach and a
// detach. The record hook only records `load_tid`, the measured loop.
std::vector<State> ProbeAndFloorStates(Probes& probes, uint32_t load_tid, const RulesSet& set) {
  FloorProbe& floor = *probes.floor;
  ProbeUnderTest& kestrel = *probes.kestrel;
  const auto attach_capturing = [&kestrel](std::vector<uint32_t> ids) {
    return [&kestrel, ids]() -> absl::Status {
      if (absl::Status s = kestrel.Capture(ids); !s.ok()) return s;
      return kestrel.Attach();
    };
  };
  return {
      {.name = kEmptyHook,
       .enter = [&floor] { return floor.AttachEmptyHook(); },
       .leave = [&floor] { floor.Detach(); }},
      {.name = kRecordHook,
       .enter = [&floor, load_tid] { return floor.AttachRecordHook(load_tid); },
       .leave = [&floor] { floor.Detach(); }},
      {.name = kNotInteresting,
       .enter = attach_capturing({}),
       .leave = [&kestrel] { (void)kestrel.Detach(); }},
      {.name = kCaptured,
       .enter = attach_capturing({kGetppidId, kOpenatId, kCloseId}),
       .leave = [&kestrel] { (void)kestrel.Detach(); }},
      {.name = kRulesSet,
       .enter = attach_capturing(set.ids),
       .leave = [&kestrel] { (void)kestrel.Detach(); }},
      {.name = kTracepointSet,
       .enter = [&floor, &set] { return floor.AttachSyscallExitTracepoints(set.tracepoint_names); },
       .leave = [&floor] { floor.Detach(); },
       // Each tracepoint takes ~70 ms to detach (an RCU grace period):
       // measured like a peer, once per repetition.
       .toggles = false,
       .sandwiches = 3,
       .skipped = !set.tracepoint_skip.empty(),
       .skip_reason = set.tracepoint_skip},
  };
}

// One state per known peer tracer; a peer not installed is skipped.
// `running_peer` holds the peer while its state is in force.
void AddPeerStates(std::unique_ptr<PeerProcess>& running_peer, std::vector<State>& states) {
  for (const PeerSpec& spec : KnownPeers()) {
    State state{.name = "peer: " + spec.label, .toggles = false};
    const std::optional<std::string> path = FindProgram(spec.program);
    if (!path) {
      state.skipped = true;
      state.skip_reason = absl::StrFormat("skipped: %s is not installed", spec.program);
    }
    state.enter = [&running_peer, spec, path]() -> absl::Status {
      absl::StatusOr<std::unique_ptr<PeerProcess>> peer = PeerProcess::Start(spec, *path);
      if (!peer.ok()) return peer.status();
      running_peer = *std::move(peer);
      return absl::OkStatus();
    };
    state.leave = [&running_peer] { running_peer.reset(); };
    states.push_back(std::move(state));
  }
}

// The samples of `state` for `w`; empty when it has none.
std::vector<double> SamplesOf(const std::map<std::string, Samples>& by_state,
                              const std::string& state, Workload w) {
  const auto s = by_state.find(state);
  if (s == by_state.end()) return {};
  const auto v = s->second.find(w);
  return v == s->second.end() ? std::vector<double>{} : v->second;
}

// Everything measured over the repetitions.
struct Measurements {
  Samples no_probe;
  std::map<std::string, Samples> added;  // per state: each repetition's median
  // Toggled states: every pair's difference, all repetitions together.
  std::map<std::string, Samples> pooled;
};

// One repetition of the toggled states. They interleave pair by pair, so
// every state and the floors it is compared with see the same moments of
// the machine; the order rotates on every pair.
absl::Status MeasureToggledStates(std::vector<State>& states, int rep, Measurements& m) {
  std::vector<State*> toggled;
  for (State& state : states) {
    if (state.toggles && !state.skipped) toggled.push_back(&state);
  }
  for (Workload w : kWorkloads) {
    std::vector<double> base;
    std::map<std::string, std::vector<double>> pairs;
    for (int p = 0; p < kPairsPerRepetition; ++p) {
      for (size_t k = 0; k < toggled.size(); ++k) {
        State& state = *toggled[(k + static_cast<size_t>(p + rep)) % toggled.size()];
        absl::StatusOr<ChunkPair> pair =
            MeasurePair(w, ChunkFor(w), (p + k) % 2 == 1, state.enter, state.leave);
        if (!pair.ok()) return pair.status();
        base.push_back(pair->without_ns);
        pairs[state.name].push_back(pair->with_ns - pair->without_ns);
      }
    }
    m.no_probe[w].push_back(Median(base));
    for (auto& [name, values] : pairs) {
      m.added[name][w].push_back(Median(values));
      m.pooled[name][w].insert(m.pooled[name][w].end(), values.begin(), values.end());
    }
  }
  return absl::OkStatus();
}

// One repetition of the states too slow to toggle around 1 ms chunks:
// peers take seconds to start, syscall tracepoints ~70 ms each to detach.
// Each is measured in `sandwiches` runs of no probe, the state, no probe
// again, against the mean of the two no-probe runs, so a drift of the
// machine over the three cancels. A state that fails to start is skipped
// from then on.
void MeasureSlowStates(std::vector<State>& states, Measurements& m) {
  for (State& state : states) {
    if (state.toggles || state.skipped) continue;
    std::map<Workload, std::vector<double>> added;
    for (int k = 0; k < state.sandwiches && !state.skipped; ++k) {
      std::map<Workload, double> before;
      for (Workload w : kWorkloads) before[w] = MeasureNsPerIteration(w, IterationsFor(w));
      if (absl::Status s = state.enter(); !s.ok()) {
        state.leave();
        state.skipped = true;
        state.skip_reason = absl::StrFormat("skipped: %s", s.message());
        break;
      }
      std::map<Workload, double> with;
      for (Workload w : kWorkloads) with[w] = MeasureNsPerIteration(w, IterationsFor(w));
      state.leave();
      for (Workload w : kWorkloads) {
        const double after = MeasureNsPerIteration(w, IterationsFor(w));
        added[w].push_back(with[w] - (before[w] + after) / 2);
      }
    }
    if (state.skipped) continue;
    for (auto& [w, values] : added) m.added[state.name][w].push_back(Median(values));
  }
}

// The ns `name` adds per iteration of `w`, labelled `label`; with `of`, its
// ratio to that state's added ns, judged against `target` when given.
BenchRow AddedCostRow(const Measurements& m, Workload w, const std::string& name,
                      const std::string& label, const std::string& of, std::optional<double> target,
                      const std::string& extra) {
  const std::vector<double> pooled = SamplesOf(m.pooled, name, w);
  const std::vector<double> added = SamplesOf(m.added, name, w);
  const bool toggled = !pooled.empty();
  BenchRow row{.name = RowName(w, label),
               .value = toggled ? Median(pooled) : Median(added),
               .unit = "ns added/iter"};
  std::vector<std::string> notes;
  const std::vector<double> of_added = SamplesOf(m.added, of, w);
  if (!of.empty() && !of_added.empty()) {
    const std::vector<double> ratios = PairedRatios(added, of_added);
    // Toggled states were measured in the same rounds as their floor: the
    // ratio of the pooled medians uses every pair at once.
    row.ratio = toggled ? row.value / Median(SamplesOf(m.pooled, of, w)) : Median(ratios);
    row.ratio_of = RowName(w, of);
    if (target) notes.push_back(Judge(row, *row.ratio, *target));
    if (std::string s = RatioSpread(ratios); !s.empty()) notes.push_back(s);
  }
  if (!extra.empty()) notes.push_back(extra);
  row.note = absl::StrJoin(notes, "; ");
  return row;
}

// What `name` makes an iteration of `w` cost over no probe, judged against
// kUncapturedTarget: for a syscall the set does not hold.
BenchRow AgainstNoProbeRow(const Measurements& m, Workload w, const std::string& name,
                           const std::string& label) {
  const double base = Median(m.no_probe.count(w) ? m.no_probe.at(w) : std::vector<double>{});
  BenchRow row = AddedCostRow(m, w, name, label, "", std::nullopt, "");
  row.ratio = base > 0 ? (base + row.value) / base : 0;
  row.ratio_of = RowName(w, "no probe");
  row.note = Judge(row, *row.ratio, kUncapturedTarget);
  return row;
}

// The attachment rows: a getppid outside the rules' set under each
// attachment, and what each attachment's floor adds to openat+close.
void AddAttachmentRows(Workload w, const Measurements& m, const RulesSet& set,
                       BenchReport& report) {
  const std::string set_label =
      absl::StrFormat("%s (%zu syscalls%s)", kRulesSet, set.ids.size(),
                      set.has_getppid ? ", getppid among them" : ", getppid not among them");
  const std::string tp_label = absl::StrFormat("%s (%zu of %zu syscalls have one)", kTracepointSet,
                                               set.tracepoint_names.size(), set.ids.size());
  const bool tracepoints = !SamplesOf(m.added, kTracepointSet, w).empty();
  if (w == Workload::kGetppid) {
    report.rows.push_back(AgainstNoProbeRow(m, w, kRulesSet, set_label));
    if (tracepoints) report.rows.push_back(AgainstNoProbeRow(m, w, kTracepointSet, tp_label));
    return;
  }
  // openat and close are both in Falco's set: the least each attachment
  // adds for two captured syscalls, the tracepoints against the empty
  // tp_btf hook.
  if (tracepoints) {
    report.rows.push_back(AddedCostRow(m, w, kTracepointSet, tp_label, kEmptyHook, std::nullopt,
                                       "per captured syscall, an empty program each"));
  }
}

// The rows of one workload: the no-probe cost, the floors, Kestrel against
// its floors and Falco's figures, then the peers.
void AddWorkloadRows(Workload w, const Measurements& m, const std::vector<State>& states,
                     const RulesSet& set, BenchReport& report) {
  report.rows.push_back(
      {.name = RowName(w, "no probe"),
       .value = Median(m.no_probe.count(w) ? m.no_probe.at(w) : std::vector<double>{}),
       .unit = "ns/iter",
       .note = absl::StrFormat("%u syscall(s) per iteration", SyscallsPerIteration(w))});
  report.rows.push_back(AddedCostRow(m, w, kEmptyHook, kEmptyHook, "", std::nullopt, ""));
  report.rows.push_back(AddedCostRow(m, w, kRecordHook, kRecordHook, "", std::nullopt, ""));
  const double falco_filtered = kFalcoFilteredNs * SyscallsPerIteration(w);
  report.rows.push_back(AddedCostRow(m, w, kNotInteresting, kNotInteresting, kEmptyHook, 1.1,
                                     absl::StrFormat("Falco: +%.0f ns on its VM", falco_filtered)));
  if (w == Workload::kGetppid) {
    report.rows.push_back(
        AddedCostRow(m, w, kCaptured, CapturedLabel(w), kRecordHook, 1.3,
                     absl::StrFormat("Falco: +%.0f ns on its VM", kFalcoCapturedGetppidNs)));
  } else {
    report.rows.push_back(OpenCloseAgainstFalco(
        RowName(w, CapturedLabel(w)), SamplesOf(m.pooled, kCaptured, w),
        SamplesOf(m.pooled, kEmptyHook, Workload::kGetppid), SamplesOf(m.added, kCaptured, w),
        SamplesOf(m.added, kEmptyHook, Workload::kGetppid)));
  }
  AddAttachmentRows(w, m, set, report);
  for (const State& state : states) {
    if (state.name.rfind("peer: ", 0) != 0 || state.skipped) continue;
    report.rows.push_back(AddedCostRow(m, w, state.name, state.name, kEmptyHook, std::nullopt, ""));
  }
}

// How the run was measured, what was skipped, and what the consumers read.
void AddRunNotes(int repetitions, const std::vector<State>& states, ProbeUnderTest& kestrel,
                 int foreign_before, int foreign_after, BenchReport& report) {
  for (const State& state : states) {
    if (state.skipped) report.notes.push_back(state.name + " " + state.skip_reason);
  }
  report.notes.push_back(absl::StrFormat(
      "medians of %d repetitions; per repetition and workload, %d rounds in which every "
      "probe and floor state is attached and detached around one pair of adjacent ~1 ms chunks "
      "(without, with; order alternating, untimed warm-up before each chunk), states rotating "
      "within the round; added cost = median difference over the pairs of all repetitions; "
      "ratio = ratio of those medians (a floor and the state it is compared with come from the "
      "same rounds); peers (once per repetition) and the per-syscall tracepoints (slow to "
      "detach; 3 times) are measured between two no-probe runs, against their mean",
      repetitions, kPairsPerRepetition));
  report.notes.push_back(absl::StrFormat(
      "loops pinned to CPU %d, consumers on CPU %d; cost = the loop thread's CPU time "
      "(time preempted by other tenants is not counted)",
      kLoadCpu, kConsumerCpu));
  absl::StatusOr<kestrel_cpu_counters> totals = kestrel.Totals();
  const uint64_t drops = totals.ok() ? AllDrops(*totals) : 0;
  const RecordTally read = kestrel.Tally();
  report.notes.push_back(absl::StrFormat(
      "kestrel consumer read %u getppid records and %u specific events (openat, close), %u of "
      "them with parameters missing; probe drops over the run: %u",
      read.load_records, read.specific_records, read.params_missing, drops));
  report.notes.push_back("the floor ring is drained by libbpf's ring_buffer consumer");
  for (const std::string& note : {ForeignHooksNote("at the start", foreign_before),
                                  ForeignHooksNote("at the end", foreign_after)}) {
    if (!note.empty()) report.notes.push_back(note);
  }
}

}  // namespace

absl::StatusOr<BenchReport> RunOverheadBench(const OverheadBenchOptions& options) {
  const int repetitions = options.repetitions;
  absl::StatusOr<Probes> probes = LoadProbes();
  if (!probes.ok()) return probes.status();
  absl::StatusOr<TracefsMount> tracefs = TracefsMount::Ensure();
  absl::StatusOr<RulesSet> set =
      LoadRulesSet(options.rules_file, tracefs.ok() ? &*tracefs : nullptr);
  if (!set.ok()) return set.status();
  if (!tracefs.ok()) {
    set->tracepoint_skip = absl::StrCat("skipped: ", tracefs.status().message());
  } else if (set->tracepoint_names.empty()) {
    set->tracepoint_skip = "skipped: no syscall of the set has an exit tracepoint";
  }
  const int foreign_before = CountSyscallHookLinks();
  if (absl::Status s = PinThisThread(kLoadCpu); !s.ok()) return s;
  const uint32_t load_tid = static_cast<uint32_t>(syscall(SYS_gettid));
  probes->kestrel->StartDrain({.cpu = kConsumerCpu});
  probes->floor->StartDrain({.cpu = kConsumerCpu});

  // Declared before the states, whose peer lambdas hold it.
  std::unique_ptr<PeerProcess> running_peer;
  std::vector<State> states = ProbeAndFloorStates(*probes, load_tid, *set);
  AddPeerStates(running_peer, states);

  Measurements m;
  absl::Status status;
  for (int rep = 0; rep < repetitions && status.ok(); ++rep) {
    status = MeasureToggledStates(states, rep, m);
    if (status.ok()) MeasureSlowStates(states, m);
  }
  probes->kestrel->StopDrain();
  probes->floor->StopDrain();
  (void)UnpinThisThread();
  if (!status.ok()) return status;
  const int foreign_after = CountSyscallHookLinks();

  BenchReport report;
  report.mode = "overhead";
  for (Workload w : kWorkloads) AddWorkloadRows(w, m, states, *set, report);
  AddRunNotes(repetitions, states, *probes->kestrel, foreign_before, foreign_after, report);
  report.notes.push_back(absl::StrFormat(
      "the rules' syscall set: %s, %zu syscalls, as `kestrel run --dry-run` lists them", set->rules,
      set->ids.size()));
  return report;
}

}  // namespace kestrel::bench
