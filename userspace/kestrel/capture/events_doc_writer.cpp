// Writes the event reference (docs/events.md) from the schema, for the
// `events_doc` target. A build tool, not a verb: users read the file, and
// `kestrel capture --list-events` is their view of the same schema.
#include <cstdio>
#include <fstream>

#include "engine/decode/schema_listing.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: events_doc_writer OUTPUT.md\n");
    return 2;
  }
  std::ofstream out(argv[1], std::ios::trunc);
  out << kestrel::engine::FormatEventReference();
  out.close();
  if (!out) {
    std::fprintf(stderr, "events_doc_writer: cannot write %s\n", argv[1]);
    return 1;
  }
  return 0;
}
