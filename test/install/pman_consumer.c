/* A program outside the Kestrel tree, built against an installed libpman:
 * `pman_consumer` checks the ABI the header and the library declare;
 * `pman_consumer --load` (root) also loads the embedded probe and closes it,
 * which shows the installed library needs no file of the build tree. */
#include <libpman.h>
#include <libpman_control.h>
#include <libpman_recorder.h>

#include <stdio.h>
#include <string.h>

static void log_to_stderr(void* ctx, enum pman_log_level level, const char* message) {
  (void)ctx;
  if (level >= PMAN_LOG_WARNING) fprintf(stderr, "libpman: %s\n", message);
}

static int load_and_close(void) {
  struct pman_options opts;
  struct pman_handle* h = NULL;
  int err;

  pman_default_options(&opts);
  opts.buffer_bytes = PMAN_BUFFER_BYTES_SMALL;
  opts.log_fn = log_to_stderr;
  err = pman_init(&opts, &h);
  if (err == 0) err = pman_open(h);
  if (err == 0) err = pman_load(h);
  pman_close(h);
  if (err != 0) {
    fprintf(stderr, "pman_consumer: loading the probe failed: %s\n", strerror(-err));
    return 1;
  }
  printf("probe loaded and closed\n");
  return 0;
}

int main(int argc, char** argv) {
  const int abi = pman_abi_version();

  printf("pman_abi_version %d\n", abi);
  if (abi != PMAN_ABI_VERSION) {
    fprintf(stderr, "pman_consumer: header says ABI %d, library %d\n", PMAN_ABI_VERSION, abi);
    return 1;
  }
  if (argc > 1 && strcmp(argv[1], "--load") == 0) return load_and_close();
  return 0;
}
