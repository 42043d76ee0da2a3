/* SPDX-License-Identifier: Apache-2.0 */
/* Kernel-surface events of the schema; see ../event_schema.h for the format. */
#ifndef KESTREL_SHARED_SCHEMA_KERNEL_EVENTS_H
#define KESTREL_SHARED_SCHEMA_KERNEL_EVENTS_H

#define KESTREL_KERNEL_EVENTS(EVENT)

#endif /* KESTREL_SHARED_SCHEMA_KERNEL_EVENTS_H */
