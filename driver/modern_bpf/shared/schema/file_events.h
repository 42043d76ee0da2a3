/* SPDX-License-Identifier: Apache-2.0 */
/* File events of the schema; see ../event_schema.h for the format.
 *
 * TOCTOU: every event is emitted at exit, so a pointer argument read here is
 * read after the kernel made its own copy; another thread may have rewritten
 * the user memory in between. Which parameters are exposed, and why:
 * - Opened files (open, openat, openat2, creat) and fd-taking events
 *   (fchmod, fchown, ftruncate): `path` comes from the kernel's struct
 *   file, never from user memory. Only a failed open (no file) falls back to
 *   the user string, and a failed call changed nothing. Opens also carry
 *   `name`, the path as the caller passed it (Falco's name, fd.nameraw),
 *   read from user memory at exit like the name-taking events below.
 * - Name-taking events (unlink, rename, mkdir, link, symlink, chmod, chown,
 *   truncate, mount, umount2, memfd_create ...): read from user memory at
 *   exit. The kernel frees its copy (struct filename) before returning and
 *   the dentry it acted on is not reachable from the exit hook, so there is
 *   nothing better to read without a sys_enter hook on every one of them;
 *   the record's numeric parameters (fds, flags, modes, ids) are registers
 *   and cannot be forged this way.
 * - openat2's struct open_how is read from user memory at exit (same
 *   exposure); the opened file's path, dev and inode are not.
 * - I/O data (read/write families) is read from the user buffer at exit: for
 *   reads that is what the kernel wrote, for writes another thread may have
 *   changed it after the kernel copied it. It is captured only when
 *   capture_io_data is set, and only the `res` bytes actually transferred.
 */
#ifndef KESTREL_SHARED_SCHEMA_FILE_EVENTS_H
#define KESTREL_SHARED_SCHEMA_FILE_EVENTS_H

/* Path, device and inode of the file an open returned, from its struct
 * file; a failed open keeps the name the caller asked for. `path` is
 * absolute and TOCTOU-safe; Falco's `name` is the caller's string. */
