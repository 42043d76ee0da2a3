#include "agent/pipeline/capture_window.h"

#include <algorithm>
#include <cstdio>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"

namespace kestrel::agent {
namespace {

constexpr uint64_t kNsPerMs = 1'000'000;

// How far behind the clock a record of another CPU may still arrive: a
// capture closed by the clock waits this long past its end.
constexpr uint64_t kLateRecordNs = 500 * kNsPerMs;

engine::capture_file::RecordWindowLimits LimitsOf(const RunCaptureConfig& c) {
  engine::capture_file::RecordWindowLimits limits;
  limits.max_bytes = c.window_bytes;
  limits.max_age_ns = static_cast<uint64_t>(c.window_seconds * 1e9);
  return limits;
}

}  // namespace

std::string CaptureFilePath(const std::string& prefix, uint64_t alert_ns, uint64_t record_number) {
  return absl::StrFormat("%s_%020u_%020u.kcap", prefix, alert_ns, record_number);
}

AlertCapture::AlertCapture(const RunCaptureConfig& config, const engine::ThreadTable& threads,
                           engine::capture_file::CaptureInfo info,
                           std::function<void(const std::string&)> say)
    : say_(std::move(say)),
      config_(config),
      threads_(threads),
      info_(std::move(info)),
      window_(LimitsOf(config)) {}

AlertCapture::~AlertCapture() {
  if (writer_) writer_->Close().IgnoreError();
}

void AlertCapture::UseRules(const engine::rules::Ruleset& rules) {
  armed_ = config_.all_rules ||
           std::any_of(rules.rules().begin(), rules.rules().end(),
                       [](const engine::rules::Rule& r) { return r.capture && r.enabled; });
  if (!armed_) window_.Clear();
}

void AlertCapture::Take(const kestrel_record_header* record) {
  if (writer_) {
    if (record->ts_ns > end_ns_) {
      Finish("");
    } else if (absl::Status s = writer_->Append(record); !s.ok()) {
      Fail(std::string(s.message()));
    } else if (config_.max_file_size_mb > 0 && writer_->file_bytes() >= config_.max_file_size_mb
                                                                            << 20) {
      Finish(", stopped at capture.max_file_size_mb");
    }
  }
  if (armed_) window_.Push(record);
}

void AlertCapture::OnAlert(const engine::rules::Rule& rule, const kestrel_record_header& header,
                           uint64_t record_number) {
  if (!rule.capture && !config_.all_rules) return;
  const uint64_t duration_ms =
      rule.capture_duration_ms > 0 ? rule.capture_duration_ms : config_.default_duration_ms;
  const uint64_t end_ns = header.ts_ns + duration_ms * kNsPerMs;
  if (writer_) {
    end_ns_ = std::max(end_ns_, end_ns);
    ++alerts_;
    return;
  }
  Open(header, record_number, end_ns);
}

void AlertCapture::Open(const kestrel_record_header& header, uint64_t record_number,
                        uint64_t end_ns) {
  path_ = CaptureFilePath(config_.path_prefix, header.ts_ns + info_.boot_time_ns, record_number);
  engine::capture_file::WriterOptions options;
  options.create_new = true;  // the prefix is often in /tmp: never follow a planted link
  absl::StatusOr<std::unique_ptr<engine::capture_file::CaptureWriter>> writer =
      engine::capture_file::CaptureWriter::Create(path_, info_, options);
  if (!writer.ok()) {
    ++failed_;
    say_(absl::StrFormat("capture %s failed: %s", path_, writer.status().message()));
    return;
  }
  writer_ = *std::move(writer);
  end_ns_ = end_ns;
  alerts_ = 1;
  absl::Status status;
  const engine::SnapshotRecords snapshot = threads_.Snapshot(header.ts_ns);
  snapshot.ForEach([&](const kestrel_record_header* r) {
    if (status.ok()) status = writer_->AppendSnapshot(r);
  });
  snapshot_ = snapshot.size();
  // The window ends with the record that raised the alert.
  window_.ForEach([&](const kestrel_record_header* r) {
    if (status.ok()) status = writer_->Append(r);
  });
  before_ = window_.records() > 0 ? window_.records() - 1 : 0;
  if (!status.ok()) Fail(std::string(status.message()));
}

void AlertCapture::CloseIfPast(uint64_t now_ns) {
  if (writer_ && now_ns > end_ns_ + kLateRecordNs) Finish("");
}

void AlertCapture::Close() {
  if (writer_) Finish(", cut short by the end of the run");
}

void AlertCapture::Finish(const char* why) {
  const uint64_t records = writer_->records() - snapshot_;
  if (absl::Status s = writer_->Close(); !s.ok()) {
    writer_.reset();
    ++failed_;
    say_(absl::StrFormat("capture %s failed: %s", path_, s.message()));
    return;
  }
  writer_.reset();
  ++written_;
  say_(absl::StrFormat(
      "capture %s written: %u records (%u before the alert) after a snapshot of %u, %u alert(s)%s",
      path_, records, before_, snapshot_, alerts_, why));
}

void AlertCapture::Fail(const std::string& what) {
  writer_->Close().IgnoreError();
  writer_.reset();
  ++failed_;
  say_(absl::StrFormat("capture %s failed: %s (what was written before stays readable)", path_,
                       what));
}

}  // namespace kestrel::agent
