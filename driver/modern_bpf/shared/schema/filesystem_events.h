/* SPDX-License-Identifier: Apache-2.0 */
/* Filesystem query and copy events of the schema; see ../event_schema.h for
 * the format.
 *
 * Parameter names are those of Falco's exit events (stat, lstat, fstat,
 * newfstatat, access, getcwd, getdents, getdents64, lseek, mknod, mknodat,
 * copy_file_range, splice, sendfile, preadv, pwritev, quotactl, fsconfig);
 * parameters Falco does not have come after Falco's.
 *
 * Flag words keep the kernel's values (raw values stay what the caller
 * passed) and print with Falco's names. Names and strings are read from user
 * memory at exit, with the exposure file_events.h describes.
 *
 * stat, fstat and lseek are among the most frequent syscalls: their events
 * are table-driven only (no filler program), and fstat, getdents, lseek,
 * splice and copy_file_range are register records.
 */
#ifndef KESTREL_SHARED_SCHEMA_FILESYSTEM_EVENTS_H
#define KESTREL_SHARED_SCHEMA_FILESYSTEM_EVENTS_H

/* stat and lstat. */
#define KESTREL_PARAMS_STAT(PARAM)                                                                 \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(path, KPT_PATH, KPS_ARG0, KFS_NONE)

/* fstat, getdents and getdents64. */
#define KESTREL_PARAMS_FD_QUERY(PARAM)                                                             \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)

#define KESTREL_PARAMS_NEWFSTATAT(PARAM)                                                           \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(dirfd, KPT_FD, KPS_ARG0, KFS_NONE)                                                   \
	PARAM(path, KPT_PATH, KPS_ARG1, KFS_NONE)                                                  \
	PARAM(flags, KPT_FLAGS32, KPS_ARG3, KFS_AT_FLAGS)

/* access(name, mode): mode is F_OK or R_OK|W_OK|X_OK bits. */
#define KESTREL_PARAMS_ACCESS(PARAM)                                                               \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(name, KPT_PATH, KPS_ARG0, KFS_NONE)                                                  \
	PARAM(mode, KPT_FLAGS32, KPS_ARG1, KFS_ACCESS_MODE)

/* res is the length of the path, NUL included. The path is what the kernel
 * wrote into the caller's buffer; empty on failure, where the buffer holds
 * whatever it held before. */
#define KESTREL_PARAMS_GETCWD(PARAM)                                                               \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(path, KPT_PATH, KPS_CUSTOM, KFS_NONE)

/* res is the new offset from the start of the file. */
#define KESTREL_PARAMS_LSEEK(PARAM)                                                                \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                      \
	PARAM(offset, KPT_UINT64, KPS_ARG1, KFS_NONE)                                              \
	PARAM(whence, KPT_FLAGS32, KPS_ARG2, KFS_LSEEK_WHENCE)

/* dev is the caller's device number, in the user-space encoding
 * (makedev: minor's low byte, major, minor's upper bits). */
#define KESTREL_PARAMS_MKNOD(PARAM)                                                                \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(path, KPT_PATH, KPS_ARG0, KFS_NONE)                                                  \
	PARAM(mode, KPT_MODE, KPS_ARG1, KFS_NONE)                                                  \
	PARAM(dev, KPT_UINT32, KPS_ARG2, KFS_NONE)

#define KESTREL_PARAMS_MKNODAT(PARAM)                                                              \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(dirfd, KPT_FD, KPS_ARG0, KFS_NONE)                                                   \
	PARAM(path, KPT_PATH, KPS_ARG1, KFS_NONE)                                                  \
	PARAM(mode, KPT_MODE, KPS_ARG2, KFS_NONE)                                                  \
	PARAM(dev, KPT_UINT32, KPS_ARG3, KFS_NONE)

/* offin and offout are the caller's loff_t pointers (0 for none), as Falco
 * records them, not the offsets they point to. flags is Kestrel's. */