#define KESTREL_PARAMS_OPENED_FILE(PARAM)                                                          \
	PARAM(path, KPT_PATH, KPS_CUSTOM, KFS_NONE)                                                \
	PARAM(dev, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                               \
	PARAM(ino, KPT_UINT64, KPS_CUSTOM, KFS_NONE)

/* What an open did to the file it returned, as Falco's bits in its open
 * `flags`: the call created it (the kernel's FMODE_CREATED), it is on an
 * overlayfs upper or lower layer. 0 when the call failed. */
#define KESTREL_OPEN_F_CREATED	   (1U << 14) /* PPM_O_F_CREATED */
#define KESTREL_OPEN_F_UPPER_LAYER (1U << 15) /* PPM_FD_UPPER_LAYER */
#define KESTREL_OPEN_F_LOWER_LAYER (1U << 16) /* PPM_FD_LOWER_LAYER */

#define KESTREL_PARAMS_OPEN(PARAM)                                                                 \
	PARAM(fd, KPT_FD, KPS_RET, KFS_NONE)                                                       \
	PARAM(name, KPT_PATH, KPS_ARG0, KFS_NONE)                                                  \
	PARAM(flags, KPT_FLAGS32, KPS_ARG1, KFS_OPEN_FLAGS)                                        \
	PARAM(mode, KPT_MODE, KPS_ARG2, KFS_NONE)                                                  \
	KESTREL_PARAMS_OPENED_FILE(PARAM)                                                          \
	PARAM(open_facts, KPT_FLAGS32, KPS_CUSTOM, KFS_OPEN_FACTS)

#define KESTREL_PARAMS_OPENAT(PARAM)                                                               \
	PARAM(fd, KPT_FD, KPS_RET, KFS_NONE)                                                       \
	PARAM(dirfd, KPT_FD, KPS_ARG0, KFS_NONE)                                                   \
	PARAM(name, KPT_PATH, KPS_ARG1, KFS_NONE)                                                  \
	PARAM(flags, KPT_FLAGS32, KPS_ARG2, KFS_OPEN_FLAGS)                                        \
	PARAM(mode, KPT_MODE, KPS_ARG3, KFS_NONE)                                                  \
	KESTREL_PARAMS_OPENED_FILE(PARAM)                                                          \
	PARAM(open_facts, KPT_FLAGS32, KPS_CUSTOM, KFS_OPEN_FACTS)

/* flags, mode and resolve come from the caller's struct open_how; they are
 * empty when it cannot be read or `size` is below its first version. */
#define KESTREL_PARAMS_OPENAT2(PARAM)                                                              \
	PARAM(fd, KPT_FD, KPS_RET, KFS_NONE)                                                       \
	PARAM(dirfd, KPT_FD, KPS_ARG0, KFS_NONE)                                                   \
	PARAM(name, KPT_PATH, KPS_ARG1, KFS_NONE)                                                  \
	PARAM(size, KPT_UINT64, KPS_ARG3, KFS_NONE)                                                \
	PARAM(flags, KPT_FLAGS32, KPS_CUSTOM, KFS_OPEN_FLAGS)                                      \
	PARAM(mode, KPT_MODE, KPS_CUSTOM, KFS_NONE)                                                \
	PARAM(resolve, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                           \
	KESTREL_PARAMS_OPENED_FILE(PARAM)                                                          \
	PARAM(open_facts, KPT_FLAGS32, KPS_CUSTOM, KFS_OPEN_FACTS)

/* creat(path, mode) is open(path, O_CREAT|O_WRONLY|O_TRUNC, mode).
 * creat_flags says which overlayfs layer the file is on (Falco's);
 * open_facts repeats it with the other opens' bits. */
#define KESTREL_PARAMS_CREAT(PARAM)                                                                \
	PARAM(fd, KPT_FD, KPS_RET, KFS_NONE)                                                       \
	PARAM(name, KPT_PATH, KPS_ARG0, KFS_NONE)                                                  \
	PARAM(mode, KPT_MODE, KPS_ARG1, KFS_NONE)                                                  \
	KESTREL_PARAMS_OPENED_FILE(PARAM)                                                          \
	PARAM(creat_flags, KPT_FLAGS32, KPS_CUSTOM, KFS_CREAT_FLAGS)                               \
	PARAM(open_facts, KPT_FLAGS32, KPS_CUSTOM, KFS_OPEN_FACTS)

#define KESTREL_PARAMS_CLOSE(PARAM)                                                                \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)

/* I/O: `data` holds the first min(res, snaplen) bytes transferred, and is
 * empty unless capture_io_data is set. */
#define KESTREL_PARAMS_RW(PARAM)                                                                   \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                      \
	PARAM(size, KPT_UINT64, KPS_ARG2, KFS_NONE)                                                \
	PARAM(data, KPT_BYTEBUF, KPS_CUSTOM, KFS_NONE)

#define KESTREL_PARAMS_PRW(PARAM)                                                                  \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                      \
	PARAM(size, KPT_UINT64, KPS_ARG2, KFS_NONE)                                                \
	PARAM(pos, KPT_INT64, KPS_ARG3, KFS_NONE)                                                  \
	PARAM(data, KPT_BYTEBUF, KPS_CUSTOM, KFS_NONE)

/* size is the sum of the iovec lengths (of the first KESTREL_MAX_IOVECS);
 * data comes from the first iovecs, in order. */
#define KESTREL_PARAMS_RWV(PARAM)                                                                  \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                      \
	PARAM(iovcnt, KPT_INT32, KPS_ARG2, KFS_NONE)                                               \
	PARAM(size, KPT_UINT64, KPS_CUSTOM, KFS_NONE)                                              \
	PARAM(data, KPT_BYTEBUF, KPS_CUSTOM, KFS_NONE)

/* Most iovecs readv/writev sum and copy from (the kernel's UIO_MAXIOV). */
#define KESTREL_MAX_IOVECS 1024

/* Paths of unlink and friends are read from user memory at exit (see the
 * TOCTOU note at the top). */
#define KESTREL_PARAMS_UNLINK(PARAM)                                                               \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(path, KPT_PATH, KPS_ARG0, KFS_NONE)

#define KESTREL_PARAMS_UNLINKAT(PARAM)                                                             \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(dirfd, KPT_FD, KPS_ARG0, KFS_NONE)                                                   \
	PARAM(name, KPT_PATH, KPS_ARG1, KFS_NONE)                                                  \
	PARAM(flags, KPT_FLAGS32, KPS_ARG2, KFS_AT_FLAGS)

/* rename and link share one shape: two names. */
#define KESTREL_PARAMS_TWO_PATHS(PARAM)                                                            \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(oldpath, KPT_PATH, KPS_ARG0, KFS_NONE)                                               \
	PARAM(newpath, KPT_PATH, KPS_ARG1, KFS_NONE)

#define KESTREL_PARAMS_RENAMEAT(PARAM)                                                             \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(olddirfd, KPT_FD, KPS_ARG0, KFS_NONE)                                                \
	PARAM(oldpath, KPT_PATH, KPS_ARG1, KFS_NONE)                                               \
	PARAM(newdirfd, KPT_FD, KPS_ARG2, KFS_NONE)                                                \
	PARAM(newpath, KPT_PATH, KPS_ARG3, KFS_NONE)

#define KESTREL_PARAMS_RENAMEAT2(PARAM)                                                            \
	KESTREL_PARAMS_RENAMEAT(PARAM)                                                             \
	PARAM(flags, KPT_FLAGS32, KPS_ARG4, KFS_RENAME_FLAGS)

/* Falco names linkat's directory fds olddir and newdir. */
#define KESTREL_PARAMS_LINKAT(PARAM)                                                               \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(olddir, KPT_FD, KPS_ARG0, KFS_NONE)                                                  \
	PARAM(oldpath, KPT_PATH, KPS_ARG1, KFS_NONE)                                               \
	PARAM(newdir, KPT_FD, KPS_ARG2, KFS_NONE)                                                  \
	PARAM(newpath, KPT_PATH, KPS_ARG3, KFS_NONE)                                               \
	PARAM(flags, KPT_FLAGS32, KPS_ARG4, KFS_AT_FLAGS)

/* symlink(target, linkpath): target is stored as given, never resolved. */
#define KESTREL_PARAMS_SYMLINK(PARAM)                                                              \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(target, KPT_PATH, KPS_ARG0, KFS_NONE)                                                \
	PARAM(linkpath, KPT_PATH, KPS_ARG1, KFS_NONE)

/* symlinkat(target, linkdirfd, linkpath): target is stored as given, never
 * resolved. */
#define KESTREL_PARAMS_SYMLINKAT(PARAM)                                                            \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(target, KPT_PATH, KPS_ARG0, KFS_NONE)                                                \
	PARAM(linkdirfd, KPT_FD, KPS_ARG1, KFS_NONE)                                               \
	PARAM(linkpath, KPT_PATH, KPS_ARG2, KFS_NONE)

#define KESTREL_PARAMS_MKDIR(PARAM)                                                                \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(path, KPT_PATH, KPS_ARG0, KFS_NONE)                                                  \
	PARAM(mode, KPT_MODE, KPS_ARG1, KFS_NONE)

#define KESTREL_PARAMS_MKDIRAT(PARAM)                                                              \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(dirfd, KPT_FD, KPS_ARG0, KFS_NONE)                                                   \
	PARAM(path, KPT_PATH, KPS_ARG1, KFS_NONE)                                                  \
	PARAM(mode, KPT_MODE, KPS_ARG2, KFS_NONE)

/* Falco calls chmod's and fchmodat's path `filename`; its mode prints as
 * S_* names. The fchmodat syscall has no flags argument (that is
 * fchmodat2). */
#define KESTREL_PARAMS_CHMOD(PARAM)                                                                \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(filename, KPT_PATH, KPS_ARG0, KFS_NONE)                                              \
	PARAM(mode, KPT_MODE, KPS_ARG1, KFS_CHMOD_MODE)

#define KESTREL_PARAMS_FCHMODAT(PARAM)                                                             \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(dirfd, KPT_FD, KPS_ARG0, KFS_NONE)                                                   \
	PARAM(filename, KPT_PATH, KPS_ARG1, KFS_NONE)                                              \
	PARAM(mode, KPT_MODE, KPS_ARG2, KFS_CHMOD_MODE)

/* fd-taking events carry the fd's path from its struct file (empty for a
 * bad fd): cheap, and immune to TOCTOU. */
#define KESTREL_PARAMS_FCHMOD(PARAM)                                                               \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                      \
	PARAM(mode, KPT_MODE, KPS_ARG1, KFS_CHMOD_MODE)                                            \
	PARAM(path, KPT_PATH, KPS_CUSTOM, KFS_NONE)

/* chown and lchown. */
#define KESTREL_PARAMS_CHOWN(PARAM)                                                                \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(path, KPT_PATH, KPS_ARG0, KFS_NONE)                                                  \
	PARAM(uid, KPT_UID, KPS_ARG1, KFS_NONE)                                                    \
	PARAM(gid, KPT_GID, KPS_ARG2, KFS_NONE)

#define KESTREL_PARAMS_FCHOWN(PARAM)                                                               \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                      \
	PARAM(uid, KPT_UID, KPS_ARG1, KFS_NONE)                                                    \
	PARAM(gid, KPT_GID, KPS_ARG2, KFS_NONE)                                                    \
	PARAM(path, KPT_PATH, KPS_CUSTOM, KFS_NONE)

#define KESTREL_PARAMS_FCHOWNAT(PARAM)                                                             \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(dirfd, KPT_FD, KPS_ARG0, KFS_NONE)                                                   \
	PARAM(pathname, KPT_PATH, KPS_ARG1, KFS_NONE)                                              \
	PARAM(uid, KPT_UID, KPS_ARG2, KFS_NONE)                                                    \
	PARAM(gid, KPT_GID, KPS_ARG3, KFS_NONE)                                                    \
	PARAM(flags, KPT_FLAGS32, KPS_ARG4, KFS_AT_FLAGS)

#define KESTREL_PARAMS_TRUNCATE(PARAM)                                                             \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(path, KPT_PATH, KPS_ARG0, KFS_NONE)                                                  \
	PARAM(length, KPT_INT64, KPS_ARG1, KFS_NONE)

#define KESTREL_PARAMS_FTRUNCATE(PARAM)                                                            \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                      \
	PARAM(length, KPT_INT64, KPS_ARG1, KFS_NONE)                                               \
	PARAM(path, KPT_PATH, KPS_CUSTOM, KFS_NONE)

#define KESTREL_PARAMS_DUP(PARAM)                                                                  \
	PARAM(res, KPT_FD, KPS_RET, KFS_NONE)                                                      \
	PARAM(oldfd, KPT_FD, KPS_ARG0, KFS_NONE)

#define KESTREL_PARAMS_DUP2(PARAM)                                                                 \
	KESTREL_PARAMS_DUP(PARAM)                                                                  \
	PARAM(newfd, KPT_FD, KPS_ARG1, KFS_NONE)

#define KESTREL_PARAMS_DUP3(PARAM)                                                                 \
	KESTREL_PARAMS_DUP2(PARAM)                                                                 \
	PARAM(flags, KPT_FLAGS32, KPS_ARG2, KFS_DUP3_FLAGS)

/* res depends on cmd (a new fd, a flag word, 0): kept as a plain value. */
#define KESTREL_PARAMS_FCNTL(PARAM)                                                                \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)                                                      \
	PARAM(cmd, KPT_FLAGS32, KPS_ARG1, KFS_FCNTL_CMD)                                           \
	PARAM(arg, KPT_UINT64, KPS_ARG2, KFS_NONE)

/* mount(dev, dir, type, flags, data), named as Falco names them: dev is
 * the source, dir the mount point. data is a filesystem-specific option
 * string for most filesystems; it is kept up to the snaplen and stops at
 * the first NUL. */
#define KESTREL_PARAMS_MOUNT(PARAM)                                                                \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(dev, KPT_PATH, KPS_ARG0, KFS_NONE)                                                   \
	PARAM(dir, KPT_PATH, KPS_ARG1, KFS_NONE)                                                   \
	PARAM(type, KPT_CHARBUF, KPS_ARG2, KFS_NONE)                                               \
	PARAM(flags, KPT_FLAGS32, KPS_ARG3, KFS_MOUNT_FLAGS)                                       \
	PARAM(data, KPT_CHARBUF, KPS_ARG4, KFS_NONE)

#define KESTREL_PARAMS_UMOUNT2(PARAM)                                                              \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(name, KPT_PATH, KPS_ARG0, KFS_NONE)                                                  \
	PARAM(flags, KPT_FLAGS32, KPS_ARG1, KFS_UMOUNT_FLAGS)

#define KESTREL_PARAMS_MEMFD_CREATE(PARAM)                                                         \
	PARAM(fd, KPT_FD, KPS_RET, KFS_NONE)                                                       \
	PARAM(name, KPT_CHARBUF, KPS_ARG0, KFS_NONE)                                               \
	PARAM(flags, KPT_FLAGS32, KPS_ARG1, KFS_MEMFD_FLAGS)

/* res is the mapped address, or -errno. vm_size, vm_rss and vm_swap are
 * the caller's memory use after the call, in KiB (Falco's). */
#define KESTREL_PARAMS_MMAP(PARAM)                                                                 \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(addr, KPT_UINT64, KPS_ARG0, KFS_NONE)                                                \
	PARAM(length, KPT_UINT64, KPS_ARG1, KFS_NONE)                                              \
	PARAM(prot, KPT_FLAGS32, KPS_ARG2, KFS_PROT_FLAGS)                                         \
	PARAM(flags, KPT_FLAGS32, KPS_ARG3, KFS_MMAP_FLAGS)                                        \
	PARAM(fd, KPT_FD, KPS_ARG4, KFS_NONE)                                                      \
	PARAM(offset, KPT_UINT64, KPS_ARG5, KFS_NONE)                                              \
	PARAM(vm_size, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                           \
	PARAM(vm_rss, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                            \
	PARAM(vm_swap, KPT_UINT32, KPS_CUSTOM, KFS_NONE)

#define KESTREL_PARAMS_MPROTECT(PARAM)                                                             \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(addr, KPT_UINT64, KPS_ARG0, KFS_NONE)                                                \
	PARAM(length, KPT_UINT64, KPS_ARG1, KFS_NONE)                                              \
	PARAM(prot, KPT_FLAGS32, KPS_ARG2, KFS_PROT_FLAGS)

#define KESTREL_FILE_EVENTS(EVENT)                                                                 \
	EVENT(OPENAT, openat, KESTREL_PARAMS_OPENAT)                                               \
	EVENT(CLOSE, close, KESTREL_PARAMS_CLOSE)                                                  \
	EVENT(UNLINKAT, unlinkat, KESTREL_PARAMS_UNLINKAT)                                         \
	EVENT(OPEN, open, KESTREL_PARAMS_OPEN)                                                     \
	EVENT(OPENAT2, openat2, KESTREL_PARAMS_OPENAT2)                                            \
	EVENT(CREAT, creat, KESTREL_PARAMS_CREAT)                                                  \
	EVENT(READ, read, KESTREL_PARAMS_RW)                                                       \
	EVENT(WRITE, write, KESTREL_PARAMS_RW)                                                     \
	EVENT(PREAD64, pread64, KESTREL_PARAMS_PRW)                                                \
	EVENT(PWRITE64, pwrite64, KESTREL_PARAMS_PRW)                                              \
	EVENT(READV, readv, KESTREL_PARAMS_RWV)                                                    \
	EVENT(WRITEV, writev, KESTREL_PARAMS_RWV)                                                  \
	EVENT(UNLINK, unlink, KESTREL_PARAMS_UNLINK)                                               \
	EVENT(RENAME, rename, KESTREL_PARAMS_TWO_PATHS)                                            \
	EVENT(RENAMEAT, renameat, KESTREL_PARAMS_RENAMEAT)                                         \
	EVENT(RENAMEAT2, renameat2, KESTREL_PARAMS_RENAMEAT2)                                      \
	EVENT(MKDIR, mkdir, KESTREL_PARAMS_MKDIR)                                                  \
	EVENT(MKDIRAT, mkdirat, KESTREL_PARAMS_MKDIRAT)                                            \
	EVENT(RMDIR, rmdir, KESTREL_PARAMS_UNLINK)                                                 \
	EVENT(LINK, link, KESTREL_PARAMS_TWO_PATHS)                                                \
	EVENT(LINKAT, linkat, KESTREL_PARAMS_LINKAT)                                               \
	EVENT(SYMLINK, symlink, KESTREL_PARAMS_SYMLINK)                                            \
	EVENT(SYMLINKAT, symlinkat, KESTREL_PARAMS_SYMLINKAT)                                      \
	EVENT(CHMOD, chmod, KESTREL_PARAMS_CHMOD)                                                  \
	EVENT(FCHMOD, fchmod, KESTREL_PARAMS_FCHMOD)                                               \
	EVENT(FCHMODAT, fchmodat, KESTREL_PARAMS_FCHMODAT)                                         \
	EVENT(CHOWN, chown, KESTREL_PARAMS_CHOWN)                                                  \
	EVENT(FCHOWN, fchown, KESTREL_PARAMS_FCHOWN)                                               \
	EVENT(FCHOWNAT, fchownat, KESTREL_PARAMS_FCHOWNAT)                                         \
	EVENT(LCHOWN, lchown, KESTREL_PARAMS_CHOWN)                                                \
	EVENT(TRUNCATE, truncate, KESTREL_PARAMS_TRUNCATE)                                         \
	EVENT(FTRUNCATE, ftruncate, KESTREL_PARAMS_FTRUNCATE)                                      \
	EVENT(DUP, dup, KESTREL_PARAMS_DUP)                                                        \
	EVENT(DUP2, dup2, KESTREL_PARAMS_DUP2)                                                     \
	EVENT(DUP3, dup3, KESTREL_PARAMS_DUP3)                                                     \
	EVENT(FCNTL, fcntl, KESTREL_PARAMS_FCNTL)                                                  \
	EVENT(MOUNT, mount, KESTREL_PARAMS_MOUNT)                                                  \
	EVENT(UMOUNT2, umount2, KESTREL_PARAMS_UMOUNT2)                                            \
	EVENT(MEMFD_CREATE, memfd_create, KESTREL_PARAMS_MEMFD_CREATE)                             \
	EVENT(MMAP, mmap, KESTREL_PARAMS_MMAP)                                                     \
	EVENT(MPROTECT, mprotect, KESTREL_PARAMS_MPROTECT)

#endif /* KESTREL_SHARED_SCHEMA_FILE_EVENTS_H */
