// Writes the records of a capture file as seeds for record_fuzzer: runs of
// consecutive records (so state-building sequences such as clone, execve,
// openat, close stay together), each file a few KiB at most.
//
//   fuzz_seed_splitter CAPTURE_FILE OUT_DIR [MAX_FILES]
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "engine/capture_file/capture_reader.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s CAPTURE_FILE OUT_DIR [MAX_FILES]\n", argv[0]);
    return 2;
  }
  const int max_files = argc > 3 ? std::atoi(argv[3]) : 32;
  auto reader = kestrel::engine::capture_file::CaptureReader::Open(argv[1]);
  if (!reader.ok()) {
    std::fprintf(stderr, "%s: %s\n", argv[1], std::string(reader.status().message()).c_str());
    return 1;
  }
  constexpr size_t kMaxSeedBytes = 4096;
  std::vector<char> run;
  int files = 0;
  const auto flush = [&] {
    if (run.empty()) return;
    std::ofstream(std::string(argv[2]) + "/records-" + std::to_string(files++), std::ios::binary)
        .write(run.data(), static_cast<std::streamsize>(run.size()));
    run.clear();
  };
  while (const kestrel_record_header* h = (*reader)->Next()) {
    if (files >= max_files) break;
    const uint32_t len = h->len;
    if (len > kMaxSeedBytes) continue;
    if (run.size() + len > kMaxSeedBytes) flush();
    const char* bytes = reinterpret_cast<const char*>(h);
    run.insert(run.end(), bytes, bytes + len);
  }
  if (files < max_files) flush();
  std::printf("%d seed files\n", files);
  return 0;
}
