/* openat_watch: print the path of every openat on the machine for 5 s.
 *
 * `openat_watch FILE` also proves the capture works here: once attached it
 * opens FILE itself and stops as soon as it reads that open back, exiting 0
 * only if the record holds exactly what the call did (the fd it returned
 * and FILE as passed). The install test runs it so. */
#include <libpman.h>
#include <shared/event_types.h>
#include <shared/syscall_ids.h>

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* OPENAT_fd, OPENAT_dirfd, OPENAT_name, ... OPENAT_path: parameter indexes
 * from the schema itself, so they follow it (docs/events.md lists them). */
#define OPENAT_PARAM_INDEX(name, type, source, flag_set) OPENAT_##name,
enum openat_param { KESTREL_PARAMS_OPENAT(OPENAT_PARAM_INDEX) };
#undef OPENAT_PARAM_INDEX

/* Parameter `index` of a record: lengths follow the header, values follow
 * the lengths. */
static const char* param(const struct kestrel_record_header* rec, unsigned index, uint16_t* len) {
  const uint16_t* lens = (const uint16_t*)(rec + 1);
  const char* value = (const char*)(lens + rec->nparams);
  if (index >= rec->nparams) return NULL;
  for (unsigned i = 0; i < index; i++) value += lens[i];
  *len = lens[index];
  return value;
}

/* Paths come from traced processes: never let their bytes reach the
 * terminal raw. */
static void print_escaped(const char* s, size_t len) {
  for (size_t i = 0; i < len && s[i] != '\0'; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 0x20 && c < 0x7f && c != '\\')
      putchar(c);
    else
      printf("\\x%02x", c);
  }
}

static void log_stderr(void* ctx, enum pman_log_level level, const char* message) {
  (void)ctx;
  if (level >= PMAN_LOG_WARNING) fprintf(stderr, "libpman: %s\n", message);
}

/* The probe leaves out the process that loaded it (own_tgid); watching
 * itself, this one must be seen. */
static int capture_own_process(struct pman_handle* h) {
  struct kestrel_capture_settings settings;
  int err = pman_get_capture_settings(h, &settings);
  if (err < 0) return err;
  settings.own_tgid = 0;
  return pman_update_capture_settings(h, &settings);
}

/* Is `rec` the open of `file` this process made, which returned `fd`?
 * -1 when it is that open but its record says otherwise. */
static int is_own_open(const struct kestrel_record_header* rec, const char* file, int fd) {
  uint16_t name_len, fd_len;
  const char* name = param(rec, OPENAT_name, &name_len);
  const char* fd_value = param(rec, OPENAT_fd, &fd_len);
  const size_t file_len = strlen(file) + 1; /* the record keeps the NUL */
  int64_t record_fd;

  if ((pid_t)rec->tgid != getpid() || name == NULL || name_len != file_len ||
      memcmp(name, file, file_len) != 0)
    return 0;
  if (fd_value == NULL || fd_len != sizeof(record_fd)) return -1;
  memcpy(&record_fd, fd_value, sizeof(record_fd)); /* values are unaligned */
  return record_fd == fd ? 1 : -1;
}

int main(int argc, char** argv) {
  const char* own_file = argc > 1 ? argv[1] : NULL;
  struct pman_options opts;
  pman_default_options(&opts);
  opts.log_fn = log_stderr;

  struct pman_handle* h = NULL;
  if (pman_init(&opts, &h) < 0 || pman_open(h) < 0 || pman_load(h) < 0 ||
      pman_mark_single_64bit_syscall(h, KESTREL_NR_openat, true) < 0 ||
      (own_file != NULL && capture_own_process(h) < 0) || pman_attach(h) < 0) {
    pman_close(h); /* the log callback said why */
    return 1;
  }

  int own_fd = -1, own_seen = 0;
  if (own_file != NULL && (own_fd = open(own_file, O_RDONLY)) < 0) {
    perror(own_file);
    pman_close(h);
    return 1;
  }

  const time_t end = time(NULL) + 5;
  while (own_seen == 0 && time(NULL) < end) {
    void* record;
    int16_t ring;
    if (pman_consume_first_event(h, &record, &ring) < 0) break;
    if (record == NULL) {
      pman_wait_for_events(h, 50);
      continue;
    }
    const struct kestrel_record_header* rec = record;
    if (rec->type == KESTREL_EVT_DROP_MARKER) {
      const struct kestrel_drop_marker_record* m = record;
      printf("lost %llu records on cpu %u\n", (unsigned long long)m->lost, rec->cpu);
      continue;
    }
    if (rec->type != KESTREL_EVT_OPENAT) continue; /* e.g. a settings_changed record */
    uint16_t len;
    const char* path = param(rec, OPENAT_path, &len); /* resolved by the kernel */
    printf("%u openat ", rec->tid);
    if (path != NULL) print_escaped(path, len);
    putchar('\n');
    if (own_fd >= 0) own_seen = is_own_open(rec, own_file, own_fd);
  }

  struct pman_stats stats;
  if (pman_get_stats(h, &stats, NULL, 0) == 0)
    printf("written %llu, ring full %llu\n", (unsigned long long)stats.total.records_written,
           (unsigned long long)stats.total.drops_ring_full);
  pman_close(h);
  if (own_file == NULL) return 0;
  close(own_fd);
  if (own_seen == 1) printf("read back own openat of %s: fd %d\n", own_file, own_fd);
  if (own_seen == -1) fprintf(stderr, "openat_watch: the record of its own open is wrong\n");
  if (own_seen == 0) fprintf(stderr, "openat_watch: its own open never came back\n");
  return own_seen == 1 ? 0 : 1;
}
