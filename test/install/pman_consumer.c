/* A program outside the Kestrel tree, built against an installed libpman:
 * it includes every public header and checks that the header and the
 * library declare one ABI. Loading the probe and reading records from the
 * installed tree is examples/libpman/openat_watch.c's part. */
#include <libpman.h>
#include <libpman_control.h>
#include <libpman_recorder.h>

#include <stdio.h>

int main(void) {
  const int abi = pman_abi_version();

  printf("pman_abi_version %d\n", abi);
  if (abi != PMAN_ABI_VERSION) {
    fprintf(stderr, "pman_consumer: header says ABI %d, library %d\n", PMAN_ABI_VERSION, abi);
    return 1;
  }
  return 0;
}
