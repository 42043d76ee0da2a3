// `capture: true` rules for `kestrel run`: a capture file per alert that
// holds the records from before the alert (a window kept in memory) and
// those of the rule's capture_duration after it, as Falco's `capture`
// section configures it (Falco's files start at the alert).
//
// One capture is open at a time, as in Falco: a capture rule's alert while
// it is open extends it to that alert's end instead of opening another, so
// open files are bounded (one) and records are never written twice.
//
// The file starts with a snapshot of the engine's thread table at the
// alert (every thread, exited ones still in their grace period too, and
// their descriptors), then the window's records, then the records after.
// A snapshot valid for the window's start would need the table as it was
// then; the table at the alert is what the engine has, so a reader names a
// thread by what it became rather than what it was before an exec in the
// window, and the window's own records (exec, clone, exit, open ...) then
// replay over it. Times are the records' (CLOCK_BOOTTIME), live or not.
#ifndef KESTREL_AGENT_PIPELINE_CAPTURE_WINDOW_H_
#define KESTREL_AGENT_PIPELINE_CAPTURE_WINDOW_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "agent/config/run_config.h"
#include "engine/capture_file/capture_info.h"
#include "engine/capture_file/capture_writer.h"
#include "engine/capture_file/record_window.h"
#include "engine/rules/ruleset.h"
#include "engine/state/thread_table.h"
#include "shared/record_format.h"

namespace kestrel::agent {

class AlertCapture {
 public:
  // `config` is RunConfig::capture (enabled); `threads` is the pipeline's
  // table and must outlive this; `info` heads every file; `say` is told
  // each file written or failed, one line each.
  AlertCapture(const RunCaptureConfig& config, const engine::ThreadTable& threads,
               engine::capture_file::CaptureInfo info, std::function<void(const std::string&)> say);
  ~AlertCapture();  // closes an open capture; call Close() to have it counted first

  // Keeps the window only while some rule can capture (every rule in mode
  // all_rules): otherwise a record costs one test.
  void UseRules(const engine::rules::Ruleset& rules);

  // Every record the pipeline takes, before it is evaluated.
  void Take(const kestrel_record_header* record);

  // An alert of `rule` raised by `header`, the pipeline's `record_number`th
  // record. Opens a capture, or extends the open one.
  void OnAlert(const engine::rules::Rule& rule, const kestrel_record_header& header,
               uint64_t record_number);

  // Closes the open capture once `now_ns` (CLOCK_BOOTTIME) is past its end
  // by more than records of other CPUs can lag: a quiet host still gets
  // its file closed.
  void CloseIfPast(uint64_t now_ns);

  // Closes the open capture (end of the run).
  void Close();

  bool armed() const { return armed_; }
  bool capturing() const { return writer_ != nullptr; }
  uint64_t written() const { return written_; }
  uint64_t failed() const { return failed_; }
  const engine::capture_file::RecordWindow& window() const { return window_; }

 private:
  std::function<void(const std::string&)> say_;
  void Open(const kestrel_record_header& header, uint64_t record_number, uint64_t end_ns);
  void Finish(const char* why);
  void Fail(const std::string& what);

  const RunCaptureConfig config_;
  const engine::ThreadTable& threads_;
  const engine::capture_file::CaptureInfo info_;
  engine::capture_file::RecordWindow window_;
  bool armed_ = false;
  // The open capture.
  std::unique_ptr<engine::capture_file::CaptureWriter> writer_;
  std::string path_;
  uint64_t end_ns_ = 0;    // last record time it takes
  uint64_t snapshot_ = 0;  // snapshot records it starts with
  uint64_t before_ = 0;    // window records written at the first alert
  uint64_t alerts_ = 0;    // alerts it holds
  uint64_t written_ = 0, failed_ = 0;
};

// The file a capture opened by the `record_number`th record at wall time
// `alert_ns` is written to: PREFIX_TTTT_NNNN.kcap, both numbers 20 digits
// so names sort by time, as Falco names its captures.
std::string CaptureFilePath(const std::string& prefix, uint64_t alert_ns, uint64_t record_number);

}  // namespace kestrel::agent

#endif  // KESTREL_AGENT_PIPELINE_CAPTURE_WINDOW_H_
