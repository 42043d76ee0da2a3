#include "field_catalog.h"

#include "absl/container/flat_hash_map.h"

namespace kestrel::engine::fields {
namespace {

using filter::ValueType;
constexpr ValueType S = ValueType::kString;
constexpr ValueType I = ValueType::kInt;
constexpr ValueType U = ValueType::kUint;
constexpr ValueType B = ValueType::kBool;
constexpr ValueType A = ValueType::kIpAddr;
constexpr ValueType N = ValueType::kIpNet;
constexpr ValueType L = ValueType::kStringList;
constexpr ValueType D = ValueType::kDouble;
constexpr FieldArg kNo = FieldArg::kNone;
constexpr filter::Multiplicity kEitherEnd = filter::Multiplicity::kEitherEnd;

// Types follow Falco's: pids and fds are signed (they are int64 there),
// uids, ports, counts and times unsigned.
constexpr FieldDef kFields[] = {
    {"evt.type", FieldKind::kEvtType, S, kNo, "the syscall's name (openat, execve ...)"},
    {"evt.dir", FieldKind::kEvtDir, S, kNo,
     "'<' for a syscall's exit: Kestrel records every syscall once, at its exit"},
    {"evt.num", FieldKind::kEvtNum, U, kNo, "the event's number in the stream, from 1"},
    {"evt.time", FieldKind::kEvtTime, S, kNo, "local time of the event, HH:MM:SS.nanoseconds"},
    {"evt.time.s", FieldKind::kEvtTimeS, S, kNo, "local time of the event, HH:MM:SS"},
    {"evt.time.iso8601", FieldKind::kEvtTimeIso8601, S, kNo,
     "UTC time of the event, YYYY-MM-DDTHH:MM:SS.nanosecondsZ"},
    {"evt.datetime", FieldKind::kEvtDatetime, S, kNo,
     "local date and time of the event, YYYY-MM-DD HH:MM:SS.nanoseconds"},
    {"evt.rawtime", FieldKind::kEvtRawtime, U, kNo, "the event's time in ns since the epoch"},
    {"evt.res", FieldKind::kEvtRes, S, kNo,
     "SUCCESS, or the error's name (ENOENT) when the syscall failed"},
    {"evt.rawres", FieldKind::kEvtRawres, I, kNo, "the syscall's return value as a number"},
    {"evt.failed", FieldKind::kEvtFailed, B, kNo, "true when the syscall returned an error"},
    {"evt.is_open_read", FieldKind::kEvtIsOpenRead, B, kNo,
     "true for an open that asked for reading (O_RDONLY or O_RDWR)"},
    {"evt.is_open_write", FieldKind::kEvtIsOpenWrite, B, kNo,
     "true for an open that asked for writing (O_WRONLY or O_RDWR)"},
    {"evt.is_open_exec", FieldKind::kEvtIsOpenExec, B, kNo,
     "true for an open or creat that creates a file with an execute bit in its mode"},
    {"evt.is_open_create", FieldKind::kEvtIsOpenCreate, B, kNo,
     "true for an open, openat or openat2 that created the file (O_TMPFILE too); false for "
     "creat, as in Falco"},
    {"evt.arg", FieldKind::kEvtArg, S, FieldArg::kParam,
     "one parameter as text, by name (evt.arg.flags) or by position (evt.arg[0])"},
    {"evt.rawarg", FieldKind::kEvtRawarg, S, FieldArg::kParamName,
     "one parameter's raw value by name: a number for numeric parameters"},
    {"evt.args", FieldKind::kEvtArgs, S, kNo, "every parameter as name=value text"},
    {"evt.buffer", FieldKind::kEvtBuffer, S, kNo, "the data buffer of an I/O event, as bytes"},
    {"evt.count", FieldKind::kEvtCount, U, kNo, "always 1: counts events when aggregated"},
    {"evt.category", FieldKind::kEvtCategory, S, kNo,
     "the event's kind: file, net, process, memory, IPC, signal, user, time, system, other"},

    {"proc.name", FieldKind::kProcName, S, kNo, "the process's name (its comm, 15 bytes at most)"},
    {"proc.pid", FieldKind::kProcPid, I, kNo, "the process id"},
    {"proc.ppid", FieldKind::kProcPpid, I, kNo, "the parent's process id"},
    {"proc.pname", FieldKind::kProcPname, S, kNo, "the parent's name"},
    {"proc.pcmdline", FieldKind::kProcPcmdline, S, kNo,
     "the parent's name and arguments (\"bash -c ls\")"},
    {"proc.exe", FieldKind::kProcExe, S, kNo, "the first command-line argument (argv[0])"},
    {"proc.exepath", FieldKind::kProcExepath, S, kNo, "the full path of the executable file"},
    {"proc.pexe", FieldKind::kProcPexe, S, kNo, "the parent's argv[0]"},
    {"proc.pexepath", FieldKind::kProcPexepath, S, kNo, "the parent's executable path"},
    {"proc.aexepath", FieldKind::kProcAexepath, S, FieldArg::kOptionalIndex,
     "the executable path of the Nth ancestor ([0] the process); without [N], any ancestor's"},
    {"proc.cmdline", FieldKind::kProcCmdline, S, kNo,
     "the process's name and arguments, space separated"},
    {"proc.exeline", FieldKind::kProcExeline, S, kNo, "argv[0] and the arguments, space separated"},
    {"proc.args", FieldKind::kProcArgs, S, kNo, "the arguments (argv[1..]), space separated"},
    {"proc.cwd", FieldKind::kProcCwd, S, kNo, "the working directory, ending with '/'"},
    {"proc.tty", FieldKind::kProcTty, U, kNo, "the controlling terminal's device number; 0 = none"},
    {"proc.sid", FieldKind::kProcSid, I, kNo, "the session id"},
    {"proc.sname", FieldKind::kProcSname, S, kNo, "the name of the session's leader"},
    {"proc.vpid", FieldKind::kProcVpid, I, kNo, "the process id in its own pid namespace"},
    {"proc.loginuid", FieldKind::kProcLoginuid, I, kNo, "the audit login uid; -1 when never set"},
    {"proc.aname", FieldKind::kProcAname, S, FieldArg::kOptionalIndex,
     "the name of the Nth ancestor ([0] the process); without [N], any ancestor's"},
    {"proc.apid", FieldKind::kProcApid, I, FieldArg::kOptionalIndex,
     "the pid of the Nth ancestor ([0] the process); without [N], any ancestor's"},
    {"proc.duration", FieldKind::kProcDuration, U, kNo, "ns since the process started"},
    {"proc.is_exe_writable", FieldKind::kProcIsExeWritable, B, kNo,
     "true when the executable file is writable by the process's user"},
    {"proc.is_exe_from_memfd", FieldKind::kProcIsExeFromMemfd, B, kNo,
     "true when the executable is a memfd (fileless execution)"},
    {"proc.is_exe_upper_layer", FieldKind::kProcIsExeUpperLayer, B, kNo,
     "true when the executable lives in an overlayfs upper layer (written in the container)"},
    {"proc.is_exe_lower_layer", FieldKind::kProcIsExeLowerLayer, B, kNo,
     "true when the executable lives in an overlayfs lower layer (shipped with the image)"},
    {"proc.exe_ino", FieldKind::kProcExeIno, I, kNo, "the executable file's inode number"},
    {"proc.exe_ino.ctime", FieldKind::kProcExeInoCtime, U, kNo,
     "the executable's last status change, ns since the epoch"},
    {"proc.exe_ino.mtime", FieldKind::kProcExeInoMtime, U, kNo,
     "the executable's last modification, ns since the epoch"},
    {"proc.exe_ino.ctime_duration_proc_start", FieldKind::kProcExeInoCtimeDurationProcStart, U, kNo,
     "ns between the executable's last status change and the process's start"},
    {"proc.exe_ino.ctime_duration_pidns_start", FieldKind::kProcExeInoCtimeDurationPidnsStart, U,
     kNo,
     "ns between the start of the pid namespace's init and the executable's last status change, "
     "when that change came later"},
    {"proc.pidns_init_start_ts", FieldKind::kProcPidnsInitStartTs, U, kNo,
     "the start of the process's pid namespace's init, ns since the epoch (boot time on the "
     "host)"},
    {"proc.env", FieldKind::kProcEnv, S, FieldArg::kEnvName,
     "the environment, space separated; proc.env[VAR] is one variable's value"},
    {"proc.is_container_healthcheck", FieldKind::kProcIsContainerHealthcheck, B, kNo,
     "true for a container's health check; false on the host (absent in a container: from the "
     "runtime)"},

    {"thread.tid", FieldKind::kThreadTid, I, kNo, "the thread id"},
    {"thread.vtid", FieldKind::kThreadVtid, I, kNo, "the thread id in its own pid namespace"},
    {"thread.cap_effective", FieldKind::kThreadCapEffective, S, kNo,
     "the effective capabilities, space separated (CAP_CHOWN CAP_KILL ...)"},
    {"thread.cap_permitted", FieldKind::kThreadCapPermitted, S, kNo,
     "the permitted capabilities, space separated"},

    {"user.uid", FieldKind::kUserUid, U, kNo, "the effective user id"},
    {"user.name", FieldKind::kUserName, S, kNo, "the effective user's name (/etc/passwd)"},
    {"user.loginuid", FieldKind::kUserLoginuid, I, kNo, "the audit login uid; -1 when never set"},
    {"user.loginname", FieldKind::kUserLoginname, S, kNo, "the name of the audit login user"},
    {"group.gid", FieldKind::kGroupGid, U, kNo, "the effective group id"},
    {"group.name", FieldKind::kGroupName, S, kNo, "the effective group's name (/etc/group)"},

    {"fd.num", FieldKind::kFdNum, I, kNo, "the descriptor the event refers to"},
    {"fd.type", FieldKind::kFdType, S, kNo,
     "the descriptor's kind: file, directory, ipv4, ipv6, unix, pipe, event, signalfd ..."},
    {"fd.typechar", FieldKind::kFdTypechar, S, kNo,
     "the descriptor's kind in one letter: f d 4 6 u p e s l i t n m P b r"},
    {"fd.name", FieldKind::kFdName, S, kNo,
     "the absolute path of a file, the tuple of a socket (1.2.3.4:5->6.7.8.9:10)"},
    {"fd.nameraw", FieldKind::kFdNameraw, S, kNo, "the path as the opening call passed it"},
    {"fd.name_changed", FieldKind::kFdNameChanged, B, kNo,
     "true when this event changed the name of a descriptor it used (a UDP socket "
     "connected to a new peer, a bind naming a unix socket)"},
    {"fd.connected", FieldKind::kFdConnected, B, kNo, "true for a connected socket"},
    {"fd.directory", FieldKind::kFdDirectory, S, kNo, "the directory of a file descriptor's path"},
    {"fd.filename", FieldKind::kFdFilename, S, kNo,
     "the last component of a file descriptor's path"},
    {"fd.ip", FieldKind::kFdIp, A, kNo,
     "either end's address of an IP socket: fd.ip = 10.0.0.1 matches the client or the server",
     kEitherEnd},
    {"fd.cip", FieldKind::kFdCip, A, kNo, "the client's address of an IP socket"},
    {"fd.sip", FieldKind::kFdSip, A, kNo, "the server's address of an IP socket"},
    {"fd.lip", FieldKind::kFdLip, A, kNo, "the local address of an IP socket"},
    {"fd.rip", FieldKind::kFdRip, A, kNo, "the remote address of an IP socket"},
    {"fd.port", FieldKind::kFdPort, U, kNo,
     "either end's port of an IP socket: fd.port = 443 matches the client or the server",
     kEitherEnd},
    {"fd.cport", FieldKind::kFdCport, U, kNo, "the client's port"},
    {"fd.sport", FieldKind::kFdSport, U, kNo, "the server's port"},
    {"fd.lport", FieldKind::kFdLport, U, kNo, "the local port"},
    {"fd.rport", FieldKind::kFdRport, U, kNo, "the remote port"},
    {"fd.l4proto", FieldKind::kFdL4proto, S, kNo, "a socket's protocol: tcp, udp, icmp, raw"},
    {"fd.sockfamily", FieldKind::kFdSockfamily, S, kNo, "a socket's family: ip or unix"},
    {"fd.net", FieldKind::kFdNet, N, kNo,
     "either end's address compared with networks (fd.net in (10.0.0.0/8, fd00::/8))", kEitherEnd},
    {"fd.snet", FieldKind::kFdSnet, N, kNo,
     "the server's address compared with networks (fd.snet = 192.168.0.0/16)"},
    {"fd.cnet", FieldKind::kFdCnet, N, kNo, "the client's address compared with networks"},
    {"fd.is_upper_layer", FieldKind::kFdIsUpperLayer, B, kNo,
     "true for a file opened on an overlayfs upper layer"},
    {"fd.is_lower_layer", FieldKind::kFdIsLowerLayer, B, kNo,
     "true for a file opened on an overlayfs lower layer"},
    {"fd.is_server", FieldKind::kFdIsServer, B, kNo,
     "true when the process is the server end of the socket"},
    {"fd.sip.name", FieldKind::kFdSipName, S, kNo,
     "the names compared in the rules that the server's address resolves to (=, != and in only)",
     kEitherEnd},

    {"fs.path.name", FieldKind::kFsPathName, S, kNo,
     "the absolute path a filesystem event acts on"},
    {"fs.path.nameraw", FieldKind::kFsPathNameraw, S, kNo, "that path as the caller passed it"},
    {"fs.path.source", FieldKind::kFsPathSource, S, kNo,
     "the absolute source path of a rename, link or symlink"},
    {"fs.path.target", FieldKind::kFsPathTarget, S, kNo,
     "the absolute target path of a rename, link or symlink"},

    {"container.id", FieldKind::kContainerId, S, kNo,
     "the container's short id (12 hex digits), or host"},
    {"container.type", FieldKind::kContainerType, S, kNo,
     "the runtime the container's cgroup names: docker, podman, containerd, cri-o, or host; a "
     "Kubernetes pod's cgroup names none: the CRI that knows it (containerd, cri-o), else cri"},
    {"container.full_id", FieldKind::kContainerFullId, S, kNo,
     "the container's id, all 64 hex digits, or host"},
    {"container.name", FieldKind::kContainerName, S, kNo,
     "the container's name; host on the host (absent in a container: from the runtime)"},
    {"container.image", FieldKind::kContainerImage, S, kNo,
     "the container's image (absent: from the runtime)"},
    {"container.image.repository", FieldKind::kContainerImageRepository, S, kNo,
     "the image's repository (absent: from the runtime)"},
    {"container.image.tag", FieldKind::kContainerImageTag, S, kNo,
     "the image's tag (absent: from the runtime)"},
    {"container.image.digest", FieldKind::kContainerImageDigest, S, kNo,
     "the digest the image reference pins, if any (absent: from the runtime)"},
    {"container.image.id", FieldKind::kContainerImageId, S, kNo,
     "the image's id, 64 hex digits (absent: from the runtime)"},
    {"container.label", FieldKind::kContainerLabel, S, FieldArg::kKey,
     "the value of the container's label KEY (absent: from the runtime)"},
    {"container.labels", FieldKind::kContainerLabels, S, kNo,
     "the container's labels, key:value, comma-separated (absent: from the runtime)"},
    {"container.host_network", FieldKind::kContainerHostNetwork, B, kNo,
     "true when the container shares the host's network namespace (absent: from the runtime)"},
    {"container.host_pid", FieldKind::kContainerHostPid, B, kNo,
     "true when the container shares the host's pid namespace (absent: from the runtime)"},
    {"container.host_ipc", FieldKind::kContainerHostIpc, B, kNo,
     "true when the container shares the host's ipc namespace (absent: from the runtime)"},
    {"container.ip", FieldKind::kContainerIp, S, kNo,
     "the container's address (absent: from the runtime)"},
    {"container.user", FieldKind::kContainerUser, S, kNo,
     "the user the container's processes run as, as configured (absent: from the runtime)"},
    {"container.healthcheck", FieldKind::kContainerHealthcheck, S, kNo,
     "the command line of the container's health check; N/A when it has none (absent: from the "
     "runtime)"},
    {"k8s.pod.uid", FieldKind::kK8sPodUid, S, kNo,
     "the Kubernetes pod's uid: the container's io.kubernetes.pod.uid label (absent: not a pod's, "
     "or from the runtime)"},
    {"k8s.pod.id", FieldKind::kK8sPodId, S, kNo, "k8s.pod.uid, by its older name"},
    {"k8s.pod.sandbox_id", FieldKind::kK8sPodSandboxId, S, kNo,
     "the pod sandbox's id, 12 hex digits, as the runtime names it (absent: not a pod's, or from "
     "the runtime)"},
    {"k8s.pod.full_sandbox_id", FieldKind::kK8sPodFullSandboxId, S, kNo,
     "the pod sandbox's whole id (absent: not a pod's, or from the runtime)"},
    {"container.privileged", FieldKind::kContainerPrivileged, B, kNo,
     "true for a privileged container (absent: from the runtime)"},
    {"container.mounts", FieldKind::kContainerMounts, S, kNo,
     "the container's mounts (absent: from the runtime)"},
    {"container.start_ts", FieldKind::kContainerStartTs, U, kNo,
     "the start of the process's pid namespace's init, ns since the epoch (as Falco, on the host "
     "too); in a container's pid namespace, the container's start as its runtime says (absent: "
     "from the runtime)"},
    {"container.duration", FieldKind::kContainerDuration, U, kNo,
     "ns from container.start_ts to the event (absent with container.start_ts)"},
    {"k8s.ns.name", FieldKind::kK8sNsName, S, kNo,
     "the Kubernetes namespace: the container's io.kubernetes.pod.namespace label (absent: not "
     "a pod's, or from the runtime)"},
    {"k8s.pod.name", FieldKind::kK8sPodName, S, kNo,
     "the Kubernetes pod: the container's io.kubernetes.pod.name label (absent: not a pod's, or "
     "from the runtime)"},
    {"proc.aexe", FieldKind::kProcAexe, S, FieldArg::kIndex,
     "proc.exe of the ancestor N levels up (1 = the parent)"},
    {"proc.is_vpgid_leader", FieldKind::kProcIsVpgidLeader, B, kNo,
     "true when the process leads its process group"},
    {"container.mount.dest", FieldKind::kContainerMountDest, S, FieldArg::kPath,
     "the destination of the container's mount whose source matches PATH (a glob), or of its "
     "mount number N; N/A when there is none (absent: from the runtime)"},
    {"fd.cip.name", FieldKind::kFdCipName, S, kNo,
     "the names compared in the rules that the client's address resolves to", kEitherEnd},
    {"fd.lip.name", FieldKind::kFdLipName, S, kNo,
     "the names compared in the rules that the local address resolves to", kEitherEnd},
    {"fd.rip.name", FieldKind::kFdRipName, S, kNo,
     "the names compared in the rules that the remote address resolves to", kEitherEnd},
    {"fd.lnet", FieldKind::kFdLnet, N, kNo,
     "the local address compared with networks (fd.lnet = 10.0.0.0/8)"},
    {"fd.rnet", FieldKind::kFdRnet, N, kNo,
     "the remote address compared with networks (fd.rnet != 10.0.0.0/8)"},
    {"container.mount", FieldKind::kContainerMount, S, FieldArg::kPath,
     "the container's mount whose source matches PATH (a glob), or its mount number N, as "
     "source:dest:mode:rdwr:propagation; N/A when there is none (absent: from the runtime)"},
    {"container.mount.source", FieldKind::kContainerMountSource, S, FieldArg::kPath,
     "the source of the container's mount whose destination matches PATH (a glob), or of its "
     "mount number N; N/A when there is none (absent: from the runtime)"},
    {"container.mount.mode", FieldKind::kContainerMountMode, S, FieldArg::kPath,
     "the mode of the mount whose source matches PATH, or of mount number N; N/A when there is "
     "none (absent: from the runtime)"},
    {"container.mount.rdwr", FieldKind::kContainerMountRdwr, S, FieldArg::kPath,
     "true or false: whether the mount whose source matches PATH, or mount number N, is "
     "writable; N/A when there is none (absent: from the runtime)"},
    {"container.mount.propagation", FieldKind::kContainerMountPropagation, S, FieldArg::kPath,
     "the propagation of the mount whose source matches PATH, or of mount number N; N/A when "
     "there is none (absent: from the runtime)"},
    {"k8s.pod.label", FieldKind::kK8sPodLabel, S, FieldArg::kKey,
     "the pod's label KEY, from its sandbox (absent: not a pod's, or from the runtime)"},
    {"k8s.pod.labels", FieldKind::kK8sPodLabels, S, kNo,
     "the pod's labels as key:value joined by \", \" (absent: not a pod's, or from the runtime)"},
    {"k8s.pod.ip", FieldKind::kK8sPodIp, S, kNo,
     "the pod's address: its sandbox's (absent: not a pod's, or from the runtime)"},

    // Issue 38: the rest of Falco's syscall-source fields Kestrel's records
    // and state can fill (docs/design/fields.md lists those they cannot).
    {"evt.source", FieldKind::kEvtSource, S, kNo,
     "the source the event comes from: syscall for every event Kestrel captures"},
    {"evt.hostname", FieldKind::kEvtHostname, S, kNo,
     "the name of the host the event happened on (a capture file's: the host it was "
     "recorded on)"},
    {"evt.cpu", FieldKind::kEvtCpu, I, kNo, "the CPU the probe recorded the event on"},
    {"syscall.type", FieldKind::kSyscallType, S, kNo,
     "the syscall's name; absent for events no syscall made (scheduler hooks)"},
    {"evt.info", FieldKind::kEvtInfo, S, kNo, "the same text as evt.args, as in Falco"},
    {"evt.buflen", FieldKind::kEvtBuflen, U, kNo,
     "bytes a read or write moved (its return value) on a descriptor Kestrel knows; absent "
     "when it failed"},
    {"evt.buflen.in", FieldKind::kEvtBuflenIn, U, kNo, "evt.buflen of reads only"},
    {"evt.buflen.out", FieldKind::kEvtBuflenOut, U, kNo, "evt.buflen of writes only"},
    {"evt.is_io", FieldKind::kEvtIsIo, B, kNo,
     "true for a syscall that reads data from or writes data to a descriptor"},
    {"evt.is_io_read", FieldKind::kEvtIsIoRead, B, kNo,
     "true for a syscall that reads from a descriptor (read, pread64, readv, recvfrom ...)"},
    {"evt.is_io_write", FieldKind::kEvtIsIoWrite, B, kNo,
     "true for a syscall that writes to a descriptor (write, pwrite64, writev, sendto ...)"},
    {"evt.io_dir", FieldKind::kEvtIoDir, S, kNo,
     "read or write for an I/O syscall (write when it does both); absent for others"},
    {"evt.is_syslog", FieldKind::kEvtIsSyslog, B, kNo,
     "true for a write to the syslog socket /dev/log"},
    {"evt.abspath", FieldKind::kEvtAbspath, S, kNo,
     "the absolute path of an *at syscall's path argument, joined to its directory fd's "
     "folder or the cwd (the source path of renameat and linkat)"},
    {"evt.abspath.src", FieldKind::kEvtAbspathSrc, S, kNo,
     "renameat's or linkat's source path, made absolute the same way"},
    {"evt.abspath.dst", FieldKind::kEvtAbspathDst, S, kNo,
     "renameat's or linkat's destination path, made absolute the same way"},
    {"evt.count.error", FieldKind::kEvtCountError, U, kNo,
     "1 when the syscall failed, else 0: counts errors when aggregated"},
    {"evt.count.error.file", FieldKind::kEvtCountErrorFile, U, kNo,
     "evt.count.error of file syscalls (on a file or directory, or a failed open); absent "
     "for others"},
    {"evt.count.error.net", FieldKind::kEvtCountErrorNet, U, kNo,
     "evt.count.error of socket syscalls (on a socket, or a failed accept or connect); "
     "absent for others"},
    {"evt.count.error.memory", FieldKind::kEvtCountErrorMemory, U, kNo,
     "evt.count.error of memory syscalls (mmap, brk ...); absent for others"},
    {"evt.count.error.other", FieldKind::kEvtCountErrorOther, U, kNo,
     "evt.count.error of the syscalls neither file, net nor memory; absent for those"},
    {"evt.count.exit", FieldKind::kEvtCountExit, U, kNo,
     "1 for an exit event: every event Kestrel records is a syscall's exit"},
    {"evt.datetime.s", FieldKind::kEvtDatetimeS, S, kNo,
     "local date and time of the event, YYYY-MM-DD HH:MM:SS"},
    {"evt.rawtime.s", FieldKind::kEvtRawtimeS, U, kNo, "whole seconds of evt.rawtime"},
    {"evt.rawtime.ns", FieldKind::kEvtRawtimeNs, U, kNo,
     "the nanoseconds of evt.rawtime past its whole second"},

    {"proc.pid.ts", FieldKind::kProcPidTs, U, kNo, "when the process started, ns since the epoch"},
    {"proc.ppid.ts", FieldKind::kProcPpidTs, U, kNo, "when the parent started, ns since the epoch"},
    {"proc.ppid.duration", FieldKind::kProcPpidDuration, U, kNo, "ns since the parent started"},
    {"proc.pvpid", FieldKind::kProcPvpid, I, kNo,
     "the parent's process id in its own pid namespace"},
    {"proc.pgid", FieldKind::kProcPgid, I, kNo,
     "the process group id as the host numbers it (absent for a process in a pid namespace "
     "of its own, whose group id Kestrel may know in that namespace's numbering only)"},
    {"proc.vpgid", FieldKind::kProcVpgid, I, kNo,
     "the process group id in the process's pid namespace (absent as proc.pgid is)"},
    {"proc.pgid.name", FieldKind::kProcPgidName, S, kNo, "the name of the process group's leader"},
    {"proc.pgid.exe", FieldKind::kProcPgidExe, S, kNo, "the process group leader's argv[0]"},
    {"proc.pgid.exepath", FieldKind::kProcPgidExepath, S, kNo,
     "the process group leader's executable path"},
    {"proc.vpgid.name", FieldKind::kProcVpgidName, S, kNo,
     "the name of the leader of the group proc.vpgid names"},
    {"proc.vpgid.exe", FieldKind::kProcVpgidExe, S, kNo,
     "the argv[0] of the leader of the group proc.vpgid names"},
    {"proc.vpgid.exepath", FieldKind::kProcVpgidExepath, S, kNo,
     "the executable path of the leader of the group proc.vpgid names"},
    {"proc.sid.exe", FieldKind::kProcSidExe, S, kNo, "the session leader's argv[0]"},
    {"proc.sid.exepath", FieldKind::kProcSidExepath, S, kNo,
     "the session leader's executable path"},
    {"proc.is_sid_leader", FieldKind::kProcIsSidLeader, B, kNo,
     "true when the process leads its session"},
    {"proc.is_pgid_leader", FieldKind::kProcIsPgidLeader, B, kNo,
     "true when the process leads its process group (absent as proc.pgid is)"},
    {"proc.cmdnargs", FieldKind::kProcCmdnargs, U, kNo, "how many arguments proc.args has"},
    {"proc.cmdlenargs", FieldKind::kProcCmdlenargs, U, kNo,
     "the arguments' total length in bytes, the spaces between them not counted"},
    {"proc.aargs", FieldKind::kProcAargs, S, FieldArg::kOptionalIndex,
     "proc.args of the Nth ancestor ([0] the process); without [N], any ancestor's"},
    {"proc.acmdline", FieldKind::kProcAcmdline, S, FieldArg::kOptionalIndex,
     "proc.cmdline of the Nth ancestor ([0] the process); without [N], any ancestor's"},
    {"proc.stdin.type", FieldKind::kProcStdinType, S, kNo,
     "fd.type of the process's descriptor 0; absent when it has none"},
    {"proc.stdout.type", FieldKind::kProcStdoutType, S, kNo, "fd.type of descriptor 1"},
    {"proc.stderr.type", FieldKind::kProcStderrType, S, kNo, "fd.type of descriptor 2"},
    {"proc.stdin.name", FieldKind::kProcStdinName, S, kNo, "fd.name of descriptor 0"},
    {"proc.stdout.name", FieldKind::kProcStdoutName, S, kNo, "fd.name of descriptor 1"},
    {"proc.stderr.name", FieldKind::kProcStderrName, S, kNo, "fd.name of descriptor 2"},
    {"proc.fdopencount", FieldKind::kProcFdopencount, U, kNo,
     "how many descriptors the process has open, as Kestrel's fd table counts them"},
    {"proc.fdlimit", FieldKind::kProcFdlimit, I, kNo,
     "the process's soft limit of open descriptors, read from /proc/PID/limits when a rule "
     "reads it (its value then, not the event's; absent replaying a capture file or once the "
     "process is gone)"},
    {"proc.fdusage", FieldKind::kProcFdusage, D, kNo,
     "proc.fdopencount over proc.fdlimit, in percent (at most 100; 0 with no limit); absent as "
     "proc.fdlimit is"},
    {"proc.nthreads", FieldKind::kProcNthreads, U, kNo,
     "the process's live threads, its main one included: Threads in /proc/PID/status, read "
     "when a rule reads it (absent as proc.fdlimit is)"},
    {"proc.nchilds", FieldKind::kProcNchilds, U, kNo,
     "the process's live threads but its main one (proc.nthreads - 1)"},
    {"proc.vmsize", FieldKind::kProcVmsize, U, kNo,
     "the process's virtual memory in kB: VmSize in /proc/PID/status, read when a rule reads "
     "it (absent as proc.fdlimit is)"},
    {"proc.vmrss", FieldKind::kProcVmrss, U, kNo,
     "the process's resident memory in kB (VmRSS, read as proc.vmsize)"},
    {"proc.vmswap", FieldKind::kProcVmswap, U, kNo,
     "the process's swapped-out memory in kB (VmSwap, read as proc.vmsize)"},

    {"thread.ismain", FieldKind::kThreadIsmain, B, kNo,
     "true when the thread is its process's main thread (its tid is the pid)"},
    {"thread.cap_inheritable", FieldKind::kThreadCapInheritable, S, kNo,
     "the inheritable capabilities, space separated"},
    {"thread.nametid", FieldKind::kThreadNametid, S, kNo,
     "the process's name and the thread id, as name + tid (cat1234)"},
    {"thread.vmsize", FieldKind::kThreadVmsize, U, kNo,
     "proc.vmsize for a process's main thread, 0 for its other threads"},
    {"thread.vmrss", FieldKind::kThreadVmrss, U, kNo,
     "proc.vmrss for a process's main thread, 0 for its other threads"},
    {"thread.pfmajor", FieldKind::kThreadPfmajor, U, kNo,
     "the thread's major page faults since it started, from /proc/PID/task/TID/stat when a "
     "rule reads it (absent as proc.fdlimit is)"},
    {"thread.pfminor", FieldKind::kThreadPfminor, U, kNo,
     "the thread's minor page faults since it started (read as thread.pfmajor)"},

    {"user.homedir", FieldKind::kUserHomedir, S, kNo,
     "the effective user's home directory (/etc/passwd)"},
    {"user.shell", FieldKind::kUserShell, S, kNo, "the effective user's shell (/etc/passwd)"},

    {"fd.ino", FieldKind::kFdIno, I, kNo, "the inode number of the descriptor's file"},
    {"fd.dev", FieldKind::kFdDev, I, kNo,
     "the device number of the filesystem holding the descriptor's file, as stat's st_dev"},
    {"fd.dev.major", FieldKind::kFdDevMajor, I, kNo, "the major number of fd.dev"},
    {"fd.dev.minor", FieldKind::kFdDevMinor, I, kNo, "the minor number of fd.dev"},
    {"fd.types", FieldKind::kFdTypes, L, FieldArg::kOptionalIndex,
     "the kinds of the process's open descriptors, each once (file, ipv4 ...); fd.types[N]: "
     "the kind of descriptor N alone"},
    {"fd.uid", FieldKind::kFdUid, S, kNo,
     "the thread id followed by the descriptor number, as one string (12343 for tid 1234, fd "
     "3)"},
    {"fd.cproto", FieldKind::kFdCproto, S, kNo, "the client's port of an IP socket, as text"},
    {"fd.sproto", FieldKind::kFdSproto, S, kNo, "the server's port of an IP socket, as text"},
    {"fd.lproto", FieldKind::kFdLproto, S, kNo, "the local port of an IP socket, as text"},
    {"fd.rproto", FieldKind::kFdRproto, S, kNo, "the remote port of an IP socket, as text"},
    {"fd.containername", FieldKind::kFdContainername, S, kNo,
     "container.id and fd.name joined by ':'"},
    {"fd.containerdirectory", FieldKind::kFdContainerdirectory, S, kNo,
     "container.id and fd.directory joined by ':'"},

    {"fs.path.sourceraw", FieldKind::kFsPathSourceraw, S, kNo,
     "the source path of a rename, link or symlink as the caller passed it"},
    {"fs.path.targetraw", FieldKind::kFsPathTargetraw, S, kNo,
     "the target path of a rename, link or symlink as the caller passed it"},

    {"fdlist.nums", FieldKind::kFdlistNums, S, kNo,
     "poll and ppoll: the descriptors polled, comma separated"},
    {"fdlist.names", FieldKind::kFdlistNames, S, kNo,
     "poll and ppoll: fd.name of each descriptor polled (<NA> when not known), comma separated"},
    {"fdlist.cips", FieldKind::kFdlistCips, S, kNo,
     "poll and ppoll: the client's address of each IP socket polled, comma separated"},
    {"fdlist.sips", FieldKind::kFdlistSips, S, kNo,
     "poll and ppoll: the server's address of each IP socket polled, comma separated"},
    {"fdlist.cports", FieldKind::kFdlistCports, S, kNo,
     "poll and ppoll: the client's port of each IP socket polled, comma separated"},
    {"fdlist.sports", FieldKind::kFdlistSports, S, kNo,
     "poll and ppoll: the server's port of each IP socket polled, comma separated"},

    // Issue 38, deliverable 3: derived in user space from the state.
    {"proc.loginshellid", FieldKind::kProcLoginshellid, I, kNo,
     "the pid of the eldest process among the process and its ancestors whose name ends in "
     "\"sh\" (a login shell: it tells users' sessions apart); absent when none does"},
    {"fd.proto", FieldKind::kFdProto, U, kNo,
     "either end's port of an IP socket, as fd.port: fd.proto = 443 matches the client or the "
     "server",
     kEitherEnd},
    {"proc.aenv", FieldKind::kProcAenv, S, FieldArg::kIndexOrVar,
     "the environment of an ancestor: [N] the Nth ancestor's ([0] the process's), space "
     "separated; [VAR] the first non-empty value of VAR among the ancestors (20 levels up, the "
     "process excluded); without [ ], any ancestor's"},
    {"evt.is_wait", FieldKind::kEvtIsWait, B, kNo,
     "true for the syscalls Falco's event table flags as making the thread wait: poll, ppoll, "
     "select, epoll_wait, nanosleep"},
    {"evt.reltime", FieldKind::kEvtReltime, U, kNo,
     "ns from the capture's first event (live: the first syscall event read; a capture file: "
     "its first syscall event) to this one"},
    {"evt.reltime.s", FieldKind::kEvtReltimeS, U, kNo, "whole seconds of evt.reltime"},
    {"evt.reltime.ns", FieldKind::kEvtReltimeNs, U, kNo,
     "the nanoseconds of evt.reltime past its whole second"},
    {"thread.cgroups", FieldKind::kThreadCgroups, S, kNo,
     "the thread's cgroup of each controller the probe records (cpuset, cpu, cpuacct, blkio, "
     "memory), as controller=path, space separated"},
    {"thread.cgroup", FieldKind::kThreadCgroup, S, FieldArg::kSubsys,
     "the thread's cgroup of one controller (thread.cgroup.memory); absent for a controller "
     "thread.cgroups does not list"},
};

static_assert(std::size(kFields) == static_cast<size_t>(FieldKind::kFieldKindCount),
              "one catalog entry per FieldKind");

}  // namespace

std::span<const FieldDef> FieldCatalog() { return kFields; }

FieldSource SourceOf(FieldKind kind) {
  switch (kind) {
    case FieldKind::kContainerName:
    case FieldKind::kContainerImage:
    case FieldKind::kContainerImageRepository:
    case FieldKind::kContainerImageTag:
    case FieldKind::kContainerPrivileged:
    case FieldKind::kContainerMounts:
    case FieldKind::kContainerMountDest:
    case FieldKind::kContainerImageDigest:
    case FieldKind::kContainerImageId:
    case FieldKind::kContainerLabel:
    case FieldKind::kContainerLabels:
    case FieldKind::kContainerHostNetwork:
    case FieldKind::kContainerHostPid:
    case FieldKind::kContainerHostIpc:
    case FieldKind::kContainerIp:
    case FieldKind::kContainerUser:
    case FieldKind::kContainerHealthcheck:
    case FieldKind::kProcIsContainerHealthcheck:
    // The CRI labels a pod's containers with the pod's name, namespace, uid
    // and sandbox; the runtime's metadata carries them.
    case FieldKind::kK8sNsName:
    case FieldKind::kK8sPodName:
    case FieldKind::kK8sPodUid:
    case FieldKind::kK8sPodId:
    case FieldKind::kK8sPodSandboxId:
    case FieldKind::kK8sPodFullSandboxId:
    case FieldKind::kK8sPodLabel:
    case FieldKind::kK8sPodLabels:
    case FieldKind::kK8sPodIp:
    case FieldKind::kContainerMount:
    case FieldKind::kContainerMountSource:
    case FieldKind::kContainerMountMode:
    case FieldKind::kContainerMountRdwr:
    case FieldKind::kContainerMountPropagation:
      return FieldSource::kContainerRuntime;
    default:
      return FieldSource::kKernel;
  }
}

std::string_view UnfilledReason(FieldSource source) {
  switch (source) {
    case FieldSource::kKernel:
      return "";
    case FieldSource::kContainerRuntime:
      return "comes from a container runtime's metadata, and no runtime answers on the sockets "
             "configured (container_engines)";
  }
  return "";
}

const FieldDef* FindField(std::string_view name) {
  static const auto* const by_name = [] {
    auto* m = new absl::flat_hash_map<std::string_view, const FieldDef*>();
    for (const FieldDef& f : kFields) m->emplace(f.name, &f);
    return m;
  }();
  const auto it = by_name->find(name);
  return it == by_name->end() ? nullptr : it->second;
}

std::string_view FieldArgSyntax(FieldArg arg) {
  switch (arg) {
    case FieldArg::kNone:
      return "";
    case FieldArg::kIndex:
      return "[N]";
    case FieldArg::kOptionalIndex:
      return "[N] (optional)";
    case FieldArg::kParam:
      return ".NAME or [N]";
    case FieldArg::kParamName:
      return ".NAME";
    case FieldArg::kEnvName:
      return "[VAR] (optional)";
    case FieldArg::kPath:
      return "[PATH]";
    case FieldArg::kKey:
      return "[KEY]";
    case FieldArg::kIndexOrVar:
      return "[N] or [VAR] (optional)";
    case FieldArg::kSubsys:
      return ".SUBSYS";
  }
  return "";
}

std::string_view FieldClass(std::string_view name) {
  if (name.starts_with("fs.path.")) return "fs.path";
  return name.substr(0, name.find('.'));
}

}  // namespace kestrel::engine::fields