#define KESTREL_PARAMS_COPY_FILE_RANGE(PARAM)                                                      \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fdout, KPT_FD, KPS_ARG2, KFS_NONE)                                                   \
	PARAM(offout, KPT_UINT64, KPS_ARG3, KFS_NONE)                                              \
	PARAM(fdin, KPT_FD, KPS_ARG0, KFS_NONE)                                                    \
	PARAM(offin, KPT_UINT64, KPS_ARG1, KFS_NONE)                                               \
	PARAM(len, KPT_UINT64, KPS_ARG4, KFS_NONE)                                                 \
	PARAM(flags, KPT_UINT32, KPS_ARG5, KFS_NONE)

#define KESTREL_PARAMS_SPLICE(PARAM)                                                               \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd_in, KPT_FD, KPS_ARG0, KFS_NONE)                                                   \
	PARAM(fd_out, KPT_FD, KPS_ARG2, KFS_NONE)                                                  \
	PARAM(size, KPT_UINT64, KPS_ARG4, KFS_NONE)                                                \
	PARAM(flags, KPT_FLAGS32, KPS_ARG5, KFS_SPLICE_FLAGS)

/* offset is the value *offset holds at exit, which the kernel advanced by
 * the bytes sent; 0 when the caller passed no offset. */
#define KESTREL_PARAMS_SENDFILE(PARAM)                                                             \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(out_fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                  \
	PARAM(in_fd, KPT_FD, KPS_ARG1, KFS_NONE)                                                   \
	PARAM(size, KPT_UINT64, KPS_ARG3, KFS_NONE)                                                \
	PARAM(offset, KPT_UINT64, KPS_CUSTOM, KFS_NONE)

/* preadv and pwritev: readv/writev's size and data (file_events.h), plus
 * the file position. x86_64 passes the whole 64-bit position in the fourth
 * argument (the fifth, its high half, is unused). iovcnt is Kestrel's. */
