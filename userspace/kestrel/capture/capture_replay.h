// `kestrel capture -r FILE`: prints a capture file as live events print,
// and what `capture -w` says about the file it wrote.
#ifndef KESTREL_CLI_CAPTURE_REPLAY_H_
#define KESTREL_CLI_CAPTURE_REPLAY_H_

#include <cstdio>
#include <string>

#include "engine/capture_file/capture_info.h"
#include "kestrel/capture/capture_file_sink.h"
#include "kestrel/capture/capture_options.h"

namespace kestrel::cli {

// Reads options.read_path; no probe is loaded. Exit 0 when the whole file
// was read, 1 when it could not be opened or was damaged (everything
// before the damage is printed, and one line on stderr says where).
int RunCaptureReplay(const CaptureOptions& options);

// The info block of a file `capture -w` starts with these options (the
// settings are added once the probe is loaded).
engine::capture_file::CaptureInfo CaptureFileInfo(const CaptureOptions& options);

// One line: records and bytes written, bytes per record, files.
void PrintCaptureFileStats(const CaptureFileSink& sink, const std::string& path, std::FILE* out);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_CAPTURE_REPLAY_H_
