/* SPDX-License-Identifier: Apache-2.0 */
/* File events of the schema; see ../event_schema.h for the format. */
#ifndef KESTREL_SHARED_SCHEMA_FILE_EVENTS_H
#define KESTREL_SHARED_SCHEMA_FILE_EVENTS_H

/* The opened file's path is taken from the kernel's struct file at exit, not
 * from the user pointer: user memory can be rewritten by another thread
 * after the kernel copied it (TOCTOU), the file cannot. A failed open has no
 * file, so the path falls back to the user string. */
#define KESTREL_PARAMS_OPENAT(PARAM)                                                               \
	PARAM(res, KPT_FD, KPS_RET, KFS_NONE)                                                      \
	PARAM(dirfd, KPT_FD, KPS_ARG0, KFS_NONE)                                                   \
	PARAM(flags, KPT_FLAGS32, KPS_ARG2, KFS_OPEN_FLAGS)                                        \
	PARAM(mode, KPT_MODE, KPS_ARG3, KFS_NONE)                                                  \
	PARAM(path, KPT_PATH, KPS_CUSTOM, KFS_NONE)                                                \
	PARAM(dev, KPT_UINT32, KPS_CUSTOM, KFS_NONE)                                               \
	PARAM(ino, KPT_UINT64, KPS_CUSTOM, KFS_NONE)

#define KESTREL_PARAMS_CLOSE(PARAM)                                                                \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(fd, KPT_FD, KPS_ARG0, KFS_NONE)

/* Paths of unlink and friends are read from user memory at exit: the kernel
 * keeps no copy we can reach from here. */
#define KESTREL_PARAMS_UNLINKAT(PARAM)                                                             \
	PARAM(res, KPT_ERRNO, KPS_RET, KFS_NONE)                                                   \
	PARAM(dirfd, KPT_FD, KPS_ARG0, KFS_NONE)                                                   \
	PARAM(path, KPT_PATH, KPS_ARG1, KFS_NONE)                                                  \
	PARAM(flags, KPT_FLAGS32, KPS_ARG2, KFS_AT_FLAGS)

#define KESTREL_FILE_EVENTS(EVENT)                                                                 \
	EVENT(OPENAT, openat, KESTREL_PARAMS_OPENAT)                                               \
	EVENT(CLOSE, close, KESTREL_PARAMS_CLOSE)                                                  \
	EVENT(UNLINKAT, unlinkat, KESTREL_PARAMS_UNLINKAT)

#endif /* KESTREL_SHARED_SCHEMA_FILE_EVENTS_H */