#define KESTREL_PARAMS_PRWV(PARAM)                                                                 \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                      \
	PARAM(pos, KPT_INT64, KPS_ARG3, KFS_NONE)                                                  \
	PARAM(iovcnt, KPT_INT32, KPS_ARG2, KFS_NONE)                                               \
	PARAM(size, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                              \
	PARAM(data, KPT_BYTEBUF, KPS_CUSTOM, KFS_NONE)

/* quotactl(cmd, special, id, addr). cmd is split as the kernel reads it:
 * `cmd` the subcommand (Q_*), `type` the quota type (USRQUOTA ...).
 * quotafilepath is addr's path for Q_QUOTAON; quota_fmt is id's format for
 * Q_QUOTAON; id is the user or group for the quota get/set commands; each
 * is empty (0) for the others. The dqb_* values come from the caller's
 * struct if_dqblk (Q_GETQUOTA, Q_SETQUOTA) and dqi_* from its struct
 * if_dqinfo (Q_GETINFO, Q_SETINFO), each only where its dqb_valid or
 * dqi_valid bit says it is set, else 0; quota_fmt_out is the format
 * Q_GETFMT wrote. What a get command wrote is read only when it succeeded
 * (otherwise the buffer holds the caller's junk); what a set command passed
 * is read either way. */
#define KESTREL_PARAMS_QUOTACTL(PARAM)                                                             \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(special, KPT_PATH, KPS_ARG1, KFS_NONE)                                               \
	PARAM(quotafilepath, KPT_PATH, KPS_CUSTOM, KFS_NONE)                                       \
	PARAM(dqb_bhardlimit, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                    \
	PARAM(dqb_bsoftlimit, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                    \
	PARAM(dqb_curspace, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                      \
	PARAM(dqb_ihardlimit, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                    \
	PARAM(dqb_isoftlimit, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                    \
	PARAM(dqb_btime, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                         \
	PARAM(dqb_itime, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                         \
	PARAM(dqi_bgrace, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                        \
	PARAM(dqi_igrace, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                        \
	PARAM(dqi_flags, KPT_FLAGS32, KPS_CUSTOM, KFS_QUOTACTL_DQI_FLAGS)                          \
	PARAM(quota_fmt_out, KPT_FLAGS32, KPS_CUSTOM, KFS_QUOTACTL_FMT)                            \
	PARAM(cmd, KPT_FLAGS32, KPS_CUSTOM, KFS_QUOTACTL_CMD)                                      \
	PARAM(type, KPT_FLAGS32, KPS_CUSTOM, KFS_QUOTACTL_TYPE)                                    \
	PARAM(id, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                                \
	PARAM(quota_fmt, KPT_FLAGS32, KPS_CUSTOM, KFS_QUOTACTL_FMT)

/* fsconfig(fd, cmd, key, value, aux). The value is read only when the call
 * succeeded, as the command says it is: a string (value_charbuf) for
 * FSCONFIG_SET_STRING and the SET_PATH commands, aux bytes (value_bytebuf)
 * for FSCONFIG_SET_BINARY; both are empty otherwise. */
#define KESTREL_PARAMS_FSCONFIG(PARAM)                                                             \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                      \
	PARAM(cmd, KPT_FLAGS32, KPS_ARG1, KFS_FSCONFIG_CMD)                                        \
	PARAM(key, KPT_CHARBUF, KPS_ARG2, KFS_NONE)                                                \
	PARAM(aux, KPT_INT32, KPS_ARG4, KFS_NONE)                                                  \
	PARAM(value_bytebuf, KPT_BYTEBUF, KPS_CUSTOM, KFS_NONE)                                    \
	PARAM(value_charbuf, KPT_CHARBUF, KPS_CUSTOM, KFS_NONE)

#define KESTREL_FILESYSTEM_EVENTS(EVENT)                                                           \
	EVENT(STAT, stat, KESTREL_PARAMS_STAT)                                                     \
	EVENT(LSTAT, lstat, KESTREL_PARAMS_STAT)                                                   \
	EVENT(FSTAT, fstat, KESTREL_PARAMS_FD_QUERY)                                               \
	EVENT(NEWFSTATAT, newfstatat, KESTREL_PARAMS_NEWFSTATAT)                                   \
	EVENT(ACCESS, access, KESTREL_PARAMS_ACCESS)                                               \
	EVENT(GETCWD, getcwd, KESTREL_PARAMS_GETCWD)                                               \
	EVENT(GETDENTS, getdents, KESTREL_PARAMS_FD_QUERY)                                         \
	EVENT(GETDENTS64, getdents64, KESTREL_PARAMS_FD_QUERY)                                     \
	EVENT(LSEEK, lseek, KESTREL_PARAMS_LSEEK)                                                  \
	EVENT(MKNOD, mknod, KESTREL_PARAMS_MKNOD)                                                  \
	EVENT(MKNODAT, mknodat, KESTREL_PARAMS_MKNODAT)                                            \
	EVENT(COPY_FILE_RANGE, copy_file_range, KESTREL_PARAMS_COPY_FILE_RANGE)                    \
	EVENT(SPLICE, splice, KESTREL_PARAMS_SPLICE)                                               \
	EVENT(SENDFILE, sendfile, KESTREL_PARAMS_SENDFILE)                                         \
	EVENT(PREADV, preadv, KESTREL_PARAMS_PRWV)                                                 \
	EVENT(PWRITEV, pwritev, KESTREL_PARAMS_PRWV)                                               \
	EVENT(QUOTACTL, quotactl, KESTREL_PARAMS_QUOTACTL)                                         \
	EVENT(FSCONFIG, fsconfig, KESTREL_PARAMS_FSCONFIG)

#endif /* KESTREL_SHARED_SCHEMA_FILESYSTEM_EVENTS_H */
