/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The event schema: the one list of specific events and their parameters.
 *
 * Both halves are generated from it: the probe expands it into the tables
 * its table-driven filler walks (helpers/build/schema_tables.h), user space into
 * its decoder (userspace/engine/event_schema.cpp). Adding a parameter whose
 * source is a syscall argument or the return value touches only this file;
 * a KPS_CUSTOM parameter also needs a line in the event's filler program.
 *
 *   KESTREL_SYSCALL_EVENTS(EVENT): EVENT(NAME, syscall, PARAMS) where
 *   PARAMS(PARAM) lists PARAM(name, type, source, flag_set) in record
 *   order. KPS_CUSTOM parameters come last.
 *
 *   KESTREL_OTHER_EVENTS(EVENT): EVENT(NAME, id, PARAMS) for events not
 *   tied to one syscall (scheduler hooks), each with its explicit id in
 *   2..63; all their parameters are KPS_CUSTOM.
 *
 * Events are emitted at syscall exit, one record per syscall, so the return
 * value is always a parameter, the first, named as Falco's event names it
 * ("res" for most).
 */
#ifndef KESTREL_SHARED_EVENT_SCHEMA_H
#define KESTREL_SHARED_EVENT_SCHEMA_H

#include "param_types.h"

/* Most parameters one event may have (a power of two: the probe masks
 * parameter indexes with it). */
#define KESTREL_MAX_EVENT_PARAMS 64

#include "schema/descriptor_events.h"
#include "schema/file_events.h"
#include "schema/filesystem_events.h"
#include "schema/kernel_events.h"
#include "schema/network_events.h"
#include "schema/process_events.h"
#include "schema/system_events.h"

/* Every specific event: one family per header under schema/. */
#define KESTREL_SYSCALL_EVENTS(EVENT)                                                              \
	KESTREL_FILE_EVENTS(EVENT)                                                                 \
	KESTREL_PROCESS_EVENTS(EVENT)                                                              \
	KESTREL_NETWORK_EVENTS(EVENT)                                                              \
	KESTREL_KERNEL_EVENTS(EVENT)                                                               \
	KESTREL_FILESYSTEM_EVENTS(EVENT)                                                           \
	KESTREL_DESCRIPTOR_EVENTS(EVENT)                                                           \
	KESTREL_SYSTEM_EVENTS(EVENT)

/* Events not tied to one syscall. Ids: 16..31 process. */
#define KESTREL_OTHER_EVENTS(EVENT) KESTREL_PROCESS_OTHER_EVENTS(EVENT)

#endif /* KESTREL_SHARED_EVENT_SCHEMA_H */
