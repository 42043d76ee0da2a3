// Flag names of process events.
#include <linux/sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>

#include "flag_table.h"

namespace kestrel::engine {
namespace {

// The low byte of clone's flags is the exit signal, not a flag.
constexpr uint64_t kCloneSignalMask = 0xff;

constexpr FlagName kSignals[] = {
    {SIGHUP, "SIGHUP"},   {SIGINT, "SIGINT"},       {SIGQUIT, "SIGQUIT"}, {SIGILL, "SIGILL"},
    {SIGTRAP, "SIGTRAP"}, {SIGABRT, "SIGABRT"},     {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},
    {SIGKILL, "SIGKILL"}, {SIGUSR1, "SIGUSR1"},     {SIGSEGV, "SIGSEGV"}, {SIGUSR2, "SIGUSR2"},
    {SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"},     {SIGTERM, "SIGTERM"}, {SIGSTKFLT, "SIGSTKFLT"},
    {SIGCHLD, "SIGCHLD"}, {SIGCONT, "SIGCONT"},     {SIGSTOP, "SIGSTOP"}, {SIGTSTP, "SIGTSTP"},
    {SIGTTIN, "SIGTTIN"}, {SIGTTOU, "SIGTTOU"},     {SIGURG, "SIGURG"},   {SIGXCPU, "SIGXCPU"},
    {SIGXFSZ, "SIGXFSZ"}, {SIGVTALRM, "SIGVTALRM"}, {SIGPROF, "SIGPROF"}, {SIGWINCH, "SIGWINCH"},
    {SIGIO, "SIGIO"},     {SIGPWR, "SIGPWR"},       {SIGSYS, "SIGSYS"},
};

// Namespace bits, shared by clone, unshare and setns.
#define KESTREL_NAMESPACE_FLAGS                                         \
  {CLONE_NEWNS, "CLONE_NEWNS"}, {CLONE_NEWCGROUP, "CLONE_NEWCGROUP"},   \
      {CLONE_NEWUTS, "CLONE_NEWUTS"}, {CLONE_NEWIPC, "CLONE_NEWIPC"},   \
      {CLONE_NEWUSER, "CLONE_NEWUSER"}, {CLONE_NEWPID, "CLONE_NEWPID"}, \
      {CLONE_NEWNET, "CLONE_NEWNET"}, {                                 \
    CLONE_NEWTIME, "CLONE_NEWTIME"                                      \
  }

constexpr FlagName kCloneBits[] = {
    {CLONE_VM, "CLONE_VM"},
    {CLONE_FS, "CLONE_FS"},
    {CLONE_FILES, "CLONE_FILES"},
    {CLONE_SIGHAND, "CLONE_SIGHAND"},
    {CLONE_PIDFD, "CLONE_PIDFD"},
    {CLONE_PTRACE, "CLONE_PTRACE"},
    {CLONE_VFORK, "CLONE_VFORK"},
    {CLONE_PARENT, "CLONE_PARENT"},
    {CLONE_THREAD, "CLONE_THREAD"},
    {CLONE_SYSVSEM, "CLONE_SYSVSEM"},
    {CLONE_SETTLS, "CLONE_SETTLS"},
    {CLONE_PARENT_SETTID, "CLONE_PARENT_SETTID"},
    {CLONE_CHILD_CLEARTID, "CLONE_CHILD_CLEARTID"},
    {CLONE_DETACHED, "CLONE_DETACHED"},
    {CLONE_UNTRACED, "CLONE_UNTRACED"},
    {CLONE_CHILD_SETTID, "CLONE_CHILD_SETTID"},
    {CLONE_IO, "CLONE_IO"},
    KESTREL_NAMESPACE_FLAGS,
};

// unshare takes the namespace bits and a few sharing bits; setns the
// namespace bits only (0 = any type).
constexpr FlagName kUnshareBits[] = {
    {CLONE_FILES, "CLONE_FILES"},     {CLONE_FS, "CLONE_FS"},
    {CLONE_SYSVSEM, "CLONE_SYSVSEM"}, {CLONE_VM, "CLONE_VM"},
    {CLONE_SIGHAND, "CLONE_SIGHAND"}, {CLONE_THREAD, "CLONE_THREAD"},
    KESTREL_NAMESPACE_FLAGS,
};

#undef KESTREL_NAMESPACE_FLAGS

constexpr FlagName kPrctlOptions[] = {
    {PR_SET_PDEATHSIG, "PR_SET_PDEATHSIG"},
    {PR_GET_PDEATHSIG, "PR_GET_PDEATHSIG"},
    {PR_GET_DUMPABLE, "PR_GET_DUMPABLE"},
    {PR_SET_DUMPABLE, "PR_SET_DUMPABLE"},
    {PR_GET_KEEPCAPS, "PR_GET_KEEPCAPS"},
    {PR_SET_KEEPCAPS, "PR_SET_KEEPCAPS"},
    {PR_SET_NAME, "PR_SET_NAME"},
    {PR_GET_NAME, "PR_GET_NAME"},
    {PR_GET_SECCOMP, "PR_GET_SECCOMP"},
    {PR_SET_SECCOMP, "PR_SET_SECCOMP"},
    {PR_CAPBSET_READ, "PR_CAPBSET_READ"},
    {PR_CAPBSET_DROP, "PR_CAPBSET_DROP"},
    {PR_GET_SECUREBITS, "PR_GET_SECUREBITS"},
    {PR_SET_SECUREBITS, "PR_SET_SECUREBITS"},
    {PR_SET_MM, "PR_SET_MM"},
    {PR_SET_PTRACER, "PR_SET_PTRACER"},
    {PR_SET_CHILD_SUBREAPER, "PR_SET_CHILD_SUBREAPER"},
    {PR_GET_CHILD_SUBREAPER, "PR_GET_CHILD_SUBREAPER"},
    {PR_SET_NO_NEW_PRIVS, "PR_SET_NO_NEW_PRIVS"},
    {PR_GET_NO_NEW_PRIVS, "PR_GET_NO_NEW_PRIVS"},
    {PR_CAP_AMBIENT, "PR_CAP_AMBIENT"},
};

constexpr FlagName kPtraceRequests[] = {
    {PTRACE_TRACEME, "PTRACE_TRACEME"},
    {PTRACE_PEEKTEXT, "PTRACE_PEEKTEXT"},
    {PTRACE_PEEKDATA, "PTRACE_PEEKDATA"},
    {PTRACE_PEEKUSER, "PTRACE_PEEKUSER"},
    {PTRACE_POKETEXT, "PTRACE_POKETEXT"},
    {PTRACE_POKEDATA, "PTRACE_POKEDATA"},
    {PTRACE_POKEUSER, "PTRACE_POKEUSER"},
    {PTRACE_CONT, "PTRACE_CONT"},
    {PTRACE_KILL, "PTRACE_KILL"},
    {PTRACE_SINGLESTEP, "PTRACE_SINGLESTEP"},
    {PTRACE_GETREGS, "PTRACE_GETREGS"},
    {PTRACE_SETREGS, "PTRACE_SETREGS"},
    {PTRACE_ATTACH, "PTRACE_ATTACH"},
    {PTRACE_DETACH, "PTRACE_DETACH"},
    {PTRACE_SYSCALL, "PTRACE_SYSCALL"},
    {PTRACE_SETOPTIONS, "PTRACE_SETOPTIONS"},
    {PTRACE_GETEVENTMSG, "PTRACE_GETEVENTMSG"},
    {PTRACE_GETSIGINFO, "PTRACE_GETSIGINFO"},
    {PTRACE_SETSIGINFO, "PTRACE_SETSIGINFO"},
    {PTRACE_SEIZE, "PTRACE_SEIZE"},
    {PTRACE_INTERRUPT, "PTRACE_INTERRUPT"},
    {PTRACE_LISTEN, "PTRACE_LISTEN"},
};

// The exec family's exe facts, bit for bit Falco's PPM_EXE_* (the probe
// writes them; see process_fillers.bpf.c).
constexpr FlagName kExecveBits[] = {
    {1 << 0, "EXE_WRITABLE"},
    {1 << 1, "EXE_UPPER_LAYER"},
    {1 << 2, "EXE_FROM_MEMFD"},
    {1 << 3, "EXE_LOWER_LAYER"},
};

}  // namespace

std::optional<FlagTable> ProcessFlagTable(kestrel_flag_set set) {
  switch (set) {
    case KFS_CLONE_FLAGS:
      return FlagTable{kCloneBits, kSignals, kCloneSignalMask};
    case KFS_UNSHARE_FLAGS:
      return FlagTable{kUnshareBits, {}, 0};
    case KFS_PRCTL_OPTION:
      return FlagTable{{}, kPrctlOptions, 0};
    case KFS_PTRACE_REQUEST:
      return FlagTable{{}, kPtraceRequests, 0};
    case KFS_SIGNAL:
      return FlagTable{{}, kSignals, 0};
    case KFS_EXECVE_FLAGS:
      return FlagTable{kExecveBits, {}, 0};
    default:
      return std::nullopt;
  }
}

}  // namespace kestrel::engine
