/* A security agent in C on Kestrel's installed library (kestrel.h): loads
 * a rules file, raises an alert with a real open(2) (by `touch`: the probe
 * leaves the agent's own process out), prints it from the callback, then
 * enables a second rule live (the probe's syscall set grows) and raises
 * that one with a real chmod(2) (by `chmod`).
 *
 * Usage: c_agent RULES_FILE      (as root: the probe loads)
 * Build: cc c_agent.c $(pkg-config --cflags --libs kestrel) */
#define _POSIX_C_SOURCE 200809L /* nanosleep under -std=c11 */

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <kestrel.h>

static atomic_int alerts_seen;

/* On the agent's reader thread: print and count, nothing more. */
static void on_alert(void* ctx, const struct kestrel_alert* a) {
  (void)ctx;
  printf("alert: %s: %s: %s\n", a->priority_name, a->rule, a->output);
  for (size_t i = 0; i < a->n_fields; ++i) {
    printf("  %s=%s\n", a->fields[i].name, a->fields[i].value ? a->fields[i].value : "<NA>");
  }
  fflush(stdout);
  atomic_fetch_add(&alerts_seen, 1);
}

static void on_log(void* ctx, enum kestrel_log_level level, const char* line) {
  (void)ctx;
  if (level >= KESTREL_LOG_WARNING) fprintf(stderr, "kestrel: %s\n", line);
}

/* Waits up to 10 s for the callback to have seen `n` alerts. */
static int wait_for_alerts(int n) {
  for (int i = 0; i < 1000 && atomic_load(&alerts_seen) < n; ++i) {
    struct timespec tick = {0, 10 * 1000 * 1000};
    nanosleep(&tick, NULL);
  }
  return atomic_load(&alerts_seen) >= n;
}

/* The probe leaves the agent's own process out (its own reads would feed
 * back): the calls to catch are made by commands it runs, whose execve
 * tells the agent who they are. */
static void run_command(const char* file, const char* arg1, const char* arg2) {
  pid_t pid = fork();
  if (pid == 0) {
    execlp(file, file, arg1, arg2, (char*)NULL);
    _exit(127);
  }
  if (pid > 0) waitpid(pid, NULL, 0);
}

static uint64_t syscall_count(struct kestrel_agent* agent) {
  struct kestrel_stats stats = {.struct_size = sizeof stats};
  return kestrel_get_stats(agent, &stats) == 0 ? stats.syscalls : 0;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s RULES_FILE\n", argv[0]);
    return 2;
  }
  const char* rules[] = {argv[1]};
  struct kestrel_options options;
  kestrel_default_options(&options);
  options.rules_files = rules;
  options.n_rules_files = 1;
  options.alert_fn = on_alert;
  options.log_fn = on_log;
  options.flags = KESTREL_OPT_NO_CONTAINER_RUNTIMES;

  char err[512];
  struct kestrel_agent* agent = NULL;
  int rc = kestrel_open(&options, &agent, err, sizeof err);
  if (rc < 0) {
    fprintf(stderr, "kestrel_open: %s (%d)\n", err, rc);
    return 1;
  }
  printf("kestrel %s, ABI %u\n", kestrel_version(), kestrel_abi_version());
  if ((rc = kestrel_start(agent, err, sizeof err)) < 0) {
    fprintf(stderr, "kestrel_start: %s (%d)\n", err, rc);
    kestrel_close(agent);
    return 1;
  }
  printf("started: %llu syscalls\n", (unsigned long long)syscall_count(agent));

  char path[64];
  snprintf(path, sizeof path, "/tmp/kestrel-agent-example-%d", (int)getpid());
  run_command("touch", path, NULL);
  int ok = wait_for_alerts(1);

  /* Live: the disabled rule is enabled, its syscalls join the probe's set. */
  if (ok && (rc = kestrel_set_rule_enabled(agent, "Example file chmod", 1, err, sizeof err)) < 0) {
    fprintf(stderr, "kestrel_set_rule_enabled: %s (%d)\n", err, rc);
    ok = 0;
  }
  if (ok) {
    printf("rule enabled: %llu syscalls\n", (unsigned long long)syscall_count(agent));
    run_command("chmod", "640", path);
    ok = wait_for_alerts(2);
  }
  unlink(path);

  rc = kestrel_stop(agent, err, sizeof err);
  struct kestrel_stats stats = {.struct_size = sizeof stats};
  kestrel_get_stats(agent, &stats);
  printf("stopped: %llu events, %llu alerts\n", (unsigned long long)stats.events,
         (unsigned long long)stats.alerts);
  kestrel_close(agent);
  if (!ok) fprintf(stderr, "the expected alerts did not come\n");
  return ok && rc == 0 ? 0 : 1;
}
