// Every field a condition (or `kestrel fields`) can name, with Falco's
// names, types and meanings: one table, read by the resolver to turn a
// name into a small id once, by the extractor to dispatch on that id per
// event, and by `kestrel fields` to list them.
#ifndef KESTREL_ENGINE_FIELDS_FIELD_CATALOG_H_
#define KESTREL_ENGINE_FIELDS_FIELD_CATALOG_H_

#include <cstdint>
#include <span>
#include <string_view>

#include "engine/filter/field_binding.h"

namespace kestrel::engine::fields {

// What the extractor computes; one per catalog entry.
enum class FieldKind : uint16_t {
  kEvtType,
  kEvtDir,
  kEvtNum,
  kEvtTime,
  kEvtTimeS,
  kEvtTimeIso8601,
  kEvtDatetime,
  kEvtRawtime,
  kEvtRes,
  kEvtRawres,
  kEvtFailed,
  kEvtIsOpenRead,
  kEvtIsOpenWrite,
  kEvtIsOpenExec,
  kEvtArg,     // evt.arg.NAME / evt.arg[N]: the parameter as text
  kEvtRawarg,  // evt.rawarg.NAME: the parameter's raw value
  kEvtArgs,
  kEvtBuffer,
  kEvtCount,
  kEvtCategory,
  kProcName,
  kProcPid,
  kProcPpid,
  kProcPname,
  kProcPcmdline,
  kProcExe,
  kProcExepath,
  kProcPexe,
  kProcPexepath,
  kProcAexepath,
  kProcCmdline,
  kProcExeline,
  kProcArgs,
  kProcCwd,
  kProcTty,
  kProcSid,
  kProcSname,
  kProcVpid,
  kProcLoginuid,
  kProcAname,
  kProcApid,
  kProcDuration,
  kProcIsExeWritable,
  kProcIsExeFromMemfd,
  kProcIsExeUpperLayer,
  kProcExeIno,
  kProcExeInoCtime,
  kProcExeInoMtime,
  kProcExeInoCtimeDurationProcStart,
  kProcEnv,
  kProcIsContainerHealthcheck,
  kThreadTid,
  kThreadVtid,
  kThreadCapEffective,
  kThreadCapPermitted,
  kUserUid,
  kUserName,
  kUserLoginuid,
  kUserLoginname,
  kGroupGid,
  kGroupName,
  kFdNum,
  kFdType,
  kFdTypechar,
  kFdName,
  kFdNameraw,
  kFdNameChanged,
  kFdConnected,
  kFdDirectory,
  kFdFilename,
  kFdIp,
  kFdCip,
  kFdSip,
  kFdLip,
  kFdRip,
  kFdPort,
  kFdCport,
  kFdSport,
  kFdLport,
  kFdRport,
  kFdL4proto,
  kFdSockfamily,
  kFdNet,
  kFdSnet,
  kFdCnet,
  kFdIsServer,
  kFdSipName,
  kFsPathName,
  kFsPathNameraw,
  kFsPathSource,
  kFsPathTarget,
  kContainerId,
  kContainerName,
  kContainerImage,
  kContainerImageRepository,
  kContainerImageTag,
  kContainerPrivileged,
  kContainerMounts,
  kContainerStartTs,
  kContainerDuration,
  kK8sNsName,
  kK8sPodName,
  kProcAexe,
  kProcIsVpgidLeader,
  kContainerMountDest,
  kFdCipName,
  kFdLipName,
  kFdRipName,
  kFdLnet,
  kFdRnet,
  kContainerType,
  kContainerFullId,
  kContainerImageDigest,
  kContainerImageId,
  kContainerLabel,
  kContainerLabels,
  kContainerHostNetwork,
  kContainerHostPid,
  kContainerHostIpc,
  kContainerIp,
  kContainerUser,
  kContainerHealthcheck,
  kK8sPodUid,
  kK8sPodId,
  kK8sPodSandboxId,
  kK8sPodFullSandboxId,
  kContainerMount,
  kContainerMountSource,
  kContainerMountMode,
  kContainerMountRdwr,
  kContainerMountPropagation,
  kK8sPodLabel,
  kK8sPodLabels,
  kK8sPodIp,
  // Falco's further syscall-source fields (issue 38); the extractor routes
  // every kind from kEvtSource on by name.
  kEvtSource,
  kEvtHostname,
  kEvtCpu,
  kSyscallType,
  kEvtInfo,
  kEvtBuflen,
  kEvtBuflenIn,
  kEvtBuflenOut,
  kEvtIsIo,
  kEvtIsIoRead,
  kEvtIsIoWrite,
  kEvtIoDir,
  kEvtIsSyslog,
  kEvtAbspath,
  kEvtAbspathSrc,
  kEvtAbspathDst,
  kEvtCountError,
  kEvtCountErrorFile,
  kEvtCountErrorNet,
  kEvtCountErrorMemory,
  kEvtCountErrorOther,
  kEvtCountExit,
  kEvtDatetimeS,
  kEvtRawtimeS,
  kEvtRawtimeNs,
  kProcPidTs,
  kProcPpidTs,
  kProcPpidDuration,
  kProcPvpid,
  kProcPgid,
  kProcVpgid,
  kProcPgidName,
  kProcPgidExe,
  kProcPgidExepath,
  kProcVpgidName,
  kProcVpgidExe,
  kProcVpgidExepath,
  kProcSidExe,
  kProcSidExepath,
  kProcIsSidLeader,
  kProcIsPgidLeader,
  kProcCmdnargs,
  kProcCmdlenargs,
  kProcAargs,
  kProcAcmdline,
  kProcStdinType,
  kProcStdoutType,
  kProcStderrType,
  kProcStdinName,
  kProcStdoutName,
  kProcStderrName,
  kProcFdopencount,
  kProcFdlimit,
  kProcFdusage,
  kProcNthreads,
  kProcNchilds,
  kProcVmsize,
  kProcVmrss,
  kProcVmswap,
  kThreadIsmain,
  kThreadCapInheritable,
  kThreadNametid,
  kThreadVmsize,
  kThreadVmrss,
  kThreadPfmajor,
  kThreadPfminor,
  kUserHomedir,
  kUserShell,
  kFdIno,
  kFdDev,
  kFdDevMajor,
  kFdDevMinor,
  kFdTypes,
  kFdUid,
  kFdCproto,
  kFdSproto,
  kFdLproto,
  kFdRproto,
  kFdContainername,
  kFdContainerdirectory,
  kFsPathSourceraw,
  kFsPathTargetraw,
  kFdlistNums,
  kFdlistNames,
  kFdlistCips,
  kFdlistSips,
  kFdlistCports,
  kFdlistSports,
  // Issue 38, deliverable 3: what user space derives from the state it
  // keeps (lineage, descriptors, cgroups, the capture's start, the event
  // table). The extractor sends kProcLoginshellid..kThreadCgroup to
  // ReadDerived.
  kProcLoginshellid,
  kFdProto,
  kProcAenv,
  kEvtIsWait,
  kEvtReltime,
  kEvtReltimeS,
  kEvtReltimeNs,
  kThreadCgroups,
  kThreadCgroup,
  // Issue 38: what the probe captures for them (open_facts, exe facts,
  // the pid namespace's init); the extractor names each one.
  kEvtIsOpenCreate,
  kProcIsExeLowerLayer,
  kProcPidnsInitStartTs,
  kProcExeInoCtimeDurationPidnsStart,
  kFdIsUpperLayer,
  kFdIsLowerLayer,
  kFieldKindCount,
};

// What may follow a field's name.
enum class FieldArg : uint8_t {
  kNone,
  kIndex,          // NAME[N] required (proc.apid[N])
  kOptionalIndex,  // NAME[N] or NAME alone (proc.aname: any ancestor)
  kParam,          // NAME.PARAM or NAME[N] (evt.arg)
  kParamName,      // NAME.PARAM only (evt.rawarg)
  kEnvName,        // NAME[VAR] optional (proc.env[HOME])
  kPath,           // NAME[PATH] required, any text (container.mount.dest[/etc])
  kKey,            // NAME[KEY] required, any text (container.label[app])
  kIndexOrVar,     // NAME, NAME[N] or NAME[VAR] (proc.aenv)
  kSubsys,         // NAME.SUBSYS required, letters and '_' (thread.cgroup.memory)
};

// Where a field's value comes from. Kernel fields are read from records
// and the state built from them (and the names of addresses, resolved by
// Kestrel itself); the others need a source beyond the kernel that may not
// be there: such a field is then absent (never a stand-in value), and a
// rule reading one is named at load.
enum class FieldSource : uint8_t {
  kKernel,
  kContainerRuntime,  // a runtime's container metadata (image, privileged ...)
};

FieldSource SourceOf(FieldKind kind);

// Why nothing on this machine fills a field from `source` ("" for kernel
// fields, which are always filled).
std::string_view UnfilledReason(FieldSource source);

struct FieldDef {
  std::string_view name;
  FieldKind kind;
  filter::ValueType type;
  FieldArg arg;
  std::string_view description;
  filter::Multiplicity multiplicity = filter::Multiplicity::kOne;
};

// Every field, grouped by class (evt, proc, thread, user, group, fd, fs.path,
// container, k8s) in the order `kestrel fields` lists them.
std::span<const FieldDef> FieldCatalog();

// The entry called exactly `name`, or nullptr.
const FieldDef* FindField(std::string_view name);

// How `kestrel fields` spells an argument ("", "[N]", ".NAME" ...).
std::string_view FieldArgSyntax(FieldArg arg);

// The field class of `name`: its text before the first dot ("proc"), or
// "fs.path" for fs.path.*.
std::string_view FieldClass(std::string_view name);

}  // namespace kestrel::engine::fields

#endif  // KESTREL_ENGINE_FIELDS_FIELD_CATALOG_H_
