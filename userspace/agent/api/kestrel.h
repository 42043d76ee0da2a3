/*
 * kestrel.h: Kestrel's agent as a C library, for security agents that embed
 * it (C, C++, Go through cgo, Rust through bindgen).
 *
 * One handle runs what `kestrel run` runs: it reads Falco's config keys and
 * rules, loads the probe with only the syscalls the rules need, judges
 * every event and hands each alert to a callback (and, if asked, to the
 * config's channels: stdout, file, syslog, program, HTTP).
 *
 *   struct kestrel_options o;
 *   kestrel_default_options(&o);
 *   o.rules_files = files; o.n_rules_files = 1;
 *   o.alert_fn = on_alert; o.alert_ctx = me;
 *   struct kestrel_agent *agent;
 *   char err[256];
 *   if (kestrel_open(&o, &agent, err, sizeof err) < 0) ... err says why
 *   kestrel_start(agent, err, sizeof err);   // a reader thread judges events
 *   ...
 *   kestrel_set_rule_enabled(agent, "Other rule", 1, err, sizeof err);
 *   kestrel_close(agent);                    // stops, drains, frees
 *
 * Conventions, as libpman.h's:
 * - Every call returns 0 or a negative errno; with `err` not NULL, a
 *   failing call writes one NUL-terminated line saying why (cut to
 *   err_len). -EINVAL: a config, rules or argument error (nothing was
 *   started); -EPERM: privileges missing; -ENOTSUP: no kernel BTF;
 *   -ENOENT: a file or rule not found; -EALREADY: started already; -EIO:
 *   the kernel refused the probe or a capture file is damaged; -ECANCELED:
 *   stopped meanwhile; -ENOMEM.
 * - Structs begin with `struct_size`: set it to sizeof(the struct) as your
 *   header knows it (kestrel_default_options does). Later versions only
 *   append fields and read what you sized.
 * - Threads: alert_fn runs on the agent's reader thread during a live run,
 *   on the caller's thread during kestrel_replay; log_fn on any of the
 *   agent's threads. Neither may call back into the same handle. What they
 *   are given is valid only during the call: copy what you keep. A slow
 *   alert_fn slows the reader (the probe's rings then fill and drop).
 * - Every other call may come from any thread, one at a time per handle.
 * - Strings in alerts come from traced processes: `output` is escaped,
 *   fields' values are the raw bytes (value_len of them).
 */
#ifndef KESTREL_H_
#define KESTREL_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped when a call or a struct changes incompatibly; the soname's number. */
#define KESTREL_ABI_VERSION 1

struct kestrel_agent;

enum kestrel_log_level {
  KESTREL_LOG_INFO = 0,    /* progress: probe attached, rules reloaded, stats */
  KESTREL_LOG_WARNING = 1, /* rules skipped, config keys ignored, a channel failing */
  KESTREL_LOG_ERROR = 2,   /* why a call failed, rules errors */
};

typedef void (*kestrel_log_fn)(void* ctx, enum kestrel_log_level level, const char* line);

/* Falco's priorities, in its order. */
enum kestrel_priority {
  KESTREL_PRIORITY_EMERGENCY = 0,
  KESTREL_PRIORITY_ALERT = 1,
  KESTREL_PRIORITY_CRITICAL = 2,
  KESTREL_PRIORITY_ERROR = 3,
  KESTREL_PRIORITY_WARNING = 4,
  KESTREL_PRIORITY_NOTICE = 5,
  KESTREL_PRIORITY_INFORMATIONAL = 6,
  KESTREL_PRIORITY_DEBUG = 7,
};

struct kestrel_output_field {
  const char* name;  /* "proc.name", "fd.name" ... as the rule's output names it */
  const char* value; /* raw bytes, NUL-terminated; NULL when the event has no value */
  size_t value_len;
};

struct kestrel_alert {
  size_t struct_size;
  const char* rule;
  enum kestrel_priority priority;
  const char* priority_name; /* "Warning" */
  uint64_t time_ns;          /* the event's time, ns since the epoch */
  const char* source;        /* "syscall" */
  const char* hostname;
  const char* output; /* the rule's output for the event, escaped, no time or priority */
  const struct kestrel_output_field* fields;
  size_t n_fields;
  const char* const* tags;
  size_t n_tags;
};

typedef void (*kestrel_alert_fn)(void* ctx, const struct kestrel_alert* alert);

struct kestrel_rules_text {
  const char* name; /* stands for a file name in messages */
  const char* yaml; /* Falco-format rules */
};

/* Also send alerts to the channels the config enables (stdout by default). */
#define KESTREL_OPT_CONFIG_OUTPUTS (1u << 0)
/* Pin the capture at pin_dir for `kestrel syscalls` / `kestrel settings`. */
#define KESTREL_OPT_PIN (1u << 1)
/* Do not ask container runtimes (container_engines.*) for metadata. */
#define KESTREL_OPT_NO_CONTAINER_RUNTIMES (1u << 2)
/* A rule naming a field Kestrel lacks is an error, not a skipped rule. */
#define KESTREL_OPT_STRICT (1u << 3)
/* Do not reload when a rules file changes (kestrel_reload still does). */
#define KESTREL_OPT_NO_RULES_WATCH (1u << 4)

struct kestrel_options {
  size_t struct_size;
  const char* config_file;        /* Falco's config (falco.yaml keys); NULL: none */
  const char* const* config_keys; /* "key=value" over it, as `kestrel run -o` */
  size_t n_config_keys;
  const char* const* rules_files; /* files or directories, in place of rules_files */
  size_t n_rules_files;
  const struct kestrel_rules_text* rules_texts; /* loaded after the files */
  size_t n_rules_texts;
  kestrel_alert_fn alert_fn; /* NULL: alerts reach the channels only */
  void* alert_ctx;
  kestrel_log_fn log_fn; /* NULL: no log */
  void* log_ctx;
  uint32_t flags;      /* KESTREL_OPT_* */
  const char* pin_dir; /* with KESTREL_OPT_PIN; NULL: libpman's default */
  /* With neither rules files (here or in the config) nor texts: Kestrel's
   * installed rules. */
};

/* Updated by the reader between batches of records: at most a few ms behind
 * what alert_fn was told. */
struct kestrel_stats {
  size_t struct_size;
  uint64_t records;     /* records read, drop markers included */
  uint64_t events;      /* syscall events judged by the rules */
  uint64_t lost;        /* records the probe could not write */
  uint64_t undecodable; /* records that did not decode */
  uint64_t alerts;
  uint64_t alerts_by_priority[8]; /* by enum kestrel_priority */
  uint64_t rules_loaded;
  uint64_t rules_enabled;
  uint64_t rules_evaluated; /* enabled and at or above the config's priority */
  uint64_t rules_skipped;
  uint64_t syscalls; /* in the probe's syscall set now */
  uint64_t reloads;
  uint64_t reloads_failed;
};

/* KESTREL_ABI_VERSION of the library (not of the header you built with). */
uint32_t kestrel_abi_version(void);
/* Kestrel's version, "0.1.0". */
const char* kestrel_version(void);

/* Fills `options` with the defaults: no config, Kestrel's rules, alerts to
 * the callback only, not pinned, struct_size set. */
void kestrel_default_options(struct kestrel_options* options);

/* Reads the config and loads the rules (warnings and errors to log_fn).
 * Nothing is loaded in the kernel yet. */
int kestrel_open(const struct kestrel_options* options, struct kestrel_agent** agent, char* err,
                 size_t err_len);

/* Loads the probe with the rules' syscalls and starts judging events on a
 * reader thread. Needs CAP_BPF and CAP_PERFMON (or root) and kernel BTF. */
int kestrel_start(struct kestrel_agent* agent, char* err, size_t err_len);

/* Judges a capture file (`kestrel capture -w`, `kestrel run`'s capture
 * windows) on the calling thread instead, then returns. Instead of start. */
int kestrel_replay(struct kestrel_agent* agent, const char* path, char* err, size_t err_len);

/* Loads the rules again (files as they are now) and returns once they judge
 * events; on an error the running rules stay. The syscall set follows the
 * new rules, changed live. */
int kestrel_reload(struct kestrel_agent* agent, char* err, size_t err_len);

/* Enables (enabled != 0) or disables the rule named `rule`, then reloads:
 * the syscalls only it needed are added to or removed from the probe. */
int kestrel_set_rule_enabled(struct kestrel_agent* agent, const char* rule, int enabled, char* err,
                             size_t err_len);

/* Stops the reader: events the probe wrote before are still judged, the
 * channels drain (at most ~1 s). -EIO when the probe did not settle. */
int kestrel_stop(struct kestrel_agent* agent, char* err, size_t err_len);

int kestrel_get_stats(struct kestrel_agent* agent, struct kestrel_stats* stats);

/* Stops if running, detaches the probe and frees the handle. NULL is fine. */
void kestrel_close(struct kestrel_agent* agent);

#ifdef __cplusplus
}
#endif

#endif /* KESTREL_H_ */
